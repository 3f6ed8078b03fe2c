// cascade/detail/kernel/run_scan.cuh: reduce_by_key's single pass. Runs of equal consecutive keys
// are a segmented scan: each tile of BlockSize x ItemsPerThread pairs finds its run heads (an item
// whose key differs from the one before it), folds each thread's items, scans the threads' carries
// across the block, takes the carry of every earlier tile by decoupled look-back (Merrill and
// Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back", as CUB's ReduceByKey), and
// writes each run's first key and its fold where the run ends. One kernel after one zeroing the
// tiles' flags (or, where the keys were counted first, run_count.cuh, no look-back: counted_tiles);
// block b takes tile b, and the look-back ends because blocks start in the order of
// their index, so a tile's predecessors are running or done (what CUB's single-pass scans and
// ReduceByKey rely on too). The fold within a run is exactly the left fold, so any associative op
// serves, non-commutative ones included.
#pragma once

#include <cuda/atomic>
#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include <cstddef>

#include "../block/l2_reader.cuh"
#include "../block/shared_array.cuh"
#include "../block/shuffle.cuh"
#include "../meta/config.cuh"
#include "kernels.cuh"  // wait_for_previous_grid
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

// Whether a tile's carry and status fit one 16-byte word: 8 bytes of heads, T's 4 bytes or fewer, and
// the status.
template <class T>
inline constexpr bool packs_with_status = sizeof(T) <= 4 && cuda::std::is_trivially_copyable_v<T>;

