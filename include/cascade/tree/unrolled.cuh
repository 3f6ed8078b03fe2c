// cascade/tree/unrolled.cuh: the whole tree unrolled for the compile-time BlockSize.
//
// The slides' kernel 6 ("completely unrolled", the templated switch over block sizes). Each step is
// an `if constexpr` on BlockSize, so a block of 256 compiles to exactly the steps 128, 64 and the
// warp tail: no loop, no stride arithmetic. The policy's BlockSize is the template parameter the
// slides switch over. Reorders operands (like `sequential`).
#pragma once

#include "../detail/shared_array.cuh"
#include "../detail/warp_tail.cuh"
#include "tag.cuh"

namespace cascade::tree {

struct unrolled : tag {
  static constexpr char const* name = "tree::unrolled";
  static constexpr bool preserves_order = false;
};

}  // namespace cascade::tree

namespace cascade::detail {

template <int BlockSize, class T>
struct block_reduce<tree::unrolled, BlockSize, T> {
  using storage = shared_array<T, BlockSize>;

  template <int Stride, class Op>
  __device__ static void step(T* data, int tid, int num_valid, Op op) {
    if constexpr (BlockSize >= 2 * Stride) {
      if (tid < Stride && tid + Stride < num_valid) data[tid] = static_cast<T>(op(data[tid], data[tid + Stride]));
      __syncthreads();
    }
  }

  template <class Op>
  __device__ T operator()(storage& s, T value, int num_valid, Op op) const {
    T* data = s.data();
    int const tid = threadIdx.x;
    if (tid < num_valid) data[tid] = value;
    __syncthreads();
    step<512>(data, tid, num_valid, op);
    step<256>(data, tid, num_valid, op);
    step<128>(data, tid, num_valid, op);
    step<64>(data, tid, num_valid, op);
    if (tid < 32) value = warp_tail<BlockSize>(data, num_valid, op);
    return value;
  }
};

}  // namespace cascade::detail
