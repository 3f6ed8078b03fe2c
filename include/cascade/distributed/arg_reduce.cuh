// cascade/distributed/arg_reduce.cuh: where the smallest and largest items of data spread across GPUs
// are, as global positions (the shards in rank order).
//
//   cascade::indexed<float> lo = cascade::argmin(comm, policy{}, d, d + n);   // every rank: the same pair
//   cascade::argmax_into(comm, policy{}, d, d + n, d_hi);                      // into device memory
//   cascade::indexed<float> hi = cascade::argmax(comms, policy{}, shards);     // one process, every GPU
//
// Each rank finds its shard's first best {index, value}; the all-gather brings every rank's pair and
// shard size, and the fold, in rank order, moves each index past the shards before it: the result is
// what argmin / argmax give for the concatenated data (the first position on ties), bitwise. Empty
// shards are fine; when every shard is empty, argmin / argmax throw std::invalid_argument on every
// rank and the _into forms write {-1, the identity} (+inf for argmin of floats).
#pragma once

#include <ranges>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "../detail/kernel/arguments.cuh"
#include "../ops/indexed.cuh"
#include "../ops.cuh"
#include "../policy/policy.cuh"
#include "communicator.cuh"
#include "dispatch.cuh"
#include "plans.cuh"
#include "reduce.cuh"
#include "shard.cuh"

namespace cascade {

namespace detail {

template <class It>
using arg_min_plan = arg_plan<It, input_value_t<It>, arg_min>;
template <class It>
using arg_max_plan = arg_plan<It, input_value_t<It>, arg_max>;

template <class T>
indexed<T> found(indexed<T> const& r, char const* who) {
  if (r.index < 0) throw std::invalid_argument(std::string(who) + ": every shard is empty, so there is no position to return");
  return r;
}

template <template <class> class Plan, class Shards>
auto arg_plans(Shards const& shards, char const* who) {
  using It = shard_iterator_t<Shards>;
  std::vector<Plan<It>> plans;
  for (auto const& s : shards) plans.push_back({s.first, checked_size(s.first, s.last, who)});
  return plans;
}

}  // namespace detail

template <class Policy, class It>
  requires is_policy_v<Policy>
indexed<detail::input_value_t<It>> argmin(communicator const& comm, Policy const& policy, It first, It last) {
  char const* const who = "cascade::argmin (distributed)";
  detail::arg_min_plan<It> const plan{first, detail::checked_size(first, last, who)};
  return detail::found(*detail::run_rank_to_host(comm, -1, policy, plan, who), who);
}

template <class Policy, class It>
  requires is_policy_v<Policy>
indexed<detail::input_value_t<It>> argmax(communicator const& comm, Policy const& policy, It first, It last) {
  char const* const who = "cascade::argmax (distributed)";
  detail::arg_max_plan<It> const plan{first, detail::checked_size(first, last, who)};
  return detail::found(*detail::run_rank_to_host(comm, -1, policy, plan, who), who);
}

// d_out: indexed<T> in device memory (or any output iterator the device writes), on every rank.
template <class Policy, class It, class OutIt>
  requires is_policy_v<Policy>
void argmin_into(communicator const& comm, Policy const& policy, It first, It last, OutIt d_out) {
  char const* const who = "cascade::argmin_into (distributed)";
  detail::arg_min_plan<It> const plan{first, detail::checked_size(first, last, who)};
  detail::run_rank(comm, -1, policy, plan, d_out, who);
}

template <class Policy, class It, class OutIt>
  requires is_policy_v<Policy>
void argmax_into(communicator const& comm, Policy const& policy, It first, It last, OutIt d_out) {
  char const* const who = "cascade::argmax_into (distributed)";
  detail::arg_max_plan<It> const plan{first, detail::checked_size(first, last, who)};
  detail::run_rank(comm, -1, policy, plan, d_out, who);
}

template <class Policy, class Shards>
  requires(is_policy_v<Policy> && detail::is_shard_range_v<Shards>)
auto argmin(std::span<communicator const> comms, Policy const& policy, Shards const& shards) {
  char const* const who = "cascade::argmin (distributed, every rank)";
  detail::check_ranks(comms, std::ranges::size(shards), comms.size(), who);
  return detail::found(detail::run_ranks_to_host(comms, policy, detail::arg_plans<detail::arg_min_plan>(shards, who), who), who);
}

template <class Policy, class Shards>
  requires(is_policy_v<Policy> && detail::is_shard_range_v<Shards>)
auto argmax(std::span<communicator const> comms, Policy const& policy, Shards const& shards) {
  char const* const who = "cascade::argmax (distributed, every rank)";
  detail::check_ranks(comms, std::ranges::size(shards), comms.size(), who);
  return detail::found(detail::run_ranks_to_host(comms, policy, detail::arg_plans<detail::arg_max_plan>(shards, who), who), who);
}

}  // namespace cascade
