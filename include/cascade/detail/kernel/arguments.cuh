// cascade/detail/kernel/arguments.cuh: what the entry points make of their arguments: the range's size
// (checked), the input's value type, whether the argument after the range is an op or an init, and
// the compile-time checks of input, init and op, each with a one-line message.
#pragma once

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include <iterator>
#include <stdexcept>
#include <string>

#include "../../ops/identity.cuh"
#include "../meta/op_call.cuh"

namespace cascade::detail {

template <class It>
cuda::std::int64_t checked_size(It first, It last, char const* who = "cascade::reduce") {
  auto const n = last - first;
  if (n < 0) throw std::invalid_argument(std::string(who) + ": last < first; [first, last) must be a valid range");
  return static_cast<cuda::std::int64_t>(n);
}

template <class It>
using input_value_t = cuda::std::remove_cv_t<typename std::iterator_traits<It>::value_type>;

// Whether the argument after [first, last) is an op with a known identity rather than an init value.
template <class X, class It>
inline constexpr bool is_identity_op_v = has_identity_v<X, input_value_t<It>>;

// Iterators of host containers (std::vector's, std::string's; through reverse_iterator and
// move_iterator): their operator* is host code, which a kernel cannot run. The views the algorithms
// wrap an input in (detail/kernel/input_iterators.cuh) answer for the input they wrap.
template <class It>
inline constexpr bool is_host_container_iterator_v = false;
#if defined(__GLIBCXX__)
template <class P, class C>
inline constexpr bool is_host_container_iterator_v<__gnu_cxx::__normal_iterator<P, C>> = true;
#endif
template <class It>
inline constexpr bool is_host_container_iterator_v<std::reverse_iterator<It>> = is_host_container_iterator_v<It>;
template <class It>
inline constexpr bool is_host_container_iterator_v<std::move_iterator<It>> = is_host_container_iterator_v<It>;

// The checks every entry point makes of its input, init and op, one static_assert each; true when all
// hold, and the caller then instantiates its kernels (otherwise the first message stays the only one).
template <class It>
constexpr bool input_ok() {
  static_assert(!is_host_container_iterator_v<It>,
                "cascade: the input is a host container's iterator (std::vector's?), which a kernel cannot read; pass "
                "device memory: a thrust::device_vector's begin(), or a pointer from cudaMalloc");
  return !is_host_container_iterator_v<It>;
}
template <class It, class T, class Op>
constexpr bool arguments_ok() {
  constexpr bool host_input = !input_ok<It>();
  constexpr bool swapped = op_and_init_swapped_v<Op, T>;
  static_assert(!swapped, "cascade: init comes before the op: reduce(policy, first, last, init, op) (CUB's "
                          "DeviceReduce::Reduce takes the op first, then init)");
  constexpr bool not_callable = !swapped && op_not_callable_v<Op, T>;
  static_assert(!not_callable, "cascade: the op must be callable as op(T, T), T being init's type (items are "
                               "converted to T as they are read)");
  static_assert(!op_needs_mutable_v<Op, T>, "cascade: the op must be callable as op(T, T) on a const op, T being "
                                            "init's type; mark its operator() const (threads share one copy)");
  constexpr bool accumulator = cuda::std::is_trivially_copyable_v<T> && cuda::std::is_default_constructible_v<T>;
  static_assert(accumulator, "cascade: the accumulator type (the type of init) must be trivially copyable and default "
                             "constructible, as it lives in registers and shared memory");
  return !host_input && !swapped && !not_callable && !op_needs_mutable_v<Op, T> && accumulator;
}

}  // namespace cascade::detail
