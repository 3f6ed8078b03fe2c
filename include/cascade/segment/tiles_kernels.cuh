// cascade/segment/tiles_kernels.cuh: the kernels of segment::tiles, which reads CSR offsets' items once,
// in tiles of equal item counts whatever the segments' lengths (docs/notes/segmented-tiles.md, "Item tiles").
//
// Four kernels, the last three started early by programmatic dependent launch:
// - geometry (one thread): where the chunks lie, from the offsets' first and last; the flag cleared
//   (set where the segments hold no items).
// - search (its first offsets read before it waits for the geometry): chunk_lo[c], the first segment
//   that begins at or after chunk c's first item, a thread a chunk (a lower bound in the offsets:
//   fixed lengths take one round of reads). It reads a few offsets a chunk, not all of them: a
//   partition that read every offset (read again by the tiles) made 1-4-item segments 18-21% slower
//   on an H200, and its thread a segment filling a 2^20-item segment's chunk starts one by one made
//   such segments 15% slower (docs/notes/segmented-tiles-default.md).
// - tiles: a block a chunk of one tile of BlockSize x Items items (the common case, by a path of its
//   own that fits 32 registers a thread) or, where the items pass `capacity` tiles, of several. The
//   segments that begin in a tile mark their first item in shared memory; each thread folds its Items
//   items in order, writing the segments that begin and end among them; a scan by segment over the
//   threads (seeded with the value the chunk's previous tile left open) closes those that span
//   threads (a one-tile chunk of more than two segments a thread, values of 4 bytes or less, keeps
//   the values it closes in shared memory and writes them a thread a segment, in a row). A chunk
//   writes its pieces: the part before its first head (all of it where it has none) and the segment
//   it leaves open, with the chunk of that segment's last item. No block waits for
//   another. Offsets that decrease (overlapping segments, which tiles cannot fold) are found here:
//   each chunk checks that its segments' offsets never decrease and that its first segment is not
//   past the next chunk's, so that together the chunks check every offset; the flag is then set.
// - fix-up: a warp a chunk; where a chunk leaves a segment open, it folds the segment's pieces in
//   order. Where the flag is set (or the segments hold no items), a warp a segment instead.
//
// The host knows only the number of segments, not the items (offsets the device alone reads), so
// the chunks' size is found on the device: tiles enough that at most `capacity` chunks cover the
// items. The tile kernel's grid is `capacity` blocks and the fix-up's `capacity` warps; those past the
// chunks return at once.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include <cuda/std/type_traits>

#include "../detail/kernel/arguments.cuh"
#include "../detail/kernel/kernels.cuh"
#include "kernels.cuh"
#include "../detail/kernel/segments.cuh"
#include "../detail/block/shuffle.cuh"
#include "../detail/kernel/sinks.cuh"
#include "../detail/kernel/vector_load.cuh"
#include "../detail/block/warp_reduce.cuh"

namespace cascade::detail {

// CSR offsets: segment s is [at(s), at(s + 1)) for s < n; at has n + 1 entries.
template <class OffsetIt>
struct csr_offsets {
  OffsetIt at_;
  __host__ __device__ long long at(long long s) const { return static_cast<long long>(at_[s]); }
};

// batched_reduce's segments as CSR offsets, from segment `first` on.
struct fixed_csr {
  long long size;
  long long first;
  __host__ __device__ long long at(long long s) const { return (first + s) * size; }
};

// Where the chunks lie, from the offsets' first and last: found by the geometry kernel for the others.
struct alignas(16) tiles_geometry {
  // The one-tile kernel reads these first, in one 16-byte load: its items' addresses need no more.
  long long base;  // the first segment's begin
  int chunks;      // at most the capacity
  int last_items;  // where chunks are one tile: the last one's items (1 to a tile); else 0
  long long total;  // items from base to the last segment's end
  long long chunk;  // items a chunk (a multiple of the tile)

