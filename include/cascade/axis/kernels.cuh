// cascade/axis/kernels.cuh: the kernels of the axis owners, and the views through which the segment
// owners reduce axes. Items are converted to the accumulator type T as they are read, and init goes on
// the left of each output's fold, once.
#pragma once

#include <cuda_runtime_api.h>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>
#include <iterator>

#include "../detail/kernel/axes_plan.cuh"
#include "../detail/kernel/arguments.cuh"
#include "../detail/kernel/segments.cuh"
#include "../detail/kernel/sinks.cuh"
#include "../detail/kernel/tile_loop.cuh"
#include "../detail/kernel/vector_load.cuh"
#include "../detail/runtime/launch_context.cuh"
#include "../detail/kernel/kernels.cuh"
#include "../segment/kernels.cuh"
#include "../segment/tiles.cuh"
#include "../tree/shuffle.cuh"

namespace cascade::detail {

// Walks indices [j, end) of an output's reduced index space (red: innermost first) a row of the
// innermost axis at a time: row(offset, count) for each, the row's first item `offset` from the
// output's first, its `count` items red.stride[0] apart. The outer axes step as an odometer, so no
// item costs a division. (No reduced axis: one item an output, at offset 0.) Rank: red.rank's bound,
// where the caller knows a smaller one (1: no odometer, fewer registers).
template <int Rank = max_rank, class Row>
__device__ __forceinline__ void for_each_row(axes_walk const& red, long long j, long long end, Row&& row) {
  if (j >= end) return;
  if (red.rank == 0) {
    row(0ll, 1ll);
    return;
  }
  long long const e0 = red.extent[0].divisor, s0 = red.stride[0];
  long long q = red.extent[0].div(j);
  long long i0 = j - q * e0;
  long long digit[Rank] = {};
  long long off = 0;
#pragma unroll
  for (int a = 1; a < Rank; ++a) {
    if (a < red.rank) {
      long long const up = red.extent[a].div(q);
      digit[a] = q - up * red.extent[a].divisor;
      off += digit[a] * red.stride[a];
      q = up;
    }
  }
  while (j < end) {
    long long const run = e0 - i0 < end - j ? e0 - i0 : end - j;
    row(off + i0 * s0, run);
    j += run;
    i0 = 0;
#pragma unroll
    for (int a = 1; a < Rank; ++a) {  // the next row: carry through the outer axes
      if (a < red.rank) {
        ++digit[a];
        off += red.stride[a];
        if (digit[a] < red.extent[a].divisor) break;
        off -= digit[a] * red.stride[a];
        digit[a] = 0;
      }
    }
  }
}

// Folds items [j, end) of an output's reduced index space in order, the output's items starting at
// first + base, CoarseFactor loads in flight.
template <int CoarseFactor, class T, class It, class Op>
__device__ __forceinline__ void fold_reduced(T& acc, bool& has, It first, long long base, axes_walk const& red,
                                             long long j, long long end, Op op) {
  using X = input_value_t<It>;
  long long const s0 = red.stride[0];
  for_each_row(red, j, end, [&](long long off, long long run) {
    It const row = first + (base + off);
    long long t = 0;
    for (; run - t >= CoarseFactor; t += CoarseFactor) {
      X items[CoarseFactor];
#pragma unroll
      for (int k = 0; k < CoarseFactor; ++k) items[k] = row[(t + k) * s0];
#pragma unroll
      for (int k = 0; k < CoarseFactor; ++k) fold_item(acc, has, items[k], op);
    }
    for (; t < run; ++t) fold_item(acc, has, X(row[t * s0]), op);
  });
}

// V neighbouring items at an offset: one 16-byte load where V > 1 (vector_load.cuh; the caller has
// checked the alignment), else one item.
template <int V, class It, bool = (V > 1)>
struct column_raw {
  using type = input_value_t<It>;
};
template <int V, class It>
struct column_raw<V, It, true> {
  using type = typename vector_input<It>::raw_type;
};

template <int V, class It>
struct column_items {
  using X = input_value_t<It>;
  using raw = typename column_raw<V, It>::type;
  __device__ static raw load(It first, long long at) {
    if constexpr (V > 1) return vector_input<It>::load(first, at);
    else return first[at];
  }
  __device__ static X item(It first, raw const& r, int v, long long at) {
    if constexpr (V > 1) return vector_input<It>::item(first, r, v, at + v);
    else return r;
  }
};

// The sizes of an axis::columns pass: a block is `cols` threads across the outputs (V neighbouring
// outputs each) times BlockSize / cols row lanes; block (tile, part) folds outputs [tile cols V,
// (tile + 1) cols V) over reduced indices [part chunk, (part + 1) chunk), a consecutive range a row lane.
struct column_grid {
  long long outputs, reduced, chunk, parts;
  fast_divmod tiles;      // blocks across the outputs
  fast_divmod row_lanes;  // BlockSize / cols
  int cols;
};

// axis::columns: neighbouring threads on neighbouring outputs (the kept axis with the smallest input
// stride), each folding its outputs' items a row apart, CoarseFactor loads of V items in flight; the
// row lanes of a block (its threads beyond g.cols) share a part's rows and are combined in order
// through shared memory. An op that takes items as read (deposit_all: merge_moments) gets each load's
// batch, into a state that starts as T{}, its empty state (as the tile loop's fold_in_order does). parts == 1 writes init op the
// fold to the outputs; otherwise partials[part * outputs + o], a row of the parts x outputs matrix
// that the next pass reduces the same way. `read` walks the outputs' first items in the input, `kept`
// their places in the output. RedRank bounds red.rank (1 where the host knows it).
template <int BlockSize, int CoarseFactor, int V, int RedRank, class T, class It, class OutIt, class Op>
__global__ void __launch_bounds__(BlockSize)
    axis_columns_kernel(It first, axes_walk read, kept_walk kept, axes_walk red, column_grid g, OutIt d_out,
                        T* partials, T init, Op op) {
  using items = column_items<V, It>;
  // The row lanes' values of Group outputs at a time in shared memory (all V where they fit in 16 KiB).
  constexpr int Group = sizeof(T) * BlockSize * V <= 16384 ? V : 1;
  __shared__ alignas(T) unsigned char lane_storage[sizeof(T) * BlockSize * Group];  // (T need not be trivial)
  T* const lanes = reinterpret_cast<T*>(lane_storage);
  int const t = static_cast<int>(threadIdx.x);
  int const w = t % g.cols, l = t / g.cols, row_lanes = static_cast<int>(g.row_lanes.divisor);
  long long const s0 = red.stride[0];
  for (long long id = blockIdx.x; id < g.tiles.divisor * g.parts; id += gridDim.x) {
    long long const p = g.tiles.div(id);
    long long const o0 = ((id - p * g.tiles.divisor) * g.cols + w) * V;  // this thread's first output
    bool const mine = o0 < g.outputs;
    long long const j0 = p * g.chunk;
    long long const j1 = j0 + g.chunk < g.reduced ? j0 + g.chunk : g.reduced;
    // Row lanes: a commutative op's stripe the rows (lane l takes rows l, l + row_lanes, ...: a block
    // reads neighbouring rows at once); another op's take consecutive ranges, combined in order.
    constexpr bool striped = RedRank == 1 && is_commutative_v<Op>;
    long long const n = j1 - j0;
    long long const per = g.row_lanes.div(n + row_lanes - 1);
    int const valid = striped ? static_cast<int>(n < row_lanes ? n : row_lanes)
                              : per > 0 ? static_cast<int>((n + per - 1) / per) : 0;  // lanes with items: a prefix
    T acc[V] = {};
    if (mine && l < valid) {
      long long const base = read.offset(o0);
      bool has = false;
      // Folds `run` items `step` apart from first + at, CoarseFactor loads of V items in flight.
      auto const fold_run = [&](long long at, long long step, long long run) {
        using I = item_t<T, Op, typename items::X>;  // as read where the op deposits items (merge_moments), else T
        long long i = 0;
        for (; run - i >= CoarseFactor; i += CoarseFactor) {
          typename items::raw r[CoarseFactor];
#pragma unroll
          for (int k = 0; k < CoarseFactor; ++k) r[k] = items::load(first, at + (i + k) * step);
#pragma unroll
          for (int v = 0; v < V; ++v) {
            I batch[CoarseFactor];
#pragma unroll
            for (int k = 0; k < CoarseFactor; ++k) batch[k] = static_cast<I>(items::item(first, r[k], v, at + (i + k) * step));
            fold_in_order(acc[v], !has, batch, op);
          }
          has = true;
        }
        for (; i < run; ++i) {
          typename items::raw const r = items::load(first, at + i * step);
#pragma unroll
          for (int v = 0; v < V; ++v) {
            I const one[1] = {static_cast<I>(items::item(first, r, v, at + i * step))};
            fold_in_order(acc[v], !has, one, op);
          }
          has = true;
        }
      };
      if constexpr (striped) {
        fold_run(base + (j0 + l) * s0, row_lanes * s0, g.row_lanes.div(n - l + row_lanes - 1));
      } else {
        long long const lo = j0 + l * per;
        for_each_row<RedRank>(red, lo, lo + per < j1 ? lo + per : j1,
                              [&](long long off, long long run) { fold_run(base + off, s0, run); });
      }
    }
    if (row_lanes > 1) {  // lane l's fold on the left of lane l + 1's: pairs, then pairs of pairs
#pragma unroll
      for (int v0 = 0; v0 < V; v0 += Group) {
#pragma unroll
        for (int v = 0; v < Group; ++v) lanes[v * BlockSize + t] = acc[v0 + v];
        for (int step = 1; step < row_lanes; step *= 2) {
          __syncthreads();
          if (l % (2 * step) == 0 && l + step < valid) {
#pragma unroll
            for (int v = 0; v < Group; ++v) {
              T* const here = lanes + v * BlockSize + t;
              *here = static_cast<T>(op(*here, here[step * g.cols]));
            }
          }
        }
        __syncthreads();
#pragma unroll
        for (int v = 0; v < Group; ++v) acc[v0 + v] = lanes[v * BlockSize + t];
        __syncthreads();
      }
    }
    if (l == 0 && mine) {
      // (V > 1: the V outputs are neighbours on the innermost kept axis)
      long long const at = g.parts == 1 ? kept.out_offset(o0) : p * g.outputs + o0;
#pragma unroll
      for (int v = 0; v < V; ++v) {
        if (g.parts == 1) store_value(d_out + (at + v * kept.out_stride[0]), valid > 0 ? static_cast<T>(op(init, acc[v])) : init);
        else partials[at + v] = acc[v];
      }
    }
  }
}

// The in-order combine of a block's values, those of threads [0, valid) (a prefix): warps fold their
// lanes with shuffles (lane l takes l + offset's while that one is valid: lane 0 ends with its warp's
// values in order), then warp 0 folds the warps'. Valid in thread 0.
template <int BlockSize, class T, class Op>
__device__ __forceinline__ T block_prefix_fold(T acc, int valid, T* warp_values, Op op) {
  int const lane = static_cast<int>(threadIdx.x % 32), warp = static_cast<int>(threadIdx.x / 32);
  int const left = valid - warp * 32;
  int const here = left < 0 ? 0 : left > 32 ? 32 : left;  // valid lanes in this warp
#pragma unroll
  for (int offset = 1; offset < 32; offset *= 2) {
    T const other = shuffle_down(acc, offset);
    if (lane + offset < here) acc = static_cast<T>(op(acc, other));
  }
  if constexpr (BlockSize > 32) {
    if (lane == 0 && here > 0) warp_values[warp] = acc;
    __syncthreads();
    int const warps = (valid + 31) / 32;
    if (warp == 0) {
      acc = lane < warps ? warp_values[lane] : acc;
#pragma unroll
      for (int offset = 1; offset < BlockSize / 32; offset *= 2) {
        T const other = shuffle_down(acc, offset);
        if (lane + offset < warps) acc = static_cast<T>(op(acc, other));
      }
    }
    __syncthreads();  // warp_values is the next output's
  }
  return acc;
}

// Folds the items of rows of the innermost reduced axis, this thread's at row positions lane,
// lane + Lanes, ... (a commutative op: the lanes read each row coalesced), from reduced index j to end.
template <int Lanes, int CoarseFactor, class T, class It, class Op>
__device__ __forceinline__ void fold_reduced_striped(T& acc, bool& has, It first, long long base, axes_walk const& red,
                                                     long long j, long long end, int lane, Op op) {
  using X = input_value_t<It>;
  long long const s0 = red.stride[0];
  for_each_row(red, j, end, [&](long long off, long long run) {
    It const row = first + (base + off);
    long long k = lane;
    for (; run - k > static_cast<long long>(CoarseFactor - 1) * Lanes; k += static_cast<long long>(CoarseFactor) * Lanes) {
      X items[CoarseFactor];
#pragma unroll
      for (int c = 0; c < CoarseFactor; ++c) items[c] = row[(k + c * Lanes) * s0];
#pragma unroll
      for (int c = 0; c < CoarseFactor; ++c) fold_item(acc, has, items[c], op);
    }
    for (; k < run; k += Lanes) fold_item(acc, has, X(row[k * s0]), op);
  });
}

// axis::blocks: a block per (output, part) pair, folding part p of the output's items ([p chunk,
// (p + 1) chunk)): a commutative op's threads stripe each row of the innermost reduced axis
// (coalesced where it is contiguous); another op's threads take consecutive ranges, folded in order.
// parts == 1 writes init op the fold; otherwise partials[o * parts + p].
template <int BlockSize, int CoarseFactor, class T, class It, class OutIt, class Op>
__global__ void __launch_bounds__(BlockSize)
    axis_blocks_kernel(It first, kept_walk kept, axes_walk red, long long outputs, long long reduced, long long chunk,
                       long long parts, OutIt d_out, T* partials, T init, Op op) {
  __shared__ alignas(T) unsigned char warp_storage[sizeof(T) * (BlockSize / 32)];  // (T need not be trivial)
  T* const warp_values = reinterpret_cast<T*>(warp_storage);
  long long const total = outputs * parts;
  int const t = static_cast<int>(threadIdx.x);
  for (long long id = blockIdx.x; id < total; id += gridDim.x) {
    long long const o = id / parts;
    long long const p = id - o * parts;
    long long const j0 = p * chunk;
    long long const j1 = j0 + chunk < reduced ? j0 + chunk : reduced;
    long long const base = kept.in.offset(o);
    T acc{};
    bool has = false;
    int valid;  // threads [0, valid) hold a value
    if constexpr (is_commutative_v<Op>) {
      fold_reduced_striped<BlockSize, CoarseFactor>(acc, has, first, base, red, j0, j1, t, op);
      valid = __syncthreads_count(has);  // a prefix: a row's first positions come first
    } else {
      long long const n = j1 - j0;
      long long const per = (n + BlockSize - 1) / BlockSize;
      long long const lo = j0 + t * per;
      fold_reduced<CoarseFactor>(acc, has, first, base, red, lo, lo + per < j1 ? lo + per : j1, op);
      valid = per == 0 ? 0 : static_cast<int>((n + per - 1) / per);
    }
    T const r = block_prefix_fold<BlockSize>(acc, valid, warp_values, op);
    if (t == 0) {
      if (parts == 1) store_value(d_out + kept.out_offset(o), valid > 0 ? static_cast<T>(op(init, r)) : init);
      else partials[o * parts + p] = r;
    }
  }
}

// The segment owners over an axis reduction whose outputs' items are contiguous (plan.contiguous_rows()):
// output o's items are first[kept.in.offset(o) + [0, length)].
struct kept_segments {
  axes_walk kept;
  long long length;
  __host__ __device__ segment_bounds operator()(long long s) const {
    long long const b = kept.offset(s);
    return {b, b + length};
  }
};

// Rows back to back (a kept axis whose step is the row's length, or one output) are CSR: segment::tiles
// reads them as batched_reduce's rows.
template <>
struct csr_of<kept_segments> {
  static constexpr bool possible = true;
  static bool is(kept_segments const& s) {
    return s.kept.rank == 0 || (s.kept.rank == 1 && s.kept.stride[0] == s.length);
  }
  static fixed_csr at(kept_segments const& s, long long first_segment) { return {s.length, first_segment}; }
};

// ... and over any other: item v of the virtual input is item v % reduced of output v / reduced, so
// output o is the segment [o reduced, (o + 1) reduced) (fixed_segments). A division or two per item
// (fast_divmod); the kernels read it as any iterator.
template <class It>
struct axes_gather {
  using value_type = input_value_t<It>;
  using difference_type = long long;
  using reference = value_type;
  using pointer = void;
  using iterator_category = std::random_access_iterator_tag;
  It first;
  axes_walk kept;
  axes_walk red;
  fast_divmod reduced;
  long long at = 0;
  __host__ __device__ __forceinline__ value_type operator[](long long k) const {
    long long const v = at + k;
    long long const o = reduced.div(v);
    return first[kept.offset(o) + red.offset(v - o * reduced.divisor)];
  }
  __host__ __device__ value_type operator*() const { return (*this)[0]; }
  __host__ __device__ axes_gather operator+(long long k) const {
    axes_gather g = *this;
    g.at += k;
    return g;
  }
};

// Output s of an axis reduction, where the segment owners write it: d_out + s, then = value (an owner
// may offset d_out first, a window of segments at a time: `at` keeps the output index). *it is the
// output's place, found once (a slot by value), not the view. The walk it takes must index its arrays
// by constants only (walk_offset says why): a view an owner has moved is no longer the kernel's
// parameter, and a runtime index put all 280 bytes of it on every thread's stack (the segmented
// default over 2^20 rows of 64 floats took 1176 us where it now takes 84, H200).
template <class OutIt>
struct axes_output {
  using wrapped_output = OutIt;  // the pointer checked for device access (memory_check.cuh)
  OutIt out;
  kept_walk kept;
  long long at = 0;

