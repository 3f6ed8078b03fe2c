// cascade/segmented_transform_reduce.cuh: each segment's transformed items reduced, in one pass.
//
//   cascade::segmented_transform_reduce(policy, d, begins, ends, num_segments, d_sq, 0.0f, cascade::plus{}, square);
//
// d_out[s] = init op t(first[begin]) op ... op t(first[end - 1]), as segmented_reduce (same policies,
// offsets, errors and default, and a cascade::segment_lengths hint last) over the items as t makes
// them, in init's type.
#pragma once

#include <cuda/std/cstdint>

#include <cstddef>
#include <type_traits>

#include "detail/segment_views.cuh"
#include "segmented_reduce.cuh"

namespace cascade {

template <class Policy, class It, class BeginIt, class EndIt, class OutIt, class T, class ReduceOp, class TransformOp>
  requires is_segmented_call_policy_v<Policy>
void segmented_transform_reduce(Policy const& policy, It first, BeginIt begin_offsets, EndIt end_offsets,
                                cuda::std::int64_t num_segments, OutIt d_out, T init, ReduceOp reduce_op,
                                TransformOp transform_op, segment_lengths lengths = {}) {
  using make = detail::apply_transform<T, TransformOp>;
  detail::made_iterator<It, make, T> const read{first, make{transform_op}};
  detail::segmented_call(policy, first, read, begin_offsets, end_offsets, num_segments, d_out,
                         [](OutIt out, auto const&) { return out; }, init, reduce_op,
                         "cascade::segmented_transform_reduce", lengths);
}

// The same call, named as transform_reduce_into is (the results to device memory).
template <class Policy, class It, class BeginIt, class EndIt, class OutIt, class T, class ReduceOp, class TransformOp>
  requires is_segmented_call_policy_v<Policy>
void segmented_transform_reduce_into(Policy const& policy, It first, BeginIt begin_offsets, EndIt end_offsets,
                                     cuda::std::int64_t num_segments, OutIt d_out, T init, ReduceOp reduce_op,
                                     TransformOp transform_op, segment_lengths lengths = {}) {
  segmented_transform_reduce(policy, first, begin_offsets, end_offsets, num_segments, d_out, init, reduce_op,
                             transform_op, lengths);
}

// As above, every byte of temporary device storage taken from `resource` (memory/resource.cuh), last.
template <class Policy, class It, class BeginIt, class EndIt, class OutIt, class T, class ReduceOp, class TransformOp,
          class Resource>
  requires(is_segmented_call_policy_v<Policy> && stream_ordered_resource<std::remove_reference_t<Resource>>)
void segmented_transform_reduce_into(Policy const& policy, It first, BeginIt begin_offsets, EndIt end_offsets,
                                     cuda::std::int64_t num_segments, OutIt d_out, T init, ReduceOp reduce_op,
                                     TransformOp transform_op, Resource&& resource) {
  detail::with_resource(resource, [&] {
    segmented_transform_reduce(policy, first, begin_offsets, end_offsets, num_segments, d_out, init, reduce_op,
                               transform_op);
  });
}

// With CUB's temporary storage first: any form above with (d_temp_storage, temp_storage_bytes) before
// its policy (reduce_into's two-phase form says how).
template <class Policy, class... Args>
  requires(is_segmented_call_policy_v<Policy> && requires(Policy const& p, Args&... a) { segmented_transform_reduce_into(p, a...); })
void segmented_transform_reduce_into(void* d_temp_storage, std::size_t& temp_storage_bytes, Policy const& policy, Args&&... args) {
  detail::with_temp_storage(d_temp_storage, temp_storage_bytes, "cascade::segmented_transform_reduce_into", [&] { segmented_transform_reduce_into(policy, args...); });
}

}  // namespace cascade