  // From the first segment's begin and the last one's end.
  __device__ static tiles_geometry of(long long base, long long end, long long tile, long long capacity) {
    tiles_geometry g{};
    g.base = base;
    g.total = end > g.base ? end - g.base : 0;
    long long const tiles = (g.total + tile - 1) / tile;
    long long const per = tiles > capacity ? (tiles + capacity - 1) / capacity : 1;
    g.chunk = per * tile;
    g.chunks = static_cast<int>((g.total + g.chunk - 1) / g.chunk);
    g.last_items = per == 1 && g.chunks > 0 ? static_cast<int>(g.total - (g.chunks - 1) * tile) : 0;
    return g;
  }
};

static_assert(offsetof(tiles_geometry, chunks) == 8 && offsetof(tiles_geometry, last_items) == 12,
              "cascade: segment_tiles_kernel reads tiles_geometry's first 16 bytes as base, then chunks and "
              "last_items in one word; keep them first and in that order");

// One call's scratch; chunks <= capacity.
template <class T>
struct tiles_scratch {
  int* chunk_lo;   // [capacity + 1]
  T* head_part;    // [capacity]: a chunk's items before its first head (all of them where none)
  T* tail_part;    // [capacity]: the value of the segment it leaves open (with init)
  int* tail_seg;   // [capacity]: that segment, or -1
  int* tail_last;  // [capacity]: the chunk of that segment's last item
  unsigned* overlapping;  // the offsets decrease somewhere (or no items): every segment folded by itself
  tiles_geometry* geometry;  // written by the geometry kernel
  long long capacity;
};

template <class T>
struct open_value {
  int id;  // the segment, or -1: the one carried into the chunk from before it (or none yet)
  T v;
  bool valid;  // v holds a value
};

// a then b, in order.
template <class T, class Op>
__device__ __forceinline__ open_value<T> combine_open(open_value<T> const& a, open_value<T> const& b, Op op) {
  if (b.id >= 0 || !a.valid) return b.id >= 0 ? b : open_value<T>{a.id, b.v, b.valid};
  if (!b.valid) return a;
  return {a.id, static_cast<T>(op(a.v, b.v)), true};
}

// a then b, where both hold values (a one-tile chunk: every thread holds Items items); what
// combine_open does there, without the flags' tests (the prefix over the warps before each thread's).
template <class T, class Op>
__device__ __forceinline__ open_value<T> combine_held(open_value<T> const& a, open_value<T> const& b, Op op) {
  return b.id >= 0 ? b : open_value<T>{a.id, static_cast<T>(op(a.v, b.v)), true};
}

template <class T>
__device__ __forceinline__ open_value<T> shuffle_open_up(open_value<T> const& x, int d) {
  return {shuffle_up(x.id, d), shuffle_up(x.v, d), shuffle_up(x.valid, d)};
}

// One thread: the call's geometry, and the flag cleared (set where the segments hold no items: every
// segment is then init, or a fold of its own where the offsets run backwards), before the search
// starts, so that the tile kernel may read the geometry before it waits for the search.
template <long long Tile, class Csr, class T>
__global__ void segment_tiles_geometry_kernel(Csr csr, long long n, tiles_scratch<T> scratch) {
  let_next_grid_start();
  tiles_geometry const g = tiles_geometry::of(csr.at(0), csr.at(n), Tile, scratch.capacity);
  *scratch.geometry = g;
  *scratch.overlapping = g.total == 0 ? 1u : 0u;
}

// A thread a chunk: chunk_lo[c], the lower bound of the chunk's first item in the offsets (the first
// segment that begins at or after it). A thread a chunk keeps this grid to a few blocks, so that the
// tile kernel's blocks take the SMs at once and load their items while the searches run (a warp a
// chunk, 32 offsets a round, filled the SMs first: 64-256-item segments 9-10% slower on an H200;
// blocks of 64 threads, spread over more SMs, were 3-4% slower than these of 256).
// Rounds, each of offsets read at once: the first and last offsets (this grid does not wait for the
// geometry kernel before its first reads); then where the values at the ends put the target (and
// the one before: even lengths end there), with `samples` offsets evenly over all segments that a
// block's threads read together (a chunk's answer then lies between two of them); then, each thread
// alone, 16 a round: where the values at the ends put it, the one before, and 14 evenly between (at
// most a fifteenth left). Where the offsets decrease, the answers are some segments in [0, n], which
// the tile kernel's checks find wrong.
template <long long Tile, class Csr, class T>
__global__ void __launch_bounds__(256) segment_tiles_search_kernel(Csr csr, long long n, tiles_scratch<T> scratch) {
  constexpr int samples = 1024;
  constexpr int even = 14;
  __shared__ long long sample[samples];
  long long const c = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  long long const first_at = csr.at(0), end = csr.at(n);
  tiles_geometry const g = tiles_geometry::of(first_at, end, Tile, scratch.capacity);
  bool const block_has_chunks = static_cast<long long>(blockIdx.x) * blockDim.x < g.chunks;
  if (!block_has_chunks) {
    if (blockIdx.x == 0) wait_for_previous_grid();  // so that the tile kernel starts after the geometry
    return;
  }
  long long const target = g.base + c * g.chunk;
  // Where even lengths would put the target, and the one before.
  auto const guess = [&](long long lo, long long hi, long long at_lo, long long at_hi) {
    double const f = at_hi > at_lo ? static_cast<double>(target - at_lo) / static_cast<double>(at_hi - at_lo) : 0.5;
    long long const p = lo + static_cast<long long>(f * static_cast<double>(hi - lo) + 0.5);
    return p <= lo ? lo + 1 : p >= hi ? hi - 1 : p;
  };
  bool const searching = c > 0 && c < g.chunks && n > 1;
  long long const p0 = searching ? guess(0, n, g.base, g.base + g.total) : 1;
  long long const at_p0 = searching ? csr.at(p0) : 0, at_q0 = searching ? csr.at(p0 - 1) : 0;
  for (int k = static_cast<int>(threadIdx.x); k < samples; k += blockDim.x) sample[k] = csr.at(k * n / samples);
  wait_for_previous_grid();  // the geometry
  let_next_grid_start();     // the tile kernel may then read it: it loads its items, then waits for this grid
  __syncthreads();
  if (c == 0) scratch.chunk_lo[0] = 0;
  if (c == 0 || c >= g.chunks) return;
  if (at_q0 < target && target <= at_p0 && n > 1) {  // even lengths
    scratch.chunk_lo[c] = static_cast<int>(p0);
    return;
  }
  int a = 0, z = samples;  // sample[a] < target <= sample[z] (the end at z = samples)
  while (z - a > 1) {
    int const m = (a + z) / 2;
    if (sample[m] < target) a = m;
    else z = m;
  }
  // at(lo) < target <= at(hi)
  long long lo = a * n / samples, at_lo = sample[a];
  long long hi = z < samples ? z * n / samples : n, at_hi = z < samples ? sample[z] : end;
  while (hi - lo > 1) {
    long long const p = guess(lo, hi, at_lo, at_hi);
    long long s[even + 2];
    long long v[even + 2];
    long long const width = hi - lo;
#pragma unroll
    for (int k = 0; k < even; ++k)
      s[k] = width <= even + 1 ? lo + 1 + (k < width - 1 ? k : width - 2) : lo + (k + 1) * width / (even + 1);
    s[even] = p;
    s[even + 1] = p - 1;
#pragma unroll
    for (int k = 0; k < even + 2; ++k) v[k] = csr.at(s[k]);
    long long const lo0 = lo, hi0 = hi;
#pragma unroll
    for (int k = 0; k < even + 2; ++k) {
      if (s[k] <= lo0 || s[k] >= hi0) continue;  // (p - 1 may be lo)
      if (v[k] >= target) {
        if (s[k] < hi) hi = s[k], at_hi = v[k];
      } else if (s[k] > lo) {
        lo = s[k], at_lo = v[k];
      }
    }
  }
  scratch.chunk_lo[c] = static_cast<int>(hi);
}

// A thread's Items head flags from shared memory as bits, 16, 8 or 4 bytes a load where Items allows.
template <int Items>
__device__ __forceinline__ unsigned read_heads(unsigned char const* at) {
  constexpr int bytes = Items % 16 == 0 ? 16 : Items % 8 == 0 ? 8 : Items % 4 == 0 ? 4 : 1;
  unsigned mask = 0;
#pragma unroll
  for (int q = 0; q < Items / bytes; ++q) {
    unsigned words[bytes >= 4 ? bytes / 4 : 1];
    if constexpr (bytes == 16) {
      uint4 const v = reinterpret_cast<uint4 const*>(at)[q];
      words[0] = v.x, words[1] = v.y, words[2] = v.z, words[3] = v.w;
    } else if constexpr (bytes == 8) {
      uint2 const v = reinterpret_cast<uint2 const*>(at)[q];
      words[0] = v.x, words[1] = v.y;
    } else if constexpr (bytes == 4) {
      words[0] = reinterpret_cast<unsigned const*>(at)[q];
    } else {
      words[0] = at[q];
    }
    if constexpr (bytes >= 4) {
      // Each byte is 0 or 1: one multiply gathers a word's four into bits 24..27, in order (the
      // products' bits never overlap, so nothing carries).
#pragma unroll
      for (int u = 0; u < bytes / 4; ++u) mask |= ((words[u] * 0x01020408u) >> 24 & 0xfu) << (q * bytes + 4 * u);
    } else {
      if (words[0] & 0xffu) mask |= 1u << q;
    }
  }
  // One register from here on: the compiler would otherwise keep the words' partial sums to test
  // bits from, which a 32-register thread cannot hold.
  asm("mov.b32 %0, %0;" : "+r"(mask));
  return mask;
}

// head_id's rows: see head_slot.
template <int BlockSize, int Items>
inline constexpr int head_row = BlockSize + (Items < 32 ? 32 / Items : 1);

// The tile kernel's shared memory.
template <int BlockSize, int Items, class T>
struct tiles_shared {
  static constexpr int tile = BlockSize * Items;
  __align__(16) unsigned char head[tile];  // position j * Items + k begins a segment
  // That segment (in a chunk of several tiles, less the tile's first), at head_slot (or, in a tile
  // that keeps values here, the value of the segment that head closes). (A skew that kept the dense
  // scatter's stores off one bank, one word in 32 skipped, was slower: 86 to 92 us at 16K-item
  // segments on an H200.)
  unsigned head_id[Items * head_row<BlockSize, Items>];
  open_value<T> warp_total[BlockSize / 32];
  open_value<T> carry[2];  // what each tile of a chunk leaves open, by the tile's parity
  long long round_begin[BlockSize];  // a scatter round's begins (in the chunk): the first after the tile
};

// Where position p's head number lies in head_id (p = j * Items + k: thread j's item k): by item,
// rows of BlockSize + 32 / Items words, so that both a warp's threads at one item (the fold) and 32
// positions in a row (the staged values' pass) fall in 32 banks.
template <int BlockSize, int Items>
__device__ __forceinline__ unsigned head_slot(unsigned p) {
  return (p % Items) * head_row<BlockSize, Items> + p / Items;
}
template <int BlockSize, int Items>
__device__ __forceinline__ unsigned head_slot(int j, int k) {
  return static_cast<unsigned>(k * head_row<BlockSize, Items> + j);
}

// Marks position p (of a tile of BlockSize x Items) as the begin of segment `id`. Atomic: where the
// offsets decrease (results discarded, the flag set), two segments may mark one position.
template <int BlockSize, int Items>
__device__ __forceinline__ void mark_head(unsigned char* head, unsigned* head_id, unsigned p, unsigned id) {
  atomicOr(reinterpret_cast<unsigned*>(head + (p & ~3u)), 1u << (8 * (p & 3u)));
  atomicExch(head_id + head_slot<BlockSize, Items>(p), id);
}

// A value kept in a head_id word (T of 4 bytes or less), and read back.
template <class T>
inline constexpr bool stageable_v = sizeof(T) <= sizeof(unsigned) && cuda::std::is_trivially_copyable_v<T>;
template <class T>
__device__ __forceinline__ void stage_value(unsigned* slot, T const& v) {
  unsigned u = 0;
  __builtin_memcpy(&u, &v, sizeof(T));
  *slot = u;
}
template <class T>
__device__ __forceinline__ T staged_value(unsigned const* slot) {
  unsigned const u = *slot;
  T v;
  __builtin_memcpy(&v, &u, sizeof(T));
  return v;
}

// Zeroes a thread's Items head flags, by the widest stores Items allows.
template <int Items>
__device__ __forceinline__ void clear_heads(unsigned char* at) {
  if constexpr (Items % 16 == 0) {
#pragma unroll
    for (int q = 0; q < Items / 16; ++q) reinterpret_cast<uint4*>(at)[q] = make_uint4(0, 0, 0, 0);
  } else if constexpr (Items % 8 == 0) {
#pragma unroll
    for (int q = 0; q < Items / 8; ++q) reinterpret_cast<uint2*>(at)[q] = make_uint2(0, 0);
  } else if constexpr (Items % 4 == 0) {
#pragma unroll
    for (int q = 0; q < Items / 4; ++q) reinterpret_cast<unsigned*>(at)[q] = 0;
  } else {
#pragma unroll
    for (int k = 0; k < Items; ++k) at[k] = 0;
  }
}

// A thread's Items items from p0 on: 16-byte loads where the input allows and the tile is whole,
// else one by one (positions at or past te read position ts instead).
template <int Items, class It, class X>
__device__ __forceinline__ void load_tile_items(It at, int p0, int ts, int te, bool whole, X (&x)[Items]) {
  if constexpr (vectorizable<It, Items>) {
    using in = vector_input<It>;
    if (whole && is_vector_aligned(at + ts)) {
#pragma unroll
      for (int q = 0; q < Items / in::width; ++q) {
        auto const v = in::load(at, p0 + q * in::width);
#pragma unroll
        for (int r = 0; r < in::width; ++r) x[q * in::width + r] = in::item(at, v, r, p0 + q * in::width + r);
      }
      return;
    }
  }
#pragma unroll
  for (int k = 0; k < Items; ++k) x[k] = at[p0 + k < te ? p0 + k : ts];
}

// A chunk of one tile, as every chunk is where the items fit the capacity in tiles: the prototype's
// path, with no carry, no scatter rounds and no valid flags. A partial last tile reads its item 0 in
// place of those past the items and marks a head of its own where the items end, numbered n: the
// segment it begins takes those copies and is never written.
template <int BlockSize, int Items, class T, class It, class Csr, class OutIt, class Op>
__device__ __forceinline__ void segment_tiles_whole(It first, Csr const& csr, long long n, OutIt d_out, T init, Op op,
                                                    tiles_scratch<T> const& scratch, long long base, bool last,
                                                    int valid, int c, tiles_shared<BlockSize, Items, T>& sh) {
  using X = input_value_t<It>;
  constexpr int tile = BlockSize * Items;
  constexpr int warps = BlockSize / 32;
  int const j = static_cast<int>(threadIdx.x);
  int const lane = j % 32, w = j / 32;
  long long const chunk_at = base + static_cast<long long>(c) * tile;
  X x[Items];
  load_tile_items<Items>(first + chunk_at, j * Items, 0, valid, valid == tile, x);
  clear_heads<Items>(sh.head + j * Items);
  wait_for_previous_grid();  // the search's chunk_lo
  int const lo = scratch.chunk_lo[c];
  int const hi = last ? static_cast<int>(n) : scratch.chunk_lo[c + 1];
  // Where the offsets decrease, the chunk starts are lower bounds in offsets that are not sorted:
  // the flag is set (the fix-up then folds every segment by itself) and the results here are
  // overwritten. The chunks' ranges [lo, hi) cover every segment where no chunk's hi is below its lo.
  if (hi < lo && j == 0) atomicOr(scratch.overlapping, 1u);
  __syncthreads();  // the map cleared
  if (j == 0 && valid < tile) {  // where the items end (no segment that holds items begins there)
    mark_head<BlockSize, Items>(sh.head, sh.head_id, static_cast<unsigned>(valid), static_cast<unsigned>(n));
  }
  // The segments that begin in the tile (the last also takes the empty ones at the items' end).
  // Positions in 32 bits once inside the tile's items (a begin outside them, where the offsets
  // decrease, is not marked and sets the flag). Only the loads come before the branches (a store of
  // the last segment's end here had the compiler wait for the end's load before it issued the
  // begin's: two round trips a segment; thread 0 reads that end again below).
#pragma unroll 1
  for (int i = lo + j; i < hi; i += BlockSize) {
    long long const b = csr.at(i), e = csr.at(i + 1);
    if (e <= b) {
      store_value(d_out + i, init);
      if (e < b) atomicOr(scratch.overlapping, 1u);
    } else if (static_cast<unsigned long long>(b - chunk_at) < static_cast<unsigned>(valid)) {
      mark_head<BlockSize, Items>(sh.head, sh.head_id, static_cast<unsigned>(b - chunk_at), static_cast<unsigned>(i));
    } else {
      // Sorted offsets put every begin that holds items among the tile's items. Others are not
      // marked (one past a partial last tile's items would close the head numbered n there, whose
      // segment does not exist: a write past the results), and the flag is set.
      atomicOr(scratch.overlapping, 1u);
    }
  }
  __syncthreads();
  // This thread's items in order: each head closes the segment before it.
  unsigned const heads = read_heads<Items>(sh.head + j * Items);
  // A tile of more than two segments a thread (segments of fewer than 8 items) keeps the value of each
  // segment it closes in shared memory, in the head_id word of the head that closes it, and writes
  // them after a barrier, a thread a segment: a thread's own stores fall Items items apart across
  // its warp, a sector a lane. (On an H200: 1-item segments 2.5x faster, 4-item ones 10%, 8-256-item
  // ones 1-2% slower for the second fold's code; every tile staged, those 6-10% slower:
  // docs/notes/segmented-tiles-default.md.) Staged, the thread's last head's number is read
  // first (its word may then take a value) and the fold tracks no other (a fold that read each head's
  // number before writing its word spilled at 32 registers).
  auto const fold = [&](auto staged_c) {
    constexpr bool staged = decltype(staged_c)::value;
    // How: a warp whose lanes have heads at many positions (power-law lengths) folds without branches,
    // which would run both sides: every item selects what it folds onto, and only the stores and the
    // head numbers' loads are predicated. One whose heads are at few positions (fixed lengths: the
    // lanes alike) branches, which then costs few items; one without heads folds plainly.
    // Whether a head comes before item k, and whether the first item holds one, are bits of `heads`
    // (bools kept apart take registers a 32-register thread does not have).
    int id = -1;
    if constexpr (staged) {
      if (heads != 0) id = static_cast<int>(sh.head_id[head_slot<BlockSize, Items>(j, 31 - __clz(static_cast<int>(heads)))]);
    }
    // A segment closed by the head at item k: written, or kept in that head's word.
    auto const close = [&](int k, T const& v) {
      if constexpr (staged) stage_value(sh.head_id + head_slot<BlockSize, Items>(j, k), v);
      else store_value(d_out + id, v);
    };
    T acc = static_cast<T>(x[0]), first_part = init;
    unsigned const warp_heads = warp_or(heads);  // the positions where some lane has a head
    if (__popc(warp_heads) > 4) {
      if (heads & 1u) {
        if constexpr (!staged) id = static_cast<int>(sh.head_id[head_slot<BlockSize, Items>(j, 0)]);
        acc = static_cast<T>(op(init, static_cast<T>(x[0])));
      }
#pragma unroll
      for (int k = 1; k < Items; ++k) {
        bool const head = (heads >> k) & 1u;
        bool const before = (heads & ((1u << k) - 1u)) != 0;
        if (head && before) close(k, acc);
        if (head && !before) first_part = acc;
        if constexpr (!staged)
          if (head) id = static_cast<int>(sh.head_id[head_slot<BlockSize, Items>(j, k)]);
        acc = static_cast<T>(op(head ? init : acc, static_cast<T>(x[k])));
      }
    } else if (warp_heads != 0) {
#pragma unroll
      for (int k = 0; k < Items; ++k) {
        if ((heads >> k) & 1u) {
          int h = id;
          if constexpr (!staged) h = static_cast<int>(sh.head_id[head_slot<BlockSize, Items>(j, k)]);
          if (heads & ((1u << k) - 1u)) close(k, acc);
          else first_part = acc;
          id = h;
          acc = static_cast<T>(op(init, static_cast<T>(x[k])));
        } else if (k > 0) {
          acc = static_cast<T>(op(acc, static_cast<T>(x[k])));
        }
      }
    } else {
#pragma unroll
      for (int k = 1; k < Items; ++k) acc = static_cast<T>(op(acc, static_cast<T>(x[k])));
    }
    bool const any = heads != 0;
    bool const has_first = (heads & 1u) == 0;  // items before the first head (all of them where none)
    if (!any) first_part = acc;
    // Inclusive scan by segment over the warp (every lane holds a value), then the warps in order.
    int sid = any ? id : -1;
    T sv = acc;
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
      int const o_id = __shfl_up_sync(full_warp_mask, sid, d);
      T const o_v = shuffle_up(sv, d);
      if (lane >= d && sid < 0) {
        sid = o_id;
        sv = static_cast<T>(op(o_v, sv));
      }
    }
    int const before_id = __shfl_up_sync(full_warp_mask, sid, 1);
    T const before_v = shuffle_up(sv, 1);
    if (lane == 31) sh.warp_total[w] = open_value<T>{sid, sv, true};
    __syncthreads();
    if (any && (w > 0 || lane > 0)) {  // the first head closes the segment open before it
      open_value<T> prefix = w > 0 ? sh.warp_total[0] : open_value<T>{before_id, before_v, true};
      for (int u = 1; u < w; ++u) prefix = combine_held(prefix, sh.warp_total[u], op);
      if (w > 0 && lane > 0) prefix = combine_held(prefix, open_value<T>{before_id, before_v, true}, op);
      T const v = has_first ? static_cast<T>(op(prefix.v, first_part)) : prefix.v;
      if (prefix.id < 0) scratch.head_part[c] = v;  // the segment carried in from before the tile
      else if constexpr (staged) stage_value(sh.head_id + head_slot<BlockSize, Items>(j, __ffs(static_cast<int>(heads)) - 1), v);
      else store_value(d_out + prefix.id, v);
    } else if (any && has_first) {
      scratch.head_part[c] = first_part;  // thread 0: the items before its first head
    }
    if constexpr (staged) {
      __syncthreads();
      // A segment that begins in the tile and ends in it, at p: its value is in the word of p's head.
#pragma unroll 1
      for (int i = lo + j; i < hi; i += BlockSize) {
        long long const b = csr.at(i), e = csr.at(i + 1);
        unsigned long long const p = static_cast<unsigned long long>(e - chunk_at);
        if (e > b && p < static_cast<unsigned long long>(tile))
          store_value(d_out + i, staged_value<T>(sh.head_id + head_slot<BlockSize, Items>(static_cast<unsigned>(p))));
      }
    }
  };
  if constexpr (stageable_v<T>) {
    if (hi - lo > 2 * BlockSize) fold(cuda::std::true_type{});
    else fold(cuda::std::false_type{});
  } else {
    fold(cuda::std::false_type{});
  }
  if (j == 0) {
    open_value<T> left = sh.warp_total[0];
    for (int u = 1; u < warps; ++u) left = combine_held(left, sh.warp_total[u], op);
    int seg = -1;
    if (left.id < 0) {
      scratch.head_part[c] = left.v;  // no head in the tile
    } else if (left.id < n) {  // (n: the copies past a partial last tile's items)
      // It ends in the tile unless it is the tile's last segment (its end read again, from L1).
      long long const end = left.id + 1 < hi ? 0 : csr.at(hi) - chunk_at;
      if (end <= tile) {
        store_value(d_out + left.id, left.v);
      } else {
        seg = left.id;
        scratch.tail_part[c] = left.v;
        scratch.tail_last[c] = static_cast<int>(c + (end - 1) / tile);
      }
    }
    scratch.tail_seg[c] = seg;
  }
}

