// cascade/segment/lengths.cuh: what a caller knows of its segments' lengths, for segmented calls whose
// offsets only the device reads (the host cannot look at them without waiting for the device):
//
//   cascade::segmented_reduce_into(cascade::default_policy{}, d_in, d_offsets, d_offsets + 1, num_segments,
//                                  d_out, 0.0f, cascade::plus{}, cascade::segment_lengths::about(16384));
//
// default_policy then picks the owner it picks for lengths it has read (tuning/segmented.cuh): the
// owner of the mean where the lengths are about equal (the longest at most 2 x mean + 8), the skewed
// lengths' owner otherwise. A hint only chooses: every owner reduces segments of any length, so a
// wrong hint costs time, never a wrong result. Named policies ignore it, and so does the default where
// the host reads the offsets itself (offsets in host memory, batched_reduce's segment size).
#pragma once

namespace cascade {

struct segment_lengths {
  long long mean = -1;     // items a segment, on average; -1: unknown (the hint says nothing)
  long long longest = -1;  // items in the longest segment; -1: about the mean

  // Every segment about `items` long.
  static constexpr segment_lengths about(long long items) { return {items, items}; }
  // Lengths of this mean, none longer than `longest` (longest > 2 x mean + 8 counts as skewed).
  static constexpr segment_lengths mean_and_longest(long long mean, long long longest) { return {mean, longest}; }
};

}  // namespace cascade
