// cascade/ops/identity.cuh: the neutral element of an operator over a type, op(e, x) == x for every x.
//
//   int   e = cascade::identity<cascade::minimum, int>::value();      // INT_MAX
//   __half h = cascade::identity<cascade::maximum, __half>::value();  // -inf
//   static_assert(cascade::has_identity_v<cascade::bit_xor, unsigned>);
//
// Declared for cascade's ops over every arithmetic type, __half and __nv_bfloat16: plus 0,
// multiplies 1, minimum +inf (floating point) or the maximum (integers), maximum -inf or the lowest,
// minimum_number and maximum_number the canonical NaN (floating point; integers as minimum, maximum),
// logical_and true, logical_or false (as T: 1 and 0; neutral up to truth value), and for integers
// only bit_and ~0, bit_or 0, bit_xor 0; and for CCCL's function objects of those names
// (cuda::std::plus<>, cuda::minimum<T>, thrust::maximum<T>, ...: detail/meta/known_op.cuh) the same.
// Specialize identity<YourOp, T> (a static value()) for your
// own ops, or pair an op with its identity at the call with cascade::monoid (ops/monoid.cuh).
// cascade needs no identity to reduce: it is what reduce(policy, first, last, op) starts from, and
// what the tests and hardware paths use to pad.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cuda/std/limits>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

#include "../detail/meta/float_order.cuh"
#include "../detail/meta/known_op.cuh"

namespace cascade {

// cascade's ops (ops.cuh) are declared in detail/meta/known_op.cuh.

namespace detail {

// Floating point in the wide sense: float, double and CUDA's 16-bit types.
template <class T>
inline constexpr bool is_floating_v = cuda::std::is_floating_point_v<T> || cuda::std::is_same_v<T, __half> ||
                                      cuda::std::is_same_v<T, __nv_bfloat16>;

// Arithmetic in the wide sense: what cascade's ops declare identities for.
template <class T>
inline constexpr bool is_numeric_v = cuda::std::is_arithmetic_v<T> || is_floating_v<T>;

template <class T>
inline constexpr bool is_bitwise_v = cuda::std::is_integral_v<T>;

}  // namespace detail

// The primary template has no value(): has_identity_v<Op, T> is false for it.
template <class Op, class T, class = void>
struct identity {};

template <class T>
struct identity<plus, T, cuda::std::enable_if_t<detail::is_numeric_v<T>>> {
  __host__ __device__ static constexpr T value() { return T(0); }
};

template <class Op, class T>
struct identity<Op, T, cuda::std::enable_if_t<detail::is_exact_op_v<Op> && cuda::std::is_floating_point_v<T>>> {
  __host__ __device__ static constexpr T value() { return T(0); }
};

template <class T>
struct identity<multiplies, T, cuda::std::enable_if_t<detail::is_numeric_v<T>>> {
  __host__ __device__ static constexpr T value() { return T(1); }
};

template <class T>
struct identity<minimum, T, cuda::std::enable_if_t<detail::is_numeric_v<T>>> {
  __host__ __device__ static constexpr T value() {
    if constexpr (cuda::std::numeric_limits<T>::has_infinity) return cuda::std::numeric_limits<T>::infinity();
    else return cuda::std::numeric_limits<T>::max();
  }
};

template <class T>
struct identity<maximum, T, cuda::std::enable_if_t<detail::is_numeric_v<T>>> {
  __host__ __device__ static constexpr T value() {
    if constexpr (cuda::std::numeric_limits<T>::has_infinity) return -cuda::std::numeric_limits<T>::infinity();
    else return cuda::std::numeric_limits<T>::lowest();
  }
};

// minimum_number / maximum_number over IEEE types: the canonical NaN, which either ignores
// (minimumNumber(NaN, x) == x for every x, NaN included); over integers, as minimum and maximum.
template <class T>
struct identity<minimum_number, T, cuda::std::enable_if_t<detail::is_numeric_v<T>>> {
  __host__ __device__ static constexpr T value() {
    if constexpr (detail::is_ieee_v<T>) return detail::canonical_nan<T>();
    else return identity<minimum, T>::value();
  }
};

template <class T>
struct identity<maximum_number, T, cuda::std::enable_if_t<detail::is_numeric_v<T>>> {
  __host__ __device__ static constexpr T value() {
    if constexpr (detail::is_ieee_v<T>) return detail::canonical_nan<T>();
    else return identity<maximum, T>::value();
  }
};

template <class T>
struct identity<logical_and, T, cuda::std::enable_if_t<detail::is_numeric_v<T>>> {
  __host__ __device__ static constexpr T value() { return T(1); }
};

template <class T>
struct identity<logical_or, T, cuda::std::enable_if_t<detail::is_numeric_v<T>>> {
  __host__ __device__ static constexpr T value() { return T(0); }
};

template <class T>
struct identity<bit_and, T, cuda::std::enable_if_t<detail::is_bitwise_v<T>>> {
  __host__ __device__ static constexpr T value() {
    if constexpr (cuda::std::is_same_v<T, bool>) return true;
    else return static_cast<T>(~T(0));
  }
};

template <class T>
struct identity<bit_or, T, cuda::std::enable_if_t<detail::is_bitwise_v<T>>> {
  __host__ __device__ static constexpr T value() { return T(0); }
};

template <class T>
struct identity<bit_xor, T, cuda::std::enable_if_t<detail::is_bitwise_v<T>>> {
  __host__ __device__ static constexpr T value() { return T(0); }
};

// CCCL's function objects (cuda::std::plus<>, cuda::minimum<>, thrust::plus<T>, ...): the identity of
// the cascade op they compute (detail/meta/known_op.cuh).
template <class Op, class T>
struct identity<Op, T, cuda::std::enable_if_t<detail::is_cccl_op_v<Op, T>>> : identity<detail::known_op_t<Op, T>, T> {};

namespace detail {

// Where the identity of an op object comes from: the trait, or (specializations in ops/monoid.cuh and
// ops/non_commutative.cuh) the value a wrapper carries. get<T>(op) is SFINAE-friendly.
template <class Op>
struct identity_source {
  template <class T>
  __host__ __device__ static constexpr auto get(Op const&) -> decltype(identity<Op, T>::value()) {
    return identity<Op, T>::value();
  }
};

template <class T, class Op>
__host__ __device__ constexpr auto identity_of(Op const& op) -> decltype(identity_source<Op>::template get<T>(op)) {
  return identity_source<Op>::template get<T>(op);
}

template <class T, class Op, class = void>
inline constexpr bool has_identity = false;
template <class T, class Op>
inline constexpr bool has_identity<T, Op, cuda::std::void_t<decltype(identity_of<T>(cuda::std::declval<Op const&>()))>> =
    true;

}  // namespace detail

// Whether cascade knows an identity of Op over T (declared by identity<Op, T>, or carried by a monoid).
template <class Op, class T>
inline constexpr bool has_identity_v = detail::has_identity<T, Op>;

}  // namespace cascade
