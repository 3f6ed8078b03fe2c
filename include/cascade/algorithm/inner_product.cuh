// cascade/algorithm/inner_product.cuh: the sum of products of two ranges, or any two ops.
//
//   float dot = cascade::inner_product(policy{}, x, x + n, y, 0.0f);   // init + x0*y0 + x1*y1 + ...
//   int same = cascade::inner_product(policy{}, a, a + n, b, 0, cascade::plus{}, equal_to{});
//   cascade::inner_product_into(policy{}.on(s), x, x + n, y, d_dot, 0.0f);  // into device memory
//
// As std::inner_product with the regrouping std::transform_reduce allows: init op1 t(x0, y0) op1
// t(x1, y1) ..., t being op2 (multiplies by default) and its results converted to init's type, which
// accumulates. op1 is grouped and, unless wrapped in cascade::non_commutative, reordered, as in
// reduce. [first2, first2 + (last1 - first1)) must be readable. Over two pointers whose items have
// one size, each is read 16 bytes at a time, as reduce reads one.
#pragma once

#include <cstddef>
#include <type_traits>

#include "../detail/kernel/input_iterators.cuh"
#include "../detail/runtime/temp_storage.cuh"
#include "../memory/resource.cuh"
#include "../ops.cuh"
#include "../policy/policy.cuh"
#include "../reduce.cuh"

namespace cascade::detail {

template <class It1, class It2, class F, class T>
using product_input = pair_transform_input<It1, It2, F, T>;

}  // namespace cascade::detail

namespace cascade {

template <class Policy, class It1, class It2, class T, class Op1, class Op2>
  requires is_policy_v<Policy>
T inner_product(Policy const& policy, It1 first1, It1 last1, It2 first2, T init, Op1 op1, Op2 op2) {
  auto const n = detail::checked_size(first1, last1, "cascade::inner_product");
  return detail::reduce_n(policy, detail::product_input<It1, It2, Op2, T>{first1, first2, op2}, n, init, op1,
                          "cascade::inner_product");
}

template <class Policy, class It1, class It2, class T>
  requires is_policy_v<Policy>
T inner_product(Policy const& policy, It1 first1, It1 last1, It2 first2, T init) {
  return inner_product(policy, first1, last1, first2, init, plus{}, multiplies{});
}

// The same result written to *d_out (device memory), ordered on the policy's stream; the host does not
// wait. An empty range writes init.
template <class Policy, class It1, class It2, class OutIt, class T, class Op1, class Op2>
  requires is_policy_v<Policy>
void inner_product_into(Policy const& policy, It1 first1, It1 last1, It2 first2, OutIt d_out, T init, Op1 op1,
                        Op2 op2) {
  auto const n = detail::checked_size(first1, last1, "cascade::inner_product_into");
  detail::dispatch_reduce_into(policy, detail::product_input<It1, It2, Op2, T>{first1, first2, op2}, n, d_out, init, op1);
}

template <class Policy, class It1, class It2, class OutIt, class T>
  requires is_policy_v<Policy>
void inner_product_into(Policy const& policy, It1 first1, It1 last1, It2 first2, OutIt d_out, T init) {
  inner_product_into(policy, first1, last1, first2, d_out, init, plus{}, multiplies{});
}

// As above, every byte of temporary device storage taken from `resource` (memory/resource.cuh).
template <class Policy, class It1, class It2, class OutIt, class T, class Op1, class Op2, class Resource>
  requires(is_policy_v<Policy> && stream_ordered_resource<std::remove_reference_t<Resource>>)
void inner_product_into(Policy const& policy, It1 first1, It1 last1, It2 first2, OutIt d_out, T init, Op1 op1,
                        Op2 op2, Resource&& resource) {
  auto const n = detail::checked_size(first1, last1, "cascade::inner_product_into");
  detail::with_resource(resource, [&] {
    detail::dispatch_reduce_into(policy, detail::product_input<It1, It2, Op2, T>{first1, first2, op2}, n, d_out, init, op1);
  });
}

template <class Policy, class It1, class It2, class OutIt, class T, class Resource>
  requires(is_policy_v<Policy> && stream_ordered_resource<std::remove_reference_t<Resource>>)
void inner_product_into(Policy const& policy, It1 first1, It1 last1, It2 first2, OutIt d_out, T init,
                        Resource&& resource) {
  inner_product_into(policy, first1, last1, first2, d_out, init, plus{}, multiplies{}, resource);
}

// With CUB's temporary storage first: any form above with (d_temp_storage, temp_storage_bytes) before
// its policy (reduce_into's two-phase form says how).
template <class Policy, class... Args>
  requires(is_policy_v<Policy> && requires(Policy const& p, Args&... a) { inner_product_into(p, a...); })
void inner_product_into(void* d_temp_storage, std::size_t& temp_storage_bytes, Policy const& policy, Args&&... args) {
  detail::with_temp_storage(d_temp_storage, temp_storage_bytes, "cascade::inner_product_into", [&] { inner_product_into(policy, args...); });
}

}  // namespace cascade
