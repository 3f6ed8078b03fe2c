// cascade/distributed/segmented.cuh: several values a rank. Each rank holds its slice of every one of
// num_segments segments; the num_segments partials of every rank meet in one call, and value s is
// init op (rank 0's slice of s) op (rank 1's slice of s) ...: per-class counts, sums of the same
// fields over records sharded across GPUs, the column sums of a column-sharded batch.
//
//   // rank r: num_segments segments of its own segment_size (the sizes may differ across ranks)
//   cascade::batched_reduce_into(comm, policy{}, d, segment_size, num_segments, d_out, 0.0f, cascade::plus{});
//   cascade::segmented_reduce_into(comm, policy{}, d, begin_offsets, end_offsets, num_segments, d_out, 0, op);
//   // column sums of a row-sharded matrix: rank r holds rows_r x cols (rows_r its own), every rank gets cols
//   cascade::reduce_axes_into(comm, policy{}, cascade::view(d, {rows_r, cols}), cascade::axes{0},
//                             cascade::view(d_sums, {cols}), 0.0f, cascade::plus{});
//
// Each rank reduces its slices with the one-GPU call (segmented_reduce.cuh, reduce_axes.cuh: any owner,
// host or device offsets; for the axes, every rank's output of the same shape, its items the values), rank 0 from init and the others from the op's identity (an op with none does not
// compile: wrap it in cascade::monoid), into cascade's scratch; the partials then meet through
// collective::all_reduce (NCCL's op, num_segments values at once) or all_gather (every rank's
// partials, then a thread a value folding them in rank order: any type and op, non-commutative ones
// included, the same bits on every rank); automatic picks all_reduce where the type and op allow it.
// collective::nvlink moves one value a rank and does not compile here. Every rank passes the same
// num_segments; d_out gets every value on every rank. Errors as the distributed reduce's.
#pragma once

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include <string>
#include <type_traits>

#include "../detail/runtime/device.cuh"
#include "../detail/runtime/memory_check.cuh"
#include "../detail/runtime/scoped_device.cuh"
#include "../detail/runtime/scratch.cuh"
#include "../ops/identity.cuh"
#include "../reduce_axes.cuh"
#include "../segmented_reduce.cuh"
#include "collective.cuh"
#include "communicator.cuh"
#include "dispatch.cuh"
#include "nccl_types.cuh"
#include "partial.cuh"

