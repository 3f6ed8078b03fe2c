// cascade/arg_reduce.cuh: where the smallest and largest items are.
//
//   cascade::indexed<float> lo = cascade::argmin(policy{}, d, d + n);   // first occurrence on ties
//   cascade::indexed<float> hi = cascade::argmax(policy{}, d, d + n);
//   cascade::minmax_result<float> both = cascade::minmax(policy{}, d, d + n);  // both, one pass
//   cascade::argmin_into(policy{}.on(s), d, d + n, d_lo);  // into device memory (indexed<float>*), no host wait
//
// Each is a reduce over {index, value} pairs with arg_min / arg_max (ops/indexed.cuh), under any policy
// whose finish can combine the pairs (all but finish::atomic for most types); over a pointer to float,
// double, __half or __nv_bfloat16 the pairs carry the items' rank keys, integers that order the
// items as the ops rank them (detail/kernel/arg/keyed_input.cuh): the same results. The pairs carry an int32
// index (a float's pair is 8 bytes), calls of 2^31 - 1 items or more run in chunks of 2^30, and the
// result is widened to the int64 index it returns. The value type
// T is the input's; it needs operator< and an identity for minimum (argmin) or maximum (argmax):
// every arithmetic type, __half and __nv_bfloat16 have one, and a user type gets one by specializing
// cascade::identity. If every item is +inf (argmin) or -inf (argmax) the index is 0. An empty range
// throws std::invalid_argument (there is no position to return).
#pragma once

#include <cuda/std/cstdint>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "detail/arg_call.cuh"
#include "detail/kernel/arg/keyed_input.cuh"
#include "detail/kernel/output_views.cuh"
#include "detail/runtime/temp_storage.cuh"
#include "ops/indexed.cuh"
#include "memory/resource.cuh"
#include "ops.cuh"
#include "policy/policy.cuh"
#include "reduce.cuh"

