// cascade/detail/segment_binned.cuh: the kernels of segment::binned, which gives each segment the
// owner its length wants, decided on the device, so that the host neither reads the offsets nor waits.
// The binning pass: a warp reads 32 neighbouring segments' offsets (coalesced) and, by ballot, folds
// those of 1-8 items a thread each and those of 9-32 items 4 lanes each, 8 at a time; it lists those
// of 33-256 items (8 lanes each) and 257-2048 (16 lanes), and longer ones for blocks, in parts of a few
// tiles each. A block takes its places in a list with one atomic: one address, hit by every warp,
// would serialize. The tail kernel then folds everything listed, in one grid.
#pragma once

#include <cuda_runtime_api.h>

#include "../tree/tag.cuh"
#include "arguments.cuh"
#include "kernels.cuh"
#include "segment_kernels.cuh"
#include "segments.cuh"
#include "shuffle.cuh"
#include "sinks.cuh"

namespace cascade::detail {

// Who folds a segment, by its length.
struct binned_bins {
  static constexpr long long thread_max = 8;   // <=: its own thread, 8 loads in flight
  static constexpr long long lanes_max = 32;   // <=: 4 lanes, in the same pass
  static constexpr long long short_max = 256;  // <=: listed (list 0), 8 lanes
  static constexpr long long warp_max = 2048;  // <=: listed (list 1), 16 lanes; longer: blocks, in parts
  static constexpr int lanes = 4;
  static constexpr unsigned max_parts = 1024;  // parts one segment is split into, at most
};

// A long segment split into parts, each a block's share of its tiles.
struct binned_entry {
  unsigned segment;
  unsigned parts;
  unsigned base;  // its first part's slot in the partials
  unsigned done;  // parts folded so far: the one that makes it `parts` folds the partials
};

// One call's scratch. Segment numbers are 32-bit: the owner runs at most 2^28 segments at a time.
struct binned_lists {
  unsigned long long* counts;  // [slots] part slots taken, [entry_count] entries, [whole_count], [list0], [list1]
  unsigned* listed[2];         // segments of 33-256 and of 257-2048 items
  unsigned* whole;             // long segments given no part slots (they ran out): a block each
  binned_entry* entries;       // part_capacity
  unsigned* part_entry;        // part_capacity: the entry a part slot belongs to; ~0u: none
  unsigned part_capacity;
  long long part_items;  // items a part folds (a multiple of the tile)
  enum { slots = 0, entry_count = 1, whole_count = 2, list_count = 3, num_counts = 5 };
};

// Segments [base, base + 2^28) of a call.
template <class Segments>
struct window_segments {
  Segments inner;
  long long base;
  __host__ __device__ segment_bounds operator()(long long s) const { return inner(base + s); }
};

// The warp's long segments (parts > 0 in their lanes) take part slots and entries with one atomic
// each for the warp; a segment whose parts do not fit in the slots left is listed whole. Slots only
// grow, so the segments that fit all come before those that do not, and their entries stay below
// part_capacity.
__device__ inline void place_long_segments(binned_lists const& lists, long long s, unsigned parts) {
  int const lane = static_cast<int>(threadIdx.x % 32);
  unsigned const mask = __ballot_sync(full_warp_mask, parts > 0);
  if (mask == 0) return;
  unsigned first_slot = parts;  // inclusive scan of parts over the warp, then exclusive
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    unsigned const x = __shfl_up_sync(full_warp_mask, first_slot, d);
    if (lane >= d) first_slot += x;
  }
  unsigned const total = __shfl_sync(full_warp_mask, first_slot, 31);
  first_slot -= parts;
  unsigned long long slot0 = 0, entry0 = 0;
  if (lane == 0) {
    slot0 = atomicAdd(&lists.counts[binned_lists::slots], static_cast<unsigned long long>(total));
    entry0 = atomicAdd(&lists.counts[binned_lists::entry_count], static_cast<unsigned long long>(__popc(mask)));
  }
  slot0 = __shfl_sync(full_warp_mask, slot0, 0);
  entry0 = __shfl_sync(full_warp_mask, entry0, 0);
  if (parts == 0) return;
  unsigned long long const base = slot0 + first_slot;
  if (base + parts <= lists.part_capacity) {
    auto const e = static_cast<unsigned>(entry0 + static_cast<unsigned>(__popc(mask & ((1u << lane) - 1u))));
    lists.entries[e] = binned_entry{static_cast<unsigned>(s), parts, static_cast<unsigned>(base), 0u};
    for (unsigned k = 0; k < parts; ++k) lists.part_entry[base + k] = e;
  } else {
    for (unsigned long long k = base; k < lists.part_capacity && k < base + parts; ++k) lists.part_entry[k] = ~0u;
    lists.whole[atomicAdd(&lists.counts[binned_lists::whole_count], 1ull)] = static_cast<unsigned>(s);
  }
}

