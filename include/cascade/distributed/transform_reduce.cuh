// cascade/distributed/transform_reduce.cuh: reduce the transformed items of data spread across GPUs,
// one pass on each GPU, nothing stored between.
//
//   auto square = [] __host__ __device__ (float x) { return x * x; };
//   float ss = cascade::transform_reduce(comm, policy{}, d, d + n, 0.0f, cascade::plus{}, square);
//   cascade::transform_reduce_into(comm, policy{}, d, d + n, d_ss, 0.0f, cascade::plus{}, square);
//
// As the distributed reduce (reduce.cuh) of t(x0), t(x1), ...: the same collectives, order and errors.
#pragma once

#include "../policy/policy.cuh"
#include "collective.cuh"
#include "communicator.cuh"
#include "dispatch.cuh"
#include "plans.cuh"
#include "reduce.cuh"

namespace cascade {

template <class Policy, class It, class OutIt, class T, class ReduceOp, class TransformOp,
          class Collective = collective::automatic>
  requires(is_policy_v<Policy> && collective::is_collective_v<Collective>)
void transform_reduce_into(communicator const& comm, Policy const& policy, It first, It last, OutIt d_out, T init,
                           ReduceOp reduce_op, TransformOp transform_op, Collective = {}) {
  char const* const who = "cascade::transform_reduce_into (distributed)";
  detail::plan_for<It, TransformOp, T, ReduceOp, Collective> const plan{
      first, transform_op, detail::checked_size(first, last, who), init, reduce_op};
  detail::run_rank(comm, -1, policy, plan, d_out, who);
}

template <class Policy, class It, class T, class ReduceOp, class TransformOp, class Collective = collective::automatic>
  requires(is_policy_v<Policy> && collective::is_collective_v<Collective>)
T transform_reduce(communicator const& comm, Policy const& policy, It first, It last, T init, ReduceOp reduce_op,
                   TransformOp transform_op, Collective = {}) {
  char const* const who = "cascade::transform_reduce (distributed)";
  detail::plan_for<It, TransformOp, T, ReduceOp, Collective> const plan{
      first, transform_op, detail::checked_size(first, last, who), init, reduce_op};
  return *detail::run_rank_to_host(comm, -1, policy, plan, who);
}

template <class Policy, class Shards, class T, class ReduceOp, class TransformOp, class Collective = collective::automatic>
  requires(is_policy_v<Policy> && detail::is_shard_range_v<Shards> && collective::is_collective_v<Collective>)
T transform_reduce(std::span<communicator const> comms, Policy const& policy, Shards const& shards, T init,
                   ReduceOp reduce_op, TransformOp transform_op, Collective = {}) {
  char const* const who = "cascade::transform_reduce (distributed, every rank)";
  detail::check_ranks(comms, std::ranges::size(shards), comms.size(), who);
  auto const plans = detail::value_plans<Shards, TransformOp, T, ReduceOp, Collective>(shards, transform_op, init, reduce_op, who);
  return detail::run_ranks_to_host(comms, policy, plans, who);
}

}  // namespace cascade
