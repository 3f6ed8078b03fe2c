// cascade/tree/interleaved_strided.cuh: interleaved addressing with a strided index.
//
// The slides' kernel 2. Thread tid works on index = 2 * stride * tid, so the active threads are the
// first ones (no divergence inside full warps), but a warp's accesses are 2 * stride words apart:
// shared-memory bank conflicts, up to 16-way. Same pairs as `interleaved`: order is preserved.
#pragma once

#include "../detail/block/shared_tree.cuh"
#include "tag.cuh"

namespace cascade::tree {

struct interleaved_strided : tag {
  static constexpr char const* name = "tree::interleaved_strided";
  static constexpr bool preserves_order = true;
};

}  // namespace cascade::tree

namespace cascade::detail {

// Strides 1, 2, 4, ...: thread tid takes index 2 * stride * tid and its right neighbour at + stride.
struct interleaved_strided_pairs {
  static constexpr bool ascending = true;
  static constexpr int last_stride = 1;
  static constexpr bool warp_tail = false;
  static constexpr bool unroll = true;
  __device__ static bool pair(int tid, int stride, int& dst, int& src) {
    dst = 2 * stride * tid;
    src = dst + stride;
    return true;  // src < num_valid bounds it
  }
};

template <int BlockSize, class T>
struct block_reduce<tree::interleaved_strided, BlockSize, T>
    : shared_memory_tree<BlockSize, T, interleaved_strided_pairs> {};

}  // namespace cascade::detail
