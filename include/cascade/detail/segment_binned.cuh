// cascade/detail/segment_binned.cuh: the kernels of segment::binned, which gives each segment the
// owner its length wants, decided on the device, so that the host neither reads the offsets nor waits.
// A warp reads 32 neighbouring segments' offsets (coalesced) and, by ballot: folds those of 1-8 items
// a thread each, and those of 9-32 items 4 lanes each, 8 at a time; lists those of 33-256 items for 8
// lanes each and 257-2048 for 16 (segment_warp_kernel over each list), and longer ones for blocks, in
// parts of a few tiles each (the last part of a segment to finish folds its parts in order). A block
// takes its places in a list with one atomic: one address, hit by every warp, would serialize.
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

// The segments of a list, and their outputs.
template <class Segments>
struct listed_segments {
  Segments inner;
  unsigned const* ids;
  __device__ segment_bounds operator()(long long i) const { return inner(ids[i]); }
};

template <class OutIt>
struct listed_out {
  OutIt out;
  unsigned const* ids;
  __device__ OutIt operator+(long long i) const { return out + ids[i]; }
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

// The n-th (from 0) set bit of mask, or -1.
__device__ __forceinline__ int nth_set_bit(unsigned mask, int n) {
  for (int k = 0; k < n; ++k) mask &= mask - 1u;
  return mask ? __ffs(mask) - 1 : -1;
}

// The warp's segments in `left` (set bits: lanes whose segment it is), Width lanes each, 32 / Width
// at a time: group g takes the g-th left.
template <int Width, int CoarseFactor, class T, class It, class OutIt, class Op>
__device__ __forceinline__ void fold_groups(It first, segment_bounds seg, long long s0, unsigned left, OutIt d_out,
                                            T init, Op op) {
  int const lane = static_cast<int>(threadIdx.x % 32);
  while (left != 0) {
    int const from = nth_set_bit(left, lane / Width);
    long long const b = __shfl_sync(full_warp_mask, seg.begin, from < 0 ? 0 : from);
    long long const e = __shfl_sync(full_warp_mask, seg.end, from < 0 ? 0 : from);
    T const r = group_fold<Width, CoarseFactor>(first, from < 0 ? segment_bounds{0, 0} : segment_bounds{b, e},
                                                lane % Width, init, op);
    if (from >= 0 && lane % Width == 0) store_value(d_out + (s0 + from), r);
#pragma unroll
    for (int k = 0; k < 32 / Width; ++k) left &= left - 1u;
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
  __shared__ unsigned long long list_at[2];
  int const lane = static_cast<int>(threadIdx.x % 32);
  long long const stride = static_cast<long long>(gridDim.x) * BlockSize;
  // The loop is the block's (its threads leave together), for the ballots, shuffles and barriers.
  for (long long b0 = static_cast<long long>(blockIdx.x) * BlockSize; b0 < num_segments; b0 += stride) {
    long long const s0 = b0 + threadIdx.x / 32 * 32;
    long long const s = s0 + lane;
    bool const valid = s < num_segments;
    segment_bounds const seg = valid ? segments(s) : segment_bounds{0, 0};
    long long const n = seg.size();
    if (valid && n <= thread_max) {
      X items[thread_max];
#pragma unroll
      for (int k = 0; k < thread_max; ++k)
        if (k < n) items[k] = first[seg.begin + k];
      T acc = init;
#pragma unroll
      for (int k = 0; k < thread_max; ++k)
        if (k < n) acc = static_cast<T>(op(acc, static_cast<T>(items[k])));
      store_value(d_out + s, acc);
    }
    // The lists' places: a warp's count, the block's in shared memory, then one atomic a list.
    int const list = !valid || n <= bins::lanes_max || n > bins::warp_max ? -1 : n <= bins::short_max ? 0 : 1;
    unsigned const mine[2] = {__ballot_sync(full_warp_mask, list == 0), __ballot_sync(full_warp_mask, list == 1)};
    // (The barrier also waits for the last round's reads of list_at; a block with nothing to list skips.)
    if (__syncthreads_or(list >= 0)) {
      if (threadIdx.x < 2) list_at[threadIdx.x] = 0;
      __syncthreads();
      unsigned long long warp_at[2] = {0, 0};
#pragma unroll
      for (int l = 0; l < 2; ++l)
        if (mine[l] != 0 && lane == 0)
          warp_at[l] = atomicAdd(&list_at[l], static_cast<unsigned long long>(__popc(mine[l])));
      __syncthreads();
      if (threadIdx.x < 2 && list_at[threadIdx.x] != 0)
        list_at[threadIdx.x] = atomicAdd(&lists.counts[binned_lists::list_count + threadIdx.x], list_at[threadIdx.x]);
      __syncthreads();
#pragma unroll
      for (int l = 0; l < 2; ++l) {
        unsigned long long const at = __shfl_sync(full_warp_mask, warp_at[l], 0) + list_at[l];
        if (list == l) lists.listed[l][at + __popc(mine[l] & ((1u << lane) - 1u))] = static_cast<unsigned>(s);
      }
    }
    // 4 lanes a segment, 8 at a time.
    unsigned const left = __ballot_sync(full_warp_mask, valid && n > thread_max && n <= bins::lanes_max);
    if (left != 0) fold_groups<bins::lanes, LaneCoarse>(first, seg, s0, left, d_out, init, op);
    long long const wanted = valid && n > bins::warp_max ? (n + lists.part_items - 1) / lists.part_items : 0;
    place_long_segments(lists, s, wanted < bins::max_parts ? static_cast<unsigned>(wanted) : bins::max_parts);
  }
}

// The long segments: first every part slot (a block folds its part's tiles; the last part of a
// segment to finish folds the segment's partials, in order), then the whole ones, a block each.
template <int BlockSize, int CoarseFactor, class Tree, class T, class It, class Segments, class OutIt, class Op>
__global__ void __launch_bounds__(BlockSize)
    segment_binned_parts_kernel(It first, Segments segments, OutIt d_out, T* partials, T init, Op op,
                                binned_lists lists) {
  __shared__ typename block_reduce<Tree, BlockSize, T>::storage storage;
  __shared__ bool last;
  constexpr long long tile = static_cast<long long>(BlockSize) * CoarseFactor;
  unsigned long long const taken = lists.counts[binned_lists::slots];
  long long const slots = taken < lists.part_capacity ? static_cast<long long>(taken) : lists.part_capacity;
  long long const tasks = slots + static_cast<long long>(lists.counts[binned_lists::whole_count]);
  for (long long t = blockIdx.x; t < tasks; t += gridDim.x) {
    if (t >= slots) {
      long long const s = lists.whole[t - slots];
      segment_bounds const seg = segments(s);
      T const r = with_segment_offset<tile>(seg.size(), [&](auto count) {
        return block_fold<BlockSize, CoarseFactor, Tree, T>(storage, first + seg.begin, count, op, 0u, 1u);
      });
      if (threadIdx.x == 0) store_value(d_out + s, static_cast<T>(op(init, r)));
      __syncthreads();  // the tree's shared memory is the next task's
      continue;
    }
    unsigned const e = lists.part_entry[t];
    if (e == ~0u) continue;  // a slot of a segment that found too few
    binned_entry const entry = lists.entries[e];
    segment_bounds const seg = segments(entry.segment);
    auto const part = static_cast<unsigned>(t - entry.base);
    T const r = with_segment_offset<tile>(seg.size(), [&](auto count) {
      return block_fold<BlockSize, CoarseFactor, Tree, T>(storage, first + seg.begin, count, op, part, entry.parts);
    });
    if (entry.parts == 1) {
      if (threadIdx.x == 0) store_value(d_out + entry.segment, static_cast<T>(op(init, r)));
      __syncthreads();
      continue;
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
  }
}

}  // namespace cascade::detail
