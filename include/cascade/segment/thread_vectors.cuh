// cascade/segment/thread_vectors.cuh: one thread owns a segment, as segment::thread, and reads it 16
// bytes a load (4 floats) where it can: a commutative op over a 16-byte-aligned pointer of arithmetic
// items. The segment's aligned middle comes in vectors, the items before the first 16-byte boundary
// and after the last one at a time; any other input reads as segment::thread. For segments of about
// 12-32 items: on the H200 at 16 floats it read at 94% of the ceiling (segment::thread 54%, warp<4>
// 69%); at 1-10 items its head, tail and index work make it slower than segment::thread.
#pragma once

#include "tag.cuh"
#include "thread.cuh"

namespace cascade::segment {

struct thread_vectors : tag {
  static constexpr char const* name = "segment::thread_vectors";
};

}  // namespace cascade::segment

namespace cascade::detail {

template <>
struct segment_owner<segment::thread_vectors> : thread_owner<true> {};

}  // namespace cascade::detail