namespace cascade {

namespace detail {

template <class T, class Op, class Collective>
constexpr bool several_values_ok() {
  static_assert(collective::is_collective_v<Collective>,
                "cascade: the last argument must be a tag from cascade::collective, e.g. collective::automatic");
  static_assert(!std::is_same_v<Collective, collective::nvlink>,
                "cascade: collective::nvlink moves one value a rank; for several use collective::automatic, "
                "all_reduce or all_gather");
  static_assert(has_identity_v<Op, T>,
                "cascade: the distributed segmented and batched reductions start every rank but 0 from the op's "
                "identity; give the op one (cascade::monoid(op, identity))");
  static_assert(!std::is_same_v<Collective, collective::all_reduce> || is_nccl_builtin_v<T, Op>,
                "cascade: collective::all_reduce needs an accumulator and op NCCL reduces itself as cascade does "
                "(plus or multiplies over NCCL's types, minimum or maximum over integers); use all_gather");
  // false stops the call's body after a failed assertion: one message, not a cascade of them
  return collective::is_collective_v<Collective> && !std::is_same_v<Collective, collective::nvlink> &&
         has_identity_v<Op, T> && (!std::is_same_v<Collective, collective::all_reduce> || is_nccl_builtin_v<T, Op>);
}

// local(policy on the communicator's stream, the rank's init, T* its k slots) writes the rank's k
// partials; then they meet, and d_out[0, k) gets the results.
template <class Collective, class Policy, class T, class Op, class Local, class OutIt>
void run_several(communicator const& comm, Policy const& policy, cuda::std::int64_t k, Local const& local, OutIt d_out,
                 T init, Op op, char const* who) {
  if (k < 0) throw std::invalid_argument(std::string(who) + ": num_segments is negative");
  scoped_device const on(comm.device());
  current_device();
  (void)comm.nvlink_window(false);  // (throws if the communicator was aborted)
  if (k == 0) return;  // every rank passes the same count: none calls NCCL
  check_device_accessible(d_out, "the output (d_out)");
  constexpr bool reduce_in_nccl = std::is_same_v<Collective, collective::all_reduce> ||
                                  (std::is_same_v<Collective, collective::automatic> && is_nccl_builtin_v<T, Op>);
  int const ranks = comm.size();
  scratch_buffer buffer(sizeof(T) * static_cast<std::size_t>(k) * (reduce_in_nccl ? 1 : ranks), comm.stream(),
                        "cascade distributed segmented reduce (the ranks' partials)");
  T* const slots = buffer.template as<T>();
  T* const mine = reduce_in_nccl ? slots : slots + static_cast<std::size_t>(comm.rank()) * k;
  local(policy.on(comm.stream()), comm.rank() == 0 ? init : identity_of<T>(op), mine);
  if constexpr (reduce_in_nccl) {
    T* target = slots;
    if constexpr (std::is_same_v<OutIt, T*>)
      if (nccl_can_write(d_out, comm)) target = d_out;
    check_nccl_within(ncclAllReduce(slots, target, static_cast<std::size_t>(k), nccl_type<T>(), nccl_op<Op, T>(),
                                    comm.get(), comm.stream()),
                      "ncclAllReduce (the ranks' partials)", comm);
    if (target == slots) launch_fold_ranks_each(slots, 1, k, op, d_out, comm.stream());
  } else {
    check_nccl_within(ncclAllGather(mine, slots, sizeof(T) * static_cast<std::size_t>(k), ncclUint8, comm.get(),
                                    comm.stream()),
                      "ncclAllGather (the ranks' partials)", comm);
    auto const fold = [&] {
      if constexpr (is_cccl_op_v<Op, T>) return known_op_t<Op, T>{};  // as the local reduce runs it
      else return op;
    }();
    launch_fold_ranks_each(static_cast<T const*>(slots), ranks, k, fold, d_out, comm.stream());
  }
}

// Item s (row-major over the view's extents) of an output view: what the fold writes through.
template <class It>
struct row_major_output {
  using wrapped_output = It;  // (runtime/memory_check.cuh checks it)
  It out;
  array_view<It> v;
  __host__ __device__ It operator+(long long s) const {
    long long offset = 0;
    for (int a = v.rank - 1; a >= 0; --a) {
      long long const e = v.extents[a];
      if (e > 0) offset += (s % e) * v.strides[a], s /= e;
    }
    return out + offset;
  }
};

}  // namespace detail

// Rank r's num_segments segments of segment_size items each, back to back from first.
template <class Policy, class It, class OutIt, class T, class Op, class Collective = collective::automatic>
  requires(is_segmented_call_policy_v<Policy> && collective::is_collective_v<Collective>)
void batched_reduce_into(communicator const& comm, Policy const& policy, It first, cuda::std::int64_t segment_size,
                         cuda::std::int64_t num_segments, OutIt d_out, T init, Op op, Collective = {}) {
  if constexpr (detail::several_values_ok<T, Op, Collective>())
    detail::run_several<Collective>(
        comm, policy, num_segments,
        [&](auto const& on_stream, T seed, T* slots) { batched_reduce_into(on_stream, first, segment_size, num_segments, slots, seed, op); },
        d_out, init, op, "cascade::batched_reduce_into (distributed)");
}

// Rank r's segment s is [first + begin_offsets[s], first + end_offsets[s]) (host or device offsets).
template <class Policy, class It, class BeginIt, class EndIt, class OutIt, class T, class Op,
          class Collective = collective::automatic>
  requires(is_segmented_call_policy_v<Policy> && collective::is_collective_v<Collective>)
void segmented_reduce_into(communicator const& comm, Policy const& policy, It first, BeginIt begin_offsets,
                           EndIt end_offsets, cuda::std::int64_t num_segments, OutIt d_out, T init, Op op,
                           Collective = {}) {
  if constexpr (detail::several_values_ok<T, Op, Collective>())
    detail::run_several<Collective>(
        comm, policy, num_segments,
        [&](auto const& on_stream, T seed, T* slots) {
          segmented_reduce_into(on_stream, first, begin_offsets, end_offsets, num_segments, slots, seed, op);
        },
        d_out, init, op, "cascade::segmented_reduce_into (distributed)");
}

// Rank r's array `in` (its shard: its own extents on the reduced axes), the reduced `which` axes folded
// across every rank's shard, rank 0's first; `out` has the kept axes (or keepdim), the same on every
// rank, and gets every value on every rank.
template <class Policy, class In, class Out, class T, class Op, class Collective = collective::automatic>
  requires((is_axes_policy_v<Policy> || std::is_same_v<Policy, default_policy>) && collective::is_collective_v<Collective>)
void reduce_axes_into(communicator const& comm, Policy const& policy, In const& in, axes const& which, Out const& out,
                      T init, Op op, Collective = {}) {
  if constexpr (detail::several_values_ok<T, Op, Collective>()) {
    auto const ov = view(out);
    using out_it = decltype(ov.data);
    detail::run_several<Collective>(
        comm, policy, ov.size(),
        [&](auto const& on_stream, T seed, T* slots) {
          array_view<T*> here{slots, ov.rank};  // the same shape, row-major, in cascade's scratch
          cuda::std::int64_t step = 1;
          for (int a = ov.rank - 1; a >= 0; --a) {
            here.extents[a] = ov.extents[a];
            here.strides[a] = step;
            step *= ov.extents[a] > 0 ? ov.extents[a] : 1;
          }
          reduce_axes_into(on_stream, in, which, here, seed, op);
        },
        detail::row_major_output<out_it>{ov.data, ov}, init, op, "cascade::reduce_axes_into (distributed)");
  }
}

}  // namespace cascade
