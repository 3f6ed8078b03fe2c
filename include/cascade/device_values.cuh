// cascade/device_values.cuh: an item count and an init that live in device memory, read by the
// kernel when it runs, so that a graph captured once replays on new sizes and initial values.
//
//   cascade::reduce_into(p.on(s), d, cascade::device_count(d_n, max_n), d_out, 0.0f, cascade::plus{});
//   cascade::reduce_into(p.on(s), d, d + n, d_out, cascade::device_value(d_init), cascade::plus{});
//   cascade::transform_reduce_into(p.on(s), d, cascade::device_count(d_n, max_n), d_out,
//                                  cascade::device_value(d_init), cascade::plus{}, square{});
//
// device_count(d_n, max_n): the range is [first, first + *d_n), *d_n read when the kernel runs (an
// integer type; a value below 0 reads as 0, above max_n as max_n). max_n, on the host, is the largest
// count the call must serve: the grid is sized for it, default_policy picks its policy for it, and it
// decides 32- or 64-bit offsets. device_value(d_init): init is *d_init, read when the kernel runs.
// Either way the call runs one kernel, finish::last_block's single pass under the policy's block size,
// coarse factor and tree (its finish is not used), and its result is what the host-held call gives
// for the same count and init. Not with exact_plus or reproducible_plus.
#pragma once

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include <stdexcept>
#include <string>
#include <type_traits>

#include "detail/dispatch.cuh"
#include "detail/kernel/device_held.cuh"
#include "memory/resource.cuh"
#include "policy/policy.cuh"
#include "reduce.cuh"
#include "transform_reduce.cuh"

namespace cascade {

template <class T>
struct device_value_t {
  T const* pointer;
};

template <class N>
struct device_count_t {
  N const* pointer;
  cuda::std::int64_t max_count;
};

// init read from *d_init (device memory) when the kernel runs.
template <class T>
device_value_t<T> device_value(T const* d_init) {
  if (d_init == nullptr) throw std::invalid_argument("cascade::device_value: d_init is a null pointer");
  return {d_init};
}

// The item count read from *d_count (device memory) when the kernel runs, at most max_count.
template <class N>
device_count_t<N> device_count(N const* d_count, cuda::std::int64_t max_count) {
  static_assert(cuda::std::is_integral_v<N> && !cuda::std::is_same_v<N, bool>,
                "cascade::device_count: the count must be an integer type (int, std::int64_t, std::size_t, ...)");
  if (d_count == nullptr) throw std::invalid_argument("cascade::device_count: d_count is a null pointer");
  if (max_count < 0) throw std::invalid_argument("cascade::device_count: max_count is negative");
  return {d_count, max_count};
}

}  // namespace cascade

namespace cascade::detail {

template <class Policy, class It, class OutIt, class T, class N, class Op>
void dispatch_held_into(Policy const& policy, It first, cuda::std::int64_t max_n, N const* d_count, OutIt d_out,
                        T const* d_init, T init, Op op) {
  static_assert(is_plain_accumulator_v<Op>,
                "cascade::device_count / device_value: exact_plus and reproducible_plus keep accumulators of their "
                "own, which these calls do not take; pass the count and init from the host");
  if constexpr (is_plain_accumulator_v<Op>) {
    check_device_accessible(d_out, "the output (d_out)");
    if (d_count != nullptr) require_device_accessible(d_count, "the count (device_count's pointer)");
    if (d_init != nullptr) require_device_accessible(d_init, "init (device_value's pointer)");
    dispatch_reduce_into(policy, first, max_n, held_output<OutIt, T, N>{d_out, d_count, d_init}, init, op);
  }
}

}  // namespace cascade::detail

namespace cascade {

template <class Policy, class It, class N, class OutIt, class T, class Op>
  requires is_policy_v<Policy>
void reduce_into(Policy const& policy, It first, device_count_t<N> count, OutIt d_out, T init, Op op) {
  detail::dispatch_held_into(policy, first, count.max_count, count.pointer, d_out, static_cast<T const*>(nullptr), init,
                             op);
}

template <class Policy, class It, class OutIt, class T, class Op>
  requires is_policy_v<Policy>
void reduce_into(Policy const& policy, It first, It last, OutIt d_out, device_value_t<T> init, Op op) {
  detail::dispatch_held_into(policy, first, detail::checked_size(first, last, "cascade::reduce_into"),
                             static_cast<cuda::std::int64_t const*>(nullptr), d_out, init.pointer, T{}, op);
}

template <class Policy, class It, class N, class OutIt, class T, class Op>
  requires is_policy_v<Policy>
void reduce_into(Policy const& policy, It first, device_count_t<N> count, OutIt d_out, device_value_t<T> init, Op op) {
  detail::dispatch_held_into(policy, first, count.max_count, count.pointer, d_out, init.pointer, T{}, op);
}

// transform_reduce_into with the count, init or both on the device.
template <class Policy, class It, class N, class OutIt, class T, class ReduceOp, class TransformOp>
  requires is_policy_v<Policy>
void transform_reduce_into(Policy const& policy, It first, device_count_t<N> count, OutIt d_out, T init,
                           ReduceOp reduce_op, TransformOp transform_op) {
  detail::dispatch_held_into(policy, detail::transformed_input_t<It, TransformOp, T, ReduceOp>{first, transform_op},
                             count.max_count, count.pointer, d_out, static_cast<T const*>(nullptr), init, reduce_op);
}

template <class Policy, class It, class OutIt, class T, class ReduceOp, class TransformOp>
  requires is_policy_v<Policy>
void transform_reduce_into(Policy const& policy, It first, It last, OutIt d_out, device_value_t<T> init,
                           ReduceOp reduce_op, TransformOp transform_op) {
  detail::dispatch_held_into(policy, detail::transformed_input_t<It, TransformOp, T, ReduceOp>{first, transform_op},
                             detail::checked_size(first, last, "cascade::transform_reduce_into"),
                             static_cast<cuda::std::int64_t const*>(nullptr), d_out, init.pointer, T{}, reduce_op);
}

template <class Policy, class It, class N, class OutIt, class T, class ReduceOp, class TransformOp>
  requires is_policy_v<Policy>
void transform_reduce_into(Policy const& policy, It first, device_count_t<N> count, OutIt d_out,
                           device_value_t<T> init, ReduceOp reduce_op, TransformOp transform_op) {
  detail::dispatch_held_into(policy, detail::transformed_input_t<It, TransformOp, T, ReduceOp>{first, transform_op},
                             count.max_count, count.pointer, d_out, init.pointer, T{}, reduce_op);
}

}  // namespace cascade
