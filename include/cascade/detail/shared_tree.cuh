// cascade/detail/shared_tree.cuh: the skeleton of the shared-memory trees (interleaved,
// interleaved_strided, sequential, unrolled_warp, unrolled). Every thread stores its value, then in
// rounds some threads each combine two slots and the block waits at a barrier; the result is slot 0,
// or, for the trees that unroll the last warp, warp_tail's. A tree names only which slots a thread
// combines in a round (its Pairs) and how the rounds run:
//
//   struct Pairs {
//     static constexpr bool ascending;  // strides 1, 2, 4, ... (else BlockSize / 2, ..., down)
//     static constexpr int last_stride;  // descending: the smallest stride of a block-wide round
//     static constexpr bool warp_tail;   // descending: then the last warp alone (detail/warp_tail.cuh)
//     static constexpr bool unroll;      // unroll the rounds (#pragma unroll), or leave it to the compiler
//     // whether thread tid combines in the round of `stride`, and which slots: data[dst] op data[src]
//     __device__ static bool pair(int tid, int stride, int& dst, int& src);
//   };
//
// A pair whose src is past num_valid is skipped: a partial last tile's padding never enters the fold.
#pragma once

#include "shared_array.cuh"
#include "warp_tail.cuh"

namespace cascade::detail {

template <int BlockSize, class T, class Pairs>
struct shared_memory_tree {
  using storage = shared_array<T, BlockSize>;

  template <class Op>
  __device__ static void round(T* data, int tid, int stride, int num_valid, Op op) {
    int dst, src;
    if (Pairs::pair(tid, stride, dst, src) && src < num_valid) data[dst] = static_cast<T>(op(data[dst], data[src]));
    __syncthreads();
  }

  template <class Op>
  __device__ T operator()(storage& s, T value, int num_valid, Op op) const {
    T* data = s.data();
    int const tid = threadIdx.x;
    if (tid < num_valid) data[tid] = value;
    __syncthreads();
    if constexpr (Pairs::ascending) {
#pragma unroll
      for (int stride = 1; stride < BlockSize; stride *= 2) round(data, tid, stride, num_valid, op);
    } else if constexpr (Pairs::unroll) {
#pragma unroll
      for (int stride = BlockSize / 2; stride >= Pairs::last_stride; stride >>= 1) round(data, tid, stride, num_valid, op);
    } else {
      for (int stride = BlockSize / 2; stride >= Pairs::last_stride; stride >>= 1) round(data, tid, stride, num_valid, op);
    }
    if constexpr (Pairs::warp_tail) {
      if (tid < 32) value = warp_tail<BlockSize>(data, num_valid, op);
      return value;
    } else {
      return data[0];
    }
  }
};

// Sequential addressing: thread tid < stride takes tid + stride.
template <int LastStride, bool WarpTail, bool Unroll>
struct sequential_pairs {
  static constexpr bool ascending = false;
  static constexpr int last_stride = LastStride;
  static constexpr bool warp_tail = WarpTail;
  static constexpr bool unroll = Unroll;
  __device__ static bool pair(int tid, int stride, int& dst, int& src) {
    dst = tid;
    src = tid + stride;
    return tid < stride;
  }
};

}  // namespace cascade::detail
