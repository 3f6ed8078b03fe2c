// The example of docs/guide.md "Compile a call's kernels once": a file that makes the calls calls.cuh
// names and compiles none of their kernels (calls.cu does; test/meson.build links it into docs_test).
// main returns 0 when the results are right.
#include "calls.cuh"

#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

int main() {
  int const n = 1000;
  std::vector<double> h(n);
  for (int i = 0; i < n; ++i) h[i] = (i * 37) % n - 500.0;  // -500 .. 499, each once; -500 at i = 0
  double* d = nullptr;
  double* sum = nullptr;
  cascade::indexed<double>* lowest = nullptr;
  cudaMalloc(&d, n * sizeof(double));
  cudaMalloc(&sum, sizeof(double));
  cudaMalloc(&lowest, sizeof(cascade::indexed<double>));
  cudaMemcpy(d, h.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  // [call]
  double const* items = d;  // the types calls.cuh names: double const*, not double*
  cascade::reduce_into(sum_policy{}, items, items + n, sum, 0.0, cascade::plus{});
  cascade::argmin_into(sum_policy{}, items, items + n, lowest);
  // [/call]
  double got = 0;
  cascade::indexed<double> at{};
  cudaMemcpy(&got, sum, sizeof got, cudaMemcpyDeviceToHost);
  cudaMemcpy(&at, lowest, sizeof at, cudaMemcpyDeviceToHost);
  cudaFree(d);
  cudaFree(sum);
  cudaFree(lowest);
  bool const ok = got == -500.0 && at.index == 0 && at.value == -500.0;
  if (!ok) std::printf("docs/guide.md calls example: sum %g (expected -500), argmin %lld %g\n", got,
                       static_cast<long long>(at.index), at.value);
  return ok ? 0 : 1;
}