// One 16-byte word whole, relaxed at device scope (as CUB's tile descriptors): a reader sees either
// the old word or the new, so a status and its carry need no fence between them.
__device__ __forceinline__ void store_word16(ulonglong2* p, ulonglong2 w) {
  asm volatile("st.relaxed.gpu.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(w.x), "l"(w.y) : "memory");
}
__device__ __forceinline__ ulonglong2 load_word16(ulonglong2 const* p) {
  ulonglong2 w;
  asm volatile("ld.relaxed.gpu.v2.u64 {%0, %1}, [%2];" : "=l"(w.x), "=l"(w.y) : "l"(p) : "memory");
  return w;
}

// The tiles' published carries. A tile's status is 0 until it publishes its own carry (1), then the
// carry of every item up to its end (2). Where the carry packs with its status, both live in one
// word (`words`: heads, then T's bytes and the status), written and read whole; otherwise flags[t]
// holds the status, released after aggregates[t] or inclusive[t] (two arrays, so that a reader of
// a 1 never sees the slot rewritten) and read relaxed, then fenced. Publishing a word needs no
// fence and reading one no L1 invalidation: an acquire load a poll (what cuda::atomic_ref compiles
// to) and a release a publish cost 2x CUB's time.
template <class T>
struct tile_carries {
  static constexpr bool packed = packs_with_status<T>;
  unsigned* flags;  // zeroed (unpacked)
  run_carry<T>* aggregates;
  run_carry<T>* inclusive;
  ulonglong2* words;  // zeroed (packed)

  // Their layout in one piece of scratch: [flags | padding | aggregates | inclusive], or [words]
  // where a carry packs with its status. bytes(): the piece's size; zeroed_bytes(): its head, which
  // the call zeroes before the kernel.
  static constexpr std::size_t flag_bytes(cuda::std::int64_t tiles) {
    return packed ? 0 : sizeof(unsigned) * std::size_t(tiles);
  }
  static constexpr std::size_t carries_at(cuda::std::int64_t tiles) { return (flag_bytes(tiles) + 255) / 256 * 256; }
  static constexpr std::size_t bytes(cuda::std::int64_t tiles) {
    return carries_at(tiles) + std::size_t(tiles) * (packed ? sizeof(ulonglong2) : 2 * sizeof(run_carry<T>));
  }
  static constexpr std::size_t zeroed_bytes(cuda::std::int64_t tiles) {
    return packed ? bytes(tiles) : flag_bytes(tiles);
  }
  static tile_carries in(void* scratch, cuda::std::int64_t tiles) {
    auto* const base = static_cast<unsigned char*>(scratch);
    auto* const carries = base + carries_at(tiles);
    return {reinterpret_cast<unsigned*>(base), reinterpret_cast<run_carry<T>*>(carries),
            reinterpret_cast<run_carry<T>*>(carries) + (packed ? 0 : tiles), reinterpret_cast<ulonglong2*>(carries)};
  }

  __device__ void publish(unsigned tile, run_carry<T> const& c, bool is_inclusive) const {
    unsigned const status = is_inclusive ? 2u : 1u;
    if constexpr (packed) {
      unsigned bits = 0;
      __builtin_memcpy(&bits, &c.tail, sizeof(T));
      store_word16(words + tile, {static_cast<unsigned long long>(c.heads),
                                  bits | static_cast<unsigned long long>(status) << 32});
    } else {
      store_value((is_inclusive ? inclusive : aggregates) + tile, c);  // (padding zeroed: initcheck reads words)
      cuda::atomic_ref<unsigned, cuda::thread_scope_device>(flags[tile]).store(status, cuda::memory_order_release);
    }
  }
  // Tile j's carry once it has published one; its status in `status`.
  __device__ run_carry<T> wait_for(cuda::std::int64_t j, unsigned& status) const {
    if constexpr (packed) {
      ulonglong2 w;
      while (((w = load_word16(words + j)).y >> 32) == 0) {
      }
      status = static_cast<unsigned>(w.y >> 32);
      unsigned const bits = static_cast<unsigned>(w.y);
      run_carry<T> c{static_cast<cuda::std::int64_t>(w.x), T{}, true};
      __builtin_memcpy(&c.tail, &bits, sizeof(T));
      return c;
    } else {
      cuda::atomic_ref<unsigned, cuda::thread_scope_device> flag(flags[j]);
      while ((status = flag.load(cuda::memory_order_relaxed)) == 0) {
      }
      cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
      return l2_reader<run_carry<T>>{status == 2 ? inclusive : aggregates}[j];
    }
  }

  // The carry of every item before tile `tile` (> 0), in warp 0, computed by the whole block: each
  // thread reads the flag of one of the BlockSize tiles before a window's end, waits until it has
  // published, and each warp folds its lanes back to their nearest inclusive carry (farthest first);
  // warp 0 folds the warps the same way, and the window moves BlockSize tiles back until one holds an
  // inclusive carry (nearly always the first window). A thread walking back one tile at a time was
  // 5x CUB's time; with packed words a warp's window of 32 (CUB's) measured within 1% of this one
  // (docs/notes/reduce-by-key.md): what the look-back costs is waiting for the tiles before, not reading them.
  template <int BlockSize, class Op>
  __device__ run_carry<T> look_back(unsigned tile, Op const& op, run_carry<T> (&folds)[BlockSize / 32],
                                    bool (&inclusive_in)[BlockSize / 32]) const {
    constexpr int warps = BlockSize / 32;
    int const lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    run_carry<T> prefix{0, T{}, false};
    for (cuda::std::int64_t end = tile;; end -= BlockSize) {
      cuda::std::int64_t const j = end - 1 - threadIdx.x;  // thread 0: the nearest
      unsigned f = 2;  // before tile 0: nothing, and the walk stops
      run_carry<T> c{0, T{}, false};
      if (j >= 0) c = wait_for(j, f);
      unsigned const inclusive_lanes = __ballot_sync(full_warp_mask, f == 2);
      if (inclusive_lanes && lane > __ffs(inclusive_lanes) - 1) c = {0, T{}, false};  // beyond the nearest inclusive
      c = fold_back(c, op);
      if (lane == 0) folds[warp] = c, inclusive_in[warp] = inclusive_lanes != 0;
      bool const done = __syncthreads_or(inclusive_lanes != 0);
      if (warp == 0) {
        run_carry<T> w = lane < warps ? folds[lane] : run_carry<T>{0, T{}, false};
        unsigned const inclusive_warps = __ballot_sync(full_warp_mask, lane < warps && inclusive_in[lane]);
        if (inclusive_warps && lane > __ffs(inclusive_warps) - 1) w = {0, T{}, false};
        prefix = then(shuffle_from(fold_back(w, op), 0), prefix, op);
      }
      if (done) return prefix;
      __syncthreads();  // warp 0 has read the folds before the next window rewrites them
    }
  }

  // As look_back, by one warp alone (every lane gets the carry): lane i waits for tile end - 1 - i,
  // in windows of 32 (CUB's). The whole tile's path, whose other warps wait at the barrier after it
  // rather than each fold a window (the block's windows were 29% of its instructions). Reading 4 or
  // 8 windows at once was 1.5-1.9x slower; a back-off in the poll changed nothing: the words are
  // nearly always published when first read (docs/notes/reduce-by-key.md).
  template <class Op>
  __device__ run_carry<T> warp_look_back(unsigned tile, Op const& op) const {
    int const lane = threadIdx.x % 32;
    run_carry<T> prefix{0, T{}, false};
    for (cuda::std::int64_t end = tile;; end -= 32) {
      cuda::std::int64_t const j = end - 1 - lane;  // lane 0: the nearest
      unsigned f = 2;  // before tile 0: nothing, and the walk stops
      run_carry<T> c{0, T{}, false};
      if (j >= 0) c = wait_for(j, f);
      unsigned const inclusive_lanes = __ballot_sync(full_warp_mask, f == 2);
      if (inclusive_lanes && lane > __ffs(inclusive_lanes) - 1) c = {0, T{}, false};  // beyond the nearest inclusive
      prefix = then(shuffle_from(fold_back(c, op), 0), prefix, op);
      if (inclusive_lanes) return prefix;
    }
  }

  // Lane 0: the fold of the warp's lanes from 31 down to 0 (lane 31 the farthest tile, first).
  template <class Op>
  __device__ static run_carry<T> fold_back(run_carry<T> c, Op const& op) {
    int const lane = threadIdx.x % 32;
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {  // lane i: lanes min(i + 2d - 1, 31)..i
      run_carry<T> const other = shuffle_down(c, d);
      if (lane + d < 32) c = then(other, c, op);
    }
    return c;
  }
};

// The keys' pass adds each tile's run heads to its stretch's sum (run_count.cuh): the runs before a
// tile are then the sums before its stretch and the counts before it within it.
inline constexpr int run_stretch_tiles = 256;

// Where the keys were counted first (run_count.cuh), each tile's place among the outputs is known
// before its pairs are read, and no tile waits for another: each leaves its own carry, and the fold
// over its items of the run open before it where that run ends in it (`parts`), and a pass after
// folds the carries of the tiles before into those runs. On an H200 at 2^28 pairs the look-back's
// waits were 43% of the single pass (a kernel given its carries without waiting: 0.57 against
// 1.00 ms at mean run length 64), more than reading the keys twice costs (docs/notes/reduce-by-key.md).
//
// Where a tile's runs are staged (and its keys are at least 2 bytes, its threads' items at most 32),
// the keys' pass also leaves each thread's head bits (`masks`, a word a thread), and the pairs' pass
// reads the values and the bits, and of the keys only each run's first, gathered as the staged runs
// are copied out: 8 bytes a pair of 4-byte keys and values, and a twentieth of a byte, where the keys
// were read twice (12). Otherwise `masks` is null and the pairs' pass reads the keys again.
template <class T>
struct counted_tiles {
  int* counts;                 // [tiles]: a tile's run heads (the keys' pass)
  unsigned* sums;              // [stretches]: the run heads of each stretch of run_stretch_tiles tiles
  cuda::std::int64_t* before;  // [tiles]: the runs before each tile (runs_before_kernel)
  unsigned char* first_heads;  // [tiles]: whether a tile's first item starts a run
  run_carry<T>* carries;       // [tiles]: each tile's own carry
  T* parts;                    // [tiles]: the run open before a tile, over its items, where it ends there (or 0s)
  unsigned* masks;             // [tiles x block size] or null: bit j of a thread's word, its item j starts a run
  tile_carries<T> carries_scan;  // the carries' scan's blocks

  // Their layout in one piece of scratch, each array at a multiple of 256 bytes; the scan's flags, the
  // stretches' sums and the parts first (the bytes the call zeroes: the scan then reads every tile's
  // part with its carry, not after); mask_words: 0, or the tiles' threads.
  static constexpr cuda::std::int64_t scan_items = 1024;  // a scan block's (run_count.cuh)
  static constexpr std::size_t round(std::size_t b) { return (b + 255) / 256 * 256; }
  static constexpr cuda::std::int64_t scan_blocks(cuda::std::int64_t tiles) { return (tiles + scan_items - 1) / scan_items; }
  static constexpr cuda::std::int64_t stretches(cuda::std::int64_t tiles) {
    return (tiles + run_stretch_tiles - 1) / run_stretch_tiles;
  }
  static constexpr std::size_t sums_at(cuda::std::int64_t tiles) { return round(tile_carries<T>::bytes(scan_blocks(tiles))); }
  static constexpr std::size_t parts_at(cuda::std::int64_t tiles) {
    return round(sums_at(tiles) + sizeof(unsigned) * std::size_t(stretches(tiles)));
  }
  static constexpr std::size_t zeroed_bytes(cuda::std::int64_t tiles) {
    return parts_at(tiles) + sizeof(T) * std::size_t(tiles);
  }
  static constexpr std::size_t counts_at(cuda::std::int64_t tiles) { return round(zeroed_bytes(tiles)); }
  static constexpr std::size_t before_at(cuda::std::int64_t tiles) {
    return counts_at(tiles) + round(sizeof(int) * std::size_t(tiles));
  }
  static constexpr std::size_t first_heads_at(cuda::std::int64_t tiles) {
    return before_at(tiles) + round(sizeof(cuda::std::int64_t) * std::size_t(tiles));
  }
  static constexpr std::size_t carries_at(cuda::std::int64_t tiles) { return first_heads_at(tiles) + round(std::size_t(tiles)); }
  static constexpr std::size_t masks_at(cuda::std::int64_t tiles) {
    return carries_at(tiles) + round(sizeof(run_carry<T>) * std::size_t(tiles));
  }
  static constexpr std::size_t bytes(cuda::std::int64_t tiles, cuda::std::int64_t mask_words) {
    return masks_at(tiles) + sizeof(unsigned) * std::size_t(mask_words);
  }
  static counted_tiles in(void* scratch, cuda::std::int64_t tiles, cuda::std::int64_t mask_words) {
    auto* const base = static_cast<unsigned char*>(scratch);
    return {reinterpret_cast<int*>(base + counts_at(tiles)),
            reinterpret_cast<unsigned*>(base + sums_at(tiles)),
            reinterpret_cast<cuda::std::int64_t*>(base + before_at(tiles)),
            base + first_heads_at(tiles),
            reinterpret_cast<run_carry<T>*>(base + carries_at(tiles)),
            reinterpret_cast<T*>(base + parts_at(tiles)),
            mask_words > 0 ? reinterpret_cast<unsigned*>(base + masks_at(tiles)) : nullptr,
            tile_carries<T>::in(base, scan_blocks(tiles))};
  }
};

template <class Carries>
inline constexpr bool is_counted = false;
template <class T>
inline constexpr bool is_counted<counted_tiles<T>> = true;

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

// A thread's Items consecutive pairs from keys and values + at, every load issued before any item is
// used: both arrays' vector loads in one block of code where both are suitable pointers, so that the
// compiler cannot hold the second array's loads back behind a use of the first's (a warp shuffle of
// the last key waited for its load before the values' loads were issued: two round trips a tile).
template <int Items, class K, class T, class KeyIt, class ValIt>
__device__ __forceinline__ void load_pairs(K (&k)[Items], T (&v)[Items], KeyIt const& keys, ValIt const& values,
                                           cuda::std::int64_t at) {
  if constexpr (vectorizable<KeyIt, Items> && vectorizable<ValIt, Items>) {
    if (is_vector_aligned(keys) && is_vector_aligned(values)) {
      constexpr int kw = vector_input<KeyIt>::width, vw = vector_input<ValIt>::width;
      typename vector_input<KeyIt>::raw_type kr[Items / kw];
      typename vector_input<ValIt>::raw_type vr[Items / vw];
#pragma unroll
      for (int q = 0; q < Items / kw; ++q) kr[q] = vector_input<KeyIt>::load(keys, at + q * kw);
#pragma unroll
      for (int q = 0; q < Items / vw; ++q) vr[q] = vector_input<ValIt>::load(values, at + q * vw);
#pragma unroll
      for (int q = 0; q < Items / kw; ++q)
#pragma unroll
        for (int w = 0; w < kw; ++w) k[q * kw + w] = static_cast<K>(vector_input<KeyIt>::item(keys, kr[q], w, at));
#pragma unroll
      for (int q = 0; q < Items / vw; ++q)
#pragma unroll
        for (int w = 0; w < vw; ++w) v[q * vw + w] = static_cast<T>(vector_input<ValIt>::item(values, vr[q], w, at));
      return;
    }
  }
  load_consecutive(k, keys, at, Items);
  load_consecutive(v, values, at, Items);
}

template <class K>
struct run_scan_shared_keys {
  K first_of_warp[32];  // each warp's first key, for the lane before it
  K last_of_warp[32];   // each warp's last key, for the lane after it
};

// A tile's outputs gathered in shared memory, so that a tile with many runs writes them coalesced
// (each thread's runs are scattered at stride items otherwise: 8x the store transactions at mean
// length 1). keys[r]: the tile's r-th head; values[r]: the run r - 1 after the one open before the
// tile. Where they fit 44 KB (the 48 KB of static shared memory a block may have, less the rest;
// 256 x 20 pairs of 4 + 4 bytes do), else scattered directly. Staging keys and values in turn in
// the same bytes, for 256 x 24, cost its registers more spills than it saved (docs/notes/reduce-by-key.md).
// Slot r of either array is at stage_slot(r), a word skipped every 32: at mean run length 1 a warp's
// threads write runs ItemsPerThread apart, and 16 of them fell in one bank (16 items a thread).
__device__ __forceinline__ int stage_slot(int r) { return r + (r >> 5); }
template <class K, class T, int TileItems>
struct run_scan_stage {
  static constexpr std::size_t slots(std::size_t count) { return count + count / 32 + 1; }
  static constexpr std::size_t values_at =
      (slots(TileItems) * sizeof(K) + alignof(T) - 1) / alignof(T) * alignof(T);
  static constexpr std::size_t bytes_needed = values_at + slots(TileItems + 1) * sizeof(T);
  static constexpr bool fits = bytes_needed <= 45056;
  alignas(K) alignas(T) unsigned char bytes[fits ? bytes_needed : 1];
  __device__ K* keys() { return reinterpret_cast<K*>(bytes); }
  __device__ T* values() { return reinterpret_cast<T*>(bytes + (fits ? values_at : 0)); }
};

// Whether the counted pairs' pass of BlockSize x Items pairs takes its heads from the keys' pass's
// masks (counted_tiles): staged runs, keys of 2 bytes or more, positions within a tile in 16 bits.
// The stage then holds a 16-bit position a run instead of its key.
template <class KeyIt, class T, int BlockSize, int Items>
inline constexpr bool masks_heads = Items <= 32 && BlockSize * Items <= 65536 &&
                                    sizeof(item_value_t<decltype(cuda::std::declval<KeyIt const&>()[0])>) >= 2 &&
                                    run_scan_stage<unsigned short, T, BlockSize * Items>::fits;
// Whether a pass of reduce_by_key_kernel with these carries reads them (counted, and masks_heads).
template <class Carries, class KeyIt, class T, int BlockSize, int Items>
inline constexpr bool reads_head_bits = is_counted<Carries> && masks_heads<KeyIt, T, BlockSize, Items>;

// The first key of each of a tile's `count` staged runs (keys[tile_base + at[stage_slot(r)]]) to keys_out[base + r]:
// a batch of loads a thread, then their stores, so the loads wait together and not each behind the
// store before it.
template <int BlockSize, int Batch, class K, class KeyIt, class KeyOut>
__device__ __forceinline__ void gather_run_keys(KeyIt const& keys, cuda::std::int64_t tile_base,
                                                unsigned short const* at, int count, KeyOut const& keys_out,
                                                cuda::std::int64_t base) {
  for (int r0 = threadIdx.x; r0 < count; r0 += BlockSize * Batch) {
    K got[Batch];
#pragma unroll
    for (int g = 0; g < Batch; ++g)
      if (r0 + g * BlockSize < count) got[g] = keys[tile_base + at[stage_slot(r0 + g * BlockSize)]];
#pragma unroll
    for (int g = 0; g < Batch; ++g)
      if (r0 + g * BlockSize < count) keys_out[base + r0 + g * BlockSize] = got[g];
  }
}

// The number of set bits of a head mask.
template <class Mask>
__device__ __forceinline__ int inclusive_heads(Mask m) {
  if constexpr (sizeof(Mask) > 4) return __popcll(m);
  else return __popc(m);
}

// Within a whole tile every thread holds items, so a thread's carry needs no `any` and its count of
// heads fits 32 bits: a lighter carry for the block's scan.
template <class T>
struct local_carry {
  int heads;
  T tail;
};

template <class T, class Op>
__device__ __forceinline__ local_carry<T> then(local_carry<T> const& a, local_carry<T> const& b, Op const& op) {
  return {a.heads + b.heads, b.heads > 0 ? b.tail : static_cast<T>(op(a.tail, b.tail))};
}

// What a tile's block shares besides its stage.
template <int BlockSize, class K, class T>
struct run_scan_shared {
  bool first_is_head, last_ends_run;
  run_carry<T> warp_totals[BlockSize / 32];
  local_carry<T> local_totals[BlockSize / 32];  // each warp's total, then (whole tiles) its exclusive prefix
  local_carry<T> block_total;
  run_carry<T> tile_prefix;
  run_carry<T> window_folds[BlockSize / 32];
  bool window_inclusive[BlockSize / 32];
  run_scan_shared_keys<K> edge_keys;
};

// Where a tile's outputs gather before they are written coalesced (run_scan_stage's layout); null
// keys: they are scattered directly.
template <class K, class T>
struct stage_view {
  K* keys;
  T* values;
};

// Counted: the tile's own carry left for the pass after, and the runs before it (no fold: `any` false).
template <int BlockSize, class T, class Shared, class Op>
__device__ run_carry<T> tile_prefix_of(unsigned tile, run_carry<T> const& block_total, counted_tiles<T> const& counted,
                                       Shared& sh, Op const&) {
  if (threadIdx.x == 0) {
    counted.carries[tile] = block_total;
    sh.tile_prefix = {counted.before[tile], T{}, false};
  }
  __syncthreads();
  return sh.tile_prefix;
}

// This tile's carry published, and the carry of every tile before it (in every thread; tile 0: none).
template <int BlockSize, class T, class Shared, class Op>
__device__ run_carry<T> tile_prefix_of(unsigned tile, run_carry<T> const& block_total, tile_carries<T> const& carries,
                                       Shared& sh, Op const& op) {
  if (tile == 0) {
    if (threadIdx.x == 0) {
      carries.publish(0, block_total, true);
      sh.tile_prefix = {0, T{}, false};
    }
  } else {
    if (threadIdx.x == 0) carries.publish(tile, block_total, false);
    run_carry<T> const before_tile = carries.template look_back<BlockSize>(tile, op, sh.window_folds, sh.window_inclusive);
    if (threadIdx.x == 0) {
      carries.publish(tile, then(before_tile, block_total, op), true);
      sh.tile_prefix = before_tile;
    }
  }
  __syncthreads();
  return sh.tile_prefix;
}

// Grids of at most this many tiles look back with the whole block (reduce_by_key_whole_tile).
inline constexpr unsigned by_key_block_window_tiles = 256;

// A tile wholly before n, the common case, in as few instructions and barriers as it can: no bound
// on any item; lanes 0 and 31 read the keys beside their warp's items themselves (no exchange
// through shared memory, no barrier); the heads as a bit mask, 32-bit counts within the tile, each
// item's fold a select; a barrier, then warp 0 scans the warps' totals and looks back (one warp's
// window, publishing the tile's carries) while, where the tile's runs fit in shared memory (Staged),
// the other warps stage theirs there after one more barrier; a barrier after. A tile's life is a
// chain of waits (its loads, the look-back's round trip to L2, the barriers) and an SM holds three:
// every step it saves is throughput (docs/notes/reduce-by-key.md: 813 M warp instructions a 2^28-pair call
// before, 350 M now, CUB's 360 M).
template <int BlockSize, int ItemsPerThread, bool Staged, class T, class K, class Shared, class KeyIt, class ValIt,
          class KeyOut, class ValOut, class CountOut, class Eq, class Op, class Carries>
__device__ __forceinline__ void reduce_by_key_whole_tile(Shared& sh, unsigned tile, KeyIt const& keys,
                                                         ValIt const& values, cuda::std::int64_t n,
                                                         stage_view<K, T> stage, KeyOut const& keys_out,
                                                         ValOut const& values_out, CountOut const& count_out,
                                                         Eq const& eq, Op const& op, Carries const& carries) {
  constexpr bool counted = is_counted<Carries>;
  constexpr bool masked = reads_head_bits<Carries, KeyIt, T, BlockSize, ItemsPerThread>;
  using mask_t = cuda::std::conditional_t<(ItemsPerThread <= 32), unsigned, unsigned long long>;
  constexpr int warps = BlockSize / 32;
  constexpr cuda::std::int64_t tile_items = cuda::std::int64_t(BlockSize) * ItemsPerThread;
  cuda::std::int64_t const tile_base = cuda::std::int64_t(tile) * tile_items;
  cuda::std::int64_t const mine = tile_base + cuda::std::int64_t(threadIdx.x) * ItemsPerThread;
  int const lane = threadIdx.x % 32, warp = threadIdx.x / 32;

  static_assert(!masked || Staged, "masks_heads implies a staged tile");
  [[maybe_unused]] K k[masked ? 1 : ItemsPerThread];
  T v[ItemsPerThread];
  bool const has_before = mine > 0;
  bool const has_after = mine + ItemsPerThread < n;
  cuda::std::int64_t runs_before_tile = 0;  // counted: read with the tile's loads, used after its scan
  if constexpr (counted)
    if (threadIdx.x == 0) runs_before_tile = carries.before[tile];
  // heads: bit j, item j starts a run; ends: bit j, item j ends one.
  mask_t heads;
  bool ends_last;
  if constexpr (masked) {  // the keys' pass's bits; the next thread's first, for this one's last item
    unsigned const* const own = carries.masks + (cuda::std::int64_t(tile) * BlockSize + threadIdx.x);
    unsigned next = 1;
    if (lane == 31 && has_after) next = own[1];
    heads = *own;
    load_consecutive(v, values, mine, ItemsPerThread);
    unsigned const from_above = __shfl_down_sync(full_warp_mask, heads, 1);
    if (lane < 31) next = from_above;
    ends_last = !has_after || (next & 1u);
  } else {
    K before, after;  // the keys either side of this thread's items
    if (lane == 0 && has_before) before = keys[mine - 1];
    if (lane == 31 && has_after) after = keys[mine + ItemsPerThread];
    load_pairs(k, v, keys, values, mine);
    K const from_below = shuffle_up(k[ItemsPerThread - 1], 1);
    K const from_above = shuffle_down(k[0], 1);
    if (lane > 0) before = from_below;
    if (lane < 31) after = from_above;
    heads = (!has_before || !eq(before, k[0])) ? 1 : 0;
#pragma unroll
    for (int j = 1; j < ItemsPerThread; ++j) heads |= mask_t(!eq(k[j - 1], k[j]) ? 1 : 0) << j;
    ends_last = !has_after || !eq(k[ItemsPerThread - 1], after);
  }
  mask_t const ends = (heads >> 1) | (mask_t(ends_last ? 1 : 0) << (ItemsPerThread - 1));
  // v[j] becomes the fold of item j's run from its head, or from the thread's first item where the
  // run began before it: each run's value is then read where the run ends, with no second fold.
#pragma unroll
  for (int j = 1; j < ItemsPerThread; ++j)
    if (!((heads >> j) & 1)) v[j] = static_cast<T>(op(v[j - 1], v[j]));
  local_carry<T> inclusive{inclusive_heads(heads), v[ItemsPerThread - 1]};

  // The warp's scan; its total to warp 0, which scans the warps and finds the tiles' carry before.
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    local_carry<T> const other{__shfl_up_sync(full_warp_mask, inclusive.heads, d), shuffle_up(inclusive.tail, d)};
    if (lane >= d) inclusive = then(other, inclusive, op);
  }
  local_carry<T> const lanes_before{__shfl_up_sync(full_warp_mask, inclusive.heads, 1), shuffle_up(inclusive.tail, 1)};
  if (lane == 31) sh.local_totals[warp] = inclusive;
  if (threadIdx.x == 0) sh.first_is_head = heads & 1;
  if (threadIdx.x == BlockSize - 1) sh.last_ends_run = ends_last;
  __syncthreads();

  // Warp 0 scans the warps' totals and hands each warp its prefix within the tile, then looks back.
  // Where the tile's runs are staged, the other warps stage theirs meanwhile at their places within
  // the tile (one more barrier first, for the prefixes): only the run open before the tile needs the
  // carry from before it, added as it is copied out.
  run_carry<T> own{0, T{}, true};
  if (warp == 0) {
    local_carry<T> w{0, T{}};
    if (lane < warps) w = sh.local_totals[lane];
#pragma unroll
    for (int d = 1; d < warps; d *= 2) {
      local_carry<T> const other{__shfl_up_sync(full_warp_mask, w.heads, d), shuffle_up(w.tail, d)};
      if (lane >= d) w = then(other, w, op);
    }
    local_carry<T> const total{__shfl_sync(full_warp_mask, w.heads, warps - 1), shuffle_from(w.tail, warps - 1)};
    local_carry<T> const warps_before{__shfl_up_sync(full_warp_mask, w.heads, 1), shuffle_up(w.tail, 1)};
    if (lane > 0 && lane < warps) sh.local_totals[lane] = warps_before;
    if (lane == 0) sh.block_total = total;
    own = {total.heads, total.tail, true};
  }
  auto const look_back = [&] {  // warp 0: the tile's carries published, the carry before it to sh
    if constexpr (counted) {
      if (lane == 0) {
        carries.carries[tile] = own;
        sh.tile_prefix = {runs_before_tile, T{}, false};
      }
    } else {
      run_carry<T> before_tile{0, T{}, false};
      if (tile == 0) {
        if (lane == 0) carries.publish(0, own, true);
      } else {
        if (lane == 0) carries.publish(tile, own, false);
        before_tile = carries.warp_look_back(tile, op);
        if (lane == 0) carries.publish(tile, then(before_tile, own, op), true);
      }
      if (lane == 0) sh.tile_prefix = before_tile;
    }
  };
  // A grid of few tiles runs at once, so the carries' chain is a warp's window of 32 tiles after
  // another (8 round trips at 256 tiles): there the whole block reads BlockSize tiles a window, as
  // the last tile does (tile_prefix_of).
  wait_for_previous_grid();  // the tiles' words zeroed (launched as a dependent of their zeroing)
  if (!counted && gridDim.x <= by_key_block_window_tiles) {
    __syncthreads();  // sh.block_total
    tile_prefix_of<BlockSize>(tile, run_carry<T>{sh.block_total.heads, sh.block_total.tail, true}, carries, sh, op);
  } else if constexpr (Staged) {
    __syncthreads();
    if (warp == 0) look_back();
  } else {
    if (warp == 0) look_back();
    __syncthreads();
  }

  // The carry of the items before this thread's within the tile: the warps before, then the lanes.
  local_carry<T> within{0, T{}};
  if (warp > 0) within = sh.local_totals[warp];
  if (lane > 0) within = warp > 0 ? then(within, lanes_before, op) : lanes_before;
  bool const first_in_tile = threadIdx.x == 0;
  int const run_before = within.heads - 1;  // the run open before this thread's first item, within the tile
  // Where this thread's first item does not start a run, the first run to end in the thread is the
  // one open before it: its value is the fold before the thread's items (within the tile here; the
  // tiles' before it added where it is written), then theirs to that end.
  auto fold_first_end = [&](T const& before_thread) {
    mask_t const first_end = ends & (~ends + 1);  // never 0: the thread's last item ends whatever is open
#pragma unroll
    for (int j = 0; j < ItemsPerThread; ++j)
      if (first_end == mask_t(1) << j) v[j] = static_cast<T>(op(before_thread, v[j]));
  };

  if constexpr (Staged) {
    if (!(heads & 1) && !first_in_tile) fold_first_end(within.tail);
    int run = run_before;
    auto* const head_at = reinterpret_cast<unsigned short*>(stage.keys);  // masked: each run's first item
#pragma unroll
    for (int j = 0; j < ItemsPerThread; ++j) {
      if ((heads >> j) & 1) {
        if constexpr (masked) head_at[stage_slot(++run)] = static_cast<unsigned short>(threadIdx.x * ItemsPerThread + j);
        else stage.keys[stage_slot(++run)] = k[j];
      }
      if ((ends >> j) & 1) stage.values[stage_slot(run + 1)] = v[j];
    }
    __syncthreads();
    run_carry<T> const tile_prefix = sh.tile_prefix;
    int const total_heads = sh.block_total.heads;
    cuda::std::int64_t const key_base = tile_prefix.heads;  // the run of the tile's first head
    if (!has_after) *count_out = key_base + run + 1;  // the input's last item
    if constexpr (masked) gather_run_keys<BlockSize, 8, K>(keys, tile_base, head_at, total_heads, keys_out, key_base);
    else
      for (int r = threadIdx.x; r < total_heads; r += BlockSize) keys_out[key_base + r] = stage.keys[stage_slot(r)];
    int const from = sh.first_is_head ? 1 : 0;  // slot 0: the run open before the tile, if it ends here
    int const slots = total_heads + (sh.last_ends_run ? 1 : 0);
    for (int r = from + threadIdx.x; r < slots; r += BlockSize) {
      T value = stage.values[stage_slot(r)];
      if constexpr (counted) {
        if (r == 0) {
          carries.parts[tile] = value;
          continue;
        }
      }
      if (r == 0 && tile_prefix.any) value = static_cast<T>(op(tile_prefix.tail, value));
      values_out[key_base - 1 + r] = value;
    }
  } else {
    run_carry<T> const tile_prefix = sh.tile_prefix;
    cuda::std::int64_t const key_base = tile_prefix.heads;
    if (!(heads & 1) && !(first_in_tile && !tile_prefix.any)) {  // (counted: nothing before thread 0)
      T before_thread = first_in_tile ? tile_prefix.tail : within.tail;
      if (!first_in_tile && within.heads == 0 && tile_prefix.any)
        before_thread = static_cast<T>(op(tile_prefix.tail, within.tail));
      fold_first_end(before_thread);
    }
    int run = run_before;
#pragma unroll
    for (int j = 0; j < ItemsPerThread; ++j) {
      if ((heads >> j) & 1) keys_out[key_base + ++run] = k[j];
      if ((ends >> j) & 1) {
        if constexpr (counted) {
          if (run < 0) {
            carries.parts[tile] = v[j];  // the run open before the tile
            continue;
          }
        }
        values_out[key_base + run] = v[j];
      }
    }
    if (!has_after) *count_out = key_base + run + 1;  // the input's last item
  }
}

