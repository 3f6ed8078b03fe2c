// cascade/algorithm/predicates.cuh: whether any, all or none of the items satisfy a predicate, read
// only as far as the answer needs.
//
//   bool has_nan = cascade::any_of(policy{}, d, d + n, is_nan{});
//   bool positive = cascade::all_of(policy{}, d, d + n, is_positive{});
//   cascade::none_of_into(policy{}.on(s), d, d + n, d_ok, is_nan{});  // into device memory (bool*), no host wait
//
// As std::any_of, std::all_of and std::none_of (an empty range: false, true, true). A reduce of
// pred(item) (all_of: !pred(item)) as 0 or 1 under bit_or, which stops early: a thread whose items hit
// raises a flag in global memory, and every thread checks it with each tile, so once one hit is
// found no further tile is read and the time follows the position of the first hit (blocks take
// tiles in order across the grid). Calls of fewer than 2^18 items (early_exit_min_items) read every
// item instead, since the flag costs a 2 KiB memset before the kernel. pred may run on
// items past the first hit (those of tiles already read), any number of times, and must not write.
#pragma once

#include <cuda_runtime_api.h>

#include <cuda/std/cstdint>

#include <cstddef>
#include <type_traits>

#include "../detail/host_result.cuh"
#include "../detail/kernel/input_iterators.cuh"
#include "../detail/kernel/output_views.cuh"
#include "../detail/runtime/temp_storage.cuh"
#include "../memory/resource.cuh"
#include "../ops.cuh"
#include "../policy/policy.cuh"
#include "../reduce.cuh"

namespace cascade::detail {

// Below this many items a call reads everything: the flag's memset would cost more than it saves.
inline constexpr cuda::std::int64_t early_exit_min_items = cuda::std::int64_t(1) << 18;

// Whether some item of [first, first + n) has pred(item) != Negate, as 1 or 0 into *d_out.
template <bool Negate, class Policy, class It, class Pred, class OutIt>
void dispatch_any_into(launch_context const& call, Policy const& policy, It first, cuda::std::int64_t n, OutIt d_out,
                       Pred pred) {
  using view = predicate_input<It, Pred, Negate>;
  if (n < early_exit_min_items) return dispatch_reduce_into(call, policy, view{first, pred, nullptr}, n, d_out, 0u, bit_or{});
  scratch_buffer const flag = call.scratch(view::flag_bytes, "cascade::any_of's flag");
  if (call.launches())
    check_cuda(cudaMemsetAsync(flag.as<void>(), 0, view::flag_bytes, call.stream()), "cudaMemsetAsync (any_of's flag)");
  dispatch_reduce_into(call, policy, view{first, pred, flag.as<unsigned>()}, n, d_out, 0u, bit_or{});
}

// The host's answer: found (any_of, and all_of's "some item fails") or its negation.
template <bool Negate, bool Negated, class Policy, class It, class Pred>
bool any_to_host(Policy const& policy, It first, It last, Pred pred, char const* who) {
  auto const n = checked_size(first, last, who);
  if (n == 0) return Negated;
  unsigned const found = run_to_host<unsigned>(policy.stream(), who, [&](launch_context const& call, auto out) {
    dispatch_any_into<Negate>(call, policy, first, n, out, pred);
  });
  return (found != 0) != Negated;
}

template <bool Negate, bool Negated, class Policy, class It, class Pred, class OutIt>
void any_into(Policy const& policy, It first, It last, OutIt d_out, Pred pred, char const* who) {
  auto const n = checked_size(first, last, who);
  check_device_accessible(d_out, "the output (d_out)");
  launch_context const call(policy.stream(), current_device());
  if constexpr (Negated)
    dispatch_any_into<Negate>(call, policy, first, n, transform_output<OutIt, negation>{d_out, {}}, pred);
  else
    dispatch_any_into<Negate>(call, policy, first, n, d_out, pred);
}

template <bool Negate, bool Negated, class Policy, class It, class Pred, class OutIt, class Resource>
void any_into(Policy const& policy, It first, It last, OutIt d_out, Pred pred, Resource& resource, char const* who) {
  with_resource(resource, [&] {
    any_into<Negate, Negated>(policy, first, last, d_out, pred, who);
  });
}

}  // namespace cascade::detail

