// cascade/arg_reduce.cuh: where the smallest and largest items are.
//
//   cascade::indexed<float> lo = cascade::argmin(policy{}, d, d + n);   // first occurrence on ties
//   cascade::indexed<float> hi = cascade::argmax(policy{}, d, d + n);
//   cascade::minmax_result<float> both = cascade::minmax(policy{}, d, d + n);  // both, one pass
//   cascade::argmin_into(policy{}.on(s), d, d + n, d_lo);  // into device memory (indexed<float>*), no host wait
//
// Each is a reduce over {index, value} pairs with arg_min / arg_max (ops/indexed.cuh), under any policy
// whose finish can combine the 16-byte pairs (all but finish::atomic for most types). The value type
// T is the input's; it needs operator< and an identity for minimum (argmin) or maximum (argmax):
// every arithmetic type, __half and __nv_bfloat16 have one, and a user type gets one by specializing
// cascade::identity. If every item is +inf (argmin) or -inf (argmax) the index is 0. An empty range
// throws std::invalid_argument (there is no position to return).
#pragma once

#include <cuda/std/cstdint>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "detail/arg_call.cuh"
#include "detail/runtime/temp_storage.cuh"
#include "ops/indexed.cuh"
#include "memory/resource.cuh"
#include "ops.cuh"
#include "policy/policy.cuh"
#include "reduce.cuh"

