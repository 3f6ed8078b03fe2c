// cascade/segmented_reduce.cuh: many ranges reduced at once (CUB's DeviceSegmentedReduce shape).
//
//   cascade::segmented_reduce_into(policy, first, begin_offsets, end_offsets, num_segments, d_out, init, op);
//   cascade::batched_reduce_into(policy, first, segment_size, num_segments, d_out, init, op);
//
// The _into names say, as reduce_into does, that the results go to device memory and the host does
// not wait; segmented_reduce and batched_reduce are the same calls under their first names, kept.
// d_out[s] = init op first[begin_offsets[s]] op ... op first[end_offsets[s] - 1], in order (non-commutative
// ops keep it); an empty segment gives init. Offsets are any random-access iterators (a counting or
// transform iterator needs no array). Ordered on the policy's stream; the host does not wait, but for
// offsets in host memory, which are read on the host first (docs/segmented.md). policy: a
// cascade::policy<BlockSize, CoarseFactor, Tree, Owner> with a segment owner (or segmented_policy<Owner,
// ...>, the same owner first), or cascade::default_policy, which picks
// the owner by the segments' lengths where the host knows them (or the caller says them: a
// cascade::segment_lengths after op), else reads the items in tiles of equal size whatever the lengths
// (segment::tiles; segment::binned for offsets that are not CSR or values wider than 4 bytes).
#pragma once

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include <cstddef>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "detail/runtime/temp_storage.cuh"
#include "detail/segmented_dispatch.cuh"
#include "exact/accumulator.cuh"  // so that exact_plus is refused by name (segmented_arguments_ok)
#include "memory/resource.cuh"
#include "ops.cuh"
#include "policy/segmented_policy.cuh"
#include "segment/kernels.cuh"
#include "segment/lengths.cuh"
#include "tuning/segmented.cuh"