// A chunk of several tiles (the last chunk's last may be partial): the tiles in order, each seeded with
// what the one before left open, each tile's segments found by rounds of the scatter (the search
// gives only the chunk's first).
template <int BlockSize, int Items, class T, class It, class Csr, class OutIt, class Op>
__device__ __forceinline__ void segment_tiles_chunk(It first, Csr const& csr, long long n, OutIt d_out, T init, Op op,
                                                    tiles_scratch<T> const& scratch, tiles_geometry const& g,
                                                    long long c, tiles_shared<BlockSize, Items, T>& sh) {
  using X = input_value_t<It>;
  constexpr int tile = BlockSize * Items;
  constexpr int warps = BlockSize / 32;
  auto& head = sh.head;
  auto& head_id = sh.head_id;
  auto& warp_total = sh.warp_total;
  auto& carry = sh.carry;
  auto& round_begin = sh.round_begin;
  int const j = static_cast<int>(threadIdx.x);
  int const lane = j % 32, w = j / 32;
  // The items first; then, once the search is done, the tile's first segment (and the next chunk's).
  long long const chunk_at = g.base + c * g.chunk;  // the chunk's first item
  int const chunk_items = static_cast<int>(g.total - c * g.chunk < g.chunk ? g.total - c * g.chunk : g.chunk);
  bool const last_chunk = c + 1 == g.chunks;
  It const at = first + chunk_at;
  int lo = -1;  // the tile's first segment
  int next_lo = static_cast<int>(n);  // the next chunk's first, where the last tile's must end
  bool wrong = false;  // the offsets decrease (as in segment_tiles_whole)
  int parity = 0;
  if (j == 0) carry[1] = open_value<T>{-1, init, false};
  for (int ts = 0; ts < chunk_items; ts += tile, parity ^= 1) {
    int const te = ts + tile < chunk_items ? ts + tile : chunk_items;
    X x[Items];
    int const p0 = ts + j * Items;
    load_tile_items<Items>(at, p0, ts, te, te - ts == tile, x);
    if (lo < 0) {
      wait_for_previous_grid();  // the search's chunk_lo
      lo = scratch.chunk_lo[c];
      if (!last_chunk) next_lo = scratch.chunk_lo[c + 1];
    }
    // The first round of the segments that begin in the tile (below), loaded with the items.
    int i0 = lo;
    long long b = lo + j <= n ? csr.at(lo + j) - chunk_at : (1ll << 62);
    long long e = lo + j < n ? csr.at(lo + j + 1) - chunk_at : b;
    clear_heads<Items>(head + j * Items);
    __syncthreads();  // the map cleared (and the last tile's reads of it, carry and round_begin done)
    // The segments that begin in the tile, BlockSize at a time; the chunk's last tile also takes
    // the empty segments at its end (at the very end of the items: all of them).
    long long const limit = te < chunk_items ? te : last_chunk ? (1ll << 62) : chunk_items;
    int hi = lo, end_slot = 0;
    for (;;) {
      int const i = i0 + j;
      bool const mine = i < n && b < limit;
      if (i < n && e < b) wrong = true;  // (every round's segments checked: they cover the chunk's)
      if (mine) {
        if (e <= b) {
          store_value(d_out + i, init);
        } else if (b < ts || b >= te) {
          wrong = true;  // (sorted offsets put every begin that holds items in the tile)
        } else {
          int const p = static_cast<int>(b) - ts;
          mark_head<BlockSize, Items>(head, head_id, static_cast<unsigned>(p), static_cast<unsigned>(i - lo));
        }
      }
      round_begin[j] = b;
      int const count = __syncthreads_count(mine);
      if (count < BlockSize) {
        hi = i0 + count;
        end_slot = count;
        break;
      }
      i0 += BlockSize;
      b = i0 + j <= n ? csr.at(i0 + j) - chunk_at : (1ll << 62);
      e = i0 + j < n ? csr.at(i0 + j + 1) - chunk_at : b;
    }
    // This thread's items, in order: each head closes the segment before it. Full tiles (all but a
    // chunk's last) take a path where every item is real and every thread holds a value.
    auto const fold_tile = [&](auto full_c) {
      constexpr bool full = decltype(full_c)::value;
      unsigned const heads = read_heads<Items>(head + j * Items);
      int id = -1;
      T acc = init, first_part = init;
      bool any = false, has_acc = false, has_first = false;
#pragma unroll
      for (int k = 0; k < Items; ++k) {
        bool const real = full || p0 + k < te;
        if (real && (heads >> k) & 1u) {
          int const h = lo + static_cast<int>(head_id[head_slot<BlockSize, Items>(j, k)]);
          if (any) store_value(d_out + id, acc);
          else {
            first_part = acc;
            has_first = has_acc;
          }
          any = true;
          id = h;
          acc = static_cast<T>(op(init, static_cast<T>(x[k])));
          has_acc = true;
        } else if (real) {
          acc = has_acc ? static_cast<T>(op(acc, static_cast<T>(x[k]))) : static_cast<T>(x[k]);
          has_acc = true;
        }
      }
      if (!any) {
        first_part = acc;
        has_first = has_acc;
      }
      // Inclusive scan by segment over the warp, then the warps in order, seeded with the carry.
      open_value<T> mine{any ? id : -1, acc, full || has_acc};
      open_value<T> before;
      if constexpr (full) {  // every lane holds a value: only the numbers and values move
#pragma unroll
        for (int d = 1; d < 32; d *= 2) {
          int const o_id = __shfl_up_sync(full_warp_mask, mine.id, d);
          T const o_v = shuffle_up(mine.v, d);
          if (lane >= d && mine.id < 0) {
            mine.id = o_id;
            mine.v = static_cast<T>(op(o_v, mine.v));
          }
        }
        before = open_value<T>{__shfl_up_sync(full_warp_mask, mine.id, 1), shuffle_up(mine.v, 1), true};
      } else {
#pragma unroll
        for (int d = 1; d < 32; d *= 2) {
          open_value<T> const o = shuffle_open_up(mine, d);
          if (lane >= d) mine = combine_open(o, mine, op);
        }
        before = shuffle_open_up(mine, 1);
      }
      if (lane == 31) warp_total[w] = mine;
      __syncthreads();
      if (any) {  // the first head closes the segment open before it
        open_value<T> prefix = carry[parity ^ 1];  // everything before this warp
        for (int u = 0; u < w; ++u) prefix = combine_open(prefix, warp_total[u], op);
        open_value<T> const excl = lane > 0 ? combine_open(prefix, before, op) : prefix;
        open_value<T> const closed = combine_open(excl, open_value<T>{-1, first_part, has_first}, op);
        if (closed.id >= 0) store_value(d_out + closed.id, closed.v);
        else if (closed.valid) scratch.head_part[c] = closed.v;  // the chunk's carried-in segment
      }
    };
    if (te - ts == tile) fold_tile(cuda::std::true_type{});
    else fold_tile(cuda::std::false_type{});
    if (j == 0) {
      open_value<T> left = carry[parity ^ 1];
      for (int u = 0; u < warps; ++u) left = combine_open(left, warp_total[u], op);
      carry[parity] = left;
      if (te == chunk_items) {
        // The chunk's end: the segment left open, unless it ends here.
        int seg = -1;
        if (left.id < 0) {
          if (left.valid) scratch.head_part[c] = left.v;  // no head in the chunk
        } else {
          // Where it ends: at the next segment's begin; a later one that begins in the tile: here.
          long long const end = left.id + 1 < hi ? 0 : round_begin[end_slot];
          if (end <= chunk_items) {
            store_value(d_out + left.id, left.v);
          } else {
            seg = left.id;
            scratch.tail_part[c] = left.v;
            // The chunk of its last item: chunks are chunk_items long but the last.
            scratch.tail_last[c] = static_cast<int>(c + (end - 1) / chunk_items);
          }
        }
        scratch.tail_seg[c] = seg;
      }
    }
    // (The next tile writes the map, warp_total, carry[parity ^ 1] and round_begin only after its
    // first barrier, which every thread reaches after its reads of this tile's.)
    lo = hi;
  }
  if (wrong || lo != next_lo) atomicOr(scratch.overlapping, 1u);
}

