// cascade/distributed/reduce.cuh: reduce data spread across GPUs, each GPU's part reduced with any
// cascade policy and the parts combined through NCCL.
//
//   // One process (or thread) per GPU: each rank passes its own shard; every rank gets the result.
//   float s = cascade::reduce(comm, cascade::default_policy{}, d, d + n, 0.0f, cascade::plus{});
//   cascade::reduce_into(comm, policy{}, d, d + n, d_out, 0.0f, cascade::plus{});       // no host wait
//   cascade::reduce_into(comm, cascade::root{0}, policy{}, d, d + n, d_out, 0.0f, op);  // rank 0's d_out only
//   // One process driving every GPU: all shards, all communicators (rank i at position i), one call.
//   float t = cascade::reduce(comms, policy{}, shards, 0.0f, cascade::plus{});
//
// The result is init op (the reduction of shard 0, then shard 1, ...): the shards in rank order are
// the data, and non_commutative ops keep that order. Each rank reduces its shard with the policy (on
// the communicator's stream and device, which the policy's stream gives way to), rank 0 from init and
// the others from the op's identity; the partials then meet through collective::all_reduce (NCCL's op)
// or all_gather (any op; collective.cuh), the last optional argument. Every rank must make the same
// call (the same types, op and collective; the root forms the same root), as with any NCCL
// collective; a rank's shard may be empty. The one-call forms make the types one by construction.
//
// reduce_into enqueues everything on the communicator's stream and returns; reduce waits for the
// result (and throws nccl_error if NCCL reports the communicator failed meanwhile). What is bitwise
// equal to a one-GPU reduce of the concatenated data: docs/distributed.md.
#pragma once

#include <cstddef>
#include <iterator>
#include <optional>
#include <ranges>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "../detail/kernel/arguments.cuh"
#include "../ops.cuh"
#include "../policy/policy.cuh"
#include "collective.cuh"
#include "communicator.cuh"
#include "dispatch.cuh"
#include "plans.cuh"
#include "shard.cuh"

