// cascade/tree/sequential.cuh: sequential addressing in shared memory.
//
// PMPP Fig 10.9/10.11 (convergent kernel), the slides' kernels 3 and 4. Each step folds the upper half
// of the live values onto the lower half, so active threads stay contiguous (no divergence inside
// warps until fewer than 32 are active) and a warp's accesses hit 32 distinct banks:
//
//   stride 4:  [a0 a1 a2 a3 | a4 a5 a6 a7]  ->  a0+a4  a1+a5  a2+a6  a3+a7
//   stride 2:  [b0 b1 | b2 b3]              ->  b0+b2  b1+b3
//   stride 1:  [c0 | c1]                    ->  c0+c1
//
// Operands are reordered (a0 meets a4 first), so the op must be commutative as well as associative.
#pragma once

#include "../detail/block/shared_tree.cuh"
#include "tag.cuh"

namespace cascade::tree {

struct sequential : tag {
  static constexpr char const* name = "tree::sequential";
  static constexpr bool preserves_order = false;
};

}  // namespace cascade::tree

namespace cascade::detail {

template <int BlockSize, class T>
struct block_reduce<tree::sequential, BlockSize, T>
    : shared_memory_tree<BlockSize, T, sequential_pairs<1, false, true>> {};

}  // namespace cascade::detail
