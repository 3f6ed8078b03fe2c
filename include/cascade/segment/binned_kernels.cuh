// cascade/segment/binned_kernels.cuh: the kernels of segment::binned, which gives each segment the
// owner its length wants, decided on the device, so that the host neither reads the offsets nor waits.
// The binning pass, warp by warp (no block barrier): a warp reads 32 neighbouring segments' offsets
// (coalesced) and folds those of up to 32 items itself, and those of 33-128 where most of the 32 have
// that many (8 lanes each); it lists the other 33-256-item ones (8 lanes each) and those of 257-2048 (16
// lanes), and longer ones for blocks, in parts of a few tiles each. The lists are
// sharded: a warp takes its places in shard (its group of 32 segments mod 64) with one atomic, so that
// no one address serializes and no warp waits for another. The tail kernel then folds everything
// listed, in one grid.
#pragma once

#include <cuda_runtime_api.h>

#include <cuda/std/type_traits>

#include "../tree/tag.cuh"
#include "../detail/kernel/arguments.cuh"
#include "../detail/kernel/kernels.cuh"
#include "kernels.cuh"
#include "../detail/kernel/segments.cuh"
#include "../detail/block/shuffle.cuh"
#include "../detail/kernel/sinks.cuh"

namespace cascade::detail {

// Who folds a segment, by its length.
struct binned_bins {
  static constexpr long long thread_max = 8;         // <=: its own thread, 8 loads in flight
  static constexpr long long lanes_max = 32;         // <=: in the same pass, a thread each or 4 lanes each
  static constexpr long long shorts_here_max = 128;  // <=: in the same pass, 8 lanes each, where most are
  static constexpr long long short_max = 256;        // <=: listed (list 0), 8 lanes
  static constexpr long long warp_max = 2048;        // <=: listed (list 1), 16 lanes; longer: blocks, in parts
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
  unsigned long long* counts;  // [slots] part slots taken, [entry_count] entries, [whole_count]
  unsigned* listed[2];         // segments of 33-256 and of 257-2048 items, shard k's at k * shard_capacity
  unsigned* whole;             // long segments given no part slots (they ran out): a block each
  binned_entry* entries;       // part_capacity
  unsigned* part_entry;        // part_capacity: the entry a part slot belongs to; ~0u: none
  unsigned part_capacity;
  long long part_items;  // items a part folds (a multiple of the tile)
  unsigned* shard_counts;   // [(list * shards + shard) * shard_stride]: entries in each shard of each list
  unsigned shard_capacity;  // entries a shard holds
  static constexpr int shards = 64;
  static constexpr int shard_stride = 32;  // a counter a 128-byte line: one line took every warp's atomic
  enum { slots = 0, entry_count = 1, whole_count = 2, num_counts = 3 };
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

// Everything but the long segments, which it lists: see the top of the file. A grid-stride loop over
// groups of 32 segments, a warp a group. Segments of 9-32 items are folded a thread each, 8 loads at a
// time, where few in the group have 16-32 items (a power law: about 2 of 32), and 4 lanes each, 8
// segments at a time, where most do (16-item segments read slower a thread each: 149 us against 120
// for 2^26 floats on the H200; the power law slower 4 lanes each: 128 us against 118).
template <int BlockSize, class T, class It, class Segments, class OutIt, class Op>
__global__ void __launch_bounds__(BlockSize, 2048 / BlockSize)
    segment_binned_kernel(It first, Segments segments, long long num_segments, OutIt d_out, T init, Op op,
                          binned_lists lists) {
  using X = input_value_t<It>;
  using bins = binned_bins;
  // The tail kernel may start now (launch_dependent): it waits for this grid's completion before it
  // reads the lists, but its blocks take the SMs as this grid's last wave drains (1-3% on the H200).
  let_next_grid_start();
  constexpr int batch = static_cast<int>(bins::thread_max);
  constexpr int shards = binned_lists::shards;
  int const lane = static_cast<int>(threadIdx.x % 32);
  unsigned const lanes_below = (1u << lane) - 1u;
  constexpr int lanes = bins::lanes;
  constexpr int grouped_at = 12;  // segments of 16-32 items in a group from which 4 lanes fold 9-32
  constexpr int shorts_here_at = 24;  // segments of 33-128 items in a group from which it folds them
  // A warp's segments of 9-32 items, in lane order, for its groups of 4 lanes.
  __shared__ segment_bounds staged[BlockSize / 32][32];
  __shared__ unsigned char staged_lane[BlockSize / 32][32];
  int const warp = static_cast<int>(threadIdx.x / 32);
  long long const groups = (num_segments + 31) / 32;
  long long const warps = static_cast<long long>(gridDim.x) * (BlockSize / 32);
  for (long long g = static_cast<long long>(blockIdx.x) * (BlockSize / 32) + threadIdx.x / 32; g < groups;
       g += warps) {
    long long const s = g * 32 + lane;
    bool const valid = s < num_segments;
    segment_bounds const seg = valid ? segments(s) : segment_bounds{0, 0};
    long long const n = seg.size();
    // 32 bits from here: a longer segment only needs to be known as longer than warp_max.
    unsigned const len = n > bins::warp_max ? static_cast<unsigned>(bins::warp_max + 1) : static_cast<unsigned>(n);
    unsigned const middle = __ballot_sync(full_warp_mask, valid && len > bins::thread_max && len <= bins::lanes_max);
    // 4 lanes a segment where at least 12 of the 32 have 16-32 items; 9-15 read faster a thread each
    // (10-item segments: 92 us against 160 for 2^26 floats on the H200).
    unsigned const long_middle = __ballot_sync(full_warp_mask, valid && len >= 16 && len <= bins::lanes_max);
    bool const grouped = __popc(long_middle) >= grouped_at;
    if (valid && len <= (grouped ? bins::thread_max : bins::lanes_max)) {
      T acc = init;
      It const at = first + seg.begin;
      for (unsigned k0 = 0; k0 < len; k0 += batch) {
        // Loads under `k < len`, all in flight; the others copy the batch's first item, so that no
        // register keeps a value from the last round (which put the items on the stack at 32 registers).
        X items[batch];
        items[0] = at[k0];
#pragma unroll
        for (int k = 1; k < batch; ++k) {
          if (k0 + k < len) items[k] = at[k0 + k];
          else items[k] = items[0];
        }
#pragma unroll
        for (int k = 0; k < batch; ++k)
          if (k0 + k < len) acc = static_cast<T>(op(acc, static_cast<T>(items[k])));
      }
      store_value(d_out + s, acc);
    }
    // Segments of `mask`, Lanes lanes each, 32 / Lanes at a time, taken in lane order from shared memory.
    auto const fold_staged = [&](auto lanes_c, unsigned mask) {
      constexpr int lanes_each = decltype(lanes_c)::value;
      if (mask & (1u << lane)) {
        int const rank = __popc(mask & lanes_below);
        staged[warp][rank] = seg;
        staged_lane[warp][rank] = static_cast<unsigned char>(lane);
      }
      __syncwarp();
      int const count = __popc(mask);
      for (int r0 = lane / lanes_each; r0 - lane / lanes_each < count; r0 += 32 / lanes_each) {
        bool const mine_now = r0 < count;
        T const r = group_fold<lanes_each, 4>(first, mine_now ? staged[warp][r0] : segment_bounds{0, 0},
                                              lane % lanes_each, init, op);
        if (mine_now && lane % lanes_each == 0) store_value(d_out + (g * 32 + staged_lane[warp][r0]), r);
      }
      __syncwarp();  // the next round's staging
    };
    if (grouped) fold_staged(cuda::std::integral_constant<int, lanes>{}, middle);
    // 33-128 items, 8 lanes each, here rather than listed where at least 24 of the 32 have that many
    // (64-item segments: 88 us against 104 for 2^26 floats on the H200; 256 items took 87 against 82,
    // so 129-256 stay listed; a power law has a few a group).
    unsigned const shorts =
        __ballot_sync(full_warp_mask, valid && len > bins::lanes_max && len <= bins::shorts_here_max);
    bool const shorts_here = __popc(shorts) >= shorts_here_at;
    if (shorts_here) fold_staged(cuda::std::integral_constant<int, 8>{}, shorts);
    int const list = valid && len > bins::lanes_max && len <= bins::warp_max
                         ? (len <= bins::short_max ? (shorts_here && len <= bins::shorts_here_max ? -1 : 0) : 1)
                         : -1;
    int const shard = static_cast<int>(g % shards);
#pragma unroll
    for (int l = 0; l < 2; ++l) {
      unsigned const mine = __ballot_sync(full_warp_mask, list == l);
      if (mine != 0) {
        unsigned at = 0;
        if (lane == 0)
          at = atomicAdd(&lists.shard_counts[(l * shards + shard) * binned_lists::shard_stride],
                         static_cast<unsigned>(__popc(mine)));
        at = __shfl_sync(full_warp_mask, at, 0);
        if (list == l)
          lists.listed[l][static_cast<unsigned>(shard) * lists.shard_capacity + at + __popc(mine & lanes_below)] =
              static_cast<unsigned>(s);
      }
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
  constexpr int shards = binned_lists::shards;
  __shared__ unsigned shard_count[2][shards];
  __shared__ unsigned most_chunks[2];
  constexpr long long tile = static_cast<long long>(BlockSize) * CoarseFactor;
  constexpr int list_width[2] = {8, 16};
  wait_for_previous_grid();  // the binning pass, complete and its lists visible
  unsigned long long const taken = lists.counts[binned_lists::slots];
  long long const slots = taken < lists.part_capacity ? static_cast<long long>(taken) : lists.part_capacity;
  long long const wholes = static_cast<long long>(lists.counts[binned_lists::whole_count]);
  // A list's tasks go shard by shard, chunk j of every shard before chunk j + 1: task c is chunk c /
  // shards of shard c % shards, empty where that shard has fewer (the shards fill about evenly).
  for (int i = static_cast<int>(threadIdx.x); i < 2 * shards; i += BlockSize)
    shard_count[i / shards][i % shards] = lists.shard_counts[i * binned_lists::shard_stride];
  __syncthreads();
  for (int l = static_cast<int>(threadIdx.x / 32); l < 2; l += BlockSize / 32) {
    int const lane = static_cast<int>(threadIdx.x % 32);
    unsigned m = shard_count[l][lane] > shard_count[l][lane + 32] ? shard_count[l][lane] : shard_count[l][lane + 32];
#pragma unroll
    for (int d = 16; d > 0; d /= 2) {
      unsigned const x = __shfl_xor_sync(full_warp_mask, m, d);
      m = x > m ? x : m;
    }
    unsigned const per = BlockSize / (l == 0 ? list_width[0] : list_width[1]);  // list_width[l]: a stack copy
    if (lane == 0) most_chunks[l] = (m + per - 1) / per;
  }
  __syncthreads();
  long long const chunks[2] = {static_cast<long long>(most_chunks[0]) * shards,
                               static_cast<long long>(most_chunks[1]) * shards};
  // Task c of list l: fold(its shard's ids, their count, the chunk among them), or nothing.
  auto const list_chunk = [&](int l, long long c, auto&& fold) {
    int const k = static_cast<int>(c % shards);
    long long const j = c / shards;
    long long const count = shard_count[l][k];
    if (j * (BlockSize / list_width[l]) >= count) return;
    fold(lists.listed[l] + static_cast<unsigned long long>(k) * lists.shard_capacity, count, j);
  };
  long long const tasks = slots + wholes + chunks[1] + chunks[0];
  auto const run_tail_task = [&](long long t) {
    if (t >= slots + wholes + chunks[1]) {
      list_chunk(0, t - slots - wholes - chunks[1], [&](unsigned const* ids, long long count, long long c) {
        fold_listed<8, BlockSize, 4>(first, segments, ids, count, c, d_out, init, op);
      });
      return;
    }
    if (t >= slots + wholes) {
      list_chunk(1, t - slots - wholes, [&](unsigned const* ids, long long count, long long c) {
        fold_listed<16, BlockSize, 4>(first, segments, ids, count, c, d_out, init, op);
      });
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
