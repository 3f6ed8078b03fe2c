// cascade/segment/thread.cuh: one thread owns a segment. For segments of a few items (1-11): the
// threads of a warp read 32 neighbouring segments, so the loads coalesce, and nothing is combined
// across threads. A segment of many items is one thread's serial loop: use a wider owner there.
#pragma once

#include "../detail/runtime/launch_context.cuh"
#include "../detail/kernel/kernels.cuh"
#include "kernels.cuh"
#include "tag.cuh"

namespace cascade::segment {

struct thread : tag {
  static constexpr char const* name = "segment::thread";
};

}  // namespace cascade::segment

namespace cascade::detail {

// One thread a segment; Vectors: 16-byte loads where they can be used (segment::thread_vectors).
template <bool Vectors>
struct thread_owner {
  template <class Policy, class T, class It, class Segments, class OutIt, class Op>
  static void run(launch_context const& call, It first, Segments segments, long long num_segments, long long,
                  OutIt d_out, T init, Op op) {
    if (!call.launches()) return;  // no scratch to count
    constexpr int block = Policy::block_size;
    unsigned const grid = segment_grid(num_segments, block, call.device(), block);
    launch(&segment_thread_kernel<block, Policy::coarse_factor, Vectors, T, It, Segments, OutIt, Op>, grid, block, call.stream(),
           "segment_thread_kernel<<<...>>> (launch)", first, segments, num_segments, d_out, init, op);
  }
};

template <>
struct segment_owner<segment::thread> : thread_owner<false> {};

}  // namespace cascade::detail
