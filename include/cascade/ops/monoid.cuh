// cascade/ops/monoid.cuh: a custom operator paired with its identity, at the call.
//
//   auto op = cascade::monoid([] __device__ (float a, float b) { return fmaxf(a, b); }, -INFINITY);
//   float m = cascade::reduce(policy{}, d, d + n, op);            // starts from -inf; n == 0 gives -inf
//
// The monoid calls the wrapped op unchanged and makes has_identity_v<decltype(op), T> true for every
// T the identity converts to. Combine with non_commutative(...) in either order.
#pragma once

#include <cuda/std/type_traits>
#include <cuda/std/utility>

#include "idempotent.cuh"
#include "identity.cuh"
#include "non_commutative.cuh"

namespace cascade {

template <class Op, class E>
struct monoid_op {
  static constexpr bool idempotent = is_idempotent_v<Op>;
  Op op;
  E identity_element;

  // Host-only ops stay usable on the host (finish::host, tests) without a warning per instantiation.
#pragma nv_exec_check_disable
  template <class A, class B>
  __host__ __device__ constexpr auto operator()(A&& a, B&& b) const
      -> decltype(op(cuda::std::forward<A>(a), cuda::std::forward<B>(b))) {
    return op(cuda::std::forward<A>(a), cuda::std::forward<B>(b));
  }
};

// Pairs `op` with `identity_element`, which must satisfy op(e, x) == x for every x.
template <class Op, class E>
__host__ __device__ constexpr monoid_op<Op, E> monoid(Op op, E identity_element) {
  return {op, identity_element};
}

namespace detail {

template <class Op>
struct is_monoid : cuda::std::false_type {};
template <class Op, class E>
struct is_monoid<monoid_op<Op, E>> : cuda::std::true_type {};

// A monoid is as commutative as the op it wraps.
template <class Op, class E>
struct is_commutative<monoid_op<Op, E>> : is_commutative<Op> {};

template <class Op, class E>
struct identity_source<monoid_op<Op, E>> {
  template <class T, class = cuda::std::enable_if_t<cuda::std::is_convertible_v<E const&, T>>>
  __host__ __device__ static constexpr T get(monoid_op<Op, E> const& m) {
    return static_cast<T>(m.identity_element);
  }
};

}  // namespace detail

template <class Op>
inline constexpr bool is_monoid_v = detail::is_monoid<cuda::std::remove_cvref_t<Op>>::value;

}  // namespace cascade
