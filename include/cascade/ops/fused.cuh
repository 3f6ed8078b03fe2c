// cascade/ops/fused.cuh: several ops over one read. fused(op0, op1, ...) is an op over tuples: element
// k of the result is op_k over elements k, each op with its own identity, NaN rules and order.
//
//   auto [sum, lo, hi] = cascade::reduce_fused(policy{}, d, d + n, cascade::plus{}, cascade::minimum{},
//                                              cascade::maximum{});   // each op's identity its init
//   // wherever an op goes: a tuple init, and each item fanned out to a tuple by fan_out<N>
//   cascade::transform_reduce_axes_into(policy{}, in, cascade::axes{0}, out /* of tuples */,
//                                       cuda::std::tuple{0.0, INFINITY, -INFINITY},
//                                       cascade::fused(cascade::plus{}, cascade::minimum{}, cascade::maximum{}),
//                                       cascade::fan_out<3>{});
//
// The fused op is commutative when every op is (a non_commutative one makes every op fold in order),
// and has an identity over a tuple of types when every op has one over its type. Exact sums (tags with
// accumulators of their own: exact_plus, reproducible_plus) cannot be fused.
#pragma once

#include <cuda/std/cstddef>
#include <cuda/std/tuple>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

#include "../detail/meta/accumulator.cuh"
#include "idempotent.cuh"
#include "identity.cuh"
#include "non_commutative.cuh"

namespace cascade {

template <class... Ops>
struct fused_op {
  static_assert(sizeof...(Ops) > 0, "cascade::fused: name at least one op");
  static_assert((detail::is_plain_accumulator_v<Ops> && ...),
                "cascade::fused: exact_plus and reproducible_plus keep accumulators of their own and cannot be fused; "
                "reduce them in a call of their own");
  static constexpr bool idempotent = (is_idempotent_v<Ops> && ...);
  cuda::std::tuple<Ops...> ops;

  template <class... A, class... B>
  __host__ __device__ constexpr cuda::std::tuple<A...> operator()(cuda::std::tuple<A...> const& a,
                                                                  cuda::std::tuple<B...> const& b) const {
    static_assert(sizeof...(A) == sizeof...(Ops) && sizeof...(B) == sizeof...(Ops),
                  "cascade::fused: the tuples need one element an op");
    return apply(a, b, cuda::std::index_sequence_for<Ops...>{});
  }

 private:
  template <class TA, class TB, cuda::std::size_t... I>
  __host__ __device__ constexpr TA apply(TA const& a, TB const& b, cuda::std::index_sequence<I...>) const {
    return TA(static_cast<cuda::std::tuple_element_t<I, TA>>(cuda::std::get<I>(ops)(cuda::std::get<I>(a), cuda::std::get<I>(b)))...);
  }
};

template <class... Ops>
__host__ __device__ constexpr fused_op<Ops...> fused(Ops... ops) {
  return {cuda::std::tuple<Ops...>(ops...)};
}

// x -> (x, x, ..., x), N times: the items of a fused reduction.
template <int N>
struct fan_out {
  static_assert(N > 0, "cascade::fan_out<N>: N is the number of fused ops, at least 1");
  template <class X>
  __host__ __device__ constexpr auto operator()(X const& x) const {
    return repeat(x, cuda::std::make_index_sequence<N>{});
  }

 private:
  template <cuda::std::size_t, class X>
  using same = X;
  template <class X, cuda::std::size_t... I>
  __host__ __device__ static constexpr cuda::std::tuple<same<I, X>...> repeat(X const& x, cuda::std::index_sequence<I...>) {
    return cuda::std::tuple<same<I, X>...>(((void)I, x)...);
  }
};

namespace detail {

template <class... Ops>
struct is_commutative<fused_op<Ops...>> : cuda::std::bool_constant<(is_commutative_v<Ops> && ...)> {};

// The identity over tuple<Ts...>: each op's over its type (from the trait or a monoid's value).
template <class... Ops>
struct identity_source<fused_op<Ops...>> {
  template <class T, cuda::std::size_t... I>
  __host__ __device__ static constexpr auto get_each(fused_op<Ops...> const& f, cuda::std::index_sequence<I...>)
      -> decltype(T(identity_of<cuda::std::tuple_element_t<I, T>>(cuda::std::get<I>(f.ops))...)) {
    return T(identity_of<cuda::std::tuple_element_t<I, T>>(cuda::std::get<I>(f.ops))...);
  }
  template <class T, class = cuda::std::enable_if_t<cuda::std::tuple_size<T>::value == sizeof...(Ops)>>
  __host__ __device__ static constexpr auto get(fused_op<Ops...> const& f)
      -> decltype(get_each<T>(f, cuda::std::index_sequence_for<Ops...>{})) {
    return get_each<T>(f, cuda::std::index_sequence_for<Ops...>{});
  }
};

}  // namespace detail

}  // namespace cascade
