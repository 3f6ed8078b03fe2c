// cascade/detail/kernel/run_count.cuh: reduce_by_key in passes that never wait for one another's
// tiles (counted_tiles, run_scan.cuh). The keys' pass counts each tile's run heads; a scan turns the
// counts into each tile's first output; the pairs' pass (reduce_by_key_kernel with counted_tiles)
// writes every run that starts in a tile, and leaves each tile's carry and the part of the run open
// before it; a scan of the carries, and a last pass folds them into the runs that cross a tile's
// start. Six launches against the single pass's chain of look-backs: the better from
// 2^24 pairs on an H200 (docs/notes/family.md).
#pragma once

#include <cuda/std/cstdint>

#include "run_scan.cuh"

namespace cascade::detail {

// The run heads in each tile of BlockSize x ItemsPerThread keys to runs[tile], and whether the
// tile's first key is one to first_heads[tile]; where masks is not null (ItemsPerThread <= 32), each
// thread's heads as bits (bit j: its item j) to masks[tile x BlockSize + thread].
template <int BlockSize, int ItemsPerThread, class KeyIt, class Eq>
__global__ void __launch_bounds__(BlockSize)
    count_run_heads_kernel(KeyIt keys, cuda::std::int64_t n, Eq eq, run_carry<unsigned char>* runs,
                           unsigned char* first_heads, unsigned* masks) {
  using K = item_value_t<decltype(keys[0])>;
  constexpr cuda::std::int64_t tile_items = cuda::std::int64_t(BlockSize) * ItemsPerThread;
  __shared__ int warp_counts[BlockSize / 32];
  unsigned const tile = blockIdx.x;
  cuda::std::int64_t const mine = cuda::std::int64_t(tile) * tile_items + cuda::std::int64_t(threadIdx.x) * ItemsPerThread;
  int const lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  int const valid = n - mine >= ItemsPerThread ? ItemsPerThread : n - mine > 0 ? static_cast<int>(n - mine) : 0;
  K k[ItemsPerThread];
  K before;
  if (lane == 0 && mine > 0 && valid > 0) before = keys[mine - 1];
  load_consecutive(k, keys, mine, valid);
  K const from_below = shuffle_up(k[ItemsPerThread - 1], 1);  // the lane before holds ItemsPerThread where this one holds any
  if (lane > 0) before = from_below;
  using mask_t = cuda::std::conditional_t<(ItemsPerThread <= 32), unsigned, unsigned long long>;
  mask_t bits = 0;
#pragma unroll
  for (int j = 0; j < ItemsPerThread; ++j)
    if (j < valid) bits |= mask_t((j == 0 ? mine == 0 || !eq(before, k[0]) : !eq(k[j - 1], k[j])) ? 1 : 0) << j;
  if constexpr (ItemsPerThread <= 32)
    if (masks != nullptr) masks[cuda::std::int64_t(tile) * BlockSize + threadIdx.x] = bits;
  int heads = inclusive_heads(bits);
  if (threadIdx.x == 0) first_heads[tile] = bits & 1;
#pragma unroll
  for (int d = 16; d > 0; d /= 2) heads += __shfl_down_sync(full_warp_mask, heads, d);
  if (lane == 0) warp_counts[warp] = heads;
  __syncthreads();
  if (threadIdx.x == 0) {
    int total = 0;
#pragma unroll
    for (int w = 0; w < BlockSize / 32; ++w) total += warp_counts[w];
    runs[tile] = {total, 0, true};
  }
  // Launched as a dependent of the scans' flags' zeroing (reduce_by_key.cuh): it ends only after it,
  // so that the scan after this kernel finds them zeroed.
  wait_for_previous_grid();
}

// What a block of scan_carries_kernel shares: as reduce_by_key_kernel's, for the same look-back.
template <int BlockSize, class T>
struct scan_carries_shared {
  run_carry<T> warp_totals[BlockSize / 32];
  run_carry<T> tile_prefix;
  run_carry<T> window_folds[BlockSize / 32];
  bool window_inclusive[BlockSize / 32];
};

// items[0..count) replaced by their exclusive scan under then(a, b, op) (run_scan.cuh), and the
// fold of them all to *total: a single pass, each block BlockSize x Items items, the blocks before
// by the same decoupled look-back (`blocks`' flags zeroed before). Its items are final when it
// starts, so no block waits long: a few microseconds for the 52429 tiles of 2^28 pairs, where one
// block walking them (a stretch a thread) cost about 130 (docs/notes/family.md).
template <int BlockSize, int Items, class T, class Op>
__global__ void __launch_bounds__(BlockSize)
    scan_carries_kernel(run_carry<T>* items, cuda::std::int64_t count, Op op, tile_carries<T> blocks,
                        run_carry<T>* total) {
  __shared__ scan_carries_shared<BlockSize, T> sh;
  unsigned const block = blockIdx.x;
  cuda::std::int64_t const at = (cuda::std::int64_t(block) * BlockSize + threadIdx.x) * Items;
  run_carry<T> c[Items];
  run_carry<T> mine{0, T{}, false};
#pragma unroll
  for (int j = 0; j < Items; ++j)
    if (at + j < count) c[j] = items[at + j];
#pragma unroll
  for (int j = 0; j < Items; ++j)
    if (at + j < count) mine = then(mine, c[j], op);
  run_carry<T> block_total;
  run_carry<T> const within = block_exclusive_scan<BlockSize>(mine, op, block_total, sh.warp_totals);
  run_carry<T> prefix = then(tile_prefix_of<BlockSize>(block, block_total, blocks, sh, op), within, op);
#pragma unroll
  for (int j = 0; j < Items; ++j) {
    if (at + j < count) {
      items[at + j] = prefix;
      prefix = then(prefix, c[j], op);
      if (at + j == count - 1) *total = prefix;
    }
  }
}
inline constexpr int scan_carries_block = 256, scan_carries_items = 4;

// The runs' count has no tail to fold: the heads add, the tail stays the first's.
struct keep_first {
  __device__ unsigned char operator()(unsigned char a, unsigned char) const { return a; }
};

// The runs that cross into a tile and end in it: the carry of the tiles before it, then the tile's
// part, to the run's value. A thread a tile; tiles whose first key starts a run, or whose open run
// goes on past them, have none.
template <class T, class ValOut, class Op>
__global__ void fold_crossing_runs_kernel(counted_tiles<T> counted, cuda::std::int64_t tiles, ValOut values_out, Op op) {
  cuda::std::int64_t const t = cuda::std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t == 0 || t >= tiles || counted.first_heads[t]) return;
  cuda::std::int64_t const runs_before = counted.runs[t].heads;
  bool const ends_here = counted.runs[t + 1].heads > runs_before || t + 1 == tiles || counted.first_heads[t + 1];
  if (!ends_here) return;
  run_carry<T> const before = counted.carries[t];  // any: tile 0 holds items
  values_out[runs_before - 1] = static_cast<T>(op(before.tail, counted.parts[t]));
}

}  // namespace cascade::detail
