// cascade/tree/tag.cuh: what every tree strategy (how a block combines its threads' values) shares.
//
// A strategy is a tag type deriving from cascade::tree::tag, plus a specialization of
// cascade::detail::block_reduce<Tag, BlockSize, T> with the one interface the kernels call:
//
//   struct storage;                                          // shared memory it needs
//   template <class Op>
//   __device__ T operator()(storage&, T thread_value, int num_valid, Op op) const;
//
// Threads [0, num_valid) hold a value (a valid prefix of the block); the result is valid in thread 0.
#pragma once

#include <cuda/std/type_traits>

#include "../non_commutative.cuh"

namespace cascade::tree {

struct tag {
  // Whether the strategy combines operands strictly left to right; non-commutative ops need it.
  static constexpr bool preserves_order = false;
  // Whether every thread's value goes to the finish instead of one value per block (tree::none).
  static constexpr bool per_thread_results = false;
};

template <class T>
inline constexpr bool is_tree_v = cuda::std::is_base_of_v<tag, T> && !cuda::std::is_same_v<tag, T>;

}  // namespace cascade::tree

namespace cascade::detail {

template <class Tree, int BlockSize, class T>
struct block_reduce {
  static_assert(sizeof(Tree) == 0,
                "cascade: no block_reduce for this tree tag; use a tag from cascade::tree "
                "(e.g. cascade::tree::sequential) or specialize cascade::detail::block_reduce for yours");
};

// The tree a call with op Op uses: Tree itself, except for choosers such as tree::by_commutativity.
template <class Tree, class Op>
struct resolve_tree {
  using type = Tree;
};
template <class Tree, class Op>
using resolve_tree_t = typename resolve_tree<Tree, Op>::type;

// Checked by the dispatch layer for every call: a tree that reorders operands cannot serve an op
// marked non_commutative. Reordering trees specialize it to name themselves in the message.
template <class Tree, class Op>
struct tree_order_check {
  static_assert(Tree::preserves_order || is_commutative_v<Op>,
                "cascade: the policy's tree reorders operands, and the op is cascade::non_commutative; use an "
                "order-preserving tree (tree::shuffle, tree::interleaved, tree::interleaved_strided, tree::redux "
                "or tree::cub_block), or cascade::default_policy, which picks one by itself");
  static constexpr bool value = true;
};

}  // namespace cascade::detail
