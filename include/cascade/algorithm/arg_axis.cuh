// cascade/algorithm/arg_axis.cuh: where the smallest (largest) item along one axis is, for every index
// of the other axes (PyTorch's argmin(dim), NumPy's argmin(axis)).
//
//   // a row-major rows x cols float matrix: out[c] = {the row of column c's first smallest item, that item}
//   cascade::argmin_axis_into(cascade::default_policy{}, cascade::view(d, {rows, cols}), 0,
//                             cascade::view(d_lo, {cols}));            // d_lo: cascade::indexed<float>*
//   cascade::argmax_axis_into(policy, md, -1, out_md);                 // a cuda::std::mdspan, its last axis
//
// out has the input's other axes in order (or every axis, extent 1 on the reduced one: keepdim), and
// out[k...] = {index along the axis, value} of the first smallest (largest) item there, with
// argmin's rules (ops/indexed.cuh): a NaN ranks first, -0 below +0, ties go to the smaller index.
// The axis may be negative (from the last). An axis of extent 0 throws std::invalid_argument (there is
// no position to return), as argmin of an empty range does; no kept item writes nothing. Inputs,
// outputs, policies, stream and errors as reduce_axes_into's; the value type needs an identity for
// minimum (maximum), as argmin's does.
//
// How: each item is read with its position as an indexed<T> pair through a view that lays the
// reduced axis out as reduce_axes_into's owners want it: outermost (a thread an output, coalesced
// across outputs: axis::columns) where the outputs lie closer together in memory than the axis's
// items, else innermost (each output's items a segment). arg_min and arg_max are commutative (the
// index breaks ties), so every owner gives the same pair.
#pragma once

#include <cuda/std/cstdint>

#include <iterator>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "../array/axes.cuh"
#include "../array/view.cuh"
#include "../detail/arg_call.cuh"
#include "../detail/kernel/axes_plan.cuh"
#include "../ops/indexed.cuh"
#include "../reduce_axes.cuh"

namespace cascade {

namespace detail {

// Item v of an output-by-axis matrix that does not exist in memory, as {its index on the axis, the
// item}: along_major, v = i * outputs + o (the axis outermost: columns); else v = o * extent + i (rows).
// o walks the kept axes (innermost first) with the input's strides. One fast_divmod an item, and the
// kept axes' walk (one more a kept axis beyond the first).
template <class It, class T>
struct axis_positions {
  using value_type = indexed<T>;
  using difference_type = long long;
  using reference = value_type;
  using pointer = void;
  using iterator_category = std::random_access_iterator_tag;
  It first;
  axes_walk kept;     // output index -> its items' first offset in the input
  long long stride;   // the axis's stride in the input
  fast_divmod split;  // along_major: by the outputs, else by the axis's extent
  bool along_major;
  long long at = 0;

