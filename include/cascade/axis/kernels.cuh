// cascade/axis/kernels.cuh: the kernels of the axis owners, and the views through which the segment
// owners reduce axes. Items are converted to the accumulator type T as they are read, and init goes on
// the left of each output's fold, once.
#pragma once

#include <cuda_runtime_api.h>

#include <cuda/std/cstdint>
#include <iterator>

#include "../detail/kernel/axes_plan.cuh"
#include "../detail/kernel/arguments.cuh"
#include "../detail/kernel/segments.cuh"
#include "../detail/kernel/sinks.cuh"
#include "../detail/runtime/launch_context.cuh"
#include "../detail/kernel/kernels.cuh"
#include "../segment/kernels.cuh"
#include "../segment/tiles.cuh"
#include "../tree/shuffle.cuh"

namespace cascade::detail {

// Folds items [j, end) of an output's reduced index space (red: innermost first), the output's items
// starting at first + base: a row of the innermost axis at a time (its stride apart, CoarseFactor
// loads in flight), the outer axes stepped as an odometer, so no item costs a division.
template <int CoarseFactor, class T, class It, class Op>
__device__ __forceinline__ void fold_reduced(T& acc, bool& has, It first, long long base, axes_walk const& red,
                                             long long j, long long end, Op op) {
  using X = input_value_t<It>;
  if (red.rank == 0) {  // one item an output
    if (j < end) fold_item(acc, has, X(first[base]), op);
    return;
  }
  long long const e0 = red.extent[0].divisor, s0 = red.stride[0];
  long long q = red.extent[0].div(j);
  long long i0 = j - q * e0;
  long long digit[max_rank] = {};
  long long off = 0;
#pragma unroll
  for (int a = 1; a < max_rank; ++a) {
    if (a < red.rank) {
      long long const up = red.extent[a].div(q);
      digit[a] = q - up * red.extent[a].divisor;
      off += digit[a] * red.stride[a];
      q = up;
    }
  }
  while (j < end) {
    long long const run = e0 - i0 < end - j ? e0 - i0 : end - j;
    It const row = first + (base + off + i0 * s0);
    long long t = 0;
    for (; run - t >= CoarseFactor; t += CoarseFactor) {
      X items[CoarseFactor];
#pragma unroll
      for (int k = 0; k < CoarseFactor; ++k) items[k] = row[(t + k) * s0];
#pragma unroll
      for (int k = 0; k < CoarseFactor; ++k) fold_item(acc, has, items[k], op);
    }
    for (; t < run; ++t) fold_item(acc, has, X(row[t * s0]), op);
    j += run;
    i0 = 0;
#pragma unroll
    for (int a = 1; a < max_rank; ++a) {  // the next row: carry through the outer axes
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

// axis::columns: a thread per (output, part) pair, neighbouring threads on neighbouring outputs (the
// kept axes' innermost is the one with the smallest input stride), each folding part `p` of its
// output's items ([p chunk, (p + 1) chunk)). parts == 1 writes init op the fold to the output;
// otherwise each pair writes its fold to partials[o * parts + p], an output's parts side by side for
// the segmented pass that folds them (fold_parts).
template <int BlockSize, int CoarseFactor, class T, class It, class OutIt, class Op>
__global__ void __launch_bounds__(BlockSize)
    axis_columns_kernel(It first, kept_walk kept, axes_walk red, long long outputs, long long reduced, long long chunk,
                        long long parts, OutIt d_out, T* partials, T init, Op op) {
  long long const total = outputs * parts;
  long long const stride = static_cast<long long>(gridDim.x) * BlockSize;
  for (long long g = static_cast<long long>(blockIdx.x) * BlockSize + threadIdx.x; g < total; g += stride) {
    long long const p = g / outputs;  // (a division a pair, not an item)
    long long const o = g - p * outputs;
    long long const j0 = p * chunk;
    long long const j1 = j0 + chunk < reduced ? j0 + chunk : reduced;
    T acc = init;
    bool has = parts == 1;  // init is the fold's first value where there is one part
    fold_reduced<CoarseFactor>(acc, has, first, kept.in.offset(o), red, j0, j1, op);
    if (parts == 1) store_value(d_out + kept.out_offset(o), acc);
    else partials[o * parts + p] = acc;
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
  long long const e0 = red.extent[0].divisor, s0 = red.stride[0];
  long long q = red.extent[0].div(j);
  long long i0 = j - q * e0;
  long long digit[max_rank] = {};
  long long off = 0;
#pragma unroll
  for (int a = 1; a < max_rank; ++a) {
    if (a < red.rank) {
      long long const up = red.extent[a].div(q);
      digit[a] = q - up * red.extent[a].divisor;
      off += digit[a] * red.stride[a];
      q = up;
    }
  }
  while (j < end) {
    long long const run = e0 - i0 < end - j ? e0 - i0 : end - j;
    It const row = first + (base + off + i0 * s0);
    long long k = lane;
    for (; run - k > static_cast<long long>(CoarseFactor - 1) * Lanes; k += static_cast<long long>(CoarseFactor) * Lanes) {
      X items[CoarseFactor];
#pragma unroll
      for (int c = 0; c < CoarseFactor; ++c) items[c] = row[(k + c * Lanes) * s0];
#pragma unroll
      for (int c = 0; c < CoarseFactor; ++c) fold_item(acc, has, items[c], op);
    }
    for (; k < run; k += Lanes) fold_item(acc, has, X(row[k * s0]), op);
    j += run;
    i0 = 0;
#pragma unroll
    for (int a = 1; a < max_rank; ++a) {
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
      if (red.rank == 0) {
        if (t == 0 && j0 < j1) fold_item(acc, has, input_value_t<It>(first[base]), op);
      } else {
        fold_reduced_striped<BlockSize, CoarseFactor>(acc, has, first, base, red, j0, j1, t, op);
      }
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
// may offset d_out first, a window of segments at a time: `at` keeps the output index).
template <class OutIt>
struct axes_output {
  using wrapped_output = OutIt;  // the pointer checked for device access (memory_check.cuh)
  OutIt out;
  kept_walk kept;
  long long at = 0;
  __host__ __device__ axes_output operator+(long long k) const {
    axes_output o = *this;
    o.at += k;
    return o;
  }
  __host__ __device__ axes_output const& operator*() const { return *this; }
  template <class T>
  __device__ axes_output const& operator=(T const& value) const {
    store_value(out + kept.out_offset(at), value);
    return *this;
  }
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
