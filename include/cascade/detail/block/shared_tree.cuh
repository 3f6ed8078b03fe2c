// cascade/detail/block/shared_tree.cuh: the skeleton of the shared-memory trees (interleaved,
// interleaved_strided, sequential, unrolled_warp, unrolled). Every thread stores its value, then in
// rounds some threads each combine two slots and the block waits at a barrier; the result is slot 0,
// or, for the trees that unroll the last warp, warp_tail's. A tree names only which slots a thread
// combines in a round (its Pairs) and how the rounds run:
//
//   struct Pairs {
//     static constexpr bool ascending;  // strides 1, 2, 4, ... (else BlockSize / 2, ..., down)
//     static constexpr int last_stride;  // descending: the smallest stride of a block-wide round
//     static constexpr bool warp_tail;   // descending: then the last warp alone (detail/block/warp_tail.cuh)
//     static constexpr bool unroll;      // unroll the rounds (#pragma unroll), or leave it to the compiler
//     // whether thread tid combines in the round of `stride`, and which slots: data[dst] op data[src]
//     __device__ static bool pair(int tid, int stride, int& dst, int& src);
//   };
//
// A pair whose src is past num_valid is skipped: a partial last tile's padding never enters the fold.
// Values too large for a slot a thread at the block's size share slots (shared_tree_slots).
#pragma once

#include "shared_array.cuh"
#include "warp_tail.cuh"

namespace cascade::detail {

// Bytes a tree's slots may take: a block's static shared memory is at most 48 KB, and the kernels
// keep a few words of their own beside the tree (finish::cluster: a slot per block of its cluster).
inline constexpr int shared_tree_bytes = 44 * 1024;

// Slots of a tree over BlockSize threads' values of T: one a thread, or, where that outgrows
// shared_tree_bytes (exact_plus's state of doubles, 48 bytes, at BlockSize 1024), the fewest halvings
// that fit: each slot then first folds its run of adjacent threads, in thread order.
template <int BlockSize, class T>
inline constexpr int shared_tree_slots = [] {
  int slots = BlockSize;
  while (slots > 32 && static_cast<long long>(sizeof(T)) * slots > shared_tree_bytes) slots /= 2;
  return slots;
}();

template <int BlockSize, class T, class Pairs>
struct shared_memory_tree {
  static constexpr int slots = shared_tree_slots<BlockSize, T>;
  static_assert(static_cast<long long>(sizeof(T)) * slots <= shared_tree_bytes,
                "cascade: the accumulator is too large for a shared-memory tree (32 of it must fit in 44 KB); "
                "use tree::shuffle or tree::cub_block, which keep a value a warp");
  using storage = shared_array<T, slots>;

  template <class Op>
  __device__ static void round(T* data, int tid, int stride, int num_valid, Op op) {
    int dst, src;
    if (Pairs::pair(tid, stride, dst, src) && src < num_valid) data[dst] = static_cast<T>(op(data[dst], data[src]));
    __syncthreads();
  }

  // The rounds over Slots slots, data[0, num_valid) loaded and visible; every thread of the block
  // calls it (threads past Slots pair nothing: their src lies past num_valid). The result is valid
  // in thread 0.
  template <int Slots, class Op>
  __device__ static T rounds(T* data, T value, int tid, int num_valid, Op op) {
    if constexpr (Pairs::ascending) {
#pragma unroll
      for (int stride = 1; stride < Slots; stride *= 2) round(data, tid, stride, num_valid, op);
    } else if constexpr (Pairs::unroll) {
#pragma unroll
      for (int stride = Slots / 2; stride >= Pairs::last_stride; stride >>= 1) round(data, tid, stride, num_valid, op);
    } else {
      for (int stride = Slots / 2; stride >= Pairs::last_stride; stride >>= 1) round(data, tid, stride, num_valid, op);
    }
    if constexpr (Pairs::warp_tail) {
      if (tid < 32) value = warp_tail<Slots>(data, num_valid, op);
      return value;
    } else {
      return data[0];
    }
  }

  template <class Op>
  __device__ T operator()(storage& s, T value, int num_valid, Op op) const {
    T* data = s.data();
    int const tid = threadIdx.x;
    if constexpr (slots == BlockSize) {
      if (tid < num_valid) data[tid] = value;
      __syncthreads();
      return rounds<BlockSize>(data, value, tid, num_valid, op);
    } else {
      // Threads ratio * j .. ratio * j + ratio - 1 fold into slot j, one at a time, in order.
      constexpr int ratio = BlockSize / slots;
      int const slot = tid / ratio, turn = tid % ratio;
#pragma unroll
      for (int r = 0; r < ratio; ++r) {
        if (turn == r && tid < num_valid) data[slot] = r == 0 ? value : static_cast<T>(op(data[slot], value));
        __syncthreads();
      }
      return rounds<slots>(data, value, tid, (num_valid + ratio - 1) / ratio, op);
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
