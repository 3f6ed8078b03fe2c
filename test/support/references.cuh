// Reference answers the tests compare cascade with: cub::DeviceReduce::Reduce, thrust::reduce, and a
// host fold in higher precision (long double for floating point, 64-bit for integers).
#pragma once

#include <cub/device/device_reduce.cuh>
#include <doctest/doctest.h>
#include <thrust/device_ptr.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>

#include <cascade/error.cuh>
#include <cascade/ops/indexed.cuh>
#include <cascade/reduce.cuh>

#include <cmath>
#include <cstdint>
#include <type_traits>
#include <typeinfo>
#include <vector>

namespace cascade_test {

template <class T, class It, class Op>
T cub_reduce(It d_in, std::int64_t n, T init, Op op) {
  T* d_out = nullptr;
  CASCADE_CUDA_CHECK(cudaMalloc(&d_out, sizeof(T)));
  std::size_t bytes = 0;
  CASCADE_CUDA_CHECK(cub::DeviceReduce::Reduce(nullptr, bytes, d_in, d_out, n, op, init));
  void* d_temp = nullptr;
  CASCADE_CUDA_CHECK(cudaMalloc(&d_temp, bytes == 0 ? 1 : bytes));
  CASCADE_CUDA_CHECK(cub::DeviceReduce::Reduce(d_temp, bytes, d_in, d_out, n, op, init));
  T result{};
  CASCADE_CUDA_CHECK(cudaMemcpy(&result, d_out, sizeof(T), cudaMemcpyDeviceToHost));
  CASCADE_CUDA_CHECK(cudaFree(d_temp));
  CASCADE_CUDA_CHECK(cudaFree(d_out));
  return result;
}

template <class T, class U, class Op>
T thrust_reduce(U const* d_in, std::int64_t n, T init, Op op) {
  thrust::device_ptr<U const> p(d_in);
  return thrust::reduce(thrust::device, p, p + n, init, op);
}

// The host fold in order, with the accumulator widened: long double for floating point (exact
// enough to judge float and double), T itself for integers (tests keep sums in range).
template <class T, class U, class Op>
auto host_fold(std::vector<U> const& xs, T init, Op op) {
  using wide = std::conditional_t<std::is_floating_point_v<T>, long double, T>;
  wide acc = static_cast<wide>(init);
  for (U const& x : xs) acc = static_cast<wide>(op(acc, static_cast<wide>(x)));
  return acc;
}

// A rigorous bound for a floating-point sum evaluated by any tree in which each operand takes part
// in at most `depth` additions: |computed - exact| <= gamma(depth) * sum |x_i| (Higham, Accuracy and
// Stability of Numerical Algorithms, section 4.2), gamma(d) = d u / (1 - d u), u = eps / 2.
template <class T>
long double sum_error_bound(long double sum_abs, int depth) {
  long double const u = static_cast<long double>(std::numeric_limits<T>::epsilon()) / 2;
  return depth * u / (1 - depth * u) * sum_abs;
}

// CUB's own arg reductions, for the reference: first occurrence of the minimum (max: maximum).
template <class T>
cascade::indexed<T> cub_argmin(T const* d, long long n, bool max) {
  thrust::device_vector<T> value(1);
  thrust::device_vector<std::int64_t> index(1);
  std::size_t bytes = 0;
  auto run = [&](void* temp) {
    if (max)
      return cub::DeviceReduce::ArgMax(temp, bytes, d, thrust::raw_pointer_cast(value.data()),
                                       thrust::raw_pointer_cast(index.data()), n);
    return cub::DeviceReduce::ArgMin(temp, bytes, d, thrust::raw_pointer_cast(value.data()),
                                     thrust::raw_pointer_cast(index.data()), n);
  };
  CASCADE_CUDA_CHECK(run(nullptr));
  thrust::device_vector<unsigned char> temp(bytes + 1);
  CASCADE_CUDA_CHECK(run(thrust::raw_pointer_cast(temp.data())));
  return {index[0], value[0]};
}

// The exact-answer check the sweeps share: `xs` on the device, the host fold as the expected value,
// cub::DeviceReduce required to agree with it, then cascade::reduce under every policy that
// `for_each_policy(f)` passes to f (policy block size, coarse factor and tree printed on failure).
template <class T, class Op, class ForEachPolicy>
void check_policies_exact(std::vector<T> const& xs, T init, Op op, ForEachPolicy for_each_policy) {
  thrust::device_vector<T> d(xs.begin(), xs.end());
  T const* p = thrust::raw_pointer_cast(d.data());
  long long const n = static_cast<long long>(xs.size());
  T const expected = static_cast<T>(host_fold(xs, init, op));
  REQUIRE(cub_reduce(p, n, init, op) == expected);
  for_each_policy([&](auto policy) {
    using P = decltype(policy);
    CAPTURE(P::block_size);
    CAPTURE(P::coarse_factor);
    CAPTURE(typeid(typename P::tree_type).name());
    CHECK(cascade::reduce(policy, p, p + n, init, op) == expected);
  });
}

}  // namespace cascade_test
