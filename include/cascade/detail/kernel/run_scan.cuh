// cascade/detail/kernel/run_scan.cuh: reduce_by_key's single pass. Runs of equal consecutive keys
// are a segmented scan: each tile of BlockSize x ItemsPerThread pairs finds its run heads (an item
// whose key differs from the one before it), folds each thread's items, scans the threads' carries
// across the block, takes the carry of every earlier tile by decoupled look-back (Merrill and
// Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back", as CUB's ReduceByKey), and
// writes each run's first key and its fold where the run ends. One kernel after a memset of the
// tiles' flags; tiles are handed out in order of the blocks' start, so a tile's predecessors are
// running or done and the look-back always ends. The fold within a run is exactly the left fold,
// so any associative op serves, non-commutative ones included.
#pragma once

#include <cuda/atomic>
#include <cuda/std/cstdint>

#include "../block/l2_reader.cuh"
#include "../block/shuffle.cuh"
#include "../meta/config.cuh"
#include "sinks.cuh"
#include "tile_loop.cuh"  // item_value_t
#include "vector_load.cuh"

namespace cascade::detail {

// What a stretch of items carries to the next: how many runs start in it, and the fold of its items
// from its last run head (from its start when none starts in it). `any`: whether it holds items.
template <class T>
struct run_carry {
  cuda::std::int64_t heads;
  T tail;
  bool any;
};

// a, then b.
template <class T, class Op>
__device__ run_carry<T> then(run_carry<T> const& a, run_carry<T> const& b, Op const& op) {
  if (!a.any) return b;
  if (!b.any) return a;
  return {a.heads + b.heads, b.heads > 0 ? b.tail : static_cast<T>(op(a.tail, b.tail)), true};
}

// The tiles' published carries: flags[t] is 0 until tile t publishes its own carry (1, in
// aggregates[t]) and then the carry of every item up to its end (2, in inclusive[t]); two arrays, so
// that a reader of a 1 never sees the slot rewritten.
template <class T>
struct tile_carries {
  unsigned* next_tile;  // zeroed: the order tiles are handed out in
  unsigned* flags;      // zeroed
  run_carry<T>* aggregates;
  run_carry<T>* inclusive;

  __device__ void publish(unsigned tile, run_carry<T> const& c, bool is_inclusive) const {
    store_value((is_inclusive ? inclusive : aggregates) + tile, c);  // (padding zeroed: initcheck reads words)
    cuda::atomic_ref<unsigned, cuda::thread_scope_device>(flags[tile])
        .store(is_inclusive ? 2u : 1u, cuda::memory_order_release);
  }
  // The carry of every item before tile `tile` (> 0): walks back until a tile whose inclusive carry
  // is published, waiting on any that has published nothing yet.
  template <class Op>
  __device__ run_carry<T> look_back(unsigned tile, Op const& op) const {
    run_carry<T> prefix{0, T{}, false};
    for (unsigned j = tile; j-- > 0;) {
      unsigned f;
      cuda::atomic_ref<unsigned, cuda::thread_scope_device> flag(flags[j]);
      while ((f = flag.load(cuda::memory_order_acquire)) == 0) {
      }
      run_carry<T> const c = l2_reader<run_carry<T>>{f == 2 ? inclusive : aggregates}[j];
      prefix = then(c, prefix, op);
      if (f == 2) break;
    }
    return prefix;
  }
};

// The block's exclusive scan of the threads' carries (each thread gets the carry of the threads
// before it) and, in `total`, of them all. Warp scans by shuffles, then the warps' totals.
template <int BlockSize, class T, class Op>
__device__ run_carry<T> block_exclusive_scan(run_carry<T> c, Op const& op, run_carry<T>& total,
                                             run_carry<T> (&warp_totals)[BlockSize / 32]) {
  constexpr int warps = BlockSize / 32;
  int const lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  run_carry<T> inclusive = c;
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    run_carry<T> const other = shuffle_up(inclusive, d);
    if (lane >= d) inclusive = then(other, inclusive, op);
  }
  run_carry<T> exclusive = shuffle_up(inclusive, 1);
  if (lane == 0) exclusive = {0, T{}, false};
  if (lane == 31) warp_totals[warp] = inclusive;
  __syncthreads();
  if (warp == 0) {
    run_carry<T> w = lane < warps ? warp_totals[lane] : run_carry<T>{0, T{}, false};
#pragma unroll
    for (int d = 1; d < warps; d *= 2) {
      run_carry<T> const other = shuffle_up(w, d);
      if (lane >= d) w = then(other, w, op);
    }
    if (lane < warps) warp_totals[lane] = w;  // now inclusive over the warps
  }
  __syncthreads();
  total = warp_totals[warps - 1];
  if (warp > 0) exclusive = then(warp_totals[warp - 1], exclusive, op);
  return exclusive;
}

// A thread's `valid` consecutive items from first + at into out[0..valid), as X: 16 bytes a load
// where the input is a suitable pointer and the thread's run is whole and aligned.
template <int Items, class X, class It>
__device__ void load_consecutive(X (&out)[Items], It const& first, cuda::std::int64_t at, int valid) {
  if constexpr (vectorizable<It, Items>) {
    if (valid == Items && is_vector_aligned(first)) {
      constexpr int width = vector_input<It>::width;
#pragma unroll
      for (int q = 0; q < Items / width; ++q) {
        auto const raw = vector_input<It>::load(first, at + q * width);
#pragma unroll
        for (int w = 0; w < width; ++w) out[q * width + w] = static_cast<X>(vector_input<It>::item(first, raw, w, at));
      }
      return;
    }
  }
#pragma unroll
  for (int j = 0; j < Items; ++j)
    if (j < valid) out[j] = static_cast<X>(first[at + j]);
}

