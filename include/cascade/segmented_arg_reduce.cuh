// cascade/segmented_arg_reduce.cuh: where each segment's smallest (largest) item is.
//
//   cascade::segmented_argmin(policy, d, begins, ends, num_segments, d_lo);  // d_lo: cascade::indexed<float>*
//
// d_out[s] = {offset within segment s of its first smallest (largest) item, the item}, as
// cub::DeviceSegmentedReduce::ArgMin / ArgMax give it; an empty segment gives {-1, the identity}
// (+inf / -inf for floats; CUB gives {1, the type's max / lowest}). Same policies, offsets, errors and
// default as segmented_reduce; the value type needs an identity for minimum (maximum), as argmin does.
#pragma once

#include <cuda/std/cstdint>

#include <cstddef>
#include <type_traits>

#include "arg_reduce.cuh"
#include "detail/kernel/input_iterators.cuh"
#include "detail/segment_views.cuh"
#include "ops/identity.cuh"
#include "ops/indexed.cuh"
#include "ops.cuh"
#include "segmented_reduce.cuh"

namespace cascade {

namespace detail {

template <class ArgOp, class Policy, class It, class BeginIt, class EndIt, class OutIt>
void segmented_arg(Policy const& policy, It first, BeginIt begin_offsets, EndIt end_offsets,
                   cuda::std::int64_t num_segments, OutIt d_out, char const* who, segment_lengths lengths = {}) {
  using T = input_value_t<It>;
  if constexpr (arg_call<ArgOp, T>::identities_ok()) {
    // (positions relative to each segment: with_index, and relative_index_out below)
    made_iterator<It, with_index<T>, indexed<T>> const read{first, with_index<T>{}};
    segmented_call(policy, first, read, begin_offsets, end_offsets, num_segments, d_out,
                   [](OutIt out, auto const& segments) {
                     return relative_index_out<OutIt, cuda::std::remove_cvref_t<decltype(segments)>>{out, segments};
                   },
                   arg_call<ArgOp, T>::init(), ArgOp{}, who, lengths);
  }
}

}  // namespace detail

template <class Policy, class It, class BeginIt, class EndIt, class OutIt>
  requires is_segmented_call_policy_v<Policy>
void segmented_argmin(Policy const& policy, It first, BeginIt begin_offsets, EndIt end_offsets,
                      cuda::std::int64_t num_segments, OutIt d_out) {
  detail::segmented_arg<arg_min>(policy, first, begin_offsets, end_offsets, num_segments, d_out,
                                          "cascade::segmented_argmin");
}

template <class Policy, class It, class BeginIt, class EndIt, class OutIt>
  requires is_segmented_call_policy_v<Policy>
void segmented_argmax(Policy const& policy, It first, BeginIt begin_offsets, EndIt end_offsets,
                      cuda::std::int64_t num_segments, OutIt d_out) {
  detail::segmented_arg<arg_max>(policy, first, begin_offsets, end_offsets, num_segments, d_out,
                                          "cascade::segmented_argmax");
}

// The same calls, named as argmin_into is (the results to device memory), and with what the caller
// knows of the lengths (segment/lengths.cuh; segmented_reduce.cuh says how).
template <class Policy, class It, class BeginIt, class EndIt, class OutIt>
  requires is_segmented_call_policy_v<Policy>
void segmented_argmin_into(Policy const& policy, It first, BeginIt begin_offsets, EndIt end_offsets,
                           cuda::std::int64_t num_segments, OutIt d_out, segment_lengths lengths = {}) {
  detail::segmented_arg<arg_min>(policy, first, begin_offsets, end_offsets, num_segments, d_out,
                                 "cascade::segmented_argmin", lengths);
}

template <class Policy, class It, class BeginIt, class EndIt, class OutIt>
  requires is_segmented_call_policy_v<Policy>
void segmented_argmax_into(Policy const& policy, It first, BeginIt begin_offsets, EndIt end_offsets,
                           cuda::std::int64_t num_segments, OutIt d_out, segment_lengths lengths = {}) {
  detail::segmented_arg<arg_max>(policy, first, begin_offsets, end_offsets, num_segments, d_out,
                                 "cascade::segmented_argmax", lengths);
}

// As above, every byte of temporary device storage taken from `resource` (memory/resource.cuh), last.
template <class Policy, class It, class BeginIt, class EndIt, class OutIt, class Resource>
  requires(is_segmented_call_policy_v<Policy> && stream_ordered_resource<std::remove_reference_t<Resource>>)
void segmented_argmin_into(Policy const& policy, It first, BeginIt begin_offsets, EndIt end_offsets,
                           cuda::std::int64_t num_segments, OutIt d_out, Resource&& resource) {
  detail::with_resource(resource, [&] { segmented_argmin(policy, first, begin_offsets, end_offsets, num_segments, d_out); });
}

template <class Policy, class It, class BeginIt, class EndIt, class OutIt, class Resource>
  requires(is_segmented_call_policy_v<Policy> && stream_ordered_resource<std::remove_reference_t<Resource>>)
void segmented_argmax_into(Policy const& policy, It first, BeginIt begin_offsets, EndIt end_offsets,
                           cuda::std::int64_t num_segments, OutIt d_out, Resource&& resource) {
  detail::with_resource(resource, [&] { segmented_argmax(policy, first, begin_offsets, end_offsets, num_segments, d_out); });
}

// With CUB's temporary storage first: any form above with (d_temp_storage, temp_storage_bytes) before
// its policy (reduce_into's two-phase form says how).
template <class Policy, class... Args>
  requires(is_segmented_call_policy_v<Policy> && requires(Policy const& p, Args&... a) { segmented_argmin_into(p, a...); })
void segmented_argmin_into(void* d_temp_storage, std::size_t& temp_storage_bytes, Policy const& policy, Args&&... args) {
  detail::with_temp_storage(d_temp_storage, temp_storage_bytes, "cascade::segmented_argmin_into", [&] { segmented_argmin_into(policy, args...); });
}

template <class Policy, class... Args>
  requires(is_segmented_call_policy_v<Policy> && requires(Policy const& p, Args&... a) { segmented_argmax_into(p, a...); })
void segmented_argmax_into(void* d_temp_storage, std::size_t& temp_storage_bytes, Policy const& policy, Args&&... args) {
  detail::with_temp_storage(d_temp_storage, temp_storage_bytes, "cascade::segmented_argmax_into", [&] { segmented_argmax_into(policy, args...); });
}

}  // namespace cascade
