// cascade/detail/kernel/segments.cuh: where a segmented reduction's segments lie. segments(s) gives segment
// s's [begin, end) as 64-bit offsets into the input; an end at or before its begin is an empty segment
// (CUB's DeviceSegmentedReduce reads them so too).
#pragma once

#include "../meta/config.cuh"

#include <cuda/std/cstdint>

namespace cascade::detail {

struct segment_bounds {
  long long begin;
  long long end;  // >= begin
  __host__ __device__ long long size() const { return end - begin; }
};

// Segments from two offset iterators (CUB's shape: any random-access iterators, so a counting or
// transform iterator needs no offsets array).
template <class BeginIt, class EndIt>
struct offset_segments {
  BeginIt begins;
  EndIt ends;
  __host__ __device__ segment_bounds operator()(long long s) const {
    auto const b = static_cast<long long>(begins[s]);
    auto const e = static_cast<long long>(ends[s]);
    return {b, e > b ? e : b};
  }
};

// Segments of one size, back to back from the input's start (batched_reduce).
struct fixed_segments {
  long long size;
  __host__ __device__ segment_bounds operator()(long long s) const { return {s * size, s * size + size}; }
};

}  // namespace cascade::detail
