// cascade/tree/interleaved.cuh: interleaved addressing with a divergent branch.
//
// PMPP Fig 10.6 (SimpleSumReductionKernel), the slides' kernel 1. Stride doubles; a thread works when
// tid % (2 * stride) == 0, so active threads are scattered over every warp: divergent on purpose, and
// the slowest tree. Kept as the first rung of the ladder.
//
//   stride 1:  a0 a1 a2 a3 a4 a5 a6 a7  ->  (a0a1) . (a2a3) . (a4a5) . (a6a7) .
//   stride 2:                           ->  (a0a1a2a3) . . . (a4a5a6a7) . . .
//   stride 4:                           ->  (a0 ... a7)
//
// Each step combines a left neighbour with the right one: operand order is preserved.
#pragma once

#include "../detail/shared_array.cuh"
#include "tag.cuh"

namespace cascade::tree {

struct interleaved : tag {
  static constexpr char const* name = "tree::interleaved";
  static constexpr bool preserves_order = true;
};

}  // namespace cascade::tree

namespace cascade::detail {

template <int BlockSize, class T>
struct block_reduce<tree::interleaved, BlockSize, T> {
  using storage = shared_array<T, BlockSize>;

  template <class Op>
  __device__ T operator()(storage& s, T value, int num_valid, Op op) const {
    T* data = s.data();
    int const tid = threadIdx.x;
    if (tid < num_valid) data[tid] = value;
    __syncthreads();
#pragma unroll
    for (int stride = 1; stride < BlockSize; stride *= 2) {
      if (tid % (2 * stride) == 0 && tid + stride < num_valid)
        data[tid] = static_cast<T>(op(data[tid], data[tid + stride]));
      __syncthreads();
    }
    return data[0];
  }
};

}  // namespace cascade::detail