namespace cascade {

namespace detail {

template <class It>
cuda::std::int64_t checked_nonempty_size(It first, It last, char const* who) {
  auto const n = checked_size(first, last, who);
  if (n == 0) throw std::invalid_argument(std::string(who) + ": the range is empty, so there is no position to return");
  return n;
}

// The pairs' start and view under Op, with indices of type Index: a rank op (arg_min, arg_max,
// arg_min_max, arg_min_last_max) starts from its identities (arg_call.cuh), an op under a comparator
// (arg_min_by, ...: it has `comp`) from pairs without a position, so its value type needs no identity.
template <class Op>
inline constexpr bool under_comparator = requires(Op op) { op.comp; };
template <class T, class Op>
inline constexpr bool by_both = requires(Op op, minmax_result<T> r) { op(r, r); };

template <class Index, class T, class Op>
auto pairs_init(Op const&) {
  if constexpr (under_comparator<Op>) {
    indexed<T, Index> const none{no_index_of<Index>, T{}};
    if constexpr (by_both<T, Op>) return minmax_result<T, Index>{none, none};
    else return none;
  } else {
    return arg_call<Op, T, Index>::init();
  }
}
template <class Index, class T, class Op, class It>
auto pairs_input(It first, Op const&) {
  if constexpr (under_comparator<Op>) {
    if constexpr (by_both<T, Op>) return minmax_input<It, T, Index>{first};
    else return indexed_input<It, T, Index>{first};
  } else {
    return arg_call<Op, T, Index>::input(first);
  }
}
// Whether the call can start: a rank op's value type has its identities (else the one message, from
// arg_call, and the entry points instantiate nothing more).
template <class Op, class T>
constexpr bool pairs_ok() {
  if constexpr (under_comparator<Op>) return true;
  else return arg_call<Op, T>::identities_ok();
}

// The pairs carry an int32 index (half the bytes of an int64's: half the tree's shuffles and the
// partials, 2.5 us less than int64 pairs at 2^20 floats on an H200); a call of 2^31 - 1 items or more
// runs in chunks of chunk_items, each chunk's result moved to its place, and one thread folds the
// chunks' results in order, so no kernel is compiled twice for the two index widths.
inline constexpr cuda::std::int64_t chunk_items = cuda::std::int64_t(1) << 30;

// One thread folds the chunks' results, a handful of pairs, in order into *d_out.
template <class R, class OutIt, class Op>
__global__ void fold_chunks_kernel(R const* results, unsigned chunks, OutIt d_out, R init, Op op) {
  R acc = init;
  for (unsigned c = 0; c < chunks; ++c) acc = op(acc, results[c]);
  store_value(d_out, acc);
}

// The pairs of [first, first + items) under Op reduced, the result's positions `base` further on, to
// *out (an int64-index result). Over a pointer to float, double or a 16-bit float, argmin's, argmax's
// and minmax's pairs carry rank keys (detail/kernel/arg/keyed_input.cuh: the tree and the finish compare
// integers); other calls the values.
template <class Op, class Policy, class It, class OutIt>
void pairs_run(launch_context const& call, Policy const& policy, It first, cuda::std::int64_t items,
               cuda::std::int64_t base, OutIt out, Op op) {
  using T = input_value_t<It>;
  using narrow = cuda::std::int32_t;
  if constexpr (ranks_keys<It, Op>) {
    using U = cuda::std::remove_pointer_t<It>;
    constexpr narrow none = no_index_of<narrow>;
    auto const low = rank_key<false>(identity<minimum, T>::value());
    auto const high = rank_key<true>(identity<maximum, T>::value());
    if constexpr (cuda::std::is_same_v<Op, arg_min>) {
      dispatch_reduce_into(call, policy, keyed_input<U, false, narrow>{first}, items,
                           transform_output<OutIt, keyed_result<U>>{out, {first, base}},
                           indexed<ieee_key_t<T>, narrow>{none, low}, arg_min{});
    } else if constexpr (cuda::std::is_same_v<Op, arg_max>) {
      dispatch_reduce_into(call, policy, keyed_input<U, true, narrow>{first}, items,
                           transform_output<OutIt, keyed_result<U, true>>{out, {first, base}},
                           indexed<ieee_key_t<T>, narrow>{none, high}, arg_min{});
    } else {
      dispatch_reduce_into(call, policy, keyed_minmax_input<U, narrow>{first}, items,
                           transform_output<OutIt, keyed_result<U>>{out, {first, base}},
                           minmax_result<ieee_key_t<T>, narrow>{{none, low}, {none, high}}, keyed_min_max{});
    }
  } else {
    dispatch_reduce_into(call, policy, pairs_input<narrow, T>(first, op), items,
                         transform_output<OutIt, widen>{out, {base}}, pairs_init<narrow, T>(op), op);
  }
}

// The reduction of the n pairs of [first, first + n) under Op, its int64-index result to *d_out.
template <class Op, class Policy, class It, class OutIt>
void pairs_dispatch(launch_context const& call, Policy const& policy, It first, cuda::std::int64_t n, OutIt d_out,
                    Op op) {
  using T = input_value_t<It>;
  using narrow = cuda::std::int32_t;
  if (narrow_index_fits(n)) {
    pairs_run(call, policy, first, n, 0, d_out, op);
    return;
  }
  using result = decltype(widened(pairs_init<narrow, T>(op)));
  if (call.launches()) check_device_accessible(d_out, "the output (d_out)");  // before any launch
  auto const chunks = static_cast<unsigned>((n + chunk_items - 1) / chunk_items);
  scratch_buffer const results = call.scratch(sizeof(result) * chunks, "cascade's argmin, argmax, minmax (chunks)");
  for (unsigned c = 0; c < chunks; ++c) {
    cuda::std::int64_t const base = static_cast<cuda::std::int64_t>(c) * chunk_items;
    cuda::std::int64_t const items = n - base < chunk_items ? n - base : chunk_items;
    pairs_run(call, policy, first + base, items, base, results.as<result>() + c, op);
  }
  if (call.launches())
    launch(&fold_chunks_kernel<result, OutIt, Op>, 1, 1, call.stream(), "fold_chunks_kernel<<<...>>> (launch)",
           static_cast<result const*>(results.as<result>()), chunks, d_out, widened(pairs_init<narrow, T>(op)), op);
}

// The same to the host.
template <class Op, class Policy, class It>
auto pairs_result(Policy const& policy, It first, cuda::std::int64_t n, Op op, char const* who) {
  using T = input_value_t<It>;
  using result = decltype(widened(pairs_init<cuda::std::int32_t, T>(op)));
  if constexpr (!pairs_ok<Op, T>() || !policy_ok<Policy>()) {
    return result{};
  } else {
    return run_to_host<result>(policy.stream(), who, [&](launch_context const& call, auto out) {
      pairs_dispatch(call, policy, first, n, out, op);
    });
  }
}

// The same to *d_out, ordered on the policy's stream.
template <class Op, class Policy, class It, class OutIt>
void pairs_into(Policy const& policy, It first, cuda::std::int64_t n, OutIt d_out, Op op) {
  if constexpr (pairs_ok<Op, input_value_t<It>>() && policy_ok<Policy>())
    pairs_dispatch(launch_context(policy.stream(), current_device()), policy, first, n, d_out, op);
}

// argmin, argmax and minmax over [first, last) (not empty): to the host, or (into) to *d_out.
template <class Op, class Policy, class It>
auto arg_reduce(Policy const& policy, It first, It last, Op op, char const* who) {
  return pairs_result(policy, first, checked_nonempty_size(first, last, who), op, who);
}

template <class Op, class Policy, class It, class OutIt>
void arg_reduce_into(Policy const& policy, It first, It last, OutIt d_out, Op op, char const* who) {
  pairs_into(policy, first, checked_nonempty_size(first, last, who), d_out, op);
}

// With the caller's memory resource.
template <class Op, class Policy, class It, class OutIt, class Resource>
void arg_reduce_into(Policy const& policy, It first, It last, OutIt d_out, Op op, Resource& resource, char const* who) {
  with_resource(resource, [&] { arg_reduce_into(policy, first, last, d_out, op, who); });
}

// With CUB's temporary storage (reduce_into's two-phase form says how).
template <class Op, class Policy, class It, class OutIt>
void arg_reduce_into(void* d_temp_storage, std::size_t& temp_storage_bytes, Policy const& policy, It first, It last,
                     OutIt d_out, Op op, char const* who) {
  with_temp_storage(d_temp_storage, temp_storage_bytes, who,
                    [&] { arg_reduce_into(policy, first, last, d_out, op, who); });
}

}  // namespace detail

template <class Policy, class It>
  requires is_policy_v<Policy>
indexed<detail::input_value_t<It>> argmin(Policy const& policy, It first, It last) {
  return detail::arg_reduce(policy, first, last, arg_min{}, "cascade::argmin");
}

template <class Policy, class It>
  requires is_policy_v<Policy>
indexed<detail::input_value_t<It>> argmax(Policy const& policy, It first, It last) {
  return detail::arg_reduce(policy, first, last, arg_max{}, "cascade::argmax");
}

template <class Policy, class It>
  requires is_policy_v<Policy>
minmax_result<detail::input_value_t<It>> minmax(Policy const& policy, It first, It last) {
  return detail::arg_reduce(policy, first, last, arg_min_max{}, "cascade::minmax");
}

// Under comp, a strict weak order ("a before b", as std::min_element's): the first item no other
// comes before (argmin), the first that comes before no other (argmax), both in one pass (minmax).
template <class Policy, class It, class Comp>
  requires(is_policy_v<Policy> && !stream_ordered_resource<std::remove_reference_t<Comp>>)
indexed<detail::input_value_t<It>> argmin(Policy const& policy, It first, It last, Comp comp) {
  return detail::arg_reduce(policy, first, last, arg_min_by<Comp>{comp}, "cascade::argmin");
}

template <class Policy, class It, class Comp>
  requires(is_policy_v<Policy> && !stream_ordered_resource<std::remove_reference_t<Comp>>)
indexed<detail::input_value_t<It>> argmax(Policy const& policy, It first, It last, Comp comp) {
  return detail::arg_reduce(policy, first, last, arg_max_by<Comp>{comp}, "cascade::argmax");
}

template <class Policy, class It, class Comp>
  requires(is_policy_v<Policy> && !stream_ordered_resource<std::remove_reference_t<Comp>>)
minmax_result<detail::input_value_t<It>> minmax(Policy const& policy, It first, It last, Comp comp) {
  return detail::arg_reduce(policy, first, last, arg_min_max_by<Comp>{comp}, "cascade::minmax");
}

// The same results written to *d_out (device memory, or any output iterator the device can write),
// ordered on the policy's stream; the host does not wait. Graph capture works as with reduce_into.
template <class Policy, class It, class OutIt>
  requires is_policy_v<Policy>
void argmin_into(Policy const& policy, It first, It last, OutIt d_out) {
  detail::arg_reduce_into(policy, first, last, d_out, arg_min{}, "cascade::argmin_into");
}

template <class Policy, class It, class OutIt>
  requires is_policy_v<Policy>
void argmax_into(Policy const& policy, It first, It last, OutIt d_out) {
  detail::arg_reduce_into(policy, first, last, d_out, arg_max{}, "cascade::argmax_into");
}

template <class Policy, class It, class OutIt>
  requires is_policy_v<Policy>
void minmax_into(Policy const& policy, It first, It last, OutIt d_out) {
  detail::arg_reduce_into(policy, first, last, d_out, arg_min_max{}, "cascade::minmax_into");
}

template <class Policy, class It, class OutIt, class Comp>
  requires(is_policy_v<Policy> && !stream_ordered_resource<std::remove_reference_t<Comp>>)
void argmin_into(Policy const& policy, It first, It last, OutIt d_out, Comp comp) {
  detail::arg_reduce_into(policy, first, last, d_out, arg_min_by<Comp>{comp}, "cascade::argmin_into");
}

template <class Policy, class It, class OutIt, class Comp>
  requires(is_policy_v<Policy> && !stream_ordered_resource<std::remove_reference_t<Comp>>)
void argmax_into(Policy const& policy, It first, It last, OutIt d_out, Comp comp) {
  detail::arg_reduce_into(policy, first, last, d_out, arg_max_by<Comp>{comp}, "cascade::argmax_into");
}

template <class Policy, class It, class OutIt, class Comp>
  requires(is_policy_v<Policy> && !stream_ordered_resource<std::remove_reference_t<Comp>>)
void minmax_into(Policy const& policy, It first, It last, OutIt d_out, Comp comp) {
  detail::arg_reduce_into(policy, first, last, d_out, arg_min_max_by<Comp>{comp}, "cascade::minmax_into");
}

// As above, every byte of temporary device storage taken from `resource` (memory/resource.cuh), or from
// CUB's (d_temp_storage, temp_storage_bytes) (reduce_into's two-phase form says how).
template <class Policy, class It, class OutIt, class Resource>
  requires(is_policy_v<Policy> && stream_ordered_resource<std::remove_reference_t<Resource>>)
void argmin_into(Policy const& policy, It first, It last, OutIt d_out, Resource&& resource) {
  detail::arg_reduce_into(policy, first, last, d_out, arg_min{}, resource, "cascade::argmin_into");
}

template <class Policy, class It, class OutIt, class Resource>
  requires(is_policy_v<Policy> && stream_ordered_resource<std::remove_reference_t<Resource>>)
void argmax_into(Policy const& policy, It first, It last, OutIt d_out, Resource&& resource) {
  detail::arg_reduce_into(policy, first, last, d_out, arg_max{}, resource, "cascade::argmax_into");
}

template <class Policy, class It, class OutIt, class Resource>
  requires(is_policy_v<Policy> && stream_ordered_resource<std::remove_reference_t<Resource>>)
void minmax_into(Policy const& policy, It first, It last, OutIt d_out, Resource&& resource) {
  detail::arg_reduce_into(policy, first, last, d_out, arg_min_max{}, resource, "cascade::minmax_into");
}

template <class Policy, class It, class OutIt>
  requires is_policy_v<Policy>
void argmin_into(void* d_temp_storage, std::size_t& temp_storage_bytes, Policy const& policy, It first, It last,
                 OutIt d_out) {
  detail::arg_reduce_into(d_temp_storage, temp_storage_bytes, policy, first, last, d_out, arg_min{},
                          "cascade::argmin_into");
}

template <class Policy, class It, class OutIt>
  requires is_policy_v<Policy>
void argmax_into(void* d_temp_storage, std::size_t& temp_storage_bytes, Policy const& policy, It first, It last,
                 OutIt d_out) {
  detail::arg_reduce_into(d_temp_storage, temp_storage_bytes, policy, first, last, d_out, arg_max{},
                          "cascade::argmax_into");
}

template <class Policy, class It, class OutIt>
  requires is_policy_v<Policy>
void minmax_into(void* d_temp_storage, std::size_t& temp_storage_bytes, Policy const& policy, It first, It last,
                 OutIt d_out) {
  detail::arg_reduce_into(d_temp_storage, temp_storage_bytes, policy, first, last, d_out, arg_min_max{},
                          "cascade::minmax_into");
}

}  // namespace cascade
