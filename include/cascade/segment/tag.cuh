// cascade/segment/tag.cuh: what every segment owner (how many threads own one segment of a segmented
// reduction) shares.
//
// An owner is a tag type deriving from cascade::segment::tag, with a `name`, plus a specialization of
// cascade::detail::segment_owner<Owner> with the one interface the dispatch layer calls:
//
//   template <class Policy, class T, class It, class Segments, class OutIt, class Op>
//   static void run(launch_context const& call, It first, Segments segments, long long num_segments,
//                   long long longest, OutIt d_out, T init, Op op);
//
// where segments(s) gives segment s's [begin, end) (detail/kernel/segments.cuh; begin >= end is empty),
// `longest` bounds a segment's length (-1: unknown) and d_out[s] gets init op (the segment's items, in
// order), ordered on call.stream(); call.device() and call.scratch(bytes, name) give the device (read
// once, at the entry) and temporary storage (detail/runtime/launch_context.cuh); while
// !call.launches() (a call being sized) it takes its scratch as it would and then enqueues nothing. An owner of the
// earlier shape, run(first, ..., init, op, stream), still compiles for this release (the dispatch's
// adapter, detail/segmented_dispatch.cuh). cascade's owners are listed once, in segment/all.cuh.
#pragma once

#include "../detail/meta/config.cuh"

#include <cuda/std/type_traits>

namespace cascade::segment {

struct tag {
  // Each owner also says `static constexpr char const* name = "segment::...";`.
};

template <class T>
inline constexpr bool is_owner_v = cuda::std::is_base_of_v<tag, T> && !cuda::std::is_same_v<tag, T>;

}  // namespace cascade::segment

namespace cascade::detail {

template <class Owner>
struct segment_owner {
  static_assert(sizeof(Owner) == 0,
                "cascade: no segment_owner for this owner tag; use one from cascade::segment (e.g. "
                "cascade::segment::warp<32>) or specialize cascade::detail::segment_owner for yours");
};

}  // namespace cascade::detail
