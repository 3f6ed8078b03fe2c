// cascade/detail/segment_binned.cuh: the kernels of segment::binned, which sorts segments by length on
// the device, so that the host neither reads the offsets nor waits. A binning pass gives every short
// segment (1-8 items) to its own thread there and then, and lists the others by length: 9-256 items
// for 8 lanes, 257-2048 for a warp (both segment_warp_kernel, over a list whose length an earlier
// kernel wrote), longer ones for blocks, in parts of a few tiles each; the last part of a segment to
// finish folds its parts in order. The lists' lengths stay on the device: later kernels read them.
#pragma once

#include <cuda_runtime_api.h>

#include "../non_commutative.cuh"
#include "../tree/tag.cuh"
#include "arguments.cuh"
#include "kernels.cuh"
#include "segment_kernels.cuh"
#include "segments.cuh"
#include "shuffle.cuh"
#include "sinks.cuh"

namespace cascade::detail {

// Where the binning pass sends a segment, by its length.
struct binned_bins {
  static constexpr long long thread_max = 8;   // <=: the binning pass's thread, 8 loads in flight
  static constexpr long long lanes_max = 256;  // <=: `lanes` lanes (list a)
  static constexpr long long warp_max = 2048;  // <=: a warp (list b); longer: blocks, in parts (list c)
  static constexpr int lanes = 8;
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
  unsigned long long* counts;  // [a] list a, [b] list b, [whole] long segments in no part slots, [slots], [entries]
  unsigned* ab;                // list a from the front, list b from the back (num_segments slots)
  unsigned* whole;             // long segments given no part slots (they ran out): a block each
  binned_entry* entries;       // part_capacity
  unsigned* part_entry;        // part_capacity: the entry a part slot belongs to; ~0u: none
  unsigned part_capacity;
  long long part_items;  // items a part folds (a multiple of the tile)
  enum { a = 0, b = 1, whole_count = 2, slots = 3, entry_count = 4, num_counts = 5 };
};

// Entry i of a list that runs forwards (step 1) or backwards (step -1) from `at`.
struct id_list {
  unsigned const* at;
  long long step;
  __device__ long long operator()(long long i) const { return at[i * step]; }
};

template <class Segments>
struct listed_segments {
  Segments inner;
  id_list ids;
  __device__ segment_bounds operator()(long long i) const { return inner(ids(i)); }
};

// d_out + i writes the i-th listed segment's result.
template <class OutIt>
struct listed_out {
  OutIt out;
  id_list ids;
  __device__ OutIt operator+(long long i) const { return out + ids(i); }
};

// Segments [base, base + 2^28) of a call.
template <class Segments>
struct window_segments {
  Segments inner;
  long long base;
  __host__ __device__ segment_bounds operator()(long long s) const { return inner(base + s); }
};

// The position of this lane's item in a list the warp appends to (lanes with `mine`): one atomic a warp.
__device__ __forceinline__ unsigned long long warp_append(bool mine, unsigned long long* count) {
  unsigned const mask = __ballot_sync(full_warp_mask, mine);
  if (mask == 0) return 0;
  int const lane = static_cast<int>(threadIdx.x % 32);
  int const leader = __ffs(mask) - 1;
  unsigned long long base = 0;
  if (lane == leader) base = atomicAdd(count, static_cast<unsigned long long>(__popc(mask)));
  base = __shfl_sync(full_warp_mask, base, leader);
  return base + static_cast<unsigned>(__popc(mask & ((1u << lane) - 1u)));
}

// A long segment: part slots for its parts, or, when they have run out, the list of whole ones.
__device__ inline void place_long_segment(binned_lists const& lists, long long s, long long n) {
  long long const wanted = (n + lists.part_items - 1) / lists.part_items;
  unsigned const parts = wanted < binned_bins::max_parts ? static_cast<unsigned>(wanted) : binned_bins::max_parts;
  unsigned long long const base = atomicAdd(&lists.counts[binned_lists::slots], static_cast<unsigned long long>(parts));
  if (base + parts <= lists.part_capacity) {
    auto const e = static_cast<unsigned>(atomicAdd(&lists.counts[binned_lists::entry_count], 1ull));
    lists.entries[e] = binned_entry{static_cast<unsigned>(s), parts, static_cast<unsigned>(base), 0u};
    for (unsigned k = 0; k < parts; ++k) lists.part_entry[base + k] = e;
  } else {
    for (unsigned long long k = base; k < lists.part_capacity && k < base + parts; ++k) lists.part_entry[k] = ~0u;
    lists.whole[atomicAdd(&lists.counts[binned_lists::whole_count], 1ull)] = static_cast<unsigned>(s);
  }
}

// The binning pass: each warp reads 32 neighbouring segments' offsets (coalesced), folds the short
// ones, and lists the rest by length.
template <int BlockSize, class T, class It, class Segments, class OutIt, class Op>
__global__ void __launch_bounds__(BlockSize)
    segment_bin_kernel(It first, Segments segments, long long num_segments, OutIt d_out, T init, Op op,
                       binned_lists lists) {
  using X = input_value_t<It>;
  constexpr int short_max = static_cast<int>(binned_bins::thread_max);
  int const lane = static_cast<int>(threadIdx.x % 32);
  long long const stride = static_cast<long long>(gridDim.x) * BlockSize;
  // The loop is the warp's (its lanes leave together), for the ballots.
  for (long long s0 = (static_cast<long long>(blockIdx.x) * BlockSize + threadIdx.x) / 32 * 32; s0 < num_segments;
       s0 += stride) {
    long long const s = s0 + lane;
    bool const valid = s < num_segments;
    segment_bounds const seg = valid ? segments(s) : segment_bounds{0, 0};
    long long const n = seg.size();
    if (valid && n <= short_max) {
      X items[short_max];
#pragma unroll
      for (int k = 0; k < short_max; ++k)
        if (k < n) items[k] = first[seg.begin + k];
      T acc = init;
#pragma unroll
      for (int k = 0; k < short_max; ++k)
        if (k < n) acc = static_cast<T>(op(acc, static_cast<T>(items[k])));
      store_value(d_out + s, acc);
    }
    bool const to_a = valid && n > short_max && n <= binned_bins::lanes_max;
    bool const to_b = valid && n > binned_bins::lanes_max && n <= binned_bins::warp_max;
    unsigned long long const at_a = warp_append(to_a, &lists.counts[binned_lists::a]);
    if (to_a) lists.ab[at_a] = static_cast<unsigned>(s);
    unsigned long long const at_b = warp_append(to_b, &lists.counts[binned_lists::b]);
    if (to_b) lists.ab[num_segments - 1 - static_cast<long long>(at_b)] = static_cast<unsigned>(s);
    if (valid && n > binned_bins::warp_max) place_long_segment(lists, s, n);
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
