// cascade/transform_reduce.cuh: reduce the transformed items, in one pass, nothing stored between.
//
//   auto square = [] __host__ __device__ (float x) { return x * x; };
//   float ss = cascade::transform_reduce(policy{}, d, d + n, 0.0f, cascade::plus{}, square);
//   cascade::transform_reduce_into(policy{}.on(s), d, d + n, d_ss, 0.0f, cascade::plus{}, square);  // no host wait
//
// As std::transform_reduce: init op t(x0) op t(x1) ... op t(x(n-1)), the accumulator is init's type
// and t's results are converted to it. t runs on the device once per item (extended __device__
// lambdas work, as with reduce; finish::host needs __host__ __device__ ops as usual). Errors and
// operand order as reduce. transform_reduce_into takes the caller's temporary storage as
// reduce_into does: a memory resource last, or CUB's (d_temp_storage, temp_storage_bytes) first.
#pragma once

#include <cstddef>
#include <type_traits>

#include "detail/kernel/input_iterators.cuh"
#include "detail/runtime/temp_storage.cuh"
#include "memory/resource.cuh"
#include "policy/policy.cuh"
#include "reduce.cuh"

namespace cascade::detail {

// What t's results are read as: init's type, or what the op's accumulator reads them as (the exact
// sums: double, exact/accumulator.cuh).
template <class It, class TransformOp, class T, class ReduceOp>
using transformed_input_t =
    transform_input<It, TransformOp, typename accumulator<ReduceOp>::template transformed_as<T>>;

}  // namespace cascade::detail

namespace cascade {

template <class Policy, class It, class T, class ReduceOp, class TransformOp>
  requires is_policy_v<Policy>
T transform_reduce(Policy const& policy, It first, It last, T init, ReduceOp reduce_op, TransformOp transform_op) {
  auto const n = detail::checked_size(first, last, "cascade::transform_reduce");
  return detail::reduce_n(policy, detail::transformed_input_t<It, TransformOp, T, ReduceOp>{first, transform_op}, n, init, reduce_op);
}

// The same result written to *d_out (device memory), ordered on the policy's stream; the host does not
// wait. As reduce_into, an empty range writes init.
template <class Policy, class It, class OutIt, class T, class ReduceOp, class TransformOp>
  requires is_policy_v<Policy>
void transform_reduce_into(Policy const& policy, It first, It last, OutIt d_out, T init, ReduceOp reduce_op,
                           TransformOp transform_op) {
  auto const n = detail::checked_size(first, last, "cascade::transform_reduce_into");
  detail::dispatch_reduce_into(policy, detail::transformed_input_t<It, TransformOp, T, ReduceOp>{first, transform_op}, n, d_out,
                               init, reduce_op);
}

// As above, every byte of temporary device storage taken from `resource` (memory/resource.cuh).
template <class Policy, class It, class OutIt, class T, class ReduceOp, class TransformOp, class Resource>
  requires(is_policy_v<Policy> && stream_ordered_resource<std::remove_reference_t<Resource>>)
void transform_reduce_into(Policy const& policy, It first, It last, OutIt d_out, T init, ReduceOp reduce_op,
                           TransformOp transform_op, Resource&& resource) {
  auto const n = detail::checked_size(first, last, "cascade::transform_reduce_into");
  detail::with_resource(resource, [&] {
    detail::dispatch_reduce_into(policy, detail::transformed_input_t<It, TransformOp, T, ReduceOp>{first, transform_op}, n, d_out,
                                 init, reduce_op);
  });
}

// As above, with CUB's temporary storage (reduce_into's two-phase form says how).
template <class Policy, class It, class OutIt, class T, class ReduceOp, class TransformOp>
  requires is_policy_v<Policy>
void transform_reduce_into(void* d_temp_storage, std::size_t& temp_storage_bytes, Policy const& policy, It first,
                           It last, OutIt d_out, T init, ReduceOp reduce_op, TransformOp transform_op) {
  detail::with_temp_storage(d_temp_storage, temp_storage_bytes, "cascade::transform_reduce_into", [&] {
    transform_reduce_into(policy, first, last, d_out, init, reduce_op, transform_op);
  });
}

}  // namespace cascade
