// cascade/tree/tag.cuh: what every tree strategy (how a block combines its threads' values) shares.
//
// A strategy is a tag type deriving from cascade::tree::tag, with a `name` and the properties below,
// plus a specialization of cascade::detail::block_reduce<Tag, BlockSize, T> with the one interface
// the kernels call:
//
//   struct storage;                                          // shared memory it needs
//   template <class Op>
//   __device__ T operator()(storage&, T thread_value, int num_valid, Op op) const;
//
// Threads [0, num_valid) hold a value (a valid prefix of the block); the result is valid in thread 0.
// cascade's own trees are listed once, in tree/all.cuh: tests, bench, tuner and the compile-time
// messages that name alternatives go through that list.
#pragma once

#include <cuda/std/type_traits>

#include "../detail/meta/reject.cuh"
#include "../detail/meta/type_list.cuh"
#include "../ops/non_commutative.cuh"

namespace cascade::tree {

struct tag {
  // Whether the strategy combines operands strictly left to right; non-commutative ops need it.
  static constexpr bool preserves_order = false;
  // Whether every thread's value goes to the finish instead of one value per block (tree::none).
  static constexpr bool per_thread_results = false;
  // The oldest compute capability (x 10) on which it runs its own code path; older devices take the
  // fallback its header names (tree::redux: shuffles below 8.0).
  static constexpr int native_arch = 0;
  // Each tree also says `static constexpr char const* name = "tree::...";`.
};

template <class T>
inline constexpr bool is_tree_v = cuda::std::is_base_of_v<tag, T> && !cuda::std::is_same_v<tag, T>;

}  // namespace cascade::tree

namespace cascade::detail {

template <class Tree, int BlockSize, class T>
struct block_reduce {
  static_assert(sizeof(Tree) == 0,
                "cascade: no block_reduce for this tree tag; use a tag from cascade::tree "
                "(e.g. cascade::tree::sequential) or specialize cascade::detail::block_reduce for yours. "
                "tree::cub_block's is in <cascade/tree/cub_block.cuh> (it brings CUB; cascade.cuh leaves it "
                "out): include it");
};

// The tree a call with op Op uses: Tree itself, except for choosers such as tree::by_commutativity.
template <class Tree, class Op>
struct resolve_tree {
  using type = Tree;
};
template <class Tree, class Op>
using resolve_tree_t = typename resolve_tree<Tree, Op>::type;

// tree_registry<D>::type is tree::all (tree/all.cuh defines it). Dependent on D so that it is looked
// up only where a check fails and wants to name alternatives: a file that includes one tree does
// not pull in every tree.
template <class Dependent>
struct tree_registry;

template <class Tree>
struct preserves_order_of : cuda::std::bool_constant<Tree::preserves_order> {};

// The failed check's message (detail/meta/reject.cuh), the registry's order-preserving trees below it.
template <class Rejected, class Alternatives>
struct reject_reordering_tree;
template <class Rejected, class... Alternatives>
struct reject_reordering_tree<Rejected, type_list<Alternatives...>> {
  static_assert(sizeof...(Alternatives) < 0,
                "cascade: the policy's tree (Rejected, below) reorders operands, and the op is "
                "cascade::non_commutative; use one of the order-preserving trees listed below as Alternatives, or "
                "cascade::default_policy, which picks one by itself");
  static constexpr bool value = true;  // reported above; no second error
};

// Checked by the dispatch layer for every call: a tree that reorders operands cannot serve an op
// marked non_commutative.
template <class Tree, class Op>
inline constexpr bool tree_order_ok =
    require_strategy<Tree::preserves_order || is_commutative_v<Op>, reject_reordering_tree, Tree, tree_registry,
                     preserves_order_of>::value;

}  // namespace cascade::detail
