// cascade/segment/kernels.cuh: the kernels of the segment owners (cascade/segment/). A thread, a
// group of Width lanes, a block or several blocks fold a segment; items are converted to the
// accumulator type T as they are read, and init goes on the left of each segment's fold, once.
// Commutative ops read striped (lane l takes items l, l + Width, ...: coalesced); others blocked (lane l
// one contiguous run), so that a lane's fold, then the lanes in order, is the left-to-right fold.
#pragma once

#include <cuda_runtime_api.h>

#include <cuda/std/cstdint>

#include "../ops/non_commutative.cuh"
#include "../tree/tag.cuh"
#include "../detail/kernel/arguments.cuh"
#include "../detail/runtime/device.cuh"
#include "../detail/kernel/kernels.cuh"
#include "../detail/kernel/segments.cuh"
#include "../detail/block/shuffle.cuh"
#include "../detail/kernel/sinks.cuh"
#include "../detail/kernel/vector_load.cuh"

namespace cascade::detail {

// acc op= x, or acc = x for a lane with no value yet.
template <class T, class X, class Op>
__device__ __forceinline__ void fold_item(T& acc, bool& has, X const& x, Op op) {
  T const v = static_cast<T>(x);
  acc = has ? static_cast<T>(op(acc, v)) : v;
  has = true;
}

// Folds items [i, end) of one run, CoarseFactor loads in flight at a time, Stride apart.
template <int CoarseFactor, int Stride, class T, class It, class Op>
__device__ __forceinline__ void fold_run_strided(T& acc, bool& has, It first, long long i, long long end, Op op) {
  using X = input_value_t<It>;  // (a device_ptr reads as device_reference: hold the value)
  for (; end - i >= static_cast<long long>(CoarseFactor) * Stride; i += static_cast<long long>(CoarseFactor) * Stride) {
    X items[CoarseFactor];
#pragma unroll
    for (int k = 0; k < CoarseFactor; ++k) items[k] = first[i + static_cast<long long>(k) * Stride];
#pragma unroll
    for (int k = 0; k < CoarseFactor; ++k) fold_item(acc, has, items[k], op);
  }
  for (; i < end; i += Stride) fold_item(acc, has, first[i], op);
}

// Commutative ops over a 16-byte-aligned pointer (vector_load.cuh): segment `seg`'s aligned middle in
// 16-byte vectors (4 floats), lane l of Width taking vectors l, l + Width, ..., CoarseFactor in flight;
// the head before the first vector boundary and the tail after the last (fewer than a vector each)
// one item a lane. One load instruction brings a lane 16 bytes instead of 4. Returns how many lanes
// hold a value: always a prefix [0, valid), as each part fills lanes from 0. (Measured on the H200,
// segment::thread_vectors gains at 16 items; the same reads in warp<W> and in binned's lists were
// slower than their scalar loads at 16-256 items: at 726248d, docs/notes/segmented-owners.md.)
template <int Width, int CoarseFactor, class T, class It, class Op>
__device__ __forceinline__ int fold_vectors(T& acc, bool& has, It first, segment_bounds seg, int lane, Op op) {
  using in = vector_input<It>;
  constexpr long long V = in::width;
  long long const b = seg.begin, e = seg.end;
  long long const up = (b + V - 1) / V * V;
  long long const a0 = up < e ? up : e;
  long long const down = e / V * V;
  long long const a1 = down > a0 ? down : a0;
  int const head = static_cast<int>(a0 - b), tail = static_cast<int>(e - a1);
  for (int i = lane; i < head; i += Width) fold_item(acc, has, first[b + i], op);
  for (int i = lane; i < tail; i += Width) fold_item(acc, has, first[a1 + i], op);
  long long const vectors = (a1 - a0) / V;
  long long v = lane;
  for (; vectors - v >= static_cast<long long>(CoarseFactor) * Width; v += static_cast<long long>(CoarseFactor) * Width) {
    typename in::raw_type raw[CoarseFactor];
#pragma unroll
    for (int k = 0; k < CoarseFactor; ++k) raw[k] = in::load(first, a0 + (v + static_cast<long long>(k) * Width) * V);
#pragma unroll
    for (int k = 0; k < CoarseFactor; ++k)
#pragma unroll
      for (int j = 0; j < in::width; ++j) fold_item(acc, has, in::item(first, raw[k], j, 0), op);
  }
  for (; v < vectors; v += Width) {
    typename in::raw_type const raw = in::load(first, a0 + v * V);
#pragma unroll
    for (int j = 0; j < in::width; ++j) fold_item(acc, has, in::item(first, raw, j, 0), op);
  }
  int const parts[3] = {head < Width ? head : Width, tail < Width ? tail : Width,
                        static_cast<int>(vectors < Width ? vectors : Width)};
  int const most = parts[0] > parts[1] ? parts[0] : parts[1];
  return most > parts[2] ? most : parts[2];
}

// Whether a kernel over `first` with op Op can read segments through fold_vectors.
template <class It, class Op>
__host__ __device__ __forceinline__ bool segment_vectors(It const& first) {
  if constexpr (is_commutative_v<Op> && vector_input<It>::enabled) return is_vector_aligned(first);
  else return false;
}

// One thread a segment: consecutive threads own consecutive segments, so that short segments' loads
// coalesce across the warp. Vectors (segment::thread_vectors): 16-byte loads where segment_vectors
// allows (fold_vectors); without, the kernel holds no vector code (its registers as before).
template <int BlockSize, int CoarseFactor, bool Vectors, class T, class It, class Segments, class OutIt, class Op>
__global__ void __launch_bounds__(BlockSize)
    segment_thread_kernel(It first, Segments segments, long long num_segments, OutIt d_out, T init, Op op) {
  long long const stride = static_cast<long long>(gridDim.x) * BlockSize;
  bool vectors = false;
  if constexpr (Vectors) vectors = segment_vectors<It, Op>(first);
  for (long long s = static_cast<long long>(blockIdx.x) * BlockSize + threadIdx.x; s < num_segments; s += stride) {
    segment_bounds const seg = segments(s);
    T acc = init;
    bool has = true;  // init is the fold's first value
    bool done = false;
    if constexpr (Vectors && vector_input<It>::enabled) {
      if (vectors) {
        fold_vectors<1, CoarseFactor>(acc, has, first, seg, 0, op);
        done = true;
      }
    }
    if (!done) fold_run_strided<CoarseFactor, 1>(acc, has, first, seg.begin, seg.end, op);
    store_value(d_out + s, acc);
  }
}

// Segments of one item each, back to back (batched_reduce with segment_size 1): d_out[s] = init op
// first[s]. The thread kernel's loop holds one load in flight a thread, too few to cover the memory's
// latency when every segment is one item; here each thread loads Items items (BlockSize apart, so a
// warp's loads coalesce) before it stores any.
template <int BlockSize, int Items, class T, class It, class OutIt, class Op>
__global__ void __launch_bounds__(BlockSize)
    segment_single_items_kernel(It first, long long num_segments, OutIt d_out, T init, Op op) {
  using X = input_value_t<It>;
  long long const tile = static_cast<long long>(BlockSize) * Items;
  long long const stride = static_cast<long long>(gridDim.x) * tile;
  for (long long base = static_cast<long long>(blockIdx.x) * tile + threadIdx.x; base < num_segments; base += stride) {
    if (base + (Items - 1) * static_cast<long long>(BlockSize) < num_segments) {
      X items[Items];
#pragma unroll
      for (int k = 0; k < Items; ++k) items[k] = first[base + static_cast<long long>(k) * BlockSize];
#pragma unroll
      for (int k = 0; k < Items; ++k) {
        T acc = init;
        bool has = true;
        fold_item(acc, has, items[k], op);
        store_value(d_out + (base + static_cast<long long>(k) * BlockSize), acc);
      }
    } else {
      for (long long s = base; s < num_segments; s += BlockSize) {
        T acc = init;
        bool has = true;
        fold_item(acc, has, first[s], op);
        store_value(d_out + s, acc);
      }
    }
  }
}

// init op segment `seg` folded by Width lanes (lane: this lane's place among them), valid in lane 0;
// every lane of the warp calls it together (the shuffles), those without a segment with an empty one.
// Commutative ops read striped, others blocked; offsets go up, so each lane folds an ordered window
// of lanes (detail/block/warp_reduce.cuh).
template <int Width, int CoarseFactor, class T, class It, class Op>
__device__ __forceinline__ T group_fold(It first, segment_bounds seg, int lane, T init, Op op) {
  long long const n = seg.size();
  T acc{};
  bool has = false;
  int valid;  // lanes [0, valid) hold a value
  if constexpr (is_commutative_v<Op>) {
    fold_run_strided<CoarseFactor, Width>(acc, has, first, seg.begin + lane, seg.end, op);
    valid = n < Width ? static_cast<int>(n) : Width;
  } else {
    long long const run = (n + Width - 1) / Width;
    long long const lo = seg.begin + lane * run;
    long long const hi = seg.end - lo < run ? seg.end : lo + run;
    fold_run_strided<CoarseFactor, 1>(acc, has, first, lo, hi, op);
    valid = run == 0 ? 0 : static_cast<int>((n + run - 1) / run);
  }
#pragma unroll
  for (int offset = 1; offset < Width; offset *= 2) {
    T const other = shuffle_down(acc, offset);
    if (lane + offset < valid) acc = static_cast<T>(op(acc, other));
  }
  return n > 0 ? static_cast<T>(op(init, acc)) : init;
}

// Width lanes a segment (Width a power of two, at most 32): the block's groups take consecutive
// segments; every lane of the block runs the same number of rounds, so the shuffles see whole warps.
template <int Width, int BlockSize, int CoarseFactor, class T, class It, class Segments, class OutIt, class Op>
__global__ void __launch_bounds__(BlockSize)
    segment_warp_kernel(It first, Segments segments, long long num_segments, OutIt d_out, T init, Op op) {
  constexpr int groups = BlockSize / Width;
  int const lane = static_cast<int>(threadIdx.x) % Width;
  long long const stride = static_cast<long long>(gridDim.x) * groups;
  for (long long s0 = static_cast<long long>(blockIdx.x) * groups; s0 < num_segments; s0 += stride) {
    long long const s = s0 + static_cast<long long>(threadIdx.x) / Width;
    segment_bounds const seg = s < num_segments ? segments(s) : segment_bounds{0, 0};
    T const r = group_fold<Width, CoarseFactor>(first, seg, lane, init, op);
    if (lane == 0 && s < num_segments) store_value(d_out + s, r);
  }
}

// f(n) with n as the tile loop's offset type: 32 bits where they hold n plus one tile past it.
template <long long Tile, class F>
__device__ __forceinline__ auto with_segment_offset(long long n, F&& f) {
  if (2 * static_cast<unsigned long long>(n) + Tile < (1ull << 32)) return f(static_cast<cuda::std::uint32_t>(n));
  return f(static_cast<cuda::std::uint64_t>(n));
}

// Parts blocks a segment (1 for segment::block): part j of a segment's Parts folds its share of the
// segment's tiles (the tile loop of a single range, as block j of a grid of `used` blocks, `used` the
// segment's tile count where that is fewer) with the policy's tree. Parts == 1 writes init op the
// result; otherwise each used part writes its value to partials[s * parts + j].
template <int BlockSize, int CoarseFactor, class Tree, class T, class It, class Segments, class OutIt, class Op>
__global__ void __launch_bounds__(BlockSize)
    segment_block_kernel(It first, Segments segments, long long num_segments, int parts, OutIt d_out, T* partials,
                         T init, Op op) {
  __shared__ typename block_reduce<Tree, BlockSize, T>::storage storage;
  constexpr long long tile = static_cast<long long>(BlockSize) * CoarseFactor;
  // segment::blocks' second kernel may be launched now: it waits for this grid before it reads the
  // partials (no effect elsewhere).
  let_next_grid_start();
  long long const total = num_segments * parts;
  for (long long id = blockIdx.x; id < total; id += gridDim.x) {
    long long const s = id / parts;
    int const j = static_cast<int>(id % parts);
    segment_bounds const seg = segments(s);
    long long const n = seg.size();
    long long const tiles = (n + tile - 1) / tile;
    int const used = tiles < parts ? static_cast<int>(tiles) : parts;
    if (parts == 1 && n == 0) {
      if (threadIdx.x == 0) store_value(d_out + s, init);
    } else if (j < used) {
      T const r = with_segment_offset<tile>(n, [&](auto count) {
        return block_fold<BlockSize, CoarseFactor, Tree, T>(storage, first + seg.begin, count, op,
                                                            static_cast<unsigned>(j), static_cast<unsigned>(used));
      });
      if (threadIdx.x == 0) {
        if (parts == 1) store_value(d_out + s, static_cast<T>(op(init, r)));
        else partials[s * parts + j] = r;
      }
      __syncthreads();  // the tree's shared memory is the next segment's
    }
  }
}

// segment::blocks' second pass: init op the used parts of segment s, in order. Launched as a dependent
// of the first (launch_dependent), it is resident before that one ends and waits for it here.
template <int BlockSize, class T, class Segments, class OutIt, class Op>
__global__ void __launch_bounds__(BlockSize)
    segment_parts_kernel(Segments segments, long long num_segments, int parts, long long tile, T const* partials,
                         OutIt d_out, T init, Op op) {
  wait_for_previous_grid();  // the partials, complete and visible
  long long const stride = static_cast<long long>(gridDim.x) * BlockSize;
  for (long long s = static_cast<long long>(blockIdx.x) * BlockSize + threadIdx.x; s < num_segments; s += stride) {
    long long const tiles = (segments(s).size() + tile - 1) / tile;
    int const used = tiles < parts ? static_cast<int>(tiles) : parts;
    T acc = init;
    for (int j = 0; j < used; ++j) acc = static_cast<T>(op(acc, partials[s * parts + j]));
    store_value(d_out + s, acc);
  }
}

// Blocks for a grid-stride kernel over `work` items of `per_block` each: enough to fill the device
// a few times over, within its grid limit.
inline unsigned segment_grid(long long work, long long per_block, device_info const& device, int block_size) {
  long long const wanted = (work + per_block - 1) / per_block;
  long long const resident = static_cast<long long>(device.sm_count) * (device.max_threads_per_sm / block_size);
  long long const cap = 8 * (resident > 0 ? resident : 1);
  long long const grid = wanted < cap ? wanted : cap;
  return static_cast<unsigned>(grid < 1 ? 1 : grid);
}

}  // namespace cascade::detail
