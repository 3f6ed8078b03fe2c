// cascade/reduce.cuh: the public entry points.
//
//   float* d = ...;                                     // n floats in device memory
//   float s  = cascade::reduce(d, d + n, 0.0f);         // default policy, plus
//   float m  = cascade::reduce(my_policy{}.on(stream), d, d + n, -INFINITY, cascade::maximum{});
//   cascade::reduce_into(my_policy{}.on(stream), d, d + n, d_out, 0.0f, cascade::plus{});  // no host sync
//
// Semantics (as std::reduce and thrust::reduce): the accumulator type is the type of init; the result
// is init op x0 op x1 ... op x(n-1), with operands regrouped and, unless the policy preserves order,
// reordered; an empty range gives init; init is applied exactly once; the input is never written.
// Any random-access iterator whose elements the device can read works, and sizes are 64-bit.
// Errors: std::invalid_argument when last < first; cascade::cuda_error when a CUDA call fails or
// there is no CUDA device.
#pragma once

#include <cuda_runtime_api.h>

#include <cuda/std/cstdint>

#include <stdexcept>

#include "default_policy.cuh"
#include "detail/dispatch.cuh"
#include "detail/scratch.cuh"
#include "error.cuh"
#include "ops.cuh"
#include "policy.cuh"

namespace cascade {

namespace detail {

template <class It>
cuda::std::int64_t checked_size(It first, It last) {
  auto const n = last - first;
  if (n < 0) throw std::invalid_argument("cascade::reduce: last < first; [first, last) must be a valid range");
  return static_cast<cuda::std::int64_t>(n);
}

}  // namespace detail

// Writes init op (reduction of [first, last)) to *d_out (device memory), ordered on the policy's
// stream. The host does not wait; synchronize the stream before reading the result.
template <class Policy, class It, class OutIt, class T, class Op>
  requires is_policy_v<Policy>
void reduce_into(Policy const& policy, It first, It last, OutIt d_out, T init, Op op) {
  detail::dispatch_reduce_into(policy, first, detail::checked_size(first, last), d_out, init, op);
}

template <class Policy, class It, class OutIt, class T>
  requires is_policy_v<Policy>
void reduce_into(Policy const& policy, It first, It last, OutIt d_out, T init) {
  reduce_into(policy, first, last, d_out, init, plus{});
}

// Returns init op (reduction of [first, last)) to the host; waits for the policy's stream.
template <class Policy, class It, class T, class Op>
  requires is_policy_v<Policy>
T reduce(Policy const& policy, It first, It last, T init, Op op) {
  auto const n = detail::checked_size(first, last);
  if (n == 0) return init;
  cudaStream_t const stream = policy.stream();
  detail::scratch_buffer slot(sizeof(T), stream);
  detail::dispatch_reduce_into(policy, first, n, slot.as<T>(), init, op);
  T result;
  CASCADE_CUDA_CHECK(cudaMemcpyAsync(&result, slot.as<T>(), sizeof(T), cudaMemcpyDeviceToHost, stream));
  CASCADE_CUDA_CHECK(cudaStreamSynchronize(stream));
  return result;
}

template <class Policy, class It, class T>
  requires is_policy_v<Policy>
T reduce(Policy const& policy, It first, It last, T init) {
  return reduce(policy, first, last, init, plus{});
}

template <class It, class T, class Op>
  requires(!is_policy_v<It>)
T reduce(It first, It last, T init, Op op) {
  return reduce(default_policy{}, first, last, init, op);
}

template <class It, class T>
  requires(!is_policy_v<It>)
T reduce(It first, It last, T init) {
  return reduce(default_policy{}, first, last, init, plus{});
}

}  // namespace cascade
