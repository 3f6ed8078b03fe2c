// cascade/tree/by_commutativity.cuh: one tree for commutative ops, another for non-commutative ones,
// chosen per call from the op's type.
//
//   using p = cascade::policy<256, 16, cascade::tree::by_commutativity<cascade::tree::sequential,
//                                                                      cascade::tree::shuffle>,
//                             cascade::finish::recursive>;
//   cascade::reduce(p{}, d, d + n, 0.0f);                                  // sequential
//   cascade::reduce(p{}, m, m + n, unit, cascade::non_commutative(mul));  // shuffle, in order
//
// default_policy is built this way, so it serves any op.
#pragma once

#include <cuda/std/type_traits>

#include "../ops/non_commutative.cuh"
#include "tag.cuh"

namespace cascade::detail {

// by_commutativity's second tree must preserve order; the message names the registry's trees that do.
template <class Rejected, class Alternatives>
struct reject_reordering_choice;
template <class Rejected, class... Alternatives>
struct reject_reordering_choice<Rejected, type_list<Alternatives...>> {
  static_assert(sizeof...(Alternatives) < 0,
                "cascade::tree::by_commutativity: the second tree (Rejected, below) serves non-commutative ops and "
                "must preserve operand order; use one of the trees listed below as Alternatives");
  static constexpr bool value = true;  // reported above; no second error
};

}  // namespace cascade::detail

namespace cascade::tree {

template <class Commutative, class NonCommutative>
struct by_commutativity : tag {
  static_assert(is_tree_v<Commutative> && is_tree_v<NonCommutative>,
                "cascade::tree::by_commutativity: both arguments must be tree tags, e.g. "
                "by_commutativity<tree::sequential, tree::shuffle>");
  static_assert(detail::require_strategy<NonCommutative::preserves_order, detail::reject_reordering_choice,
                                         NonCommutative, detail::tree_registry, detail::preserves_order_of>::value);
  static_assert(!Commutative::per_thread_results && !NonCommutative::per_thread_results,
                "cascade::tree::by_commutativity: tree::none cannot be one of the choices; name it directly");
  static constexpr char const* name = "tree::by_commutativity";
  static constexpr bool preserves_order = true;  // whichever op comes, the tree it gets keeps order if needed
};

}  // namespace cascade::tree

namespace cascade::detail {

template <class Commutative, class NonCommutative, class Op>
struct resolve_tree<tree::by_commutativity<Commutative, NonCommutative>, Op> {
  using type = cuda::std::conditional_t<is_commutative_v<Op>, Commutative, NonCommutative>;
};

}  // namespace cascade::detail
