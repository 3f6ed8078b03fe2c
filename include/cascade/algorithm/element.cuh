// cascade/algorithm/element.cuh: iterators to the smallest and largest items, as Thrust returns them.
//
//   float const* lo = cascade::min_element(policy{}, d, d + n);             // d + n when empty
//   auto [lo2, hi] = cascade::minmax_element(policy{}, d, d + n);          // one pass
//   cascade::min_element_into(policy{}.on(s), d, d + n, d_pos);            // the offset, to device memory
//   auto far = cascade::max_element(policy{}, d, d + n, by_magnitude{});  // under a comparator
//   auto [lo3, hi3] = cascade::minmax_element(policy{}, d, d + n, cascade::last_max);  // std's: last largest
//
// argmin, argmax and minmax (arg_reduce.cuh) with their rules: the first occurrence on ties (also
// for max_element, where std's minmax_element returns the last largest), a NaN before every number,
// -0 before +0 for the minimum and +0 before -0 for the maximum. Where a type's operator< orders it
// alike, the result is std's (std::max_element also keeps the first largest). An empty range gives
// last, as std and Thrust do. The _into forms write the position as an offset from first (0..n, n
// when empty) to an output iterator of an integer type, so that a graph can consume it.
#pragma once

#include <cuda/std/cstdint>

#include <cstddef>
#include <type_traits>
#include <utility>

#include "../arg_reduce.cuh"
#include "../detail/kernel/output_views.cuh"
#include "../detail/runtime/temp_storage.cuh"
#include "../memory/resource.cuh"
#include "../ops/indexed.cuh"
#include "../policy/policy.cuh"

namespace cascade::detail {

// min_element's or max_element's iterator (last when empty), and its _into form's offset.
template <class Op, class Policy, class It>
It element_position(Policy const& policy, It first, It last, Op op, char const* who) {
  auto const n = checked_size(first, last, who);
  if (n == 0) return last;
  return first + pairs_result(policy, first, n, op, who).index;
}

template <class Op, class Policy, class It, class OutIt>
void element_position_into(Policy const& policy, It first, It last, OutIt d_position, Op op, char const* who) {
  check_device_accessible(d_position, "the output (d_position)");
  pairs_into(policy, first, checked_size(first, last, who), transform_output<OutIt, position_of>{d_position, {}}, op);
}

// minmax_element's two iterators ({last, last} when empty), and its _into form's two offsets.
template <class Op, class Policy, class It>
std::pair<It, It> element_positions(Policy const& policy, It first, It last, Op op, char const* who) {
  auto const n = checked_size(first, last, who);
  if (n == 0) return {last, last};
  auto const r = pairs_result(policy, first, n, op, who);
  return {first + r.min.index, first + r.max.index};
}

template <class Op, class Policy, class It, class MinIt, class MaxIt>
void element_positions_into(Policy const& policy, It first, It last, MinIt d_min_position, MaxIt d_max_position, Op op,
                            char const* who) {
  check_device_accessible(d_min_position, "the output (d_min_position)");
  check_device_accessible(d_max_position, "the output (d_max_position)");
  pairs_into(policy, first, checked_size(first, last, who),
             both_positions_output<MinIt, MaxIt>{d_min_position, d_max_position}, op);
}

}  // namespace cascade::detail

