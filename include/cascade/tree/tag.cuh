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

}  // namespace cascade::detail