// Everything but the long segments, which it lists: see the top of the file.
template <int BlockSize, int LaneCoarse, class T, class It, class Segments, class OutIt, class Op>
__global__ void __launch_bounds__(BlockSize, 2048 / BlockSize)
    segment_binned_kernel(It first, Segments segments, long long num_segments, OutIt d_out, T init, Op op,
                          binned_lists lists) {
  using X = input_value_t<It>;
  using bins = binned_bins;
  constexpr int thread_max = static_cast<int>(bins::thread_max);
  constexpr int lanes = bins::lanes;
  // The lists' places, double-buffered ([round parity][list]) so that a round takes two barriers.
  __shared__ unsigned long long list_at[2][2];
  // A warp's segments of 9-32 items, in lane order, for its groups of 4 lanes.
  __shared__ segment_bounds staged[BlockSize / 32][32];
  __shared__ unsigned char staged_lane[BlockSize / 32][32];
  int const lane = static_cast<int>(threadIdx.x % 32);
  int const warp = static_cast<int>(threadIdx.x / 32);
  unsigned const lanes_below = (1u << lane) - 1u;
  if (threadIdx.x < 2) list_at[0][threadIdx.x] = 0;
  __syncthreads();
  int parity = 0;
  long long const stride = static_cast<long long>(gridDim.x) * BlockSize;
  // The loop is the block's (its threads leave together), for the ballots, shuffles and barriers.
  for (long long b0 = static_cast<long long>(blockIdx.x) * BlockSize; b0 < num_segments; b0 += stride) {
    long long const s0 = b0 + warp * 32;
    long long const s = s0 + lane;
    bool const valid = s < num_segments;
    segment_bounds const seg = valid ? segments(s) : segment_bounds{0, 0};
    long long const n = seg.size();
    if (valid && n <= thread_max) {
      T acc = init;
      if (n > 0) {
        X items[thread_max];
        // Loads under `k < n`, all in flight; the others copy item 0, so that no register keeps a
        // value from the last round (which put the items on the stack at 32 registers).
        items[0] = first[seg.begin];
#pragma unroll
        for (int k = 1; k < thread_max; ++k) {
          if (k < n) items[k] = first[seg.begin + k];
          else items[k] = items[0];
        }
#pragma unroll
        for (int k = 0; k < thread_max; ++k)
          if (k < n) acc = static_cast<T>(op(acc, static_cast<T>(items[k])));
      }
      store_value(d_out + s, acc);
    }
    // The lists' places: a warp's count, the block's in shared memory, then one atomic a list.
    int const list = !valid || n <= bins::lanes_max || n > bins::warp_max ? -1 : n <= bins::short_max ? 0 : 1;
    unsigned const mine[2] = {__ballot_sync(full_warp_mask, list == 0), __ballot_sync(full_warp_mask, list == 1)};
    unsigned long long warp_at[2] = {0, 0};
#pragma unroll
    for (int l = 0; l < 2; ++l)
      if (mine[l] != 0 && lane == 0)
        warp_at[l] = atomicAdd(&list_at[parity][l], static_cast<unsigned long long>(__popc(mine[l])));
    // The first barrier also orders the last listing round's reads of list_at[!parity] before its
    // zeroing; a round with nothing to list leaves list_at[parity] zero and keeps it.
    if (__syncthreads_or(list >= 0)) {
      if (threadIdx.x < 2) {
        unsigned long long const count = list_at[parity][threadIdx.x];
        if (count != 0)
          list_at[parity][threadIdx.x] = atomicAdd(&lists.counts[binned_lists::list_count + threadIdx.x], count);
      } else if (threadIdx.x < 4) {
        list_at[parity ^ 1][threadIdx.x - 2] = 0;
      }
      __syncthreads();
#pragma unroll
      for (int l = 0; l < 2; ++l) {
        unsigned long long const at = __shfl_sync(full_warp_mask, warp_at[l], 0) + list_at[parity][l];
        if (list == l) lists.listed[l][at + __popc(mine[l] & lanes_below)] = static_cast<unsigned>(s);
      }
      parity ^= 1;
    }
    // 9-32 items: 4 lanes a segment, 8 at a time, taken in lane order from shared memory.
    unsigned const left = __ballot_sync(full_warp_mask, valid && n > thread_max && n <= bins::lanes_max);
    if (left != 0) {
      if (left & (1u << lane)) {
        int const rank = __popc(left & lanes_below);
        staged[warp][rank] = seg;
        staged_lane[warp][rank] = static_cast<unsigned char>(lane);
      }
      __syncwarp();
      int const count = __popc(left);
      for (int r0 = lane / lanes; r0 - lane / lanes < count; r0 += 32 / lanes) {
        bool const mine_now = r0 < count;
        T const r = group_fold<lanes, LaneCoarse>(first, mine_now ? staged[warp][r0] : segment_bounds{0, 0},
                                                  lane % lanes, init, op);
        if (mine_now && lane % lanes == 0) store_value(d_out + (s0 + staged_lane[warp][r0]), r);
      }
      __syncwarp();  // the next round's staging
    }
    long long const wanted = valid && n > bins::warp_max ? (n + lists.part_items - 1) / lists.part_items : 0;
    place_long_segments(lists, s, wanted < bins::max_parts ? static_cast<unsigned>(wanted) : bins::max_parts);
  }
}

