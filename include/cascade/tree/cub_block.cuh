// cascade/tree/cub_block.cuh: the block step delegated to cub::BlockReduce (its default algorithm,
// BLOCK_REDUCE_WARP_REDUCTIONS), a reference point inside cascade's own kernels: same tile loop and
// finish, CUB's tree. CUB documents BLOCK_REDUCE_WARP_REDUCTIONS as supporting non-commutative ops
// (threads combined in rank order), and the non-commutative tests hold it to that.
#pragma once

#include <cub/block/block_reduce.cuh>

#include "tag.cuh"

namespace cascade::tree {

struct cub_block : tag {
  static constexpr char const* name = "tree::cub_block";
  static constexpr bool preserves_order = true;
};

}  // namespace cascade::tree

namespace cascade::detail {

template <int BlockSize, class T>
struct block_reduce<tree::cub_block, BlockSize, T> {
  using cub_reduce = cub::BlockReduce<T, BlockSize>;
  struct storage {
    typename cub_reduce::TempStorage temp;
  };

  template <class Op>
  __device__ T operator()(storage& s, T value, int num_valid, Op op) const {
    if (num_valid >= BlockSize) return cub_reduce(s.temp).Reduce(value, op);
    return cub_reduce(s.temp).Reduce(value, op, num_valid);
  }
};

}  // namespace cascade::detail
