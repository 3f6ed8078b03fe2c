// cascade/tuning/segmented.cuh: the table default_policy's segmented calls read (segmented_reduce.cuh,
// run_default_segments): which segment owner, with which block size and items a thread, for the
// segments of a call. Measured on an H200; the portable choice elsewhere too (the owners' speeds
// follow the segment length far more than the GPU: docs/segmented.md).
//
// Lengths the host knows (batched_reduce, host-side offsets) and about equal (longest <= 2 x mean + 8):
// the owner fastest at their mean length, the first row whose bound the mean is under (at d592299,
// docs/notes/segmented-owners.md): 1-10 items thread; 16, 32 thread_vectors where a commutative op
// reads an aligned pointer (94% of the read ceiling at 16, where warp<4>, the choice otherwise, reads
// at 69%; at 10 its head and tail loads make it slower than thread); 64, 256 warp<8>; 1K warp<16>;
// 4K items and up blocks <256, 16>, which is block where there are segments enough to fill the GPU
// (against <256, 8> at bd2fbc0: 16K 63.6 against 64.8 us hot, 1M 68.3 against 69.5, cold alike);
// batched_reduce from 16K items, where 16-byte loads apply, blocks <1024, 16>, a tile of 16K items
// (2^26 floats: 16K 62.4 against 63.8 us hot, 256K 64.1 against 66.5, 1M 65.9 against 68.7; at 4K
// items a segment, a tile four segments long, 188 against 63). Not with offsets: two blocks of 1024 an
// SM wait for each segment's offsets with little else resident, 16K items from device offsets took
// 82.7 us against 62.8 (docs/notes/segmented-hint.md). Until
// bd2fbc0 thread_vectors' bound excluded 32, which ran warp<8>: 102.8 against 86.2 us with device
// offsets (docs/notes/segmented-hint.md). batched_reduce with one-item segments runs
// segment_single_items_kernel instead (segmented_reduce.cuh).
//
// Otherwise (offsets only the device reads, or skewed lengths), neither of which makes the host wait:
// for values of 4 bytes or less, segment::tiles <256, 16>, which reads the items in tiles of equal
// size whatever the lengths (CSR offsets; others go to segment::binned <256, 16>). Against binned
// <256, 16> on the H200 (at 693b077 and 93c2984, docs/notes/segmented-tiles-default.md): the power law
// 97 against 125 us hot (72% of the read ceiling against 58%), 16-32 items 25-30% faster, 1 and 4
// items faster (319 against 496, 140 against 144), 64-1K the same cold, 1M 4% faster; 8-10 items
// 10-26% and 16K 5-8% slower. Wider values (unmeasured with tiles; tiles keeps no values of them in
// shared memory) keep segment::binned <256, 16>, which sorts segments by length on the device: its
// long segments' parts keep 16 loads a thread in flight (against <256, 8>: 16K and 1M items 3-7%
// faster, the power law the same to 3% faster: at 6324e93, docs/notes/segmented-binning.md).
#pragma once

#include "../detail/meta/type_list.cuh"
#include "../policy/segmented_policy.cuh"

namespace cascade::tuning {

// A row: segments whose mean length is under MeanBelow (-1: any) take Policy; NeedsVectors: only where
// the input and op allow 16-byte loads (detail::segment_vectors), FixedOnly: only for batched_reduce's
// segments of one size (no offsets to read), else the next row.
template <long long MeanBelow, class Policy, bool NeedsVectors = false, bool FixedOnly = false>
struct length_row {
  static constexpr long long mean_below = MeanBelow;
  static constexpr bool needs_vectors = NeedsVectors;
  static constexpr bool fixed_only = FixedOnly;
  using policy = Policy;
};

struct segmented_table {
  // Lengths count as skewed when the longest exceeds skew_factor x mean + skew_slack.
  static constexpr long long skew_factor = 2;
  static constexpr long long skew_slack = 8;
  using unknown_or_skewed = segmented_policy<segment::tiles, 256, 16>;        // values of at most 4 bytes
  using unknown_or_skewed_wide = segmented_policy<segment::binned, 256, 16>;  // wider values
  using by_mean = detail::type_list<length_row<12, segmented_policy<segment::thread, 256, 4>>,
                                    length_row<33, segmented_policy<segment::thread_vectors, 256, 4>, true>,
                                    length_row<32, segmented_policy<segment::warp<4>, 256, 4>>,
                                    length_row<512, segmented_policy<segment::warp<8>, 256, 4>>,
                                    length_row<4096, segmented_policy<segment::warp<16>, 256, 4>>,
                                    length_row<16384, segmented_policy<segment::blocks, 256, 16>>,
                                    length_row<-1, segmented_policy<segment::blocks, 1024, 16>, true, true>,
                                    length_row<-1, segmented_policy<segment::blocks, 256, 16>>>;
};

}  // namespace cascade::tuning