// A block's share of a list: Width lanes a segment, BlockSize / Width segments.
template <int Width, int BlockSize, int CoarseFactor, class T, class It, class Segments, class OutIt, class Op>
__device__ __forceinline__ void fold_listed(It first, Segments segments, unsigned const* ids, long long count,
                                            long long chunk, OutIt d_out, T init, Op op) {
  long long const i = chunk * (BlockSize / Width) + threadIdx.x / Width;
  unsigned const s = i < count ? ids[i] : 0u;
  T const r = group_fold<Width, CoarseFactor>(first, i < count ? segments(s) : segment_bounds{0, 0},
                                              static_cast<int>(threadIdx.x % Width), init, op);
  if (i < count && threadIdx.x % Width == 0) store_value(d_out + s, r);
}

// Everything the binning pass listed, in one grid, so that the lists' short tasks fill the SMs the
// long segments leave idle: first every part slot (a block folds its part's tiles; the last part of a
// segment to finish folds the segment's partials, in order), then the whole segments, a block each,
// then list 1 (257-2048 items, 16 lanes each) and list 0 (33-256, 8 lanes), a block's share at a time.
template <int BlockSize, int CoarseFactor, class Tree, class T, class It, class Segments, class OutIt, class Op>
__global__ void __launch_bounds__(BlockSize)
    segment_binned_tail_kernel(It first, Segments segments, OutIt d_out, T* partials, T init, Op op,
                               binned_lists lists) {
  __shared__ typename block_reduce<Tree, BlockSize, T>::storage storage;
  __shared__ bool last;
  constexpr long long tile = static_cast<long long>(BlockSize) * CoarseFactor;
  constexpr int list_width[2] = {8, 16};
  unsigned long long const taken = lists.counts[binned_lists::slots];
  long long const slots = taken < lists.part_capacity ? static_cast<long long>(taken) : lists.part_capacity;
  long long const wholes = static_cast<long long>(lists.counts[binned_lists::whole_count]);
  long long listed[2], chunks[2];
#pragma unroll
  for (int l = 0; l < 2; ++l) {
    listed[l] = static_cast<long long>(lists.counts[binned_lists::list_count + l]);
    chunks[l] = (listed[l] + BlockSize / list_width[l] - 1) / (BlockSize / list_width[l]);
  }
  long long const tasks = slots + wholes + chunks[1] + chunks[0];
  auto const run_tail_task = [&](long long t) {
    if (t >= slots + wholes + chunks[1]) {
      fold_listed<8, BlockSize, 4>(first, segments, lists.listed[0], listed[0], t - slots - wholes - chunks[1],
                                   d_out, init, op);
      return;
    }
    if (t >= slots + wholes) {
      fold_listed<16, BlockSize, 4>(first, segments, lists.listed[1], listed[1], t - slots - wholes, d_out, init,
                                    op);
      return;
    }
    if (t >= slots) {
      long long const s = lists.whole[t - slots];
      segment_bounds const seg = segments(s);
      T const r = with_segment_offset<tile>(seg.size(), [&](auto count) {
        return block_fold<BlockSize, CoarseFactor, Tree, T>(storage, first + seg.begin, count, op, 0u, 1u);
      });
      if (threadIdx.x == 0) store_value(d_out + s, static_cast<T>(op(init, r)));
      __syncthreads();  // the tree's shared memory is the next task's
      return;
    }
    unsigned const e = lists.part_entry[t];
    if (e == ~0u) return;  // a slot of a segment that found too few
    binned_entry const entry = lists.entries[e];
    segment_bounds const seg = segments(entry.segment);
    auto const part = static_cast<unsigned>(t - entry.base);
    T const r = with_segment_offset<tile>(seg.size(), [&](auto count) {
      return block_fold<BlockSize, CoarseFactor, Tree, T>(storage, first + seg.begin, count, op, part, entry.parts);
    });
    if (entry.parts == 1) {
      if (threadIdx.x == 0) store_value(d_out + entry.segment, static_cast<T>(op(init, r)));
      __syncthreads();
      return;
    }
    if (threadIdx.x == 0) {
      partials[t] = r;
      __threadfence();  // the partial is visible before the count says so
      last = atomicAdd(&lists.entries[e].done, 1u) == entry.parts - 1;
    }
    __syncthreads();
    if (last) {
      __threadfence();
      T const all = block_fold<BlockSize, 1, Tree, T>(storage, static_cast<T const*>(partials + entry.base),
                                                      entry.parts, op, 0u, 1u);
      if (threadIdx.x == 0) store_value(d_out + entry.segment, static_cast<T>(op(init, all)));
    }
    __syncthreads();
  };
  // Tasks in a fixed order, parts first (a queue's atomic per task, on one address, cost more than
  // the imbalance: 64-item segments make 32K list tasks).
  for (long long t = blockIdx.x; t < tasks; t += gridDim.x) run_tail_task(t);
}

}  // namespace cascade::detail
