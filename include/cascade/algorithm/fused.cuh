// cascade/algorithm/fused.cuh: several reductions of one range from one read.
//
//   auto [sum, lo, hi] = cascade::reduce_fused(policy{}, d, d + n, cascade::plus{}, cascade::minimum{},
//                                              cascade::maximum{});
//   cascade::reduce_fused_into(policy{}.on(s), d, d + n, d_tuple, cascade::plus{}, cascade::maximum{});
//
// Each op starts from its identity over the items' type (has_identity_v; a monoid names one) and
// folds as it would alone: the same identities and NaN rules (ops/fused.cuh). The result is a
// cuda::std::tuple of the items' type, one element an op. With other inits, or along axes and
// segments, give fused(ops...) and fan_out<N> to the transform_reduce calls.
#pragma once

#include <cuda/std/tuple>

#include "../detail/kernel/arguments.cuh"
#include "../ops/fused.cuh"
#include "../ops/identity.cuh"
#include "../policy/policy.cuh"
#include "../transform_reduce.cuh"

namespace cascade {

namespace detail {

template <class T, class... Ops>
constexpr cuda::std::tuple<decltype((void)sizeof(Ops), T{})...> fused_identities(Ops const&... ops) {
  return {identity_of<T>(ops)...};
}

}  // namespace detail

template <class Policy, class It, class... Ops>
  requires(is_policy_v<Policy> && (has_identity_v<Ops, detail::input_value_t<It>> && ...))
auto reduce_fused(Policy const& policy, It first, It last, Ops... ops) {
  using T = detail::input_value_t<It>;
  return transform_reduce(policy, first, last, detail::fused_identities<T>(ops...), fused(ops...),
                          fan_out<sizeof...(Ops)>{});
}

// The same tuple written to *d_out (device memory), ordered on the policy's stream.
template <class Policy, class It, class OutIt, class... Ops>
  requires(is_policy_v<Policy> && (has_identity_v<Ops, detail::input_value_t<It>> && ...))
void reduce_fused_into(Policy const& policy, It first, It last, OutIt d_out, Ops... ops) {
  using T = detail::input_value_t<It>;
  transform_reduce_into(policy, first, last, d_out, detail::fused_identities<T>(ops...), fused(ops...),
                        fan_out<sizeof...(Ops)>{});
}

}  // namespace cascade
