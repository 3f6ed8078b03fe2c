// cascade/reduce.cuh: the public entry points.
//
//   float* d = ...;                                     // n floats in device memory
//   float s  = cascade::reduce(d, d + n, 0.0f);         // default policy, plus
//   float m  = cascade::reduce(my_policy{}.on(stream), d, d + n, -INFINITY, cascade::maximum{});
//   cascade::reduce_into(my_policy{}.on(stream), d, d + n, d_out, 0.0f, cascade::plus{});  // no host sync
//   int   lo = cascade::reduce(my_policy{}, ints, ints + n, cascade::minimum{});  // init = identity: INT_MAX
//   cascade::reduce_into(my_policy{}, ints, ints + n, d_lo, cascade::minimum{});   // the same, to device memory
//
// Semantics (as std::reduce and thrust::reduce): the accumulator type is the type of init, and items
// are converted to it as they are read; the result is init op x0 op x1 ... op x(n-1), with operands
// regrouped and, unless the op is wrapped in cascade::non_commutative, reordered; an empty range
// gives init; init is applied exactly once, on the left; the input is never written. Without init,
// the accumulator is the input's value type and init is the op's identity (ops/identity.cuh, ops/monoid.cuh).
// Any random-access iterator whose elements the device can read works, and sizes are 64-bit.
// The forms without a policy (default_policy) are declared in policy/default_policy.cuh, the layer above
// this one; cascade.cuh includes both. A file that names its own policy includes this header, the
// policy, and one tree and one finish header, and pulls in nothing else of cascade's strategies.
// Errors: std::invalid_argument when last < first; cascade::cuda_error when a CUDA call fails or
// there is no CUDA device; std::logic_error when reduce() (to the host) is called on a stream that is
// being captured into a graph (reduce_into captures, with every finish).
//
// reduce_into also takes its temporary device storage from the caller, in CUB's shapes (docs/memory.md):
//   cascade::reduce_into(p.on(s), d, d + n, d_out, 0.0f, cascade::plus{}, resource);  // a memory resource
//   std::size_t bytes = 0;                                                              // CUB's two phases:
//   cascade::reduce_into(nullptr, bytes, p.on(s), d, d + n, d_out, 0.0f, cascade::plus{});  // size only
//   cascade::reduce_into(d_temp, bytes, p.on(s), d, d + n, d_out, 0.0f, cascade::plus{});   // the call
// Either way the call uses no device memory of cascade's own (no pool, no per-stream state).
#pragma once

#include <cstddef>
#include <type_traits>

#include "detail/kernel/arguments.cuh"
#include "detail/dispatch.cuh"
#include "detail/host_result.cuh"
#include "detail/runtime/temp_storage.cuh"
#include "exact/accumulator.cuh"  // exact_plus, reproducible_plus: their accumulators
#include "error.cuh"
#include "ops/identity.cuh"
#include "memory/resource.cuh"
#include "ops/monoid.cuh"
#include "ops/non_commutative.cuh"
#include "ops.cuh"
#include "policy/policy.cuh"

namespace cascade {

// Writes init op (reduction of [first, last)) to *d_out (device memory), ordered on the policy's
// stream. The host does not wait; synchronize the stream before reading the result.
template <class Policy, class It, class OutIt, class T, class Op>
  requires(is_policy_v<Policy> && !stream_ordered_resource<Op>)
void reduce_into(Policy const& policy, It first, It last, OutIt d_out, T init, Op op) {
  detail::dispatch_reduce_into(policy, first, detail::checked_size(first, last), d_out, init, op);
}

template <class Policy, class It, class OutIt, class T>
  requires(is_policy_v<Policy> && !detail::is_identity_op_v<T, It> && !stream_ordered_resource<T>)
void reduce_into(Policy const& policy, It first, It last, OutIt d_out, T init) {
  reduce_into(policy, first, last, d_out, init, plus{});
}

// Without init, as CUB's Sum, Min and Max: the op's identity over the input's value type V starts the
// fold, and V accumulates.
template <class Policy, class It, class OutIt, class Op>
  requires(is_policy_v<Policy> && detail::is_identity_op_v<Op, It>)
void reduce_into(Policy const& policy, It first, It last, OutIt d_out, Op op) {
  using V = detail::input_value_t<It>;
  reduce_into(policy, first, last, d_out, detail::identity_of<V>(op), op);
}

template <class Policy, class It, class OutIt>
  requires is_policy_v<Policy>
void reduce_into(Policy const& policy, It first, It last, OutIt d_out) {
  reduce_into(policy, first, last, d_out, plus{});
}

// As above, every byte of temporary device storage taken from `resource` (memory/resource.cuh), on
// the policy's stream, and given back there before the call returns.
template <class Policy, class It, class OutIt, class T, class Op, class Resource>
  requires(is_policy_v<Policy> && stream_ordered_resource<std::remove_reference_t<Resource>>)
void reduce_into(Policy const& policy, It first, It last, OutIt d_out, T init, Op op, Resource&& resource) {
  auto const n = detail::checked_size(first, last, "cascade::reduce_into");
  detail::with_resource(resource, [&] {
    detail::dispatch_reduce_into(policy, first, n, d_out, init, op);
  });
}

// Without init, or without op, as above, with a resource last.
template <class Policy, class It, class OutIt, class Resource>
  requires(is_policy_v<Policy> && stream_ordered_resource<std::remove_reference_t<Resource>>)
void reduce_into(Policy const& policy, It first, It last, OutIt d_out, Resource&& resource) {
  detail::with_resource(resource, [&] { reduce_into(policy, first, last, d_out); });
}

template <class Policy, class It, class OutIt, class InitOrOp, class Resource>
  requires(is_policy_v<Policy> && !stream_ordered_resource<InitOrOp> &&
           stream_ordered_resource<std::remove_reference_t<Resource>>)
void reduce_into(Policy const& policy, It first, It last, OutIt d_out, InitOrOp init_or_op, Resource&& resource) {
  detail::with_resource(resource, [&] { reduce_into(policy, first, last, d_out, init_or_op); });
}

// The forms above (init and op, either, or neither) with CUB's temporary storage: when d_temp_storage
// is null, sets temp_storage_bytes to what the call needs (at least 1) and returns, launching nothing
// and touching nothing else (it reads the device's properties); otherwise runs with its scratch in
// [d_temp_storage, + temp_storage_bytes), which must stay untouched until the stream has run the call.
// A size less than the query's throws std::invalid_argument before anything is launched.
template <class Policy, class It, class OutIt, class... InitOp>
  requires(is_policy_v<Policy> && sizeof...(InitOp) <= 2 && requires(Policy const& p, It i, OutIt o, InitOp... a) {
    reduce_into(p, i, i, o, a...);
  })
void reduce_into(void* d_temp_storage, std::size_t& temp_storage_bytes, Policy const& policy, It first, It last,
                 OutIt d_out, InitOp... init_op) {
  detail::with_temp_storage(d_temp_storage, temp_storage_bytes, "cascade::reduce_into",
                            [&] { reduce_into(policy, first, last, d_out, init_op...); });
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

}  // namespace cascade