namespace cascade {

template <class Policy, class It>
  requires is_policy_v<Policy>
It min_element(Policy const& policy, It first, It last) {
  return detail::element_position(policy, first, last, arg_min{}, "cascade::min_element");
}

template <class Policy, class It>
  requires is_policy_v<Policy>
It max_element(Policy const& policy, It first, It last) {
  return detail::element_position(policy, first, last, arg_max{}, "cascade::max_element");
}

// {min_element, max_element}, read in one pass.
template <class Policy, class It>
  requires is_policy_v<Policy>
std::pair<It, It> minmax_element(Policy const& policy, It first, It last) {
  return detail::element_positions(policy, first, last, arg_min_max{}, "cascade::minmax_element");
}

// With last_max: the first smallest and the last largest, as std::minmax_element returns them (Thrust's
// and the form above return the first largest); the same ranking, NaN and signed-zero rules.
struct last_max_t {};
inline constexpr last_max_t last_max{};

template <class Policy, class It>
  requires is_policy_v<Policy>
std::pair<It, It> minmax_element(Policy const& policy, It first, It last, last_max_t) {
  return detail::element_positions(policy, first, last, arg_min_last_max{}, "cascade::minmax_element");
}

// Under comp, a strict weak order ("a before b"), as std::min_element(first, last, comp): the first
// item no other comes before (min), the first that comes before no other (max; std::minmax_element's
// maximum is the last such).
template <class Policy, class It, class Comp>
  requires is_policy_v<Policy>
It min_element(Policy const& policy, It first, It last, Comp comp) {
  return detail::element_position(policy, first, last, arg_min_by<Comp>{comp}, "cascade::min_element");
}

template <class Policy, class It, class Comp>
  requires is_policy_v<Policy>
It max_element(Policy const& policy, It first, It last, Comp comp) {
  return detail::element_position(policy, first, last, arg_max_by<Comp>{comp}, "cascade::max_element");
}

template <class Policy, class It, class Comp>
  requires is_policy_v<Policy>
std::pair<It, It> minmax_element(Policy const& policy, It first, It last, Comp comp) {
  return detail::element_positions(policy, first, last, arg_min_max_by<Comp>{comp}, "cascade::minmax_element");
}

// The positions written to device memory (offsets from first), ordered on the policy's stream; the
// host does not wait.
template <class Policy, class It, class OutIt>
  requires is_policy_v<Policy>
void min_element_into(Policy const& policy, It first, It last, OutIt d_position) {
  detail::element_position_into(policy, first, last, d_position, arg_min{}, "cascade::min_element_into");
}

template <class Policy, class It, class OutIt>
  requires is_policy_v<Policy>
void max_element_into(Policy const& policy, It first, It last, OutIt d_position) {
  detail::element_position_into(policy, first, last, d_position, arg_max{}, "cascade::max_element_into");
}

template <class Policy, class It, class MinIt, class MaxIt>
  requires is_policy_v<Policy>
void minmax_element_into(Policy const& policy, It first, It last, MinIt d_min_position, MaxIt d_max_position) {
  detail::element_positions_into(policy, first, last, d_min_position, d_max_position, arg_min_max{},
                                 "cascade::minmax_element_into");
}

template <class Policy, class It, class MinIt, class MaxIt>
  requires is_policy_v<Policy>
void minmax_element_into(Policy const& policy, It first, It last, MinIt d_min_position, MaxIt d_max_position,
                         last_max_t) {
  detail::element_positions_into(policy, first, last, d_min_position, d_max_position, arg_min_last_max{},
                                 "cascade::minmax_element_into");
}

template <class Policy, class It, class OutIt, class Comp>
  requires(is_policy_v<Policy> && !stream_ordered_resource<Comp>)
void min_element_into(Policy const& policy, It first, It last, OutIt d_position, Comp comp) {
  detail::element_position_into(policy, first, last, d_position, arg_min_by<Comp>{comp}, "cascade::min_element_into");
}

template <class Policy, class It, class OutIt, class Comp>
  requires(is_policy_v<Policy> && !stream_ordered_resource<Comp>)
void max_element_into(Policy const& policy, It first, It last, OutIt d_position, Comp comp) {
  detail::element_position_into(policy, first, last, d_position, arg_max_by<Comp>{comp}, "cascade::max_element_into");
}

template <class Policy, class It, class MinIt, class MaxIt, class Comp>
  requires(is_policy_v<Policy> && !stream_ordered_resource<Comp>)
void minmax_element_into(Policy const& policy, It first, It last, MinIt d_min_position, MaxIt d_max_position,
                         Comp comp) {
  detail::element_positions_into(policy, first, last, d_min_position, d_max_position, arg_min_max_by<Comp>{comp},
                                 "cascade::minmax_element_into");
}

// As above, every byte of temporary device storage taken from `resource` (memory/resource.cuh), last.
template <class Policy, class It, class OutIt, class Resource>
  requires(is_policy_v<Policy> && stream_ordered_resource<std::remove_reference_t<Resource>>)
void min_element_into(Policy const& policy, It first, It last, OutIt d_position, Resource&& resource) {
  detail::with_resource(resource, [&] { min_element_into(policy, first, last, d_position); });
}

template <class Policy, class It, class OutIt, class Comp, class Resource>
  requires(is_policy_v<Policy> && stream_ordered_resource<std::remove_reference_t<Resource>>)
void min_element_into(Policy const& policy, It first, It last, OutIt d_position, Comp comp, Resource&& resource) {
  detail::with_resource(resource, [&] { min_element_into(policy, first, last, d_position, comp); });
}

template <class Policy, class It, class OutIt, class Resource>
  requires(is_policy_v<Policy> && stream_ordered_resource<std::remove_reference_t<Resource>>)
void max_element_into(Policy const& policy, It first, It last, OutIt d_position, Resource&& resource) {
  detail::with_resource(resource, [&] { max_element_into(policy, first, last, d_position); });
}

template <class Policy, class It, class OutIt, class Comp, class Resource>
  requires(is_policy_v<Policy> && stream_ordered_resource<std::remove_reference_t<Resource>>)
void max_element_into(Policy const& policy, It first, It last, OutIt d_position, Comp comp, Resource&& resource) {
  detail::with_resource(resource, [&] { max_element_into(policy, first, last, d_position, comp); });
}

template <class Policy, class It, class MinIt, class MaxIt, class Resource>
  requires(is_policy_v<Policy> && stream_ordered_resource<std::remove_reference_t<Resource>>)
void minmax_element_into(Policy const& policy, It first, It last, MinIt d_min_position, MaxIt d_max_position,
                         Resource&& resource) {
  detail::with_resource(resource, [&] { minmax_element_into(policy, first, last, d_min_position, d_max_position); });
}

// (last_max, or a comparator)
template <class Policy, class It, class MinIt, class MaxIt, class How, class Resource>
  requires(is_policy_v<Policy> && stream_ordered_resource<std::remove_reference_t<Resource>>)
void minmax_element_into(Policy const& policy, It first, It last, MinIt d_min_position, MaxIt d_max_position,
                         How how, Resource&& resource) {
  detail::with_resource(resource,
                        [&] { minmax_element_into(policy, first, last, d_min_position, d_max_position, how); });
}

// With CUB's temporary storage first: any form above with (d_temp_storage, temp_storage_bytes) before
// its policy (reduce_into's two-phase form says how).
template <class Policy, class... Args>
  requires(is_policy_v<Policy> && requires(Policy const& p, Args&... a) { min_element_into(p, a...); })
void min_element_into(void* d_temp_storage, std::size_t& temp_storage_bytes, Policy const& policy, Args&&... args) {
  detail::with_temp_storage(d_temp_storage, temp_storage_bytes, "cascade::min_element_into", [&] { min_element_into(policy, args...); });
}

template <class Policy, class... Args>
  requires(is_policy_v<Policy> && requires(Policy const& p, Args&... a) { max_element_into(p, a...); })
void max_element_into(void* d_temp_storage, std::size_t& temp_storage_bytes, Policy const& policy, Args&&... args) {
  detail::with_temp_storage(d_temp_storage, temp_storage_bytes, "cascade::max_element_into", [&] { max_element_into(policy, args...); });
}

template <class Policy, class... Args>
  requires(is_policy_v<Policy> && requires(Policy const& p, Args&... a) { minmax_element_into(p, a...); })
void minmax_element_into(void* d_temp_storage, std::size_t& temp_storage_bytes, Policy const& policy, Args&&... args) {
  detail::with_temp_storage(d_temp_storage, temp_storage_bytes, "cascade::minmax_element_into", [&] { minmax_element_into(policy, args...); });
}

}  // namespace cascade
