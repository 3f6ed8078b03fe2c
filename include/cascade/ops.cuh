// cascade/ops.cuh: the reduction operators, transparent function objects usable on host and device.
//
//   cascade::reduce(p, d, d + n, 0, cascade::plus{});
//   cascade::reduce(p, d, d + n, cascade::maximum{});      // starts from identity<maximum, T>: -inf or lowest
//   cascade::reduce(p, d, d + n, cascade::minimum_number{});  // NaN ignored, as numpy's nanmin
//   cascade::reduce(p, flags, flags + n, true, cascade::logical_and{});
//
// Each op names its identity through cascade::identity<Op, T> (ops/identity.cuh). All of them are
// associative and commutative; cascade::non_commutative (ops/non_commutative.cuh) marks ops that are not.
// minimum, maximum, their _number forms and the logical and bitwise and/or are idempotent
// (ops/idempotent.cuh).
#pragma once

#include <cuda/std/type_traits>

#include "detail/meta/float_order.cuh"
#include "ops/idempotent.cuh"
#include "ops/identity.cuh"

namespace cascade {

struct plus {
  template <class A, class B>
  __host__ __device__ constexpr auto operator()(A const& a, B const& b) const -> decltype(a + b) {
    return a + b;
  }
};

struct multiplies {
  template <class A, class B>
  __host__ __device__ constexpr auto operator()(A const& a, B const& b) const -> decltype(a * b) {
    return a * b;
  }
};

// minimum / maximum. Over float, double, __half and __nv_bfloat16 they are IEEE 754-2019's minimum and
// maximum: NaN if either operand is NaN (one canonical NaN), -0 below +0 (detail/meta/float_order.cuh),
// so they are associative and commutative on every value and no policy changes the result. Over
// other types: b < a ? b : a (a < b ? b : a), the first operand on ties.
struct minimum {
  static constexpr bool idempotent = true;  // op(op(a, x), x) == op(a, x): ops/idempotent.cuh
  template <class A, class B>
  __host__ __device__ constexpr auto operator()(A const& a, B const& b) const
      -> cuda::std::common_type_t<A, B> {
    using R = cuda::std::common_type_t<A, B>;
    if constexpr (detail::is_ieee_v<R>) return detail::ieee_extremum<false>(static_cast<R>(a), static_cast<R>(b));
    else return b < a ? b : a;
  }
};

struct maximum {
  static constexpr bool idempotent = true;
  template <class A, class B>
  __host__ __device__ constexpr auto operator()(A const& a, B const& b) const
      -> cuda::std::common_type_t<A, B> {
    using R = cuda::std::common_type_t<A, B>;
    if constexpr (detail::is_ieee_v<R>) return detail::ieee_extremum<true>(static_cast<R>(a), static_cast<R>(b));
    else return a < b ? b : a;
  }
};

// minimum_number / maximum_number: IEEE 754-2019's minimumNumber and maximumNumber over the same
// types: a NaN operand is ignored (NaN only when both are: the canonical one), -0 below +0; numpy's
// nanmin / nanmax. Their identity is the canonical NaN. Over other types, minimum and maximum.
struct minimum_number {
  static constexpr bool idempotent = true;
  template <class A, class B>
  __host__ __device__ constexpr auto operator()(A const& a, B const& b) const
      -> cuda::std::common_type_t<A, B> {
    using R = cuda::std::common_type_t<A, B>;
    if constexpr (detail::is_ieee_v<R>) return detail::ieee_extremum_number<false>(static_cast<R>(a), static_cast<R>(b));
    else return b < a ? b : a;
  }
};

struct maximum_number {
  static constexpr bool idempotent = true;
  template <class A, class B>
  __host__ __device__ constexpr auto operator()(A const& a, B const& b) const
      -> cuda::std::common_type_t<A, B> {
    using R = cuda::std::common_type_t<A, B>;
    if constexpr (detail::is_ieee_v<R>) return detail::ieee_extremum_number<true>(static_cast<R>(a), static_cast<R>(b));
    else return a < b ? b : a;
  }
};

struct logical_and {
  static constexpr bool idempotent = true;
  template <class A, class B>
  __host__ __device__ constexpr bool operator()(A const& a, B const& b) const {
    return static_cast<bool>(a) && static_cast<bool>(b);
  }
};

struct logical_or {
  static constexpr bool idempotent = true;
  template <class A, class B>
  __host__ __device__ constexpr bool operator()(A const& a, B const& b) const {
    return static_cast<bool>(a) || static_cast<bool>(b);
  }
};

struct bit_and {
  static constexpr bool idempotent = true;
  template <class A, class B>
  __host__ __device__ constexpr auto operator()(A const& a, B const& b) const -> decltype(a & b) {
    return a & b;
  }
};

struct bit_or {
  static constexpr bool idempotent = true;
  template <class A, class B>
  __host__ __device__ constexpr auto operator()(A const& a, B const& b) const -> decltype(a | b) {
    return a | b;
  }
};

struct bit_xor {
  template <class A, class B>
  __host__ __device__ constexpr auto operator()(A const& a, B const& b) const -> decltype(a ^ b) {
    return a ^ b;
  }
};

// Sums whose result does not depend on how the additions are grouped (docs/reproducible.md).
// exact_plus: the real sum of init and the items (float, double, __half, __nv_bfloat16, or integers of
// up to 32 bits), rounded once, to nearest, to init's type (float or double): the same bits under any
// policy, grid, GPU, run and input order. reproducible_plus: a binned sum (the items' bits within 44,
// or 64 for doubles, of the largest item's top bit, summed exactly and rounded once): the same bits
// under any policy, grid, GPU, run and input order, faster. They are tags: reduce, reduce_into and
// transform_reduce recognize them and run their own accumulators.
struct exact_plus {};
struct reproducible_plus {};

}  // namespace cascade
