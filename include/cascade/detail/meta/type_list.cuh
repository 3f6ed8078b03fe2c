// cascade/detail/meta/type_list.cuh: compile-time lists of types, for the strategy registries
// (tree/all.cuh, finish/all.cuh) that tests, bench, tuner and compile-time messages iterate.
#pragma once

#include "config.cuh"

#include <cuda/std/cstddef>
#include <cuda/std/type_traits>

namespace cascade::detail {

template <class... Ts>
struct type_list {
  static constexpr cuda::std::size_t size = sizeof...(Ts);
};

// concat_t<type_list<A...>, type_list<B...>, ...> = type_list<A..., B..., ...>
template <class... Lists>
struct concat;
template <>
struct concat<> {
  using type = type_list<>;
};
template <class... Ts>
struct concat<type_list<Ts...>> {
  using type = type_list<Ts...>;
};
template <class... As, class... Bs, class... Rest>
struct concat<type_list<As...>, type_list<Bs...>, Rest...> {
  using type = typename concat<type_list<As..., Bs...>, Rest...>::type;
};
template <class... Lists>
using concat_t = typename concat<Lists...>::type;

// filter_t<List, Pred>: the Ts of List for which Pred<T>::value holds, in order.
template <class List, template <class> class Pred>
struct filter;
template <class... Ts, template <class> class Pred>
struct filter<type_list<Ts...>, Pred> {
  using type = concat_t<cuda::std::conditional_t<Pred<Ts>::value, type_list<Ts>, type_list<>>...>;
};
template <class List, template <class> class Pred>
using filter_t = typename filter<List, Pred>::type;

// at_t<I, List>: the I-th type.
template <cuda::std::size_t I, class List>
struct at;
template <cuda::std::size_t I, class T, class... Ts>
struct at<I, type_list<T, Ts...>> : at<I - 1, type_list<Ts...>> {};
template <class T, class... Ts>
struct at<0, type_list<T, Ts...>> {
  using type = T;
};
template <cuda::std::size_t I, class List>
using at_t = typename at<I, List>::type;

template <class T, class List>
inline constexpr bool contains_v = false;
template <class T, class... Ts>
inline constexpr bool contains_v<T, type_list<Ts...>> = (cuda::std::is_same_v<T, Ts> || ...);

// Calls f(T{}) for each T of the list, in order (host code: tests, bench, tuner).
template <class... Ts, class F>
constexpr void for_each_type(type_list<Ts...>, F&& f) {
  (f(Ts{}), ...);
}

}  // namespace cascade::detail
