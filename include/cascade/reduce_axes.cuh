// cascade/reduce_axes.cuh: reduce some axes of an N-d array, keep the others (NumPy's and PyTorch's
// sum(axis=...), for any op).
//
//   // column sums of a row-major rows x cols float matrix: out[c] = sum over r of d[r][c]
//   cascade::reduce_axes_into(cascade::default_policy{}, cascade::view(d, {rows, cols}), cascade::axes{0},
//                             cascade::view(d_sums, {cols}), 0.0f, cascade::plus{});
//   // a cuda::std::mdspan of rank 3, dim=(0, 2), the maxima (cascade::maximum has an identity: no init)
//   cascade::reduce_axes_into(policy, md, cascade::axes{0, 2}, out_md, cascade::maximum{});
//   // sums of squares
//   cascade::transform_reduce_axes_into(policy, md, cascade::axes{-1}, out_md, 0.0f, cascade::plus{}, square);
//
// out has the kept axes in order (or every axis, extent 1 on the reduced ones: PyTorch's keepdim),
// and out[k...] = init op (the items of in with the kept indices k..., in row-major order over the
// reduced axes): a non-commutative op folds in that order. No reduced item (an extent 0) gives init;
// no kept item writes nothing. Inputs and outputs are cascade::array_view (array/view.cuh: any
// iterator, extents and strides, broadcast strides of 0 too) or strided cuda::std::mdspan. Ordered
// on the policy's stream; the host does not wait. The output must be device memory that does not
// overlap the input.
//
// policy: cascade::default_policy (a thread an output where outputs lie closer together than an
// output's items, axis::columns; otherwise each output's items as a segment under the segmented
// default), a policy with an axis owner (cascade::axis::columns), or one with a segment owner (each
// output's items are a segment: cascade::policy<256, 4, cascade::tree::shuffle, cascade::segment::warp<32>>).
// Every policy gives the same answer, but for the rounding of a float sum.
#pragma once

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "array/view.cuh"
#include "array/axes.cuh"
#include "axis/all.cuh"
#include "detail/kernel/axes_plan.cuh"
#include "detail/segment_views.cuh"
#include "segmented_reduce.cuh"

