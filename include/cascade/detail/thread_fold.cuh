// cascade/detail/thread_fold.cuh: the tile loop. Each thread folds its items, CoarseFactor per tile,
// over the tiles its block owns, before the block's tree combines the threads' values.
//
// Tile layout (BlockSize B, CoarseFactor C): a tile is B*C consecutive items; thread t takes items
// t, t + B, ..., t + (C-1)*B, so each of the C loads is coalesced across the block (PMPP Fig 10.15,
// the slides' kernel 7). Block b owns tiles b, b + gridDim.x, ... (one tile when the grid covers n).
#pragma once

#include <cuda/std/type_traits>

namespace cascade::detail {

template <int BlockSize, int CoarseFactor, class T, class It, class Offset, class Op>
__device__ void fold_full_tile(T& acc, bool first_tile, It first, Offset base, Op op) {
  // Load every item of the tile first so that all C loads are in flight before the first use.
  T items[CoarseFactor];
#pragma unroll
  for (int k = 0; k < CoarseFactor; ++k) items[k] = static_cast<T>(first[base + threadIdx.x + Offset(k) * BlockSize]);
  int k0 = 0;
  if (first_tile) {
    acc = items[0];
    k0 = 1;
  }
#pragma unroll
  for (int k = 0; k < CoarseFactor; ++k)
    if (k >= k0) acc = static_cast<T>(op(acc, items[k]));
}

template <int BlockSize, int CoarseFactor, class T, class It, class Offset, class Op>
__device__ void fold_partial_tile(T& acc, bool first_tile, It first, Offset base, Offset n, Op op) {
#pragma unroll
  for (int k = 0; k < CoarseFactor; ++k) {
    Offset const i = base + threadIdx.x + Offset(k) * BlockSize;
    if (i < n) {
      if (first_tile && k == 0) acc = static_cast<T>(first[i]);  // the caller guarantees this one exists
      else acc = static_cast<T>(op(acc, first[i]));
    }
  }
}

// Returns this thread's fold of its items; `num_valid` receives how many threads of the block hold
// one (always a prefix [0, num_valid)). Threads outside the prefix return an unspecified value.
// The block is block `block` of `grid` (blockIdx.x of gridDim.x, or 0 of 1 for a block that folds
// a whole range alone, as the last block of a single-pass finish does).
template <int BlockSize, int CoarseFactor, class T, class It, class Offset, class Op>
__device__ T fold_tiles(It first, Offset n, Op op, int& num_valid, unsigned block, unsigned grid) {
  constexpr Offset tile = Offset(BlockSize) * CoarseFactor;
  Offset base = Offset(block) * tile;
  Offset const stride = Offset(grid) * tile;
  Offset const remaining = n - base;  // >= 1: the grid never exceeds the tile count
  num_valid = remaining < Offset(BlockSize) ? static_cast<int>(remaining) : BlockSize;

  T acc{};
  if (static_cast<int>(threadIdx.x) >= num_valid) return acc;
  bool first_tile = true;
  for (; base < n; base += stride) {
    if (n - base >= tile) fold_full_tile<BlockSize, CoarseFactor>(acc, first_tile, first, base, op);
    else fold_partial_tile<BlockSize, CoarseFactor>(acc, first_tile, first, base, n, op);
    first_tile = false;
  }
  return acc;
}

}  // namespace cascade::detail
