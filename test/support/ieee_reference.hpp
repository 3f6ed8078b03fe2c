// IEEE 754-2019 minimum, maximum, minimumNumber, maximumNumber and the argmin / argmax order,
// written plainly on the host (through double, which holds every float, __half and __nv_bfloat16
// exactly) and independent of cascade's code: the references of ops_test, semantics_test and the
// fuzz's special-value cases. Values are compared as bits.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace cascade_test {

template <class T>
using bits_t = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint16_t>>;

template <class T>
bits_t<T> bits(T const& x) {
  bits_t<T> b;
  std::memcpy(&b, &x, sizeof(T));
  return b;
}
template <class T>
T of_bits(bits_t<T> b) {
  T x;
  std::memcpy(static_cast<void*>(&x), &b, sizeof(T));  // (void*: T may be __half, whose member is protected)
  return x;
}
template <class T>
double as_double(T x) {
  if constexpr (std::is_same_v<T, __half>) return __half2float(x);
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) return __bfloat162float(x);
  else return static_cast<double>(x);
}
template <class T>
bool nan_of(T x) {
  return std::isnan(as_double(x));
}
// The NaN cascade's min / max return: sign clear, every other bit set.
template <class T>
bits_t<T> canonical_nan() {
  return static_cast<bits_t<T>>(~(bits_t<T>(1) << (8 * sizeof(T) - 1)));
}
template <class T>
std::string hex(T x) {
  std::ostringstream o;
  o << std::hex << "0x" << static_cast<std::uint64_t>(bits(x)) << " (" << as_double(x) << ")";
  return o.str();
}

// Whether a (not NaN) ranks strictly before b (not NaN): smaller (max: larger), -0 below +0.
template <class T>
bool before(T a, T b, bool max) {
  double const x = as_double(a), y = as_double(b);
  if (x != y) return max ? x > y : x < y;
  if (x != 0) return false;
  bool const na = std::signbit(x), nb = std::signbit(y);
  return max ? (!na && nb) : (na && !nb);
}

// init op x0 op x1 ... for IEEE minimum / maximum (number: minimumNumber / maximumNumber), as bits.
template <class T>
bits_t<T> reference_extremum(T init, std::vector<T> const& xs, bool max, bool number) {
  bool any_nan = nan_of(init), any_number = !nan_of(init);
  T best = init;
  for (T x : xs) {
    if (nan_of(x)) {
      any_nan = true;
      continue;
    }
    if (!any_number || before(x, best, max)) best = x;
    any_number = true;
  }
  if ((any_nan && !number) || !any_number) return canonical_nan<T>();
  return bits(best);
}

// argmin's (max: argmax's) index over xs (not empty): the first NaN, else the first extreme value.
template <class T>
std::int64_t reference_arg(std::vector<T> const& xs, bool max) {
  std::int64_t at = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (nan_of(xs[i])) return static_cast<std::int64_t>(i);
    if (before(xs[i], xs[at], max)) at = static_cast<std::int64_t>(i);
  }
  return at;
}

}  // namespace cascade_test