// Any tile, the input's last partial one included: each item checked against n. Called, not
// inlined, so that its registers do not spill the whole tile's path; its arguments by value, since
// a reference to a kernel parameter made every thread of every tile copy the parameters to its
// stack at the kernel's start (80 bytes a thread: 1003-1021 against 1100 us at 2^28 pairs, mean 64).
template <int BlockSize, int ItemsPerThread, class T, class K, class Shared, class KeyIt, class ValIt, class KeyOut,
          class ValOut, class CountOut, class Eq, class Op, class Carries>
__device__ __noinline__ void reduce_by_key_any_tile(Shared& sh, unsigned tile, KeyIt keys, ValIt values,
                                                    cuda::std::int64_t n, stage_view<K, T> stage, KeyOut keys_out,
                                                    ValOut values_out, CountOut count_out, Eq eq, Op op,
                                                    Carries carries) {
  constexpr bool counted = is_counted<Carries>;
  constexpr cuda::std::int64_t tile_items = cuda::std::int64_t(BlockSize) * ItemsPerThread;
  if (threadIdx.x == 0) sh.last_ends_run = false;
  cuda::std::int64_t const tile_base = cuda::std::int64_t(tile) * tile_items;
  cuda::std::int64_t const tile_last = (n - tile_base < tile_items ? n : tile_base + tile_items) - 1;
  cuda::std::int64_t const mine = tile_base + cuda::std::int64_t(threadIdx.x) * ItemsPerThread;
  int const lane = threadIdx.x % 32, warp = threadIdx.x / 32;

  // This thread's items, in order; `valid` of them lie before n.
  K k[ItemsPerThread];
  T v[ItemsPerThread];
  int const valid = n - mine >= ItemsPerThread ? ItemsPerThread : n - mine > 0 ? static_cast<int>(n - mine) : 0;
  // The keys either side of the tile, loaded with the tile (they would cost a round trip later).
  K key_before_tile, key_after_tile;
  if (threadIdx.x == 0 && tile_base > 0) key_before_tile = keys[tile_base - 1];
  if (threadIdx.x == BlockSize - 1 && tile_base + tile_items < n) key_after_tile = keys[tile_base + tile_items];
  load_consecutive(k, keys, mine, valid);
  load_consecutive(v, values, mine, valid);
  // The key before this thread's first (from the lane before, the warp before, or the tile before)
  // and the key after its last.
  if (lane == 0) sh.edge_keys.first_of_warp[warp] = k[0];
  if (lane == 31) sh.edge_keys.last_of_warp[warp] = k[ItemsPerThread - 1];
  K before = shuffle_up(k[ItemsPerThread - 1], 1);
  K after = shuffle_down(k[0], 1);
  __syncthreads();
  bool const has_before = mine > 0;
  if (lane == 0 && has_before) before = warp > 0 ? sh.edge_keys.last_of_warp[warp - 1] : key_before_tile;
  bool const has_after = valid == ItemsPerThread && mine + ItemsPerThread < n;
  if (lane == 31 && has_after) after = warp + 1 < BlockSize / 32 ? sh.edge_keys.first_of_warp[warp + 1] : key_after_tile;

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
  if (threadIdx.x == 0) sh.first_is_head = head[0];
  run_carry<T> block_total;
  run_carry<T> const within = block_exclusive_scan<BlockSize>(mine_carry, op, block_total, sh.warp_totals);

  // The carry of every earlier tile: thread 0 publishes this tile's, the block looks back.
  wait_for_previous_grid();
  run_carry<T> const tile_prefix = tile_prefix_of<BlockSize>(tile, block_total, carries, sh, op);
  // Counted, the fold begins within the tile: the runs before it counted, their values not.
  run_carry<T> const prefix = counted ? run_carry<T>{tile_prefix.heads + within.heads, within.tail, within.any}
                                      : then(tile_prefix, within, op);
  cuda::std::int64_t const key_base = tile_prefix.heads;  // the run of the tile's first head
  bool const staged = stage.keys != nullptr && block_total.heads > BlockSize;  // the same in every thread

  // Each run's first key where it starts, its fold where it ends: to the outputs, or to the stage.
  cuda::std::int64_t run = prefix.heads - 1;  // the run open before this thread's first item
  T acc = prefix.tail;
  bool acc_any = prefix.any;  // false only where nothing before the item is folded (tile 0; counted: thread 0)
#pragma unroll
  for (int j = 0; j < ItemsPerThread; ++j) {
    if (j < valid) {
      if (head[j]) {
        ++run;
        if (staged) stage.keys[stage_slot(static_cast<int>(run - key_base))] = k[j];
        else keys_out[run] = k[j];
        acc = v[j];
      } else {
        acc = acc_any ? static_cast<T>(op(acc, v[j])) : v[j];
      }
      acc_any = true;
      bool const last_of_run = j + 1 < valid ? head[j + 1] : !(j + 1 == ItemsPerThread && has_after) || !eq(k[j], after);
      if (last_of_run) {
        if (staged) {
          stage.values[stage_slot(static_cast<int>(run - key_base + 1))] = acc;
        } else {
          if constexpr (counted) {
            if (run < key_base) carries.parts[tile] = acc;  // the run open before the tile
            else values_out[run] = acc;
          } else {
            values_out[run] = acc;
          }
        }
        if (mine + j == tile_last) sh.last_ends_run = true;
      }
      if (mine + j == n - 1) *count_out = run + 1;
    }
  }
  if (staged) {
    __syncthreads();
    for (cuda::std::int64_t r = threadIdx.x; r < block_total.heads; r += BlockSize)
      keys_out[key_base + r] = stage.keys[stage_slot(static_cast<int>(r))];
    cuda::std::int64_t const first_slot = sh.first_is_head ? 1 : 0;
    cuda::std::int64_t const slots = block_total.heads + (sh.last_ends_run ? 1 : 0);
    for (cuda::std::int64_t r = first_slot + threadIdx.x; r < slots; r += BlockSize) {
      if constexpr (counted) {
        if (r == 0) {
          carries.parts[tile] = stage.values[stage_slot(0)];
          continue;
        }
      }
      values_out[key_base - 1 + r] = stage.values[stage_slot(static_cast<int>(r))];
    }
  }
}