namespace cascade {

namespace detail {

template <class Op>
inline constexpr bool is_op_argument_v = !collective::is_collective_v<Op>;

// The iterator type of a range of shard<It>.
template <class Shards>
using shard_iterator_t = decltype(std::declval<std::ranges::range_value_t<Shards>>().first);

template <class Shards>
inline constexpr bool is_shard_range_v = requires(Shards const& s) {
  std::ranges::size(s);
  std::ranges::begin(s)->first;
  std::ranges::begin(s)->last;
};

template <class Shards, class Transform, class T, class Op, class Collective>
auto value_plans(Shards const& shards, Transform const& transform, T init, Op op, char const* who) {
  using It = shard_iterator_t<Shards>;
  std::vector<plan_for<It, Transform, T, Op, Collective>> plans;
  for (auto const& s : shards) plans.push_back({s.first, transform, checked_size(s.first, s.last, who), init, op});
  return plans;
}

}  // namespace detail

// ---- one rank per call: every rank gets the result --------------------------------------------------------

template <class Policy, class It, class OutIt, class T, class Op, class Collective = collective::automatic>
  requires(is_policy_v<Policy> && detail::is_op_argument_v<Op> && collective::is_collective_v<Collective>)
void reduce_into(communicator const& comm, Policy const& policy, It first, It last, OutIt d_out, T init, Op op,
                 Collective = {}) {
  char const* const who = "cascade::reduce_into (distributed)";
  detail::plan_for<It, detail::no_transform, T, Op, Collective> const plan{
      first, {}, detail::checked_size(first, last, who), init, op};
  detail::run_rank(comm, -1, policy, plan, d_out, who);
}

template <class Policy, class It, class OutIt, class T>
  requires is_policy_v<Policy>
void reduce_into(communicator const& comm, Policy const& policy, It first, It last, OutIt d_out, T init) {
  reduce_into(comm, policy, first, last, d_out, init, plus{});
}

template <class Policy, class It, class T, class Op, class Collective = collective::automatic>
  requires(is_policy_v<Policy> && detail::is_op_argument_v<Op> && collective::is_collective_v<Collective>)
T reduce(communicator const& comm, Policy const& policy, It first, It last, T init, Op op, Collective = {}) {
  char const* const who = "cascade::reduce (distributed)";
  detail::plan_for<It, detail::no_transform, T, Op, Collective> const plan{
      first, {}, detail::checked_size(first, last, who), init, op};
  return *detail::run_rank_to_host(comm, -1, policy, plan, who);
}

template <class Policy, class It, class T>
  requires is_policy_v<Policy>
T reduce(communicator const& comm, Policy const& policy, It first, It last, T init) {
  return reduce(comm, policy, first, last, init, plus{});
}

// ---- one rank per call: the root gets the result -------------------------------------------------------------

// Only the root's d_out is written (the others may pass any iterator, even a null pointer).
template <class Policy, class It, class OutIt, class T, class Op, class Collective = collective::automatic>
  requires(is_policy_v<Policy> && detail::is_op_argument_v<Op> && collective::is_collective_v<Collective>)
void reduce_into(communicator const& comm, root to, Policy const& policy, It first, It last, OutIt d_out, T init, Op op,
                 Collective = {}) {
  char const* const who = "cascade::reduce_into (distributed, root)";
  if (to.rank < 0) throw std::invalid_argument(std::string(who) + ": the root's rank is negative");
  detail::plan_for<It, detail::no_transform, T, Op, Collective> const plan{
      first, {}, detail::checked_size(first, last, who), init, op};
  detail::run_rank(comm, to.rank, policy, plan, d_out, who);
}

// The result on the root; std::nullopt on the other ranks, which return without waiting.
template <class Policy, class It, class T, class Op, class Collective = collective::automatic>
  requires(is_policy_v<Policy> && detail::is_op_argument_v<Op> && collective::is_collective_v<Collective>)
std::optional<T> reduce(communicator const& comm, root to, Policy const& policy, It first, It last, T init, Op op,
                        Collective = {}) {
  char const* const who = "cascade::reduce (distributed, root)";
  if (to.rank < 0) throw std::invalid_argument(std::string(who) + ": the root's rank is negative");
  detail::plan_for<It, detail::no_transform, T, Op, Collective> const plan{
      first, {}, detail::checked_size(first, last, who), init, op};
  return detail::run_rank_to_host(comm, to.rank, policy, plan, who);
}

// ---- one process, every GPU: comms[i] is rank i, shards[i] its data, d_outs[i] its output ----------------------

template <class Policy, class Shards, class OutIts, class T, class Op, class Collective = collective::automatic>
  requires(is_policy_v<Policy> && detail::is_shard_range_v<Shards> && detail::is_op_argument_v<Op> &&
           collective::is_collective_v<Collective>)
void reduce_into(std::span<communicator const> comms, Policy const& policy, Shards const& shards, OutIts const& d_outs,
                 T init, Op op, Collective = {}) {
  char const* const who = "cascade::reduce_into (distributed, every rank)";
  detail::check_ranks(comms, std::ranges::size(shards), std::ranges::size(d_outs), who);
  auto const plans = detail::value_plans<Shards, detail::no_transform, T, Op, Collective>(shards, {}, init, op, who);
  detail::run_ranks_into(comms, policy, plans, d_outs, who);
}

template <class Policy, class Shards, class T, class Op, class Collective = collective::automatic>
  requires(is_policy_v<Policy> && detail::is_shard_range_v<Shards> && detail::is_op_argument_v<Op> &&
           collective::is_collective_v<Collective>)
T reduce(std::span<communicator const> comms, Policy const& policy, Shards const& shards, T init, Op op, Collective = {}) {
  char const* const who = "cascade::reduce (distributed, every rank)";
  detail::check_ranks(comms, std::ranges::size(shards), comms.size(), who);
  auto const plans = detail::value_plans<Shards, detail::no_transform, T, Op, Collective>(shards, {}, init, op, who);
  return detail::run_ranks_to_host(comms, policy, plans, who);
}

template <class Policy, class Shards, class T>
  requires(is_policy_v<Policy> && detail::is_shard_range_v<Shards>)
T reduce(std::span<communicator const> comms, Policy const& policy, Shards const& shards, T init) {
  return reduce(comms, policy, shards, init, plus{});
}

}  // namespace cascade
