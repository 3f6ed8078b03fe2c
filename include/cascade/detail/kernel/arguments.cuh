// cascade/detail/kernel/arguments.cuh: what the entry points make of their arguments: the range's size
// (checked), the input's value type, and whether the argument after the range is an op or an init.
#pragma once

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include <iterator>
#include <stdexcept>
#include <string>

#include "../../identity.cuh"

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

}  // namespace cascade::detail
