// cascade/detail/kernel/run_count.cuh: reduce_by_key in passes that never wait for one another's
// tiles (counted_tiles, run_scan.cuh). The keys' pass counts each tile's run heads and adds them to
// its stretch's sum; a kernel of a block a stretch turns those into each tile's first output; the
// pairs' pass (reduce_by_key_kernel with counted_tiles) writes every run that starts in a tile, and
// leaves each tile's carry and the part of the run open before it; a scan of the carries folds them
// into the runs that cross a tile's start. Five launches (the first zeroes) against the single
// pass's chain of look-backs: the better from 2^22 pairs on an H200 (docs/notes/reduce-by-key.md).
#pragma once

#include <cuda/std/cstdint>

#include "run_scan.cuh"

namespace cascade::detail {

// The run heads in each tile of BlockSize x ItemsPerThread keys to counts[tile] and added to its
// stretch's sums[tile / run_stretch_tiles] (at most 256 tiles' items: 32 bits), and whether the
// tile's first key is one to first_heads[tile]; where masks is not null (ItemsPerThread <= 32), each
// thread's heads as bits (bit j: its item j) to masks[tile x BlockSize + thread].
template <int BlockSize, int ItemsPerThread, class KeyIt, class Eq>
__global__ void __launch_bounds__(BlockSize)
    count_run_heads_kernel(KeyIt keys, cuda::std::int64_t n, Eq eq, int* counts, unsigned* sums,
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
  int total = 0;
  if (threadIdx.x == 0) {
#pragma unroll
    for (int w = 0; w < BlockSize / 32; ++w) total += warp_counts[w];
    counts[tile] = total;
  }
  // Launched as a dependent of the zeroing of the sums and the scan's flags (reduce_by_key.cuh): it
  // adds to a sum, and ends, only after it.
  wait_for_previous_grid();
  if (threadIdx.x == 0 && total > 0) atomicAdd(sums + tile / run_stretch_tiles, static_cast<unsigned>(total));
}

// before[t], the runs before tile t: the sums of the stretches before its stretch and the counts
// before it within it; a block a stretch (no look-back: the counts and sums are final). Block s
// reads s sums: one a thread at 2^28 pairs of 256 x 16 (256 stretches), 32 at 2^33.
template <int StretchTiles>
__global__ void __launch_bounds__(StretchTiles)
    runs_before_kernel(int const* counts, unsigned const* sums, cuda::std::int64_t tiles, cuda::std::int64_t* before) {
  constexpr int warps = StretchTiles / 32;
  __shared__ unsigned warp_counts[warps];
  __shared__ cuda::std::int64_t warp_sums[warps];
  unsigned const stretch = blockIdx.x;
  int const lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  cuda::std::int64_t const t = cuda::std::int64_t(stretch) * StretchTiles + threadIdx.x;
  wait_for_previous_grid();
  unsigned const count = t < tiles ? static_cast<unsigned>(counts[t]) : 0u;
  cuda::std::int64_t sum = 0;
  for (unsigned j = threadIdx.x; j < stretch; j += StretchTiles) sum += sums[j];
  unsigned inclusive = count;
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    unsigned const other = __shfl_up_sync(full_warp_mask, inclusive, d);
    if (lane >= d) inclusive += other;
  }
#pragma unroll
  for (int d = 16; d > 0; d /= 2) sum += __shfl_down_sync(full_warp_mask, sum, d);
  if (lane == 31) warp_counts[warp] = inclusive;
  if (lane == 0) warp_sums[warp] = sum;
  __syncthreads();
  cuda::std::int64_t base = inclusive - count;
#pragma unroll
  for (int w = 0; w < warps; ++w) base += warp_sums[w] + (w < warp ? warp_counts[w] : 0u);
  if (t < tiles) before[t] = base;
}

// What a block of scan_carries_kernel shares: as reduce_by_key_kernel's, for the same look-back.
template <int BlockSize, class T>
struct scan_carries_shared {
  run_carry<T> warp_totals[BlockSize / 32];
  run_carry<T> tile_prefix;
  run_carry<T> window_folds[BlockSize / 32];
  bool window_inclusive[BlockSize / 32];
};

// The runs that cross into a tile and end in it get the carry of the tiles before it, then the
// tile's part: a scan of the tiles' carries under then(a, b, op) (run_scan.cuh), each block
// BlockSize x Items tiles, the blocks before by the same decoupled look-back (`counted.carries_scan`'s
// flags zeroed before). Its items are final when it starts, so no block waits long: a few
// microseconds for the 65536 tiles of 2^28 pairs, where one block walking them (a stretch a thread)
// cost about 130 (docs/notes/reduce-by-key.md). A tile whose first key starts a run, or whose open
// run goes on past it, has none to fold.
template <int BlockSize, int Items, class T, class ValOut, class Op>
__global__ void __launch_bounds__(BlockSize)
    scan_carries_kernel(counted_tiles<T> counted, cuda::std::int64_t tiles, ValOut values_out, Op op) {
  __shared__ scan_carries_shared<BlockSize, T> sh;
  unsigned const block = blockIdx.x;
  wait_for_previous_grid();
  cuda::std::int64_t const at = (cuda::std::int64_t(block) * BlockSize + threadIdx.x) * Items;
  run_carry<T> c[Items];
  bool folds[Items];  // whether tile at + j ends a run that crosses into it
  cuda::std::int64_t before[Items];
  T parts[Items];
  run_carry<T> mine{0, T{}, false};
#pragma unroll
  for (int j = 0; j < Items; ++j) {
    cuda::std::int64_t const t = at + j;
    folds[j] = false;
    if (t < tiles) {
      c[j] = counted.carries[t];
      before[j] = counted.before[t];
      parts[j] = counted.parts[t];
      folds[j] = t > 0 && !counted.first_heads[t] &&
                 (counted.counts[t] > 0 || t + 1 == tiles || counted.first_heads[t + 1]);
    }
  }
#pragma unroll
  for (int j = 0; j < Items; ++j)
    if (at + j < tiles) mine = then(mine, c[j], op);
  run_carry<T> block_total;
  run_carry<T> const within = block_exclusive_scan<BlockSize>(mine, op, block_total, sh.warp_totals);
  run_carry<T> prefix = then(tile_prefix_of<BlockSize>(block, block_total, counted.carries_scan, sh, op), within, op);
#pragma unroll
  for (int j = 0; j < Items; ++j) {
    if (at + j < tiles) {
      if (folds[j])  // prefix: the carry of every tile before (any: tile 0 holds items)
        values_out[before[j] - 1] = static_cast<T>(op(prefix.tail, parts[j]));
      prefix = then(prefix, c[j], op);
    }
  }
}
inline constexpr int scan_carries_block = 256, scan_carries_items = 4;

}  // namespace cascade::detail
