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

#include <stdexcept>
#include <string>

#include "detail/kernel/input_iterators.cuh"
#include "ops/indexed.cuh"
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

template <class Op, class T>
constexpr void require_identity() {
  static_assert(has_identity_v<Op, T>,
                "cascade::argmin/argmax/minmax: the value type needs an identity for minimum (argmin) and maximum "
                "(argmax) to start from; specialize cascade::identity<cascade::minimum, T> (and maximum) for it");
}

}  // namespace detail

template <class Policy, class It>
  requires is_policy_v<Policy>
indexed<detail::input_value_t<It>> argmin(Policy const& policy, It first, It last) {
  using T = detail::input_value_t<It>;
  detail::require_identity<minimum, T>();
  auto const n = detail::checked_nonempty_size(first, last, "cascade::argmin");
  indexed<T> const init{detail::no_index, identity<minimum, T>::value()};
  return detail::reduce_n(policy, detail::indexed_input<It, T>{first}, n, init, arg_min{});
}

template <class Policy, class It>
  requires is_policy_v<Policy>
indexed<detail::input_value_t<It>> argmax(Policy const& policy, It first, It last) {
  using T = detail::input_value_t<It>;
  detail::require_identity<maximum, T>();
  auto const n = detail::checked_nonempty_size(first, last, "cascade::argmax");
  indexed<T> const init{detail::no_index, identity<maximum, T>::value()};
  return detail::reduce_n(policy, detail::indexed_input<It, T>{first}, n, init, arg_max{});
}

template <class Policy, class It>
  requires is_policy_v<Policy>
minmax_result<detail::input_value_t<It>> minmax(Policy const& policy, It first, It last) {
  using T = detail::input_value_t<It>;
  detail::require_identity<minimum, T>();
  detail::require_identity<maximum, T>();
  auto const n = detail::checked_nonempty_size(first, last, "cascade::minmax");
  minmax_result<T> const init{{detail::no_index, identity<minimum, T>::value()},
                              {detail::no_index, identity<maximum, T>::value()}};
  return detail::reduce_n(policy, detail::minmax_input<It, T>{first}, n, init, arg_min_max{});
}

// The same results written to *d_out (device memory, or any output iterator the device can write),
// ordered on the policy's stream; the host does not wait. Graph capture works as with reduce_into.
template <class Policy, class It, class OutIt>
  requires is_policy_v<Policy>
void argmin_into(Policy const& policy, It first, It last, OutIt d_out) {
  using T = detail::input_value_t<It>;
  detail::require_identity<minimum, T>();
  auto const n = detail::checked_nonempty_size(first, last, "cascade::argmin_into");
  indexed<T> const init{detail::no_index, identity<minimum, T>::value()};
  detail::dispatch_reduce_into(policy, detail::indexed_input<It, T>{first}, n, d_out, init, arg_min{});
}

template <class Policy, class It, class OutIt>
  requires is_policy_v<Policy>
void argmax_into(Policy const& policy, It first, It last, OutIt d_out) {
  using T = detail::input_value_t<It>;
  detail::require_identity<maximum, T>();
  auto const n = detail::checked_nonempty_size(first, last, "cascade::argmax_into");
  indexed<T> const init{detail::no_index, identity<maximum, T>::value()};
  detail::dispatch_reduce_into(policy, detail::indexed_input<It, T>{first}, n, d_out, init, arg_max{});
}

template <class Policy, class It, class OutIt>
  requires is_policy_v<Policy>
void minmax_into(Policy const& policy, It first, It last, OutIt d_out) {
  using T = detail::input_value_t<It>;
  detail::require_identity<minimum, T>();
  detail::require_identity<maximum, T>();
  auto const n = detail::checked_nonempty_size(first, last, "cascade::minmax_into");
  minmax_result<T> const init{{detail::no_index, identity<minimum, T>::value()},
                              {detail::no_index, identity<maximum, T>::value()}};
  detail::dispatch_reduce_into(policy, detail::minmax_input<It, T>{first}, n, d_out, init, arg_min_max{});
}

}  // namespace cascade