template <class K>
struct run_scan_shared_keys {
  K first_of_warp[32];  // each warp's first key, for the lane before it
  K last_of_warp[32];   // each warp's last key, for the lane after it
};

// One tile a block: n pairs (keys[i], values[i]); outputs as reduce_by_key says.
template <int BlockSize, int ItemsPerThread, class T, class KeyIt, class ValIt, class KeyOut, class ValOut,
          class CountOut, class Eq, class Op>
__global__ void __launch_bounds__(BlockSize)
    reduce_by_key_kernel(KeyIt keys, ValIt values, cuda::std::int64_t n, KeyOut keys_out, ValOut values_out,
                         CountOut count_out, Eq eq, Op op, tile_carries<T> carries) {
  using K = item_value_t<decltype(keys[0])>;
  constexpr cuda::std::int64_t tile_items = cuda::std::int64_t(BlockSize) * ItemsPerThread;
  __shared__ unsigned tile_shared;
  __shared__ run_carry<T> warp_totals[BlockSize / 32];
  __shared__ run_carry<T> tile_prefix;
  __shared__ run_scan_shared_keys<K> edge_keys;

  if (threadIdx.x == 0) tile_shared = atomicAdd(carries.next_tile, 1u);
  __syncthreads();
  unsigned const tile = tile_shared;
  cuda::std::int64_t const tile_base = cuda::std::int64_t(tile) * tile_items;
  cuda::std::int64_t const mine = tile_base + cuda::std::int64_t(threadIdx.x) * ItemsPerThread;
  int const lane = threadIdx.x % 32, warp = threadIdx.x / 32;

  // This thread's items, in order; `valid` of them lie before n.
  K k[ItemsPerThread];
  T v[ItemsPerThread];
  int const valid = n - mine >= ItemsPerThread ? ItemsPerThread : n - mine > 0 ? static_cast<int>(n - mine) : 0;
  load_consecutive(k, keys, mine, valid);
  load_consecutive(v, values, mine, valid);
  // The key before this thread's first (from the lane before, the warp before, or the tile before)
  // and the key after its last.
  if (lane == 0) edge_keys.first_of_warp[warp] = k[0];
  if (lane == 31) edge_keys.last_of_warp[warp] = k[ItemsPerThread - 1];
  K before = shuffle_up(k[ItemsPerThread - 1], 1);
  K after = shuffle_down(k[0], 1);
  __syncthreads();
  bool const has_before = mine > 0;
  if (lane == 0 && has_before) before = warp > 0 ? edge_keys.last_of_warp[warp - 1] : keys[mine - 1];
  bool const has_after = valid == ItemsPerThread && mine + ItemsPerThread < n;
  if (lane == 31 && has_after) after = warp + 1 < BlockSize / 32 ? edge_keys.first_of_warp[warp + 1] : keys[mine + ItemsPerThread];

  // Heads, and the thread's carry.
  bool head[ItemsPerThread];
  run_carry<T> mine_carry{0, T{}, valid > 0};
#pragma unroll
  for (int j = 0; j < ItemsPerThread; ++j) {
    if (j < valid) {
      head[j] = j == 0 ? !has_before || !eq(before, k[0]) : !eq(k[j - 1], k[j]);
      if (head[j]) {
        ++mine_carry.heads;
        mine_carry.tail = v[j];
      } else {
        mine_carry.tail = j == 0 ? v[0] : static_cast<T>(op(mine_carry.tail, v[j]));
      }
    }
  }
  run_carry<T> block_total;
  run_carry<T> const within = block_exclusive_scan<BlockSize>(mine_carry, op, block_total, warp_totals);

  // The carry of every earlier tile: thread 0 publishes this tile's and looks back.
  if (threadIdx.x == 0) {
    if (tile == 0) {
      carries.publish(0, block_total, true);
      tile_prefix = {0, T{}, false};
    } else {
      carries.publish(tile, block_total, false);
      run_carry<T> const prefix = carries.look_back(tile, op);
      carries.publish(tile, then(prefix, block_total, op), true);
      tile_prefix = prefix;
    }
  }
  __syncthreads();
  run_carry<T> const prefix = then(tile_prefix, within, op);

  // Each run's first key where it starts, its fold where it ends.
  cuda::std::int64_t run = prefix.heads - 1;  // the run open before this thread's first item
  T acc = prefix.tail;
#pragma unroll
  for (int j = 0; j < ItemsPerThread; ++j) {
    if (j < valid) {
      if (head[j]) {
        ++run;
        keys_out[run] = k[j];
        acc = v[j];
      } else {
        acc = static_cast<T>(op(acc, v[j]));
      }
      bool const last_of_run = j + 1 < valid ? head[j + 1] : !(j + 1 == ItemsPerThread && has_after) || !eq(k[j], after);
      if (last_of_run) values_out[run] = acc;
      if (mine + j == n - 1) *count_out = run + 1;
    }
  }
}

}  // namespace cascade::detail
