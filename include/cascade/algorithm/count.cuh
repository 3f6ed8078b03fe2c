// cascade/algorithm/count.cuh: how many items equal a value, or satisfy a predicate.
//
//   std::int64_t sevens = cascade::count(policy{}, d, d + n, 7);
//   std::int64_t odd = cascade::count_if(policy{}, d, d + n, is_odd{});
//   cascade::count_if_into(policy{}.on(s), d, d + n, d_odd, is_odd{});  // into device memory, no host wait
//
// As std::count and std::count_if: items for which `item == value` (pred(item)) is true. A
// transform_reduce of 0 and 1 under plus, in 32-bit counters below 2^32 items and 64-bit beyond, so
// that it reads as fast as reduce over the same bytes. The _into forms write the count to *d_out
// converted to its value type, and take temporary storage as reduce_into does (a memory resource
// last). NaN equals nothing, so count(..., NaN) is 0; -0.0 and +0.0 are equal.
#pragma once

#include <cuda/std/cstdint>

#include <cstdint>
#include <cstddef>
#include <type_traits>

#include "../detail/runtime/temp_storage.cuh"
#include "../memory/resource.cuh"
#include "../policy/policy.cuh"
#include "../transform_reduce.cuh"

namespace cascade::detail {

template <class V>
struct equals_value {
  V value;
  template <class X>
  __host__ __device__ bool operator()(X const& x) const {
    return x == value;
  }
};

// The 0/1 view of pred over [first, first + n), counted in C.
template <class It, class Pred, class C>
using counted_input = transform_input<It, Pred, C>;

// f(counter type) with the narrowest counter that holds n.
template <class F>
decltype(auto) with_counter(cuda::std::int64_t n, F&& f) {
  if (n <= 0xffffffffll) return f(cuda::std::uint32_t{});
  return f(cuda::std::uint64_t{});
}

template <class Policy, class It, class Pred>
std::int64_t count_n(Policy const& policy, It first, cuda::std::int64_t n, Pred pred, char const* who) {
  return with_counter(n, [&](auto zero) {
    using C = decltype(zero);
    return static_cast<std::int64_t>(reduce_n(policy, counted_input<It, Pred, C>{first, pred}, n, zero, plus{}, who));
  });
}

template <class Policy, class It, class OutIt, class Pred>
void count_n_into(Policy const& policy, It first, cuda::std::int64_t n, OutIt d_out, Pred pred) {
  with_counter(n, [&](auto zero) {
    using C = decltype(zero);
    dispatch_reduce_into(policy, counted_input<It, Pred, C>{first, pred}, n, d_out, zero, plus{});
  });
}

}  // namespace cascade::detail

namespace cascade {

template <class Policy, class It, class V>
  requires is_policy_v<Policy>
std::int64_t count(Policy const& policy, It first, It last, V const& value) {
  return detail::count_n(policy, first, detail::checked_size(first, last, "cascade::count"),
                         detail::equals_value<V>{value}, "cascade::count");
}

template <class Policy, class It, class Pred>
  requires is_policy_v<Policy>
std::int64_t count_if(Policy const& policy, It first, It last, Pred pred) {
  return detail::count_n(policy, first, detail::checked_size(first, last, "cascade::count_if"), pred,
                         "cascade::count_if");
}

// The count written to *d_out (device memory), ordered on the policy's stream; the host does not wait.
template <class Policy, class It, class OutIt, class V>
  requires is_policy_v<Policy>
void count_into(Policy const& policy, It first, It last, OutIt d_out, V const& value) {
  detail::count_n_into(policy, first, detail::checked_size(first, last, "cascade::count_into"), d_out,
                       detail::equals_value<V>{value});
}

template <class Policy, class It, class OutIt, class Pred>
  requires is_policy_v<Policy>
void count_if_into(Policy const& policy, It first, It last, OutIt d_out, Pred pred) {
  detail::count_n_into(policy, first, detail::checked_size(first, last, "cascade::count_if_into"), d_out, pred);
}

// As above, every byte of temporary device storage taken from `resource` (memory/resource.cuh).
template <class Policy, class It, class OutIt, class V, class Resource>
  requires(is_policy_v<Policy> && stream_ordered_resource<std::remove_reference_t<Resource>>)
void count_into(Policy const& policy, It first, It last, OutIt d_out, V const& value, Resource&& resource) {
  auto const n = detail::checked_size(first, last, "cascade::count_into");
  detail::with_resource(resource, [&] {
    detail::count_n_into(policy, first, n, d_out, detail::equals_value<V>{value});
  });
}

template <class Policy, class It, class OutIt, class Pred, class Resource>
  requires(is_policy_v<Policy> && stream_ordered_resource<std::remove_reference_t<Resource>>)
void count_if_into(Policy const& policy, It first, It last, OutIt d_out, Pred pred, Resource&& resource) {
  auto const n = detail::checked_size(first, last, "cascade::count_if_into");
  detail::with_resource(resource, [&] {
    detail::count_n_into(policy, first, n, d_out, pred);
  });
}

// With CUB's temporary storage first: any form above with (d_temp_storage, temp_storage_bytes) before
// its policy (reduce_into's two-phase form says how).
template <class Policy, class... Args>
  requires(is_policy_v<Policy> && requires(Policy const& p, Args&... a) { count_into(p, a...); })
void count_into(void* d_temp_storage, std::size_t& temp_storage_bytes, Policy const& policy, Args&&... args) {
  detail::with_temp_storage(d_temp_storage, temp_storage_bytes, "cascade::count_into", [&] { count_into(policy, args...); });
}

// With CUB's temporary storage first: any form above with (d_temp_storage, temp_storage_bytes) before
// its policy (reduce_into's two-phase form says how).
template <class Policy, class... Args>
  requires(is_policy_v<Policy> && requires(Policy const& p, Args&... a) { count_if_into(p, a...); })
void count_if_into(void* d_temp_storage, std::size_t& temp_storage_bytes, Policy const& policy, Args&&... args) {
  detail::with_temp_storage(d_temp_storage, temp_storage_bytes, "cascade::count_if_into", [&] { count_if_into(policy, args...); });
}

}  // namespace cascade
