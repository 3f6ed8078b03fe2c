// cascade/detail/block/warp_tail.cuh: the last warp of a shared-memory tree (the slides' kernel 5
// "unroll the last warp", the blog ladder's warpReduce), written to be correct under independent thread
// scheduling (Volta and later).
//
// The seeds run `sdata[tid] += sdata[tid + 16]; sdata[tid] += sdata[tid + 8]; ...` with no barrier,
// trusting the 32 threads of a warp to run in lockstep. Since Volta they need not: a thread may read
// sdata[tid + 8] before the neighbour has written its sum for the step before, or after it has
// written the next one. `volatile` only keeps values out of registers; it orders nothing between
// threads. Here each step reads its operand into a register, then __syncwarp() separates the reads
// from the writes of the next step.
#pragma once

#include "../meta/config.cuh"

namespace cascade::detail {

// On entry data[0, min(num_valid, 2 * 32)) hold values (for BlockSize >= 64) or data[0, num_valid)
// (BlockSize == 32), and a __syncthreads() has made them visible. Called by threads 0..31 only;
// the result is valid in thread 0.
template <int BlockSize, class T, class Op>
__device__ T warp_tail(T* data, int num_valid, Op op) {
  int const tid = threadIdx.x;
  T value = data[tid];
  if constexpr (BlockSize >= 64) {
    if (tid + 32 < num_valid) value = static_cast<T>(op(value, data[tid + 32]));
  }
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) {
    __syncwarp();
    data[tid] = value;
    __syncwarp();
    if (tid + offset < num_valid) value = static_cast<T>(op(value, data[tid + offset]));
  }
  return value;
}

}  // namespace cascade::detail
