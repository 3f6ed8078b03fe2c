// cascade/detail/meta/known_op.cuh: which of cascade's ops a CCCL function object computes, so that code
// written for CUB and Thrust gets the same identities, tuned table entries and hardware paths
// (atomics, redux) as cascade's own ops.
//
// known_op_t<Op, T> is cascade's op for Op over accumulator T: Op itself for cascade's ops and any
// other functor; plus, multiplies, bit_and, bit_or, bit_xor, logical_and, logical_or for the
// cuda::std ones of those names, minimum and maximum for cuda::minimum and cuda::maximum. Thrust's
// functors are those same types (thrust::plus is cuda::std::plus, thrust::minimum is cuda::minimum).
// Typed forms count when they compute in T itself (cuda::std::plus<T>, or <void>); cuda::std::plus<int>
// over a float accumulator rounds every step to int and stays a plain functor.
//
// The entry points run cascade's op in place of the CCCL one (detail/dispatch.cuh): cuda::minimum's
// `a < b ? a : b` gives an answer that depends on the grouping once NaN or signed zeros are in the
// data, cascade::minimum's IEEE minimum does not (detail/meta/float_order.cuh); over every other value
// the two agree.
#pragma once

#include "config.cuh"

#include <cuda/functional>
#include <cuda/std/functional>
#include <cuda/std/type_traits>

namespace cascade {

struct plus;
struct multiplies;
struct minimum;
struct maximum;
struct minimum_number;
struct maximum_number;
struct logical_and;
struct logical_or;
struct bit_and;
struct bit_or;
struct bit_xor;
struct exact_plus;
struct reproducible_plus;

namespace detail {

// exact_plus and reproducible_plus: tags the entry points route to their own accumulators (exact/exact_sum.cuh,
// exact/binned_sum.cuh).
template <class Op>
inline constexpr bool is_exact_op_v =
    cuda::std::is_same_v<Op, exact_plus> || cuda::std::is_same_v<Op, reproducible_plus>;

// As T: any type (known_op_t<Op, own_type> names the cascade op whatever type Op is typed for).
struct own_type;

template <class U, class T>
inline constexpr bool computes_in =
    cuda::std::is_same_v<U, void> || cuda::std::is_same_v<U, T> || cuda::std::is_same_v<T, own_type>;

template <class Op, class T>
struct known_op {
  using type = Op;
};

#define CASCADE_KNOWN_OP(Cccl, Cascade)                \
  template <class U, class T>                          \
    requires computes_in<U, T>                         \
  struct known_op<Cccl<U>, T> {                        \
    using type = Cascade;                              \
  };
CASCADE_KNOWN_OP(cuda::std::plus, plus)
CASCADE_KNOWN_OP(cuda::std::multiplies, multiplies)
CASCADE_KNOWN_OP(cuda::std::bit_and, bit_and)
CASCADE_KNOWN_OP(cuda::std::bit_or, bit_or)
CASCADE_KNOWN_OP(cuda::std::bit_xor, bit_xor)
CASCADE_KNOWN_OP(cuda::std::logical_and, logical_and)
CASCADE_KNOWN_OP(cuda::std::logical_or, logical_or)
CASCADE_KNOWN_OP(cuda::minimum, minimum)
CASCADE_KNOWN_OP(cuda::maximum, maximum)
#undef CASCADE_KNOWN_OP

template <class Op, class T>
using known_op_t = typename known_op<Op, T>::type;

// Whether Op is a CCCL function object that stands for one of cascade's ops over T.
template <class Op, class T>
inline constexpr bool is_cccl_op_v = !cuda::std::is_same_v<known_op_t<Op, T>, Op>;

// Whether Op computes cascade's Base over T (Base itself, or its CCCL counterpart).
template <class Op, class T, class Base>
inline constexpr bool is_known_op_v = cuda::std::is_same_v<known_op_t<Op, T>, Base>;

}  // namespace detail
}  // namespace cascade
