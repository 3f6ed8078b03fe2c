// cascade/ops/non_commutative.cuh: marks an operator whose operands must not be swapped.
//
//   auto op = cascade::non_commutative(matrix_product{});
//   mat2 m = cascade::reduce(cascade::default_policy{}, d, d + n, mat2::unit(), op);  // x0 x1 ... x(n-1), in order
//
// cascade takes every op as associative and commutative (as CUB and Thrust do) unless it is wrapped
// here. With a non-commutative op each policy either returns exactly the left-to-right fold (its
// tree and finish keep operand order, and the tile loop gives each thread a contiguous run of items)
// or fails to compile with a message naming an order-preserving alternative. default_policy picks
// an order-preserving tree by itself. The op must still be associative: regrouping is what makes a
// reduction parallel.
#pragma once

#include <cuda/std/type_traits>
#include <cuda/std/utility>

#include "idempotent.cuh"
#include "identity.cuh"

namespace cascade {

template <class Op>
struct non_commutative_op {
  static constexpr bool idempotent = is_idempotent_v<Op>;
  Op op;

  // Host-only ops stay usable on the host (finish::host, tests) without a warning per instantiation.
#pragma nv_exec_check_disable
  template <class A, class B>
  __host__ __device__ constexpr auto operator()(A&& a, B&& b) const
      -> decltype(op(cuda::std::forward<A>(a), cuda::std::forward<B>(b))) {
    return op(cuda::std::forward<A>(a), cuda::std::forward<B>(b));
  }
};

template <class Op>
__host__ __device__ constexpr non_commutative_op<Op> non_commutative(Op op) {
  return {op};
}

// Whether cascade may swap the operands of Op (false only for ops wrapped by non_commutative,
// directly or inside a monoid).
namespace detail {
template <class Op>
struct is_commutative : cuda::std::true_type {};
template <class Op>
struct is_commutative<non_commutative_op<Op>> : cuda::std::false_type {};
}  // namespace detail

template <class Op>
inline constexpr bool is_commutative_v = detail::is_commutative<cuda::std::remove_cvref_t<Op>>::value;

namespace detail {

template <class Op>
struct identity_source<non_commutative_op<Op>> {
  template <class T>
  __host__ __device__ static constexpr auto get(non_commutative_op<Op> const& w)
      -> decltype(identity_source<Op>::template get<T>(w.op)) {
    return identity_source<Op>::template get<T>(w.op);
  }
};

}  // namespace detail

}  // namespace cascade
