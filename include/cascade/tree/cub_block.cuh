// cascade/tree/cub_block.cuh: the block step delegated to cub::BlockReduce (its default algorithm,
// BLOCK_REDUCE_WARP_REDUCTIONS), a reference point inside cascade's own kernels: same tile loop and
// finish, CUB's tree. CUB documents BLOCK_REDUCE_WARP_REDUCTIONS as supporting non-commutative ops
// (threads combined in rank order), and the non-commutative tests hold it to that. The registry
// (tree/all.cuh) and cascade.cuh include only its tag (tree/cub_block_tag.cuh); a file that names it
// includes this header.
#pragma once

#include <cub/block/block_reduce.cuh>

#include "cub_block_tag.cuh"

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