  struct slot {
    OutIt where;
    template <class T>
    __device__ slot const& operator=(T const& value) const {
      store_value(where, value);
      return *this;
    }
  };
  __host__ __device__ axes_output operator+(long long k) const {
    axes_output o = *this;
    o.at += k;
    return o;
  }
  __host__ __device__ slot operator*() const { return {out + kept.out_offset(at)}; }
};

// The second pass where an output's items were split into parts: init op the output's parts, in
// order, from partials[o * parts + p]; a thread an output where the parts are few (segment::thread's
// kernel), a warp (segment::warp<32>'s) up to 1024, a block (segment::block's) beyond.
template <class T, class OutIt, class Op>
void fold_parts(launch_context const& call, T const* partials, long long outputs, long long parts, kept_walk const& kept,
                OutIt d_out, T init, Op op) {
  constexpr int block = 256;
  using out_t = axes_output<OutIt>;
  out_t const out{d_out, kept};
  fixed_segments const segments{parts};
  device_info const& device = call.device();
  if (parts <= 32) {
    launch(&segment_thread_kernel<block, 4, false, T, T const*, fixed_segments, out_t, Op>,
           segment_grid(outputs, block, device, block), block, call.stream(), "segment_thread_kernel<<<...>>> (launch)",
           partials, segments, outputs, out, init, op);
  } else if (parts <= 1024) {
    launch(&segment_warp_kernel<32, block, 4, T, T const*, fixed_segments, out_t, Op>,
           segment_grid(outputs, block / 32, device, block), block, call.stream(), "segment_warp_kernel<<<...>>> (launch)",
           partials, segments, outputs, out, init, op);
  } else {
    launch(&segment_block_kernel<block, 4, resolve_tree_t<tree::shuffle, Op>, T, T const*, fixed_segments, out_t, Op>,
           segment_grid(outputs, 1, device, block), block, call.stream(), "segment_block_kernel<<<...>>> (launch)",
           partials, segments, outputs, 1, out, static_cast<T*>(nullptr), init, op);
  }
}

}  // namespace cascade::detail