namespace cascade {

template <class Policy, class It, class Pred>
  requires is_policy_v<Policy>
bool any_of(Policy const& policy, It first, It last, Pred pred) {
  return detail::any_to_host<false, false>(policy, first, last, pred, "cascade::any_of");
}

template <class Policy, class It, class Pred>
  requires is_policy_v<Policy>
bool all_of(Policy const& policy, It first, It last, Pred pred) {
  return detail::any_to_host<true, true>(policy, first, last, pred, "cascade::all_of");
}

template <class Policy, class It, class Pred>
  requires is_policy_v<Policy>
bool none_of(Policy const& policy, It first, It last, Pred pred) {
  return detail::any_to_host<false, true>(policy, first, last, pred, "cascade::none_of");
}

// The answer written to *d_out (device memory: bool, or any type 0 and 1 convert to), ordered on the
// policy's stream; the host does not wait. Capture works as with reduce_into.
template <class Policy, class It, class OutIt, class Pred>
  requires is_policy_v<Policy>
void any_of_into(Policy const& policy, It first, It last, OutIt d_out, Pred pred) {
  detail::any_into<false, false>(policy, first, last, d_out, pred, "cascade::any_of_into");
}

template <class Policy, class It, class OutIt, class Pred>
  requires is_policy_v<Policy>
void all_of_into(Policy const& policy, It first, It last, OutIt d_out, Pred pred) {
  detail::any_into<true, true>(policy, first, last, d_out, pred, "cascade::all_of_into");
}

template <class Policy, class It, class OutIt, class Pred>
  requires is_policy_v<Policy>
void none_of_into(Policy const& policy, It first, It last, OutIt d_out, Pred pred) {
  detail::any_into<false, true>(policy, first, last, d_out, pred, "cascade::none_of_into");
}

// As above, every byte of temporary device storage taken from `resource` (memory/resource.cuh).
template <class Policy, class It, class OutIt, class Pred, class Resource>
  requires(is_policy_v<Policy> && stream_ordered_resource<std::remove_reference_t<Resource>>)
void any_of_into(Policy const& policy, It first, It last, OutIt d_out, Pred pred, Resource&& resource) {
  detail::any_into<false, false>(policy, first, last, d_out, pred, resource, "cascade::any_of_into");
}

template <class Policy, class It, class OutIt, class Pred, class Resource>
  requires(is_policy_v<Policy> && stream_ordered_resource<std::remove_reference_t<Resource>>)
void all_of_into(Policy const& policy, It first, It last, OutIt d_out, Pred pred, Resource&& resource) {
  detail::any_into<true, true>(policy, first, last, d_out, pred, resource, "cascade::all_of_into");
}

template <class Policy, class It, class OutIt, class Pred, class Resource>
  requires(is_policy_v<Policy> && stream_ordered_resource<std::remove_reference_t<Resource>>)
void none_of_into(Policy const& policy, It first, It last, OutIt d_out, Pred pred, Resource&& resource) {
  detail::any_into<false, true>(policy, first, last, d_out, pred, resource, "cascade::none_of_into");
}

// With CUB's temporary storage first: any form above with (d_temp_storage, temp_storage_bytes) before
// its policy (reduce_into's two-phase form says how).
template <class Policy, class... Args>
  requires(is_policy_v<Policy> && requires(Policy const& p, Args&... a) { any_of_into(p, a...); })
void any_of_into(void* d_temp_storage, std::size_t& temp_storage_bytes, Policy const& policy, Args&&... args) {
  detail::with_temp_storage(d_temp_storage, temp_storage_bytes, "cascade::any_of_into", [&] { any_of_into(policy, args...); });
}

// With CUB's temporary storage first: any form above with (d_temp_storage, temp_storage_bytes) before
// its policy (reduce_into's two-phase form says how).
template <class Policy, class... Args>
  requires(is_policy_v<Policy> && requires(Policy const& p, Args&... a) { all_of_into(p, a...); })
void all_of_into(void* d_temp_storage, std::size_t& temp_storage_bytes, Policy const& policy, Args&&... args) {
  detail::with_temp_storage(d_temp_storage, temp_storage_bytes, "cascade::all_of_into", [&] { all_of_into(policy, args...); });
}

// With CUB's temporary storage first: any form above with (d_temp_storage, temp_storage_bytes) before
// its policy (reduce_into's two-phase form says how).
template <class Policy, class... Args>
  requires(is_policy_v<Policy> && requires(Policy const& p, Args&... a) { none_of_into(p, a...); })
void none_of_into(void* d_temp_storage, std::size_t& temp_storage_bytes, Policy const& policy, Args&&... args) {
  detail::with_temp_storage(d_temp_storage, temp_storage_bytes, "cascade::none_of_into", [&] { none_of_into(policy, args...); });
}

}  // namespace cascade
