// flags: -Xcompiler -Wall,-Wextra,-Werror -Werror all-warnings
// A consumer of every entry point compiles without a warning from cascade's headers, which it
// includes with -I (not -isystem, which would hide them): host compiler and nvcc warnings are errors.
#include <cascade/cascade.cuh>

#include <cstdio>

int main() {
  float* d = nullptr;
  int offsets[3] = {0, 1, 2};
  cudaMalloc(&d, 1000 * sizeof(float));
  using p = cascade::policy<256, 8, cascade::tree::sequential, cascade::finish::recursive>;
  float const sum = cascade::reduce(d, d + 1000, 0.0f);
  float const max = cascade::reduce(p{}, d, d + 1000, 0.0f, cascade::maximum{});
  auto const lo = cascade::argmin(cascade::default_policy{}, d, d + 1000);
  auto const both = cascade::minmax(p{}, d, d + 1000);
  float const exact = cascade::reduce(cascade::default_policy{}, d, d + 1000, 0.0f, cascade::exact_plus{});
  float const binned = cascade::reduce(p{}, d, d + 1000, 0.0f, cascade::reproducible_plus{});
  float const squares = cascade::transform_reduce(p{}, d, d + 1000, 0.0f, cascade::plus{},
                                                  [] __host__ __device__(float x) { return x * x; });
  cascade::segmented_reduce(cascade::default_policy{}, d, offsets, offsets + 1, 2, d, 0.0f, cascade::plus{});
  cascade::batched_reduce_into(cascade::default_policy{}, d, 10, 10, d, 0.0f, cascade::minimum{});
  std::printf("%f %f %lld %lld %f %f %f\n", sum, max, static_cast<long long>(lo.index),
              static_cast<long long>(both.max.index), exact, binned, squares);
  cudaFree(d);
  return 0;
}
