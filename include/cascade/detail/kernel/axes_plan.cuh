// cascade/detail/kernel/axes_plan.cuh: an axis reduction brought to its fewest axes (reduce_axes.cuh). The
// kept axes index the outputs, the reduced ones an output's items; each list is stored innermost
// first. Axes of extent 1 are dropped, and neighbours that step through memory as one axis merge (an
// outer stride equal to the inner extent times its stride: a contiguous row-major block is one axis).
// The reduced axes keep their index order, the order a non-commutative op folds in (row-major over
// the reduced axes); for a commutative op they are sorted by stride first, so the innermost is the
// one with the smallest step. The kept axes are sorted by input stride: which output a thread takes
// is free, and neighbouring threads then read neighbouring items.
#pragma once

#include <cuda/std/cstdint>

#include <stdexcept>
#include <string>

#include "../meta/fast_divmod.cuh"
#include "../meta/unroll.cuh"

namespace cascade::detail {

// The most axes a plan holds (cascade::max_rank, array/view.cuh).
inline constexpr int max_rank = 8;

// Linear index -> offset over `rank` axes (innermost first): digit a of the index (row-major over the
// extents, the innermost fastest) steps stride[a]. The divisions are fast_divmod's, fixed on the host;
// the outermost digit is what is left (index is below the extents' product), so one axis divides nothing.
// Every array index is a constant once unrolled: an index of the runtime rank (stride[rank - 1]) would
// put a copy of a walk that is not a kernel parameter (a view moved by operator+) on the thread's stack.
__host__ __device__ __forceinline__ long long walk_offset(int rank, fast_divmod const* extent, long long const* stride,
                                                          long long index) {
  long long off = 0;
CASCADE_UNROLL
  for (int a = 0; a < max_rank; ++a) {
    if (a < rank) {
      long long const q = a < rank - 1 ? extent[a].div(index) : 0;
      off += (index - q * extent[a].divisor) * stride[a];
      index = q;
    }
  }
  return off;
}

// A set of axes to walk, innermost first.
struct axes_walk {
  int rank = 0;
  fast_divmod extent[max_rank];
  long long stride[max_rank] = {};

  // The offset of linear index `index` (row-major over the axes, the innermost fastest).
  __host__ __device__ __forceinline__ long long offset(long long index) const {
    return walk_offset(rank, extent, stride, index);
  }
};

// The kept axes: output index -> its items' offset in the input and its place in the output.
struct kept_walk {
  axes_walk in;
  long long out_stride[max_rank] = {};

  __host__ __device__ __forceinline__ long long out_offset(long long index) const {
    return walk_offset(in.rank, in.extent, out_stride, index);
  }
};

struct axes_plan {
  long long outputs = 0;  // product of the kept extents; 0: nothing to write
  long long reduced = 0;  // items an output folds (product of the reduced extents); 0: every output is init
  long long span = 0;     // 1 + the largest input offset read (0 when nothing is read)
  kept_walk kept;         // over the outputs
  axes_walk red;          // over one output's items

