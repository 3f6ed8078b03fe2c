// cascade/segment/thread_vectors.cuh: one thread owns a segment, as segment::thread, and reads it 16
// bytes a load (4 floats) where it can: a commutative op over a 16-byte-aligned pointer of arithmetic
// items. The segment's aligned middle comes in vectors, the items before the first 16-byte boundary
// and after the last one at a time; any other input reads as segment::thread. For segments of about
// 8-32 items: on the H200 at 16 floats it read at 94% of the ceiling (segment::thread 54%, warp<4>
// 69%); at 1 and 4 items its extra index work makes it slower than segment::thread.
#pragma once

#include "../detail/device.cuh"
#include "../detail/kernels.cuh"
#include "../detail/segment_kernels.cuh"
#include "tag.cuh"

namespace cascade::segment {

struct thread_vectors : tag {
  static constexpr char const* name = "segment::thread_vectors";
};

}  // namespace cascade::segment

namespace cascade::detail {

template <>
struct segment_owner<segment::thread_vectors> {
  template <class Policy, class T, class It, class Segments, class OutIt, class Op>
  static void run(It first, Segments segments, long long num_segments, long long, OutIt d_out, T init, Op op,
                  cudaStream_t stream) {
    constexpr int block = Policy::block_size;
    unsigned const grid = segment_grid(num_segments, block, current_device(), block);
    launch(&segment_thread_kernel<block, Policy::coarse_factor, true, T, It, Segments, OutIt, Op>, grid, block, stream,
           "segment_thread_kernel<<<...>>> (launch, vectors)", first, segments, num_segments, d_out, init, op);
  }
};

}  // namespace cascade::detail
