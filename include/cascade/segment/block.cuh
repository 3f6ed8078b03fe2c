// cascade/segment/block.cuh: a block owns a segment, as CUB's DeviceSegmentedReduce does: the tile
// loop of a single range (vector loads where the segment's start allows) and the policy's tree. For
// segments of about a thousand items up to a few hundred thousand, or fewer when there are many.
#pragma once

#include "../detail/runtime/launch_context.cuh"
#include "../detail/kernel/kernels.cuh"
#include "kernels.cuh"
#include "tag.cuh"

namespace cascade::segment {

struct block : tag {
  static constexpr char const* name = "segment::block";
};

}  // namespace cascade::segment

namespace cascade::detail {

template <>
struct segment_owner<segment::block> {
  template <class Policy, class T, class It, class Segments, class OutIt, class Op>
  static void run(launch_context const& call, It first, Segments segments, long long num_segments, long long,
                  OutIt d_out, T init, Op op) {
    if (!call.launches()) return;  // no scratch to count
    constexpr int block = Policy::block_size;
    unsigned const grid = segment_grid(num_segments, 1, call.device(), block);
    launch(&segment_block_kernel<block, Policy::coarse_factor, resolve_tree_t<typename Policy::tree_type, Op>, T, It, Segments, OutIt, Op>,
           grid, block, call.stream(), "segment_block_kernel<<<...>>> (launch)", first, segments, num_segments, 1, d_out,
           static_cast<T*>(nullptr), init, op);
  }
};

}  // namespace cascade::detail
