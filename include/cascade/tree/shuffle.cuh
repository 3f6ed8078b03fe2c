// cascade/tree/shuffle.cuh: warp shuffles, per-warp partials in shared memory, a final warp.
//
// Seed 004's reduce4/reduce5 (__shfl_down_sync). Within a warp values move register to register;
// shared memory holds one value per warp, and only two __syncthreads()-free warp passes plus one
// barrier remain. Offsets go up (1, 2, 4, 8, 16), so each lane holds an ordered window and operand
// order is preserved (the seeds' descending offsets would reorder). Any trivially copyable T: it is
// shuffled in 4-byte words.
#pragma once

#include "../detail/block/warp_reduce.cuh"
#include "tag.cuh"

namespace cascade::tree {

struct shuffle : tag {
  static constexpr char const* name = "tree::shuffle";
  static constexpr bool preserves_order = true;
};

}  // namespace cascade::tree

namespace cascade::detail {

template <int BlockSize, class T>
struct block_reduce<tree::shuffle, BlockSize, T> : warp_block_reduce<BlockSize, T, shuffle_warp_reduce> {};

}  // namespace cascade::detail
