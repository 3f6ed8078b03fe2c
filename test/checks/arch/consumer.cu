// A consumer compiled for one older architecture only (test/checks/arch_consumer.py: -arch=sm_75 and
// -arch=sm_80, so machine code for it and its PTX, which the driver compiles for a newer GPU). Its
// cluster_kernel has no cluster code (__CUDA_ARCH__ < 900): default_policy must never launch it, and
// on an H100 or H200 the sm_90 tables' cluster entries must run as finish::last_block. It sums at
// both sides of every bound of every table (path_sizes), and argmin over the arg entries' bounds,
// against exact host results. Exit 0: all right; 1: a wrong result (printed); 77: no GPU.
#include <cascade/cascade.cuh>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace {

int failures = 0;

template <class T, class Op>
void check_sizes(char const* what, std::vector<T> const& host, T const* d, Op op, T init) {
  int const before = failures;
  auto const sizes =
      cascade::detail::path_sizes<T const*, T, Op>(cascade::default_policy{}, static_cast<long long>(host.size()));
  for (long long n : sizes) {
    if (n <= 0 || n > static_cast<long long>(host.size())) continue;
    T expected = init;
    for (long long i = 0; i < n; ++i) expected = op(expected, host[i]);
    T const got = cascade::reduce(cascade::default_policy{}, d, d + n, init, op);
    if (got != expected) {
      ++failures;
      std::printf("[FAIL] %s n=%lld: got %g, expected %g\n", what, n, double(got), double(expected));
    }
  }
  std::printf("%s %s: %zu sizes\n", failures == before ? "[ok]  " : "[FAIL]", what, sizes.size());
}

}  // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no GPU: compiled only\n");
    return 77;
  }
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  std::printf("device %s (%d.%d), this program's newest target %d\n", prop.name, prop.major, prop.minor,
              cascade::detail::newest_compiled_arch);
  long long const n_max = 1 << 22;
  unsigned const seed = std::random_device{}();
  std::printf("seed %u\n", seed);
  std::mt19937 rng(seed);
  // Integers, and floats that are small integers: every sum is exact in any order.
  std::vector<int> ints(n_max);
  std::vector<float> floats(n_max);
  for (long long i = 0; i < n_max; ++i) {
    ints[i] = static_cast<int>(rng() % 2001) - 1000;
    floats[i] = static_cast<float>(rng() % 7);
  }
  int* di = nullptr;
  float* df = nullptr;
  CASCADE_CUDA_CHECK(cudaMalloc(&di, n_max * sizeof(int)));
  CASCADE_CUDA_CHECK(cudaMalloc(&df, n_max * sizeof(float)));
  CASCADE_CUDA_CHECK(cudaMemcpy(di, ints.data(), n_max * sizeof(int), cudaMemcpyHostToDevice));
  CASCADE_CUDA_CHECK(cudaMemcpy(df, floats.data(), n_max * sizeof(float), cudaMemcpyHostToDevice));
  try {
    check_sizes("int plus", ints, di, cascade::plus{}, 7);
    check_sizes("int minimum", ints, di, cascade::minimum{}, 1 << 30);
    check_sizes("float plus", floats, df, cascade::plus{}, 0.0f);
    // A policy that names finish::cluster where this program has it, last_block otherwise.
    using cluster = cascade::policy<512, 8, cascade::tree::shuffle,
                                    cascade::compiled_or_t<cascade::finish::cluster, cascade::finish::last_block>>;
    long long sum = 0;
    for (long long i = 0; i < 100000; ++i) sum += ints[i];
    if (cascade::reduce(cluster{}, di, di + 100000, 0LL) != sum) {
      ++failures;
      std::printf("[FAIL] compiled_or_t<cluster, last_block>\n");
    }
    auto const where = cascade::argmin(cascade::default_policy{}, di, di + n_max);
    long long best = 0;
    for (long long i = 1; i < n_max; ++i)
      if (ints[i] < ints[best]) best = i;
    if (where.index != best || where.value != ints[best]) {
      ++failures;
      std::printf("[FAIL] argmin: got {%lld, %d}, expected {%lld, %d}\n", static_cast<long long>(where.index),
                  where.value, best, ints[best]);
    }
  } catch (std::exception const& e) {
    ++failures;
    std::printf("[FAIL] threw: %s\n", e.what());
  }
  cudaFree(di);
  cudaFree(df);
  std::printf("%s\n", failures == 0 ? "all right" : "WRONG");
  return failures == 0 ? 0 : 1;
}
