// cascade/finish/tag.cuh: what every finishing strategy (how block results become one value) shares.
//
// A strategy is a tag type deriving from cascade::finish::tag, plus a specialization of
// cascade::detail::finish_dispatch<Tag> with one static function the dispatch layer calls:
//
//   template <class Policy, class It, class Offset, class OutIt, class T, class Op>
//   static void run(It first, Offset n, OutIt d_out, T init, Op op, cudaStream_t stream);
//
// run() is called with n >= 1 and must write op(init, reduction of [first, first + n)) to *d_out,
// ordered on `stream`, without synchronizing the host.
#pragma once

#include <cuda/std/type_traits>

#include "../non_commutative.cuh"

namespace cascade::finish {

struct tag {
  // Whether it can take one value per thread (tree::none) rather than one per block.
  static constexpr bool accepts_per_thread_results = false;
  // Whether block results are combined strictly in block order; non-commutative ops need it.
  static constexpr bool preserves_order = false;
  // Whether its launch waits for kernels on other streams (finish::cooperative: its whole grid must be
  // resident at once). default_policy never names such a finish (tuning/table.cuh checks).
  static constexpr bool waits_for_other_streams = false;
};

template <class T>
inline constexpr bool is_finish_v = cuda::std::is_base_of_v<tag, T> && !cuda::std::is_same_v<tag, T>;

}  // namespace cascade::finish

namespace cascade::detail {

template <class Finish>
struct finish_dispatch {
  static_assert(sizeof(Finish) == 0,
                "cascade: no finish_dispatch for this finish tag; use a tag from cascade::finish "
                "(e.g. cascade::finish::recursive)");
};

// Checked by the dispatch layer for every call, as tree_order_check is for trees.
template <class Finish, class Op>
struct finish_order_check {
  static_assert(Finish::preserves_order || is_commutative_v<Op>,
                "cascade: the policy's finish combines block results out of order, and the op is "
                "cascade::non_commutative; use finish::recursive, finish::two_pass, finish::last_block, "
                "finish::flagged, finish::cooperative or finish::host");
  static constexpr bool value = true;
};

}  // namespace cascade::detail