namespace cascade {

namespace detail {

template <class It>
cuda::std::int64_t checked_nonempty_size(It first, It last, char const* who) {
  auto const n = checked_size(first, last, who);
  if (n == 0) throw std::invalid_argument(std::string(who) + ": the range is empty, so there is no position to return");
  return n;
}

// argmin, argmax and minmax over [first, last): to the host, or (into) to *d_out.
template <class ArgOp, class Policy, class It>
auto arg_reduce(Policy const& policy, It first, It last, char const* who) {
  using call = arg_call<ArgOp, input_value_t<It>>;
  if constexpr (call::identities_ok())
    return reduce_n(policy, call::input(first), checked_nonempty_size(first, last, who), call::init(), ArgOp{});
  else
    return typename call::result{};
}

template <class ArgOp, class Policy, class It, class OutIt>
void arg_reduce_into(Policy const& policy, It first, It last, OutIt d_out, char const* who) {
  using call = arg_call<ArgOp, input_value_t<It>>;
  if constexpr (call::identities_ok())
    dispatch_reduce_into(policy, call::input(first), checked_nonempty_size(first, last, who), d_out, call::init(),
                         ArgOp{});
}

// With the caller's memory resource.
template <class ArgOp, class Policy, class It, class OutIt, class Resource>
void arg_reduce_into(Policy const& policy, It first, It last, OutIt d_out, Resource& resource, char const* who) {
  with_resource(resource, [&] {
    arg_reduce_into<ArgOp>(policy, first, last, d_out, who);
  });
}

// With CUB's temporary storage (reduce_into's two-phase form says how).
template <class ArgOp, class Policy, class It, class OutIt>
void arg_reduce_into(void* d_temp_storage, std::size_t& temp_storage_bytes, Policy const& policy, It first, It last,
                     OutIt d_out, char const* who) {
  with_temp_storage(d_temp_storage, temp_storage_bytes, who,
                    [&] { arg_reduce_into<ArgOp>(policy, first, last, d_out, who); });
}

// Under a comparator: ByOp is arg_min_by<Comp>, arg_max_by<Comp> or arg_min_max_by<Comp>; the
// accumulator starts from a pair without a position, so the value type needs no identity.
template <class T, class ByOp>
inline constexpr bool by_both = requires(ByOp op, minmax_result<T> r) { op(r, r); };
template <class T, class ByOp>
auto by_init(ByOp const&) {
  indexed<T> const none{no_index, T{}};
  if constexpr (by_both<T, ByOp>) return minmax_result<T>{none, none};
  else return none;
}
template <class T, class It, class ByOp>
auto by_input(It first, ByOp const&) {
  if constexpr (by_both<T, ByOp>) return minmax_input<It, T>{first};
  else return indexed_input<It, T>{first};
}

template <class ByOp, class Policy, class It>
auto arg_reduce_by(Policy const& policy, It first, cuda::std::int64_t n, ByOp op, char const* who) {
  using T = input_value_t<It>;
  return reduce_n(policy, by_input<T>(first, op), n, by_init<T>(op), op, who);
}

template <class ByOp, class Policy, class It, class OutIt>
void arg_reduce_by_into(Policy const& policy, It first, cuda::std::int64_t n, OutIt d_out, ByOp op) {
  using T = input_value_t<It>;
  dispatch_reduce_into(policy, by_input<T>(first, op), n, d_out, by_init<T>(op), op);
}

}  // namespace detail

template <class Policy, class It>
  requires is_policy_v<Policy>
indexed<detail::input_value_t<It>> argmin(Policy const& policy, It first, It last) {
  return detail::arg_reduce<arg_min>(policy, first, last, "cascade::argmin");
}

template <class Policy, class It>
  requires is_policy_v<Policy>
indexed<detail::input_value_t<It>> argmax(Policy const& policy, It first, It last) {
  return detail::arg_reduce<arg_max>(policy, first, last, "cascade::argmax");
}

template <class Policy, class It>
  requires is_policy_v<Policy>
minmax_result<detail::input_value_t<It>> minmax(Policy const& policy, It first, It last) {
  return detail::arg_reduce<arg_min_max>(policy, first, last, "cascade::minmax");
}

// Under comp, a strict weak order ("a before b", as std::min_element's): the first item no other
// comes before (argmin), the first that comes before no other (argmax), both in one pass (minmax).
template <class Policy, class It, class Comp>
  requires(is_policy_v<Policy> && !stream_ordered_resource<std::remove_reference_t<Comp>>)
indexed<detail::input_value_t<It>> argmin(Policy const& policy, It first, It last, Comp comp) {
  return detail::arg_reduce_by(policy, first, detail::checked_nonempty_size(first, last, "cascade::argmin"),
                               arg_min_by<Comp>{comp}, "cascade::argmin");
}

template <class Policy, class It, class Comp>
  requires(is_policy_v<Policy> && !stream_ordered_resource<std::remove_reference_t<Comp>>)
indexed<detail::input_value_t<It>> argmax(Policy const& policy, It first, It last, Comp comp) {
  return detail::arg_reduce_by(policy, first, detail::checked_nonempty_size(first, last, "cascade::argmax"),
                               arg_max_by<Comp>{comp}, "cascade::argmax");
}

template <class Policy, class It, class Comp>
  requires(is_policy_v<Policy> && !stream_ordered_resource<std::remove_reference_t<Comp>>)
minmax_result<detail::input_value_t<It>> minmax(Policy const& policy, It first, It last, Comp comp) {
  return detail::arg_reduce_by(policy, first, detail::checked_nonempty_size(first, last, "cascade::minmax"),
                               arg_min_max_by<Comp>{comp}, "cascade::minmax");
}

// The same results written to *d_out (device memory, or any output iterator the device can write),
// ordered on the policy's stream; the host does not wait. Graph capture works as with reduce_into.
template <class Policy, class It, class OutIt>
  requires is_policy_v<Policy>
void argmin_into(Policy const& policy, It first, It last, OutIt d_out) {
  detail::arg_reduce_into<arg_min>(policy, first, last, d_out, "cascade::argmin_into");
}

template <class Policy, class It, class OutIt>
  requires is_policy_v<Policy>
void argmax_into(Policy const& policy, It first, It last, OutIt d_out) {
  detail::arg_reduce_into<arg_max>(policy, first, last, d_out, "cascade::argmax_into");
}

template <class Policy, class It, class OutIt>
  requires is_policy_v<Policy>
void minmax_into(Policy const& policy, It first, It last, OutIt d_out) {
  detail::arg_reduce_into<arg_min_max>(policy, first, last, d_out, "cascade::minmax_into");
}

template <class Policy, class It, class OutIt, class Comp>
  requires(is_policy_v<Policy> && !stream_ordered_resource<std::remove_reference_t<Comp>>)
void argmin_into(Policy const& policy, It first, It last, OutIt d_out, Comp comp) {
  detail::arg_reduce_by_into(policy, first, detail::checked_nonempty_size(first, last, "cascade::argmin_into"), d_out,
                             arg_min_by<Comp>{comp});
}

template <class Policy, class It, class OutIt, class Comp>
  requires(is_policy_v<Policy> && !stream_ordered_resource<std::remove_reference_t<Comp>>)
void argmax_into(Policy const& policy, It first, It last, OutIt d_out, Comp comp) {
  detail::arg_reduce_by_into(policy, first, detail::checked_nonempty_size(first, last, "cascade::argmax_into"), d_out,
                             arg_max_by<Comp>{comp});
}

template <class Policy, class It, class OutIt, class Comp>
  requires(is_policy_v<Policy> && !stream_ordered_resource<std::remove_reference_t<Comp>>)
void minmax_into(Policy const& policy, It first, It last, OutIt d_out, Comp comp) {
  detail::arg_reduce_by_into(policy, first, detail::checked_nonempty_size(first, last, "cascade::minmax_into"), d_out,
                             arg_min_max_by<Comp>{comp});
}

// As above, every byte of temporary device storage taken from `resource` (memory/resource.cuh), or from
// CUB's (d_temp_storage, temp_storage_bytes) (reduce_into's two-phase form says how).
template <class Policy, class It, class OutIt, class Resource>
  requires(is_policy_v<Policy> && stream_ordered_resource<std::remove_reference_t<Resource>>)
void argmin_into(Policy const& policy, It first, It last, OutIt d_out, Resource&& resource) {
  detail::arg_reduce_into<arg_min>(policy, first, last, d_out, resource, "cascade::argmin_into");
}

template <class Policy, class It, class OutIt, class Resource>
  requires(is_policy_v<Policy> && stream_ordered_resource<std::remove_reference_t<Resource>>)
void argmax_into(Policy const& policy, It first, It last, OutIt d_out, Resource&& resource) {
  detail::arg_reduce_into<arg_max>(policy, first, last, d_out, resource, "cascade::argmax_into");
}

template <class Policy, class It, class OutIt, class Resource>
  requires(is_policy_v<Policy> && stream_ordered_resource<std::remove_reference_t<Resource>>)
void minmax_into(Policy const& policy, It first, It last, OutIt d_out, Resource&& resource) {
  detail::arg_reduce_into<arg_min_max>(policy, first, last, d_out, resource, "cascade::minmax_into");
}

template <class Policy, class It, class OutIt>
  requires is_policy_v<Policy>
void argmin_into(void* d_temp_storage, std::size_t& temp_storage_bytes, Policy const& policy, It first, It last,
                 OutIt d_out) {
  detail::arg_reduce_into<arg_min>(d_temp_storage, temp_storage_bytes, policy, first, last, d_out, "cascade::argmin_into");
}

template <class Policy, class It, class OutIt>
  requires is_policy_v<Policy>
void argmax_into(void* d_temp_storage, std::size_t& temp_storage_bytes, Policy const& policy, It first, It last,
                 OutIt d_out) {
  detail::arg_reduce_into<arg_max>(d_temp_storage, temp_storage_bytes, policy, first, last, d_out, "cascade::argmax_into");
}

template <class Policy, class It, class OutIt>
  requires is_policy_v<Policy>
void minmax_into(void* d_temp_storage, std::size_t& temp_storage_bytes, Policy const& policy, It first, It last,
                 OutIt d_out) {
  detail::arg_reduce_into<arg_min_max>(d_temp_storage, temp_storage_bytes, policy, first, last, d_out,
                                       "cascade::minmax_into");
}

}  // namespace cascade