  // The reduced items of an output are one contiguous run (a segment of `reduced` items from the
  // output's first), or there is one item an output.
  bool contiguous_rows() const { return red.rank == 0 || (red.rank == 1 && red.stride[0] == 1); }
  // The innermost reduced axis steps through memory faster than every kept one: an output's items lie
  // closer together than neighbouring outputs' (a row sum), and a segment of lanes per output reads
  // them coalesced; otherwise a thread per output, neighbouring threads on neighbouring outputs (a
  // column sum).
  bool reduced_inner() const {
    if (red.rank == 0) return false;
    if (kept.in.rank == 0) return true;
    return red.stride[0] < kept.in.stride[0];
  }
};

struct plan_axis {
  long long extent, in, out;
};

// Drops extent-1 axes, sorts (a stable insertion sort by input stride, outermost = largest first)
// where `sort`, merges neighbours that walk as one, and stores the result innermost first.
inline int canonical_axes(plan_axis* list, int count, bool sort, bool with_out) {
  int n = 0;
  for (int k = 0; k < count; ++k)
    if (list[k].extent != 1) list[n++] = list[k];
  if (sort)
    for (int i = 1; i < n; ++i)
      for (int j = i; j > 0 && list[j - 1].in < list[j].in; --j) {
        plan_axis const t = list[j - 1];
        list[j - 1] = list[j];
        list[j] = t;
      }
  int m = 0;  // merged, outermost first
  for (int k = 0; k < n; ++k) {
    if (m > 0) {
      plan_axis& outer = list[m - 1];
      plan_axis const& inner = list[k];
      if (outer.in == inner.extent * inner.in && (!with_out || outer.out == inner.extent * inner.out)) {
        outer = {outer.extent * inner.extent, inner.in, inner.out};
        continue;
      }
    }
    list[m++] = list[k];
  }
  for (int i = 0, j = m - 1; i < j; ++i, --j) {  // innermost first
    plan_axis const t = list[i];
    list[i] = list[j];
    list[j] = t;
  }
  return m;
}

// The plan of reducing `mask`'s axes of `in` into `out`: out has the kept axes (in order), or every
// axis with extent 1 on the reduced ones (PyTorch's keepdim). std::invalid_argument otherwise.
// (In and Out: cascade::array_view, array/view.cuh.)
template <class In, class Out>
axes_plan make_axes_plan(In const& in, Out const& out, unsigned mask, bool commutative,
                         char const* who) {
  int reduced_count = 0;
  for (int a = 0; a < in.rank; ++a) reduced_count += (mask >> a) & 1u;
  bool const keepdim = out.rank == in.rank && reduced_count > 0;
  if (out.rank != in.rank - reduced_count && !keepdim)
    throw std::invalid_argument(std::string(who) + ": the output has rank " + std::to_string(out.rank) +
                                "; reducing " + std::to_string(reduced_count) + " of the input's " +
                                std::to_string(in.rank) + " axes leaves " + std::to_string(in.rank - reduced_count) +
                                " (or " + std::to_string(in.rank) + " with extent 1 on the reduced ones)");
  plan_axis kept[max_rank], red[max_rank];
  int nk = 0, nr = 0, o = 0;
  axes_plan plan;
  plan.outputs = 1;
  plan.reduced = 1;
  long long last = 0;
  bool empty = false;
  for (int a = 0; a < in.rank; ++a) {
    long long const e = in.extents[a];
    empty = empty || e == 0;
    last += (e > 0 ? e - 1 : 0) * in.strides[a];
    if ((mask >> a) & 1u) {
      if (keepdim && out.extents[o++] != 1)
        throw std::invalid_argument(std::string(who) + ": output axis " + std::to_string(o - 1) + " has extent " +
                                    std::to_string(out.extents[o - 1]) + "; a reduced axis kept in the output has 1");
      red[nr++] = {e, in.strides[a], 0};
      plan.reduced *= e;
    } else {
      if (out.extents[o] != e)
        throw std::invalid_argument(std::string(who) + ": output axis " + std::to_string(o) + " has extent " +
                                    std::to_string(out.extents[o]) + " where input axis " + std::to_string(a) +
                                    " keeps " + std::to_string(e));
      kept[nk++] = {e, in.strides[a], out.strides[o++]};
      plan.outputs *= e;
    }
  }
  plan.span = empty ? 0 : last + 1;
  int const k = canonical_axes(kept, nk, true, true);
  int const r = canonical_axes(red, nr, commutative, false);
  plan.kept.in.rank = k;
  for (int a = 0; a < k; ++a) {
    plan.kept.in.extent[a] = fast_divmod(kept[a].extent);
    plan.kept.in.stride[a] = kept[a].in;
    plan.kept.out_stride[a] = kept[a].out;
  }
  plan.red.rank = r;
  for (int a = 0; a < r; ++a) {
    plan.red.extent[a] = fast_divmod(red[a].extent);
    plan.red.stride[a] = red[a].in;
  }
  return plan;
}

}  // namespace cascade::detail