namespace cascade {

// The segmented calls take any policy, and say at compile time when it has a finish where they need
// a segment owner (detail::segmented_policy_ok).
template <class P>
inline constexpr bool is_segmented_call_policy_v = is_policy_v<P>;

namespace detail {

// The row of tuning/segmented.cuh's by_mean list the segmented default runs for the lengths the host
// knows (their mean, and whether they are skewed), else for `hint`'s (the caller's segment_lengths),
// or -1 for the policies of unknown or skewed lengths; `vectors`: the input and op allow 16-byte
// loads (segment_vectors); `fixed`: segments of one size, no offsets read (batched_reduce).
inline int default_segment_row(segment_stats stats, segment_stats hint, long long num_segments, bool vectors,
                               bool fixed = false) {
  using table = tuning::segmented_table;
  segment_stats const seen = stats.items >= 0 ? stats : hint;
  long long const mean = seen.items < 0 ? -1 : seen.items / num_segments;
  if (mean < 0 || seen.longest > table::skew_factor * mean + table::skew_slack) return -1;
  int row = -1, at = 0;
  [&]<class... Rows>(type_list<Rows...>) {
    auto const takes = [&](auto r) {
      using R = decltype(r);
      bool const fits = (R::mean_below < 0 || mean < R::mean_below) && (!R::needs_vectors || vectors) &&
                        (!R::fixed_only || fixed);
      if (fits) row = at;
      ++at;
      return fits;
    };
    (void)(takes(Rows{}) || ...);
  }(typename table::by_mean{});
  return row;
}

// The segmented default. A hint only chooses: the owner still gets stats.longest, the bound the host
// knows (-1 with device offsets), never the hint's, which a longer segment would break.
template <class T, class It, class Segments, class OutIt, class Op>
void run_default_segments(launch_context const& call, It first, Segments segments, long long num_segments,
                          segment_stats stats, segment_stats hint, OutIt d_out, T init, Op op) {
  using table = tuning::segmented_table;
  auto run = [&](auto policy) {
    run_segments<decltype(policy)>(call, first, segments, num_segments, stats.longest, d_out, init, op);
  };
  if constexpr (std::is_same_v<Segments, fixed_segments>) {
    if (segments.size == 1) {  // one item a segment, back to back: each thread keeps 8 loads in flight
      if (!call.launches()) return;
      constexpr int block = 256, items = 8;
      unsigned const grid = segment_grid(num_segments, block * items, call.device(), block);
      launch(&segment_single_items_kernel<block, items, T, It, OutIt, Op>, grid, block, call.stream(),
             "segment_single_items_kernel<<<...>>> (launch)", first, num_segments, d_out, init, op);
      return;
    }
  }
  int const row = default_segment_row(stats, hint, num_segments, segment_vectors<It, Op>(first),
                                      std::is_same_v<Segments, fixed_segments>);
  if (row < 0) {
    if constexpr (stageable_v<T>) run(typename table::unknown_or_skewed{});
    else run(typename table::unknown_or_skewed_wide{});
    return;
  }
  [&]<class... Rows>(type_list<Rows...>) {
    int at = 0;
    (void)((at++ == row ? (run(typename Rows::policy{}), true) : false) || ...);
  }(typename table::by_mean{});
}

// The pointer type segments are read through on the device: a pointer's const, element-typed form
// (host-only offsets are copied to scratch as that), else the iterator itself.
template <class It>
using device_offsets_t = cuda::std::conditional_t<std::is_pointer_v<It>, std::remove_cv_t<std::remove_pointer_t<It>> const*, It>;

template <class Policy, class It, class Segments, class OutIt, class T, class Op>
void run_segmented(launch_context const& call, It first, Segments segments, long long num_segments,
                   segment_stats stats, OutIt d_out, T init, Op op, segment_stats hint = {}) {
  if constexpr (is_cccl_op_v<Op, T>) {
    // CCCL's ops run as the cascade op they name, as in reduce (detail/meta/known_op.cuh)
    run_segmented<Policy>(call, first, segments, num_segments, stats, d_out, init, known_op_t<Op, T>{}, hint);
  } else if constexpr (std::is_same_v<Policy, default_policy>) {
    run_default_segments(call, first, segments, num_segments, stats, hint, d_out, init, op);
  } else {
    run_segments<Policy>(call, first, segments, num_segments, stats.longest, d_out, init, op);
  }
}

// A segment_lengths hint as the stats it stands for over num_segments segments ({-1, -1}: no hint);
// std::invalid_argument for one that cannot be (a negative mean, a longest under the mean).
inline segment_stats read_hint(segment_lengths hint, long long num_segments, char const* who) {
  if (hint.mean == -1 && hint.longest == -1) return {};
  if (hint.mean < 0 || hint.longest < -1 || (hint.longest >= 0 && hint.longest < hint.mean))
    throw std::invalid_argument(std::string(who) + ": segment_lengths{" + std::to_string(hint.mean) + ", " +
                                std::to_string(hint.longest) +
                                "} cannot be; pass a mean of 0 or more and a longest of at least the mean, or -1");
  long long const most = std::numeric_limits<long long>::max();
  if (hint.mean > most / num_segments) return {most, most / num_segments};  // more items than 64 bits count: long
  return {hint.mean * num_segments, hint.longest >= 0 ? hint.longest : hint.mean};
}

}  // namespace detail

namespace detail {

// segmented_reduce's work, for it and the calls built on it: `first` is what the checks see (the
// caller's input), `read` what the kernels read (first, or a view of it), and wrap(d_out, segments) the
// output the results go to (d_out, or a view of it that needs the segments).
template <class Policy, class It, class ReadIt, class BeginIt, class EndIt, class OutIt, class Wrap, class T, class Op>
void segmented_checked_call(Policy const& policy, It first, ReadIt read, BeginIt begin_offsets, EndIt end_offsets,
                            cuda::std::int64_t num_segments, OutIt d_out, Wrap wrap, T init, Op op, char const* who,
                            segment_lengths lengths) {
  check_num_segments(num_segments, who);
  if (num_segments == 0) return;
  segment_stats const hint = read_hint(lengths, num_segments, who);
  launch_context const call(policy.stream(), current_device());  // a clear cuda_error when there is no device
  check_device_accessible(d_out, "the output (d_out)");
  auto const at_begin = where_offsets_are(begin_offsets, call);
  auto const at_end = where_offsets_are(end_offsets, call);
  segment_stats stats;
  if (at_begin != offsets_at::device && at_end != offsets_at::device)
    stats = check_host_offsets(begin_offsets, end_offsets, num_segments, items_to_allocation_end(first));
  // The input is checked unless the host sees that no item is read (every segment empty), as reduce
  // and batched_reduce do for no items: then any pointer, null too, is accepted.
  if (stats.items != 0) check_device_accessible(first, "the input");
  using begin_t = device_offsets_t<BeginIt>;
  using end_t = device_offsets_t<EndIt>;
  begin_t begins = begin_offsets;
  end_t ends = end_offsets;
  std::optional<device_copy<std::remove_cv_t<std::remove_pointer_t<begin_t>>>> begin_copy;
  std::optional<device_copy<std::remove_cv_t<std::remove_pointer_t<end_t>>>> end_copy;
  bool copied = false;
  if constexpr (std::is_pointer_v<BeginIt> && std::is_same_v<begin_t, end_t>) {
    // CSR offsets (end_offsets == begin_offsets + 1): one copy of n + 1, which keeps them CSR on the
    // device (segment::tiles reads only those) and moves half the bytes.
    if (at_begin == offsets_at::host_only && at_end == offsets_at::host_only && end_offsets == begin_offsets + 1) {
      begins = begin_copy.emplace(begin_offsets, num_segments + 1, call).ptr;
      ends = begins + 1;
      copied = true;
    }
  }
  if constexpr (std::is_pointer_v<BeginIt>)
    if (!copied && at_begin == offsets_at::host_only) begins = begin_copy.emplace(begin_offsets, num_segments, call).ptr;
  if constexpr (std::is_pointer_v<EndIt>)
    if (!copied && at_end == offsets_at::host_only) ends = end_copy.emplace(end_offsets, num_segments, call).ptr;
  offset_segments<begin_t, end_t> const segments{begins, ends};
  run_segmented<Policy>(call, read, segments, num_segments, stats, wrap(d_out, segments), init, op, hint);
}

template <class Policy, class It, class ReadIt, class BeginIt, class EndIt, class OutIt, class Wrap, class T, class Op>
void segmented_call(Policy const& policy, It first, ReadIt read, BeginIt begin_offsets, EndIt end_offsets,
                    cuda::std::int64_t num_segments, OutIt d_out, Wrap wrap, T init, Op op, char const* who,
                    segment_lengths lengths = {}) {
  if constexpr (segmented_policy_ok<Policy>() && segmented_arguments_ok<It, T, Op>())
    segmented_checked_call(policy, first, read, begin_offsets, end_offsets, num_segments, d_out, wrap, init, op, who,
                           lengths);
}

}  // namespace detail

// `lengths`: what the caller knows of the segments' lengths (segment/lengths.cuh), for default_policy's
// choice of owner where only the device reads the offsets.
template <class Policy, class It, class BeginIt, class EndIt, class OutIt, class T, class Op>
  requires is_segmented_call_policy_v<Policy>
void segmented_reduce(Policy const& policy, It first, BeginIt begin_offsets, EndIt end_offsets,
                      cuda::std::int64_t num_segments, OutIt d_out, T init, Op op, segment_lengths lengths = {}) {
  detail::segmented_call(policy, first, first, begin_offsets, end_offsets, num_segments, d_out,
                         [](OutIt out, auto const&) { return out; }, init, op, "cascade::segmented_reduce", lengths);
}

template <class Policy, class It, class BeginIt, class EndIt, class OutIt, class T>
  requires is_segmented_call_policy_v<Policy>
void segmented_reduce(Policy const& policy, It first, BeginIt begin_offsets, EndIt end_offsets,
                      cuda::std::int64_t num_segments, OutIt d_out, T init) {
  segmented_reduce(policy, first, begin_offsets, end_offsets, num_segments, d_out, init, plus{});
}

template <class Policy, class It, class OutIt, class T, class Op>
  requires is_segmented_call_policy_v<Policy>
void batched_reduce(Policy const& policy, It first, cuda::std::int64_t segment_size, cuda::std::int64_t num_segments,
                    OutIt d_out, T init, Op op) {
  if constexpr (detail::segmented_policy_ok<Policy>() && detail::segmented_arguments_ok<It, T, Op>()) {
    char const* const who = "cascade::batched_reduce";
    detail::check_num_segments(num_segments, who);
    if (segment_size < 0)
      throw std::invalid_argument(std::string(who) + ": segment_size is " + std::to_string(segment_size) +
                                  "; pass 0 or more");
    if (num_segments == 0) return;
    if (segment_size > 0 && num_segments > std::numeric_limits<cuda::std::int64_t>::max() / segment_size)
      throw std::invalid_argument(std::string(who) + ": segment_size x num_segments overflows 64 bits");
    detail::launch_context const call(policy.stream(), detail::current_device());
    detail::check_device_accessible(d_out, "the output (d_out)");
    long long const total = segment_size * num_segments;
    if (total > 0) {
      detail::check_device_accessible(first, "the input");
      long long const available = detail::items_to_allocation_end(first);
      if (available >= 0 && total > available)
        throw std::invalid_argument(std::string(who) + ": " + std::to_string(num_segments) + " segments of " +
                                    std::to_string(segment_size) + " items need " + std::to_string(total) +
                                    " items, beyond the input's " + std::to_string(available) + " (its allocation's end)");
    }
    detail::run_segmented<Policy>(call, first, detail::fixed_segments{segment_size}, num_segments,
                          detail::segment_stats{total, segment_size}, d_out, init, op);
  }
}

template <class Policy, class It, class OutIt, class T>
  requires is_segmented_call_policy_v<Policy>
void batched_reduce(Policy const& policy, It first, cuda::std::int64_t segment_size, cuda::std::int64_t num_segments,
                    OutIt d_out, T init) {
  batched_reduce(policy, first, segment_size, num_segments, d_out, init, plus{});
}

// The same calls as segmented_reduce and batched_reduce, named as reduce_into is.
template <class Policy, class It, class BeginIt, class EndIt, class OutIt, class T, class Op>
  requires is_segmented_call_policy_v<Policy>
void segmented_reduce_into(Policy const& policy, It first, BeginIt begin_offsets, EndIt end_offsets,
                           cuda::std::int64_t num_segments, OutIt d_out, T init, Op op, segment_lengths lengths = {}) {
  segmented_reduce(policy, first, begin_offsets, end_offsets, num_segments, d_out, init, op, lengths);
}

template <class Policy, class It, class BeginIt, class EndIt, class OutIt, class T>
  requires is_segmented_call_policy_v<Policy>
void segmented_reduce_into(Policy const& policy, It first, BeginIt begin_offsets, EndIt end_offsets,
                           cuda::std::int64_t num_segments, OutIt d_out, T init) {
  segmented_reduce(policy, first, begin_offsets, end_offsets, num_segments, d_out, init, plus{});
}

template <class Policy, class It, class OutIt, class T, class Op>
  requires is_segmented_call_policy_v<Policy>
void batched_reduce_into(Policy const& policy, It first, cuda::std::int64_t segment_size,
                         cuda::std::int64_t num_segments, OutIt d_out, T init, Op op) {
  batched_reduce(policy, first, segment_size, num_segments, d_out, init, op);
}

template <class Policy, class It, class OutIt, class T>
  requires is_segmented_call_policy_v<Policy>
void batched_reduce_into(Policy const& policy, It first, cuda::std::int64_t segment_size,
                         cuda::std::int64_t num_segments, OutIt d_out, T init) {
  batched_reduce(policy, first, segment_size, num_segments, d_out, init, plus{});
}

// As above, every byte of temporary device storage (offsets copied from the host, the owners'
// partials) taken from `resource` (memory/resource.cuh), on the policy's stream.
template <class Policy, class It, class BeginIt, class EndIt, class OutIt, class T, class Op, class Resource>
  requires(is_segmented_call_policy_v<Policy> && stream_ordered_resource<std::remove_reference_t<Resource>>)
void segmented_reduce_into(Policy const& policy, It first, BeginIt begin_offsets, EndIt end_offsets,
                           cuda::std::int64_t num_segments, OutIt d_out, T init, Op op, segment_lengths lengths,
                           Resource&& resource) {
  detail::with_resource(resource, [&] {
    segmented_reduce(policy, first, begin_offsets, end_offsets, num_segments, d_out, init, op, lengths);
  });
}

template <class Policy, class It, class BeginIt, class EndIt, class OutIt, class T, class Op, class Resource>
  requires(is_segmented_call_policy_v<Policy> && stream_ordered_resource<std::remove_reference_t<Resource>>)
void segmented_reduce_into(Policy const& policy, It first, BeginIt begin_offsets, EndIt end_offsets,
                           cuda::std::int64_t num_segments, OutIt d_out, T init, Op op, Resource&& resource) {
  segmented_reduce_into(policy, first, begin_offsets, end_offsets, num_segments, d_out, init, op, segment_lengths{},
                        resource);
}

template <class Policy, class It, class OutIt, class T, class Op, class Resource>
  requires(is_segmented_call_policy_v<Policy> && stream_ordered_resource<std::remove_reference_t<Resource>>)
void batched_reduce_into(Policy const& policy, It first, cuda::std::int64_t segment_size,
                         cuda::std::int64_t num_segments, OutIt d_out, T init, Op op, Resource&& resource) {
  detail::with_resource(resource, [&] {
    batched_reduce(policy, first, segment_size, num_segments, d_out, init, op);
  });
}

// With CUB's temporary storage first: any form above with (d_temp_storage, temp_storage_bytes) before
// its policy (reduce_into's two-phase form says how).
template <class Policy, class... Args>
  requires(is_segmented_call_policy_v<Policy> && requires(Policy const& p, Args&... a) { segmented_reduce_into(p, a...); })
void segmented_reduce_into(void* d_temp_storage, std::size_t& temp_storage_bytes, Policy const& policy, Args&&... args) {
  detail::with_temp_storage(d_temp_storage, temp_storage_bytes, "cascade::segmented_reduce_into", [&] { segmented_reduce_into(policy, args...); });
}

// With CUB's temporary storage first: any form above with (d_temp_storage, temp_storage_bytes) before
// its policy (reduce_into's two-phase form says how).
template <class Policy, class... Args>
  requires(is_segmented_call_policy_v<Policy> && requires(Policy const& p, Args&... a) { batched_reduce_into(p, a...); })
void batched_reduce_into(void* d_temp_storage, std::size_t& temp_storage_bytes, Policy const& policy, Args&&... args) {
  detail::with_temp_storage(d_temp_storage, temp_storage_bytes, "cascade::batched_reduce_into", [&] { batched_reduce_into(policy, args...); });
}

}  // namespace cascade
