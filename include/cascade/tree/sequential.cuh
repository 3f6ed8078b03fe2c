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

#include "../detail/shared_array.cuh"
#include "tag.cuh"

namespace cascade::tree {

struct sequential : tag {
  static constexpr char const* name = "tree::sequential";
  static constexpr bool preserves_order = false;
};

}  // namespace cascade::tree

namespace cascade::detail {

template <int BlockSize, class T>
struct block_reduce<tree::sequential, BlockSize, T> {
  using storage = shared_array<T, BlockSize>;

  template <class Op>
  __device__ T operator()(storage& s, T value, int num_valid, Op op) const {
    T* data = s.data();
    int const tid = threadIdx.x;
    if (tid < num_valid) data[tid] = value;
    __syncthreads();
#pragma unroll
    for (int stride = BlockSize / 2; stride > 0; stride >>= 1) {
      // tid + stride < num_valid also skips the padding of a partial last tile.
      if (tid < stride && tid + stride < num_valid) data[tid] = static_cast<T>(op(data[tid], data[tid + stride]));
      __syncthreads();
    }
    return data[0];
  }
};

}  // namespace cascade::detail
