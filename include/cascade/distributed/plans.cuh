// cascade/distributed/plans.cuh: what each distributed algorithm reduces on a rank, and how the
// ranks' partials combine (the plans dispatch.cuh runs).
//
//   value_plan  reduce and transform_reduce: init op t(x0) op t(x1) ... in rank order (t: the
//               transform, none for reduce); rank 0 starts from init, the others from the op's
//               identity, or, for an op without one, from "none" (maybe<T>, partial.cuh).
//   exact_plan  exact_plus and reproducible_plus: each rank's sum as integers (its area, with its final
//               state added: exact/exact_partial.cuh), gathered, added and rounded once with init on
//               every rank: bitwise what one GPU gives for the concatenated data.
//   arg_plan    argmin and argmax: {index, value} pairs whose indices the fold makes global.
// plan_for picks value_plan or exact_plan by the op.
#pragma once

#include <nccl.h>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include "../detail/kernel/arguments.cuh"
#include "../detail/dispatch.cuh"
#include "../exact/accumulator.cuh"
#include "../exact/exact_partial.cuh"
#include "../detail/arg_call.cuh"
#include "../detail/kernel/input_iterators.cuh"
#include "../detail/meta/known_op.cuh"
#include "../ops/identity.cuh"
#include "../ops/indexed.cuh"
#include "collective.cuh"
#include "nccl_types.cuh"
#include "partial.cuh"

namespace cascade::detail {

// reduce's items as they are (no transform view, so the local reduce keeps its vector loads and table).
struct no_transform {};

// x -> second(first(x))
template <class First, class Second>
struct then {
  First first;
  Second second;
#pragma nv_exec_check_disable
  template <class X>
  __host__ __device__ constexpr auto operator()(X const& x) const {
    return second(first(x));
  }
};

template <class It, class Transform, class T, class Op, class Collective>
struct value_plan {
  static_assert(collective::is_collective_v<Collective>,
                "cascade: the last argument must be a tag from cascade::collective, e.g. collective::automatic");
  static constexpr bool builtin = is_nccl_builtin_v<T, Op>;
  static_assert(!cuda::std::is_same_v<Collective, collective::all_reduce> || builtin,
                "cascade: collective::all_reduce needs an accumulator (init's type) and op that NCCL reduces itself as "
                "cascade does: plus or multiplies over 8-, 32- or 64-bit integers, __half, float, double or "
                "__nv_bfloat16, minimum or maximum over those integers (NCCL's floating ones drop NaN); use "
                "collective::all_gather (any type and op) or collective::automatic");
  static constexpr bool all_reduce =
      cuda::std::is_same_v<Collective, collective::all_reduce> ||
      (cuda::std::is_same_v<Collective, collective::automatic> && builtin);  // (nvlink may still take automatic)
  static constexpr bool use_maybe = !all_reduce && !has_identity_v<Op, T>;
  static constexpr bool transforms = !cuda::std::is_same_v<Transform, no_transform>;

  using partial = cuda::std::conditional_t<use_maybe, maybe<T>, T>;
  using result_type = T;
  using collective_type = Collective;

  It first;
  Transform transform;
  cuda::std::int64_t n;
  T init;
  Op op;

  template <class Policy, class Slot>
  void local(Policy const& policy, int rank, Slot slot) const {
    if constexpr (use_maybe) {
      maybe<T> const seed = rank == 0 ? maybe<T>{init, true} : maybe<T>{T{}, false};
      if constexpr (transforms) {
        using view = transform_input<It, then<Transform, to_maybe<T>>, maybe<T>>;
        dispatch_reduce_into(policy, view{first, {transform, {}}}, n, slot, seed, maybe_op<Op>{op});
      } else {
        dispatch_reduce_into(policy, transform_input<It, to_maybe<T>, maybe<T>>{first, {}}, n, slot, seed,
                             maybe_op<Op>{op});
      }
    } else {
      T const seed = rank == 0 ? init : identity_of<T>(op);
      if constexpr (transforms)
        dispatch_reduce_into(policy, transform_input<It, Transform, T>{first, transform}, n, slot, seed, op);
      else
        dispatch_reduce_into(policy, first, n, slot, seed, op);
    }
  }

  auto fold_op() const {
    if constexpr (use_maybe) return maybe_op<Op>{op};
    else if constexpr (is_cccl_op_v<Op, T>) return known_op_t<Op, T>{};  // as the local reduce runs it
    else return op;
  }
  auto result() const {
    if constexpr (use_maybe) return maybe_value{};
    else return as_is{};
  }
  static constexpr ncclDataType_t nccl_type() { return detail::nccl_type<T>(); }
  static constexpr ncclRedOp_t nccl_op() { return detail::nccl_op<Op, T>(); }
};

// The local call keeps its sum as integers (area_writer), the all-gather brings every rank's, and the
// fold adds them (in rank order, though integer sums do not care) and rounds once with init.
template <class It, class Transform, class T, class Op, class Collective>
struct exact_plan {
  static_assert(collective::is_collective_v<Collective>,
                "cascade: the last argument must be a tag from cascade::collective, e.g. collective::automatic");
  static_assert(!cuda::std::is_same_v<Collective, collective::all_reduce>,
                "cascade: exact_plus and reproducible_plus meet through collective::all_gather (each rank's sum is an "
                "array of integers, which NCCL's ops cannot add as one); use collective::all_gather or automatic");
  static constexpr bool transforms = !cuda::std::is_same_v<Transform, no_transform>;
  // transform_reduce's results read as double, as the one-GPU exact sums read them (transform_reduce.cuh)
  using input = cuda::std::conditional_t<
      transforms, transform_input<It, Transform, typename accumulator<Op>::template transformed_as<T>>, It>;
  using call = accumulated_call<input, T, Op>;
  static constexpr bool all_reduce = false;
  using partial = typename call::area;
  using result_type = T;
  using collective_type = Collective;

  It first;
  Transform transform;
  cuda::std::int64_t n;
  T init;
  Op op;

  template <class Policy, class Slot>
  void local(Policy const& policy, int, Slot slot) const {
    launch_context const call(policy.stream(), current_device());
    dispatch_accumulated_with<Policy, input, T, Op>(call, policy, view(), n, [&](partial* area) {
      return area_writer<typename call::state, partial, Slot>{area, slot};
    });
  }
  input view() const {
    if constexpr (transforms) return input{first, transform};
    else return first;
  }
  area_sum fold_op() const { return {}; }
  round_area<T, typename call::state> result() const { return {static_cast<double>(init)}; }
};

template <class It, class Transform, class T, class Op, class Collective>
using plan_for = cuda::std::conditional_t<!is_plain_accumulator_v<Op>, exact_plan<It, Transform, T, Op, Collective>,
                                          value_plan<It, Transform, T, Op, Collective>>;

// ArgOp: arg_min or arg_max (detail/arg_call.cuh: its identity starts every shard).
template <class It, class T, class ArgOp>
struct arg_plan {
  static_assert(arg_call<ArgOp, T>::identities_ok());
  static constexpr bool all_reduce = false;
  using partial = ranked<T>;
  using result_type = indexed<T>;
  using collective_type = collective::automatic;

  It first;
  cuda::std::int64_t n;

  template <class Policy, class Slot>
  void local(Policy const& policy, int, Slot slot) const {
    using call = arg_call<ArgOp, T>;
    dispatch_reduce_into(policy, call::input(first), n, ranked_writer<T, Slot>{slot, n}, call::init(), ArgOp{});
  }
  ranked_op<ArgOp> fold_op() const { return {}; }
  ranked_result result() const { return {}; }
};

}  // namespace cascade::detail