// One tile a block, block b tile b: n pairs (keys[i], values[i]); outputs as reduce_by_key says. (A
// tile taken from an atomic counter cost its block a round trip to the L2 and a barrier before its
// loads: 1-3% at 2^28 pairs, 3-8% at 2^22-2^24.) The kernel's throughput is the tiles an SM holds
// over a tile's life (docs/notes/reduce-by-key.md): by_key_threads_per_sm.
// The threads an SM should hold: 768 (3 blocks of 256, registers capped at 80) where the tile's keys
// are loaded; where its heads come as bits (masks_heads), a tile moves half the bytes in the same
// chain of waits, and more tiles an SM pay: at 2^28 pairs, 256 x 20, mean run length 64, 3 / 4 / 5 / 6
// / 8 blocks took 844 / 768 / 709 / 691 / 817 us (the last spilling), 256 x 16 878 / 785 / 734 / 685
// / 747 (docs/notes/reduce-by-key.md).
template <class KeyIt, class T, int BlockSize, int ItemsPerThread, class Carries>
inline constexpr int by_key_threads_per_sm =
    reads_head_bits<Carries, KeyIt, T, BlockSize, ItemsPerThread> ? (ItemsPerThread <= 16 ? 1536 : 1280) : 768;
template <int BlockSize, int ItemsPerThread, class T, class KeyIt, class ValIt, class KeyOut, class ValOut,
          class CountOut, class Eq, class Op, class Carries>