namespace cascade {

static_assert(max_rank == detail::max_rank, "cascade: array/view.cuh and detail/kernel/axes_plan.cuh disagree on the rank");

// The axis calls take reduce's policy type with an axis owner or a segment owner, or default_policy.
template <class P>
inline constexpr bool is_axes_policy_v = false;
template <int B, int C, class Tree, class Owner>
inline constexpr bool is_axes_policy_v<policy<B, C, Tree, Owner>> =
    axis::is_owner_v<Owner> || segment::is_owner_v<Owner>;

namespace detail {

template <class Policy>
constexpr bool axes_policy_ok() {
  constexpr bool ok = is_axes_policy_v<Policy> || cuda::std::is_same_v<Policy, default_policy>;
  static_assert(ok,
                "cascade::reduce_axes_into: the policy needs an axis owner or a segment owner where reduce's name a "
                "finish, e.g. cascade::policy<256, 4, cascade::tree::shuffle, cascade::axis::columns>, "
                "cascade::policy<256, 4, cascade::tree::shuffle, cascade::segment::warp<32>>, or "
                "cascade::default_policy");
  return ok;
}

// Each output's items as a segment, under Policy's segment owner (or the segmented default), where
// they are one contiguous run from the output's first item (plan.contiguous_rows(); rows back to back
// are CSR, read as batched_reduce's: csr_of<kept_segments>).
// Rows back to back into outputs side by side are batched_reduce's call exactly, and run as it: the
// general form (each segment's start and each output's place walked from the plan) took 95 us where
// this takes 77 at 2^20 rows of 64 floats, 15 against 10 at 2^20 rows of 4 (H200).
template <class Policy, class T, class It, class OutIt, class Op>
void run_axes_rows(launch_context const& call, It first, axes_plan const& plan, OutIt d_out, T init, Op op) {
  segment_stats const stats{plan.outputs * plan.reduced, plan.reduced};
  kept_segments const rows{plan.kept.in, plan.reduced};
  if (plan.reduced > 0 && csr_of<kept_segments>::is(rows) && (plan.kept.in.rank == 0 || plan.kept.out_stride[0] == 1))
    run_segmented<Policy>(call, first, fixed_segments{plan.reduced}, plan.outputs, stats, d_out, init, op);
  else
    run_segmented<Policy>(call, first, rows, plan.outputs, stats, axes_output<OutIt>{d_out, plan.kept}, init, op);
}

// ... and anywhere: rows where they are, else through axes_gather (a division or two an item).
template <class Policy, class T, class It, class OutIt, class Op>
void run_axes_segments(launch_context const& call, It first, axes_plan const& plan, OutIt d_out, T init, Op op) {
  if (plan.contiguous_rows()) {
    run_axes_rows<Policy>(call, first, plan, d_out, init, op);
  } else {
    segment_stats const stats{plan.outputs * plan.reduced, plan.reduced};
    axes_gather<It> const gather{first, plan.kept.in, plan.red, fast_divmod(plan.reduced)};
    run_segmented<Policy>(call, gather, fixed_segments{plan.reduced}, plan.outputs, stats,
                          axes_output<OutIt>{d_out, plan.kept}, init, op);
  }
}

// Sums whose reduced items are long contiguous rows but not one run per output (dims (0, 2) of a
// C-ordered tensor) go in two steps: each row's sum (the segmented default over rows back to back:
// batched_reduce's speed), into a matrix of (outer reduced index) x outputs, whose column sums
// (axis::columns) are the outputs. The rows' folds start from -0 (x + -0 is x, signed zeros too), and
// init goes on once, in the second step: the same items in the same order, grouped by row (a float
// sum rounds differently, as under any other policy).
// Rows of fewer than this many items go through axis::blocks instead (the matrix would add a
// noticeable share of traffic).
inline constexpr long long rows_first_min_row = 128;

template <class Op, class T>
inline constexpr bool rows_first_ok_v = std::is_same_v<Op, plus> && std::is_arithmetic_v<T>;

template <class T, class It, class OutIt, class Op>
void run_rows_first(launch_context const& call, It first, axes_plan const& plan, OutIt d_out, T init, Op op) {
  long long const rows = plan.reduced / plan.red.extent[0].divisor;  // an output's rows
  // Step one's plan: every row of every output, (output, row) -> rows x outputs matrix, row-major.
  plan_axis list[max_rank];  // (the plan's axes less one)
  int n = 0;
  long long out_step = plan.outputs;
  long long steps[max_rank];
  for (int a = 1; a < plan.red.rank; ++a) {
    steps[a] = out_step;
    out_step *= plan.red.extent[a].divisor;
  }
  for (int a = plan.red.rank - 1; a >= 1; --a) list[n++] = {plan.red.extent[a].divisor, plan.red.stride[a], steps[a]};
  long long kept_steps[max_rank];
  long long step = 1;
  for (int a = 0; a < plan.kept.in.rank; ++a) {
    kept_steps[a] = step;
    step *= plan.kept.in.extent[a].divisor;
  }
  for (int a = plan.kept.in.rank - 1; a >= 0; --a)
    list[n++] = {plan.kept.in.extent[a].divisor, plan.kept.in.stride[a], kept_steps[a]};
  axes_plan rows_plan;
  int const k = canonical_axes(list, n, false, true);
  rows_plan.kept.in.rank = k;
  for (int a = 0; a < k; ++a) {
    rows_plan.kept.in.extent[a] = fast_divmod(list[a].extent);
    rows_plan.kept.in.stride[a] = list[a].in;
    rows_plan.kept.out_stride[a] = list[a].out;
  }
  rows_plan.red.rank = 1;
  rows_plan.red.extent[0] = plan.red.extent[0];
  rows_plan.red.stride[0] = 1;
  rows_plan.outputs = plan.outputs * rows;
  rows_plan.reduced = plan.red.extent[0].divisor;
  rows_plan.span = plan.span;
  scratch_buffer const matrix = call.scratch(sizeof(T) * static_cast<std::size_t>(rows_plan.outputs),
                                             "cascade::reduce_axes (the row sums)");
  T* const sums = matrix.as<T>();
  T zero = T(0);
  if constexpr (std::is_floating_point_v<T>) zero = -zero;
  run_axes_rows<default_policy>(call, first, rows_plan, sums, zero, op);
  axes_walk along, down;
  along.rank = 1;
  along.extent[0] = fast_divmod(plan.outputs);
  along.stride[0] = 1;
  down.rank = 1;
  down.extent[0] = fast_divmod(rows);
  down.stride[0] = plan.outputs;
  axis_owner<axis::columns>::pass<256, axis_owner<axis::columns>::partials_coarse>(
      call, static_cast<T const*>(sums), along, plan.kept, down, plan.outputs, rows, d_out, init, op);
}

// The default: a thread an output where outputs lie closer together than an output's items
// (axis::columns); each output's items as a segment (the segmented default) where they are one
// contiguous run; sums of long contiguous rows in two steps (run_rows_first); otherwise a block an
// output (axis::blocks: rows of the innermost axis, striped).
// Column folds of 8-byte or smaller accumulators over this many rows or more keep 8 loads in flight a
// thread, others 4: 1.2-1.3x faster at 2^16 x 64 and 2^14 x 256 floats, within 1.5% either way from
// 2^26 items, and 4 was 7% faster at 256 x 2^18 (the sweep of cascade-axes, H200; docs/notes/axes.md).
// A wider accumulator keeps 4 (moments at 8 took 146-170 registers a thread).
inline constexpr long long columns_deep_rows = 4096;

template <class T, class It, class OutIt, class Op>
void run_default_axes(launch_context const& call, It first, axes_plan const& plan, OutIt d_out, T init, Op op) {
  if (!plan.reduced_inner()) {
    if constexpr (sizeof(T) <= 8) {
      if (plan.reduced >= columns_deep_rows) {
        axis_owner<axis::columns>::run<policy<256, 8, tree::shuffle, axis::columns>>(call, first, plan, d_out, init, op);
        return;
      }
    }
    axis_owner<axis::columns>::run<policy<256, 4, tree::shuffle, axis::columns>>(call, first, plan, d_out, init, op);
  } else if (plan.contiguous_rows()) {
    run_axes_rows<default_policy>(call, first, plan, d_out, init, op);
  } else {
    if constexpr (rows_first_ok_v<Op, T>) {
      if (plan.reduced > 0 && plan.red.stride[0] == 1 && plan.red.extent[0].divisor >= rows_first_min_row) {
        run_rows_first(call, first, plan, d_out, init, op);
        return;
      }
    }
    axis_owner<axis::blocks>::run<policy<256, 4, tree::shuffle, axis::blocks>>(call, first, plan, d_out, init, op);
  }
}

template <class Policy, class T, class It, class OutIt, class Op>
void run_axes(launch_context const& call, It first, axes_plan const& plan, OutIt d_out, T init, Op op) {
  if constexpr (std::is_same_v<Policy, default_policy>) {
    run_default_axes(call, first, plan, d_out, init, op);
  } else if constexpr (segment::is_owner_v<typename Policy::owner_type>) {
    check_segmented_tree<Policy, Op>();
    run_axes_segments<Policy>(call, first, plan, d_out, init, op);
  } else {
    axis_owner<typename Policy::owner_type>::template run<Policy>(call, first, plan, d_out, init, op);
  }
}

// Plans an axis call, checks its memory, and hands the plan to run(call, plan); nothing where there is
// no output. `in` is the caller's input (its items are what the checks see).
template <class Policy, class It, class OutIt, class Run>
void with_axes_plan(Policy const& policy, array_view<It> const& in, unsigned mask, array_view<OutIt> const& out,
                    bool commutative, char const* who, Run&& run) {
  axes_plan const plan = make_axes_plan(in, out, mask, commutative, who);
  if (plan.outputs == 0) return;
  launch_context const call(policy.stream(), current_device());  // a clear cuda_error when there is no device
  check_device_accessible(out.data, "the output");
  if (plan.reduced > 0) {
    check_device_accessible(in.data, "the input");
    long long const available = items_to_allocation_end(in.data);
    if (available >= 0 && plan.span > available)
      throw std::invalid_argument(std::string(who) + ": the input's extents and strides reach item " +
                                  std::to_string(plan.span - 1) + ", beyond its " + std::to_string(available) +
                                  " items (its allocation's end)");
  }
  run(call, plan);
}

// The axis calls' work: `in` is what the checks see (the caller's input), `read` what the kernels
// read (in.data, or a view of it).
template <class Policy, class It, class ReadIt, class OutIt, class T, class Op>
void axes_call(Policy const& policy, array_view<It> const& in, ReadIt read, axes const& which,
               array_view<OutIt> const& out, T init, Op op, char const* who) {
  if constexpr (is_cccl_op_v<Op, T>) {
    // CCCL's ops run as the cascade op they name, as in reduce (detail/meta/known_op.cuh)
    axes_call(policy, in, read, which, out, init, known_op_t<Op, T>{}, who);
  } else if constexpr (axes_policy_ok<Policy>() && segmented_arguments_ok<It, T, Op>()) {
    static_assert(std::is_pointer_v<OutIt>,
                  "cascade::reduce_axes_into: the output is written through a pointer to device memory; view one");
    with_axes_plan(policy, in, which.mask(in.rank, who), out, is_commutative_v<Op>, who,
                   [&](launch_context const& call, axes_plan const& plan) {
                     run_axes<Policy>(call, read, plan, out.data, init, op);
                   });
  }
}

}  // namespace detail

template <class Policy, class In, class Out, class T, class Op>
  requires(is_axes_policy_v<Policy> || std::is_same_v<Policy, default_policy>)
void reduce_axes_into(Policy const& policy, In const& in, axes const& which, Out const& out, T init, Op op) {
  auto const iv = view(in);
  detail::axes_call(policy, iv, iv.data, which, view(out), init, op, "cascade::reduce_axes_into");
}

// With an op whose identity over the items is known (cascade::identity): that is init.
template <class Policy, class In, class Out, class Op>
  requires((is_axes_policy_v<Policy> || std::is_same_v<Policy, default_policy>) &&
           has_identity_v<Op, detail::input_value_t<decltype(view(std::declval<In const&>()).data)>>)
void reduce_axes_into(Policy const& policy, In const& in, axes const& which, Out const& out, Op op) {
  using value = detail::input_value_t<decltype(view(in).data)>;
  reduce_axes_into(policy, in, which, out, identity<Op, value>::value(), op);
}

// As above, every byte of temporary device storage taken from `resource` (memory/resource.cuh), last.
template <class Policy, class In, class Out, class T, class Op, class Resource>
  requires((is_axes_policy_v<Policy> || std::is_same_v<Policy, default_policy>) &&
           stream_ordered_resource<std::remove_reference_t<Resource>>)
void reduce_axes_into(Policy const& policy, In const& in, axes const& which, Out const& out, T init, Op op,
                      Resource&& resource) {
  detail::with_resource(resource, [&] { reduce_axes_into(policy, in, which, out, init, op); });
}

// out[k...] = init op t(x) op ... over the items x as reduce_axes_into folds them, in init's type.
template <class Policy, class In, class Out, class T, class ReduceOp, class TransformOp>
  requires(is_axes_policy_v<Policy> || std::is_same_v<Policy, default_policy>)
void transform_reduce_axes_into(Policy const& policy, In const& in, axes const& which, Out const& out, T init,
                                ReduceOp reduce_op, TransformOp transform_op) {
  auto const iv = view(in);
  using It = decltype(iv.data);
  using make = detail::apply_transform<T, TransformOp>;
  detail::made_iterator<It, make, T> const read{iv.data, make{transform_op}};
  detail::axes_call(policy, iv, read, which, view(out), init, reduce_op, "cascade::transform_reduce_axes_into");
}

}  // namespace cascade
