// cascade/reduce.cuh: the public entry points.
//
//   float* d = ...;                                     // n floats in device memory
//   float s  = cascade::reduce(d, d + n, 0.0f);         // default policy, plus
//   float m  = cascade::reduce(my_policy{}.on(stream), d, d + n, -INFINITY, cascade::maximum{});
//   cascade::reduce_into(my_policy{}.on(stream), d, d + n, d_out, 0.0f, cascade::plus{});  // no host sync
//   int   lo = cascade::reduce(my_policy{}, ints, ints + n, cascade::minimum{});  // init = identity: INT_MAX
//
// Semantics (as std::reduce and thrust::reduce): the accumulator type is the type of init, and items
// are converted to it as they are read; the result is init op x0 op x1 ... op x(n-1), with operands
// regrouped and, unless the op is wrapped in cascade::non_commutative, reordered; an empty range
// gives init; init is applied exactly once, on the left; the input is never written. Without init,
// the accumulator is the input's value type and init is the op's identity (identity.cuh, monoid.cuh).
// Any random-access iterator whose elements the device can read works, and sizes are 64-bit.
// Errors: std::invalid_argument when last < first; cascade::cuda_error when a CUDA call fails or
// there is no CUDA device; std::logic_error when reduce() (to the host) is called on a stream that is
// being captured into a graph (reduce_into captures, with every finish).
#pragma once

#include <cuda_runtime_api.h>

#include <cuda/std/cstdint>

#include <atomic>
#include <cstring>
#include <iterator>
#include <stdexcept>
#include <string>

#include "default_policy.cuh"
#include "detail/capture.cuh"
#include "detail/device.cuh"
#include "detail/dispatch.cuh"
#include "detail/pinned.cuh"
#include "error.cuh"
#include "identity.cuh"
#include "monoid.cuh"
#include "non_commutative.cuh"
#include "ops.cuh"
#include "policy.cuh"

namespace cascade {

namespace detail {

template <class It>
cuda::std::int64_t checked_size(It first, It last, char const* who = "cascade::reduce") {
  auto const n = last - first;
  if (n < 0) throw std::invalid_argument(std::string(who) + ": last < first; [first, last) must be a valid range");
  return static_cast<cuda::std::int64_t>(n);
}

template <class It>
using input_value_t = cuda::std::remove_cv_t<typename std::iterator_traits<It>::value_type>;

// Whether the argument after [first, last) is an op with a known identity rather than an init value.
template <class X, class It>
inline constexpr bool is_identity_op_v = has_identity_v<X, input_value_t<It>>;

// Where reduce() has the device write its result: a page-locked host block (detail/pinned.cuh) that
// the device writes through the unified address space, [ready flag | result]. The final store of
// every finish goes through this iterator, which writes the value, fences at system scope and then
// raises the flag, so the host can spin on the flag instead of waiting for the stream to drain. An
// iterator rather than T*: finishes that accumulate into a T* output (finish::atomic) keep their
// atomics in device memory and store only the final value here.
template <class T>
struct host_result {
  T* slot;
  unsigned volatile* ready;
  struct writer {
    host_result const& to;
    __device__ writer const& operator=(T const& value) const {
      *to.slot = value;
      __threadfence_system();  // the value reaches the host before the flag does
      *to.ready = 1u;
      return *this;
    }
  };
  __device__ writer operator*() const { return {*this}; }
};

// Waits until the device has raised `ready`, checking the stream now and then so that a kernel that
// faulted (or a stream that drained without writing) raises cuda_error instead of spinning forever.
inline void wait_for_result(unsigned volatile const* ready, cudaStream_t stream) {
  for (unsigned spin = 1; *ready == 0u; ++spin) {
    if (spin % 512 != 0) {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
      continue;
    }
    cudaError_t state;
    {
      relaxed_capture_mode relaxed;  // another thread's global-mode capture would forbid the query
      state = cudaStreamQuery(stream);
    }
    if (state == cudaErrorNotReady) continue;
    check_cuda(state, "cudaStreamQuery (waiting for the result)");
    if (*ready == 0u)
      throw cuda_error(cudaErrorUnknown, "cascade::reduce: the stream drained without the result being written");
  }
  std::atomic_thread_fence(std::memory_order_acquire);
}

// reduce over [first, first + n) (n >= 0 checked by the caller): the form the other algorithms
// (argmin, transform_reduce, ...) call with iterators of their own that only need operator[].
template <class Policy, class It, class T, class Op>
T reduce_n(Policy const& policy, It first, cuda::std::int64_t n, T init, Op op) {
  if (n == 0) return init;
  cudaStream_t const stream = policy.stream();
  current_device();  // a clear cuda_error when there is no device, before any allocation
  if (is_capturing(stream))  // before anything is enqueued: the capture stays valid
    throw std::logic_error(
        "cascade::reduce returns its result to the host, which a stream being captured into a graph cannot do; "
        "capture cascade::reduce_into (the result to device memory) instead");
  constexpr std::size_t offset = alignof(T) > sizeof(unsigned) ? alignof(T) : sizeof(unsigned);
  void* const block = pinned_acquire(offset + sizeof(T));
  auto* const ready = static_cast<unsigned volatile*>(block);
  T* const slot = reinterpret_cast<T*>(static_cast<unsigned char*>(block) + offset);
  *ready = 0u;
  try {
    dispatch_reduce_into(policy, first, n, host_result<T>{slot, ready}, init, op);
    wait_for_result(ready, stream);
  } catch (...) {
    (void)cudaStreamSynchronize(stream);  // enqueued work may still write the block
    pinned_release(block);
    throw;
  }
  T result;
  std::memcpy(&result, slot, sizeof(T));
  pinned_release(block);  // the flag was the kernel's last write to the block
  return result;
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

// Returns init op (reduction of [first, last)) to the host, once the device has written it. Work the
// call enqueued may still be finishing on the policy's stream (it no longer reads the input).
template <class Policy, class It, class T, class Op>
  requires is_policy_v<Policy>
T reduce(Policy const& policy, It first, It last, T init, Op op) {
  return detail::reduce_n(policy, first, detail::checked_size(first, last), init, op);
}

template <class Policy, class It, class T>
  requires(is_policy_v<Policy> && !detail::is_identity_op_v<T, It>)
T reduce(Policy const& policy, It first, It last, T init) {
  return reduce(policy, first, last, init, plus{});
}

// Without init: the op's identity over the input's value type V starts the fold, and V accumulates.
template <class Policy, class It, class Op>
  requires(is_policy_v<Policy> && detail::is_identity_op_v<Op, It>)
detail::input_value_t<It> reduce(Policy const& policy, It first, It last, Op op) {
  using V = detail::input_value_t<It>;
  return reduce(policy, first, last, detail::identity_of<V>(op), op);
}

template <class Policy, class It>
  requires is_policy_v<Policy>
detail::input_value_t<It> reduce(Policy const& policy, It first, It last) {
  return reduce(policy, first, last, plus{});
}

template <class It, class T, class Op>
  requires(!is_policy_v<It>)
T reduce(It first, It last, T init, Op op) {
  return reduce(default_policy{}, first, last, init, op);
}

template <class It, class X>
  requires(!is_policy_v<It>)
auto reduce(It first, It last, X init_or_op) {
  return reduce(default_policy{}, first, last, init_or_op);
}

template <class It>
  requires(!is_policy_v<It>)
detail::input_value_t<It> reduce(It first, It last) {
  return reduce(default_policy{}, first, last, plus{});
}

}  // namespace cascade