// The tile kernel's blocks an SM. A thread of a one-tile chunk holds its Items items in registers:
// 16 items of 4 bytes and the rest fit 32 registers, so all 2048 threads of an SM are resident (eight
// blocks of 256 against six at 40 registers took the prototype's power law from 107 to 93 us on an
// H200, docs/notes/segmented-tiles.md: the items in flight make this kernel's speed). The several-tile path
// spills at 32 registers (20% slower at 16K-item segments than at 40, faster at 1-16 items); it runs
// only past `capacity` tiles. Wider values or more items keep 1536 threads (40 registers at 256).
template <int BlockSize, int Items, class X, class T>
inline constexpr int tiles_threads = Items <= 16 && sizeof(X) <= 4 && sizeof(T) <= 4 ? 2048 : 1536;
template <int BlockSize, int Items, class X, class T>
inline constexpr int tiles_min_blocks =
    tiles_threads<BlockSize, Items, X, T> / BlockSize < 32 ? tiles_threads<BlockSize, Items, X, T> / BlockSize : 32;

// A block a chunk (the grid is the chunks' capacity; blocks past the chunks return): a chunk of one
// tile by segment_tiles_whole, one of several by segment_tiles_chunk.
template <int BlockSize, int Items, class T, class It, class Csr, class OutIt, class Op>
__global__ void __launch_bounds__(BlockSize, (tiles_min_blocks<BlockSize, Items, input_value_t<It>, T>))
    segment_tiles_kernel(It first, Csr csr, long long n, OutIt d_out, T init, Op op, tiles_scratch<T> scratch) {
  static_assert(BlockSize % 32 == 0, "cascade: segment::tiles needs a block size that is a multiple of 32");
  static_assert(Items <= 32, "cascade: segment::tiles folds at most 32 items a thread; use a CoarseFactor of 32 or less");
  constexpr long long tile = static_cast<long long>(BlockSize) * Items;
  __shared__ tiles_shared<BlockSize, Items, T> sh;
  let_next_grid_start();
  // The geometry: the geometry kernel ended before the search passed its wait, and the search lets
  // this kernel start only after that.
  longlong2 const head = *reinterpret_cast<longlong2 const*>(scratch.geometry);  // base, chunks, last_items
  int const chunks = static_cast<int>(head.y & 0xffffffffll), last_items = static_cast<int>(head.y >> 32);
  int const c = static_cast<int>(blockIdx.x);
  if (c >= chunks) {
    if (c == 0) wait_for_previous_grid();  // so that this grid ends after the search (no chunks)
    return;
  }
  if (last_items != 0) {
    bool const last = c + 1 == chunks;
    segment_tiles_whole<BlockSize, Items>(first, csr, n, d_out, init, op, scratch, head.x, last,
                                          last ? last_items : static_cast<int>(tile), c, sh);
  } else {
    tiles_geometry const g = *scratch.geometry;
    segment_tiles_chunk<BlockSize, Items>(first, csr, n, d_out, init, op, scratch, g, c, sh);
  }
}

