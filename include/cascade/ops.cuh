// cascade/ops.cuh: the reduction operators, transparent function objects usable on host and device.
//
//   cascade::reduce(p, d, d + n, 0, cascade::plus{});
//   cascade::reduce(p, d, d + n, std::numeric_limits<int>::max(), cascade::minimum{});
//
// Each op also names its identity for arithmetic types through cascade::identity<Op, T>.
#pragma once

#include <cuda/std/limits>
#include <cuda/std/type_traits>

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

// minimum/maximum return the first operand on ties, so the leftmost of equal values wins.
struct minimum {
  template <class A, class B>
  __host__ __device__ constexpr auto operator()(A const& a, B const& b) const
      -> cuda::std::common_type_t<A, B> {
    return b < a ? b : a;
  }
};

struct maximum {
  template <class A, class B>
  __host__ __device__ constexpr auto operator()(A const& a, B const& b) const
      -> cuda::std::common_type_t<A, B> {
    return a < b ? b : a;
  }
};

// identity<Op, T>::value() is the neutral element e of Op over T: op(e, x) == x for every x.
// The primary template has none (has_identity_v is false); specialize it for your own ops.
template <class Op, class T, class = void>
struct identity {};

template <class T>
struct identity<plus, T, cuda::std::enable_if_t<cuda::std::is_arithmetic_v<T>>> {
  __host__ __device__ static constexpr T value() { return T(0); }
};

template <class T>
struct identity<multiplies, T, cuda::std::enable_if_t<cuda::std::is_arithmetic_v<T>>> {
  __host__ __device__ static constexpr T value() { return T(1); }
};

// min starts from the largest value: +inf for floating point, the maximum for integers.
template <class T>
struct identity<minimum, T, cuda::std::enable_if_t<cuda::std::is_arithmetic_v<T>>> {
  __host__ __device__ static constexpr T value() {
    if constexpr (cuda::std::numeric_limits<T>::has_infinity) return cuda::std::numeric_limits<T>::infinity();
    else return cuda::std::numeric_limits<T>::max();
  }
};

template <class T>
struct identity<maximum, T, cuda::std::enable_if_t<cuda::std::is_arithmetic_v<T>>> {
  __host__ __device__ static constexpr T value() {
    if constexpr (cuda::std::numeric_limits<T>::has_infinity) return -cuda::std::numeric_limits<T>::infinity();
    else return cuda::std::numeric_limits<T>::lowest();
  }
};

template <class Op, class T, class = void>
inline constexpr bool has_identity_v = false;

template <class Op, class T>
inline constexpr bool has_identity_v<Op, T, cuda::std::void_t<decltype(identity<Op, T>::value())>> = true;

}  // namespace cascade
