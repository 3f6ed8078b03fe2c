// cascade/tree/unrolled_warp.cuh: sequential addressing down to 64 values, then the last warp
// without block-wide barriers.
//
// The slides' kernel 5 ("unroll the last warp"), the blog ladder's warpReduce. Once 32 threads or fewer are
// active, __syncthreads() is wasted on the other warps; one warp finishes alone. The seeds do it with
// `volatile` and no barrier, a race since Volta; detail/warp_tail.cuh explains and fixes it with
// __syncwarp(). Reorders operands (like `sequential`).
#pragma once

#include "../detail/shared_array.cuh"
#include "../detail/warp_tail.cuh"
#include "tag.cuh"

namespace cascade::tree {

struct unrolled_warp : tag {
  static constexpr char const* name = "tree::unrolled_warp";
  static constexpr bool preserves_order = false;
};

}  // namespace cascade::tree

namespace cascade::detail {

template <int BlockSize, class T>
struct block_reduce<tree::unrolled_warp, BlockSize, T> {
  using storage = shared_array<T, BlockSize>;

  template <class Op>
  __device__ T operator()(storage& s, T value, int num_valid, Op op) const {
    T* data = s.data();
    int const tid = threadIdx.x;
    if (tid < num_valid) data[tid] = value;
    __syncthreads();
    for (int stride = BlockSize / 2; stride > 32; stride >>= 1) {
      if (tid < stride && tid + stride < num_valid) data[tid] = static_cast<T>(op(data[tid], data[tid + stride]));
      __syncthreads();
    }
    if (tid < 32) value = warp_tail<BlockSize>(data, num_valid, op);
    return value;
  }
};

}  // namespace cascade::detail
