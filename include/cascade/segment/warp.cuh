// cascade/segment/warp.cuh: Width lanes of a warp own a segment (Width 2..32, a power of two; a warp
// holds 32 / Width segments at a time). For segments of about Width to a few hundred items: each lane
// folds every Width-th item, CoarseFactor loads in flight, then log2(Width) shuffles combine the lanes
// in order. CUB's DeviceSegmentedReduce gives every segment a block, which leaves most of it idle on
// short segments.
#pragma once

#include "../detail/runtime/launch_context.cuh"
#include "../detail/kernel/kernels.cuh"
#include "kernels.cuh"
#include "tag.cuh"

namespace cascade::segment {

template <int Width>
struct warp : tag {
  static_assert(Width >= 2 && Width <= 32 && (Width & (Width - 1)) == 0,
                "cascade::segment::warp<Width>: Width (lanes a segment) must be 2, 4, 8, 16 or 32; for one "
                "thread a segment use cascade::segment::thread");
  static constexpr char const* name = Width == 32  ? "segment::warp<32>"
                                      : Width == 16 ? "segment::warp<16>"
                                      : Width == 8  ? "segment::warp<8>"
                                      : Width == 4  ? "segment::warp<4>"
                                                    : "segment::warp<2>";
};

}  // namespace cascade::segment

namespace cascade::detail {

template <int Width>
struct segment_owner<segment::warp<Width>> {
  template <class Policy, class T, class It, class Segments, class OutIt, class Op>
  static void run(launch_context const& call, It first, Segments segments, long long num_segments, long long,
                  OutIt d_out, T init, Op op) {
    if (!call.launches()) return;  // no scratch to count
    constexpr int block = Policy::block_size;
    unsigned const grid = segment_grid(num_segments, block / Width, call.device(), block);
    launch(&segment_warp_kernel<Width, block, Policy::coarse_factor, T, It, Segments, OutIt, Op>, grid, block, call.stream(),
           "segment_warp_kernel<<<...>>> (launch)", first, segments, num_segments, d_out, init, op);
  }
};

}  // namespace cascade::detail
