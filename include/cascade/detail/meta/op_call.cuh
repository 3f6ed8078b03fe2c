// cascade/detail/meta/op_call.cuh: how the kernels call an op, and what that asks of it: op(a, b) on two
// accumulators through a const op (every thread of a block calls one copy, so a call cannot change
// it), as CUB and std::reduce ask. The entry points refuse, with a one-line message, an op that cannot
// be called so, one whose operator() is not const, and an op and init in CUB's order.
#pragma once

#include "config.cuh"

#include <cuda/std/type_traits>

namespace cascade::detail {

// An extended __device__ lambda is not asked: the host pass sees only a wrapper of it, whose call
// operator is not const.
template <class Op>
inline constexpr bool is_device_lambda_v =
#if defined(__CUDACC_EXTENDED_LAMBDA__)
    __nv_is_extended_device_lambda_closure_type(Op) || __nv_is_extended_host_device_lambda_closure_type(Op);
#else
    false;
#endif
// Whether op cannot be called on two accumulators at all, const or not. Asked only of what the host
// can answer for: a function object with one call operator that is not a template (or a function
// pointer). A template call operator that forwards to an extended __device__ lambda (cascade's
// monoid_op, a user's wrapper) looks uncallable from the host, so templates are not asked.
template <class Op>
inline constexpr bool has_plain_call_v = requires { &Op::operator(); };
template <class Op, class T>
inline constexpr bool op_not_callable_v = !is_device_lambda_v<Op> &&
                                          (has_plain_call_v<Op> || cuda::std::is_pointer_v<Op>) &&
                                          !requires(Op& op, T const& a, T const& b) { op(a, b); };
// Whether op and init came in CUB's order (DeviceReduce::Reduce(..., op, init)): the "op" is a plain
// value (not a class, nor a function), and the "init" is callable on two of them.
template <class Op, class T>
inline constexpr bool op_and_init_swapped_v =
    !cuda::std::is_class_v<Op> && !cuda::std::is_pointer_v<Op> && !is_device_lambda_v<T> &&
    requires(T const& f, Op const& x) { f(x, x); };
// Whether op is callable on two accumulators only as a non-const op (its operator() is not const).
template <class Op, class T>
inline constexpr bool op_needs_mutable_v = !is_device_lambda_v<Op> &&
                                           requires(Op& op, T const& a, T const& b) { op(a, b); } &&
                                           !requires(Op const& op, T const& a, T const& b) { op(a, b); };

}  // namespace cascade::detail