__global__ void __launch_bounds__(BlockSize, (by_key_threads_per_sm<KeyIt, T, BlockSize, ItemsPerThread, Carries> +
                                              BlockSize - 1) / BlockSize)
    reduce_by_key_kernel(KeyIt keys, ValIt values, cuda::std::int64_t n, KeyOut keys_out, ValOut values_out,
                         CountOut count_out, Eq eq, Op op, Carries carries) {
  using K = item_value_t<decltype(keys[0])>;
  constexpr bool masked = reads_head_bits<Carries, KeyIt, T, BlockSize, ItemsPerThread>;
  using stage_t = run_scan_stage<cuda::std::conditional_t<masked, unsigned short, K>, T, BlockSize * ItemsPerThread>;
  __shared__ run_scan_shared<BlockSize, K, T> sh;
  __shared__ stage_t stage;
  unsigned const tile = blockIdx.x;
  if constexpr (is_counted<Carries>) wait_for_previous_grid();  // the counts, heads and places before
  // (masked: the stage's first part holds positions, and the last tile's runs are written directly)
  K* const stage_keys = stage_t::fits ? reinterpret_cast<K*>(stage.keys()) : nullptr;
  constexpr cuda::std::int64_t tile_items = cuda::std::int64_t(BlockSize) * ItemsPerThread;
  if (ItemsPerThread <= 64 && cuda::std::int64_t(tile + 1) * tile_items <= n) {
    reduce_by_key_whole_tile<BlockSize, ItemsPerThread, stage_t::fits, T, K>(
        sh, tile, keys, values, n, stage_view<K, T>{stage_keys, stage.values()}, keys_out, values_out, count_out, eq,
        op, carries);
  } else {
    reduce_by_key_any_tile<BlockSize, ItemsPerThread, T, K>(
        sh, tile, keys, values, n, stage_view<K, T>{masked ? nullptr : stage_keys, stage.values()}, keys_out,
        values_out, count_out, eq, op, carries);
  }
}

}  // namespace cascade::detail