// A warp a chunk: the pieces of the segment it leaves open, folded in order. Where the offsets
// decrease (or the segments hold no items), a warp a segment instead, every segment by itself.
template <int BlockSize, class T, class It, class Csr, class OutIt, class Op>
__global__ void __launch_bounds__(BlockSize)
    segment_tiles_fixup_kernel(It first, Csr csr, long long n, OutIt d_out, T init, Op op,
                               tiles_scratch<T> scratch) {
  wait_for_previous_grid();
  int const lane = static_cast<int>(threadIdx.x % 32);
  long long const warp0 = (static_cast<long long>(blockIdx.x) * BlockSize + threadIdx.x) / 32;
  long long const warps = static_cast<long long>(gridDim.x) * (BlockSize / 32);
  if (*scratch.overlapping != 0) {
    for (long long s = warp0; s < n; s += warps) {
      long long const b = csr.at(s), e = csr.at(s + 1);
      T const r = group_fold<32, 4>(first, segment_bounds{b, e > b ? e : b}, lane, init, op);
      if (lane == 0) store_value(d_out + s, r);
    }
    return;
  }
  tiles_geometry const g = *scratch.geometry;
  // Pieces a lane folds a round: each lane a run of them in order, then the runs in lane order, so
  // that a segment over 256 chunks (2^20 items in tiles of 4096) takes one round trip to memory, not 8.
  constexpr int per_lane = 8;
  for (long long c = warp0; c < g.chunks; c += warps) {
    int const seg = scratch.tail_seg[c];
    if (seg < 0) continue;
    long long const last = scratch.tail_last[c];
    T acc = scratch.tail_part[c];
    for (long long u0 = c + 1; u0 <= last; u0 += 32 * per_lane) {
      long long const u = u0 + lane * per_lane;  // past `last` for the lanes beyond the pieces
      T part = scratch.head_part[u <= last ? u : last];
#pragma unroll
      for (int k = 1; k < per_lane; ++k) {
        T const next = scratch.head_part[u + k <= last ? u + k : last];
        if (u + k <= last) part = static_cast<T>(op(part, next));
      }
      long long const left = last - u0 + 1;
      int const valid = left >= 32 * per_lane ? 32 : static_cast<int>((left + per_lane - 1) / per_lane);
      acc = static_cast<T>(op(acc, shuffle_from(shuffle_warp_reduce{}(part, lane, valid, op), 0)));  // in order
    }
    if (lane == 0) store_value(d_out + seg, acc);
  }
}

}  // namespace cascade::detail