  __host__ __device__ value_type operator[](long long k) const {
    long long const v = at + k;
    long long const q = split.div(v);
    long long const r = v - q * split.divisor;
    long long const i = along_major ? q : r;
    long long const o = along_major ? r : q;
    return {i, static_cast<T>(first[kept.offset(o) + i * stride])};
  }
  __host__ __device__ value_type operator*() const { return (*this)[0]; }
  __host__ __device__ axis_positions operator+(long long k) const {
    return {first, kept, stride, split, along_major, at + k};
  }
};

// The plan of reducing axis_positions' matrix: the kept axes as `plan`'s (their extents and output
// strides) over the matrix's contiguous layout, the one reduced axis outermost or innermost.
inline axes_plan positions_plan(axes_plan const& plan, bool along_major) {
  long long const extent = plan.reduced;
  axes_plan v = plan;
  v.span = plan.outputs * extent;
  long long step = along_major ? 1 : extent;
  for (int a = 0; a < v.kept.in.rank; ++a) {
    v.kept.in.stride[a] = step;
    step *= v.kept.in.extent[a].divisor;
  }
  v.red = axes_walk{};
  if (extent > 1) {
    v.red.rank = 1;
    v.red.extent[0] = fast_divmod(extent);
    v.red.stride[0] = along_major ? plan.outputs : 1;
  }
  return v;
}

template <class ArgOp, class Policy, class In, class Out>
void arg_axis_call(Policy const& policy, In const& in_, int axis, Out const& out_, char const* who) {
  auto const in = view(in_);
  auto const out = view(out_);
  using It = decltype(in.data);
  using OutIt = decltype(out.data);
  using T = input_value_t<It>;
  using read = axis_positions<It, T>;
  if constexpr (axes_policy_ok<Policy>() && arg_call<ArgOp, T>::identities_ok() &&
                segmented_arguments_ok<read, indexed<T>, ArgOp>()) {
    static_assert(std::is_pointer_v<OutIt>, "cascade::argmin_axis_into / argmax_axis_into: the output is written "
                                            "through a pointer to device memory; view one");
    static_assert(std::is_same_v<std::remove_cv_t<std::iter_value_t<OutIt>>, indexed<T>>,
                  "cascade::argmin_axis_into / argmax_axis_into: the output's items are cascade::indexed<T>, T the "
                  "input's value type (the index along the axis and the item)");
    unsigned const mask = axes{axis}.mask(in.rank, who);
    int a = 0;
    while (!((mask >> a) & 1u)) ++a;
    if (in.extents[a] == 0)
      throw std::invalid_argument(std::string(who) + ": axis " + std::to_string(a) +
                                  " has extent 0, so there is no position to return");
    with_axes_plan(policy, in, mask, out, true, who, [&](launch_context const& call, axes_plan const& plan) {
      // the axis's items closer together than the outputs': each output's a segment, else columns
      bool const along_major = !plan.reduced_inner();
      read const items{in.data, plan.kept.in, plan.red.rank > 0 ? plan.red.stride[0] : 0,
                       fast_divmod(along_major ? plan.outputs : plan.reduced), along_major};
      run_axes<Policy>(call, items, positions_plan(plan, along_major), out.data, arg_call<ArgOp, T>::init(),
                       ArgOp{});
    });
  }
}

}  // namespace detail

template <class Policy, class In, class Out>
  requires(is_axes_policy_v<Policy> || std::is_same_v<Policy, default_policy>)
void argmin_axis_into(Policy const& policy, In const& in, int axis, Out const& out) {
  detail::arg_axis_call<arg_min>(policy, in, axis, out, "cascade::argmin_axis_into");
}

template <class Policy, class In, class Out>
  requires(is_axes_policy_v<Policy> || std::is_same_v<Policy, default_policy>)
void argmax_axis_into(Policy const& policy, In const& in, int axis, Out const& out) {
  detail::arg_axis_call<arg_max>(policy, in, axis, out, "cascade::argmax_axis_into");
}

// As above, every byte of temporary device storage taken from `resource` (memory/resource.cuh), last.
template <class Policy, class In, class Out, class Resource>
  requires((is_axes_policy_v<Policy> || std::is_same_v<Policy, default_policy>) &&
           stream_ordered_resource<std::remove_reference_t<Resource>>)
void argmin_axis_into(Policy const& policy, In const& in, int axis, Out const& out, Resource&& resource) {
  detail::with_resource(resource, [&] { argmin_axis_into(policy, in, axis, out); });
}

template <class Policy, class In, class Out, class Resource>
  requires((is_axes_policy_v<Policy> || std::is_same_v<Policy, default_policy>) &&
           stream_ordered_resource<std::remove_reference_t<Resource>>)
void argmax_axis_into(Policy const& policy, In const& in, int axis, Out const& out, Resource&& resource) {
  detail::with_resource(resource, [&] { argmax_axis_into(policy, in, axis, out); });
}

}  // namespace cascade
