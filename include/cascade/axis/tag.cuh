// cascade/axis/tag.cuh: what every axis owner (how threads take the outputs of an axis reduction,
// reduce_axes.cuh) shares.
//
// An owner is a tag type deriving from cascade::axis::tag, with a `name`, plus a specialization of
// cascade::detail::axis_owner<Owner> with the one interface the dispatch layer calls:
//
//   template <class Policy, class T, class It, class OutIt, class Op>
//   static void run(launch_context const& call, It first, axes_plan const& plan, OutIt d_out, T init, Op op);
//
// which writes, for every output o of the plan (detail/axes_plan.cuh), init op (o's items in the
// plan's reduced order) to d_out[plan.kept.out_offset(o)], ordered on call.stream(); while
// !call.launches() it takes its scratch and enqueues nothing. The segment owners (cascade/segment/)
// are axis policies too: each output's items are a segment. cascade's own axis owners are listed in
// axis/all.cuh.
#pragma once

#include "../detail/meta/config.cuh"

#include <cuda/std/type_traits>

namespace cascade::axis {

struct tag {
  // Each owner also says `static constexpr char const* name = "axis::...";`.
};

template <class T>
inline constexpr bool is_owner_v = cuda::std::is_base_of_v<tag, T> && !cuda::std::is_same_v<tag, T>;

}  // namespace cascade::axis

namespace cascade::detail {

template <class Owner>
struct axis_owner {
  static_assert(sizeof(Owner) == 0,
                "cascade: no axis_owner for this owner tag; use cascade::axis::columns, a segment owner (e.g. "
                "cascade::segment::warp<32>), or specialize cascade::detail::axis_owner for yours");
};

}  // namespace cascade::detail
