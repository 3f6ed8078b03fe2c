// cascade/tree/interleaved_strided.cuh: interleaved addressing with a strided index.
//
// The slides' kernel 2. Thread tid works on index = 2 * stride * tid, so the active threads are the
// first ones (no divergence inside full warps), but a warp's accesses are 2 * stride words apart:
// shared-memory bank conflicts, up to 16-way. Same pairs as `interleaved`: order is preserved.
#pragma once

#include "../detail/shared_array.cuh"
#include "tag.cuh"

namespace cascade::tree {

struct interleaved_strided : tag {
  static constexpr char const* name = "tree::interleaved_strided";
  static constexpr bool preserves_order = true;
};

}  // namespace cascade::tree

namespace cascade::detail {

template <int BlockSize, class T>
struct block_reduce<tree::interleaved_strided, BlockSize, T> {
  using storage = shared_array<T, BlockSize>;

  template <class Op>
  __device__ T operator()(storage& s, T value, int num_valid, Op op) const {
    T* data = s.data();
    int const tid = threadIdx.x;
    if (tid < num_valid) data[tid] = value;
    __syncthreads();
#pragma unroll
    for (int stride = 1; stride < BlockSize; stride *= 2) {
      int const index = 2 * stride * tid;
      if (index + stride < num_valid) data[index] = static_cast<T>(op(data[index], data[index + stride]));
      __syncthreads();
    }
    return data[0];
  }
};

}  // namespace cascade::detail
