// bench/support/input.cuh: a benchmark input on the device (xorshift data: integers in [-1000, 1000],
// floats in [0, 1)), its output slot, and CUB's temporary storage allocated outside any timed region.
#pragma once

#include <cascade/cascade.cuh>
#include <cub/device/device_reduce.cuh>

#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace cascade_bench {

using cascade::plus;

template <class T>
struct device_input {
  T* d = nullptr;
  long long n = 0;
  T* d_out = nullptr;
  void* d_temp = nullptr;
  std::size_t temp_bytes = 0;
  double sum_abs = 0;

  explicit device_input(long long count) : n(count) {
    std::vector<T> h(n);
    std::uint64_t s = 0x9E3779B97F4A7C15ull;
    for (auto& x : h) {
      s ^= s << 13, s ^= s >> 7, s ^= s << 17;
      if constexpr (std::is_integral_v<T>) x = static_cast<T>(s % 2001) - 1000;  // sums fit in int32 at 2^22
      else x = static_cast<T>(s >> 40) / static_cast<T>(1 << 24);
      sum_abs += std::abs(static_cast<double>(x));
    }
    CASCADE_CUDA_CHECK(cudaMalloc(&d, n * sizeof(T)));
    CASCADE_CUDA_CHECK(cudaMemcpy(d, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
    CASCADE_CUDA_CHECK(cudaMalloc(&d_out, sizeof(T)));
    CASCADE_CUDA_CHECK(cub::DeviceReduce::Reduce(nullptr, temp_bytes, d, d_out, n, plus{}, T(0)));
    CASCADE_CUDA_CHECK(cudaMalloc(&d_temp, temp_bytes));
  }
  ~device_input() {
    cudaFree(d);
    cudaFree(d_out);
    cudaFree(d_temp);
  }
  void cub_sum() { CASCADE_CUDA_CHECK(cub::DeviceReduce::Reduce(d_temp, temp_bytes, d, d_out, n, plus{}, T(0))); }
  T read_out() const {
    T h;
    CASCADE_CUDA_CHECK(cudaMemcpy(&h, d_out, sizeof(T), cudaMemcpyDeviceToHost));
    return h;
  }
  // int64 sums of int32 data can exceed int32 at 2^28; compare in the type actually reduced.
  bool agrees(T got, T cub) const {
    if constexpr (std::is_integral_v<T>) return got == cub;
    else return std::abs(static_cast<double>(got) - static_cast<double>(cub)) <= 1e-5 * sum_abs;
  }
};

template <class T>
char const* type_name() {
  return std::is_integral_v<T> ? "int32" : "float";
}


}  // namespace cascade_bench
