// test/support/exact_reference.cpp: the correctly rounded sum of doubles, exact by construction and
// independent of cascade's code: a 2304-bit two's complement integer (36 limbs of 64 bits, weight
// 2^-1074 for bit 0) with full carry propagation on every addition, then rounding to odd at 113 bits,
// which __float128 holds exactly, and one conversion to the target type (round to nearest even; GCC's
// soft-float conversions round correctly, subnormals included). Rounding to odd at p + 2 or more bits
// and then to nearest at p bits is the correct rounding to nearest at p bits.
#include "exact_reference.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace cascade_test {

namespace {

constexpr int limbs = 36;
using wide = unsigned __int128;

struct big {
  std::uint64_t limb[limbs] = {};

  void add_shifted(std::uint64_t m, int shift, bool negative) {  // += or -= m * 2^shift
    std::uint64_t addend[limbs] = {};
    int const w = shift / 64, b = shift % 64;
    addend[w] = m << b;
    if (b != 0 && w + 1 < limbs) addend[w + 1] = m >> (64 - b);
    if (negative) {  // two's complement of addend
      wide carry = 1;
      for (int i = 0; i < limbs; ++i) {
        carry += static_cast<std::uint64_t>(~addend[i]);
        addend[i] = static_cast<std::uint64_t>(carry);
        carry >>= 64;
      }
    }
    wide carry = 0;
    for (int i = 0; i < limbs; ++i) {
      carry += wide(limb[i]) + addend[i];
      limb[i] = static_cast<std::uint64_t>(carry);
      carry >>= 64;
    }
  }
  bool bit(int p) const { return p >= 0 && ((limb[p / 64] >> (p % 64)) & 1u); }
};

}  // namespace

template <class R>
R exact_sum(std::vector<double> const& items, double init) {
  bool nan = false, pos_inf = false, neg_inf = false;
  big acc;
  auto add = [&](double x) {
    if (std::isnan(x)) nan = true;
    else if (std::isinf(x)) (x > 0 ? pos_inf : neg_inf) = true;
    else if (x != 0) {
      int e = 0;
      double const f = std::frexp(std::fabs(x), &e);  // |x| = f 2^e, f in [0.5, 1)
      auto const m = static_cast<std::uint64_t>(std::ldexp(f, 53));  // |x| = m 2^(e - 53), exact
      auto m2 = m;
      int shift = e - 53 + 1074;
      if (shift < 0) {  // a subnormal: m's low bits are zeros
        m2 >>= -shift;
        shift = 0;
      }
      acc.add_shifted(m2, shift, x < 0);
    }
  };
  add(init);
  for (double x : items) add(x);
  if (nan || (pos_inf && neg_inf)) return std::numeric_limits<R>::quiet_NaN();
  if (pos_inf) return std::numeric_limits<R>::infinity();
  if (neg_inf) return -std::numeric_limits<R>::infinity();
  bool const negative = acc.bit(64 * limbs - 1);
  if (negative) {
    big neg;
    wide carry = 1;
    for (int i = 0; i < limbs; ++i) {
      carry += static_cast<std::uint64_t>(~acc.limb[i]);
      neg.limb[i] = static_cast<std::uint64_t>(carry);
      carry >>= 64;
    }
    acc = neg;
  }
  int top = -1;
  for (int p = 64 * limbs - 1; p >= 0; --p)
    if (acc.bit(p)) {
      top = p;
      break;
    }
  if (top < 0) return R(0);
  int const low = top - 112 > 0 ? top - 112 : 0;
  wide m = 0;
  for (int p = top; p >= low; --p) m = (m << 1) | wide(acc.bit(p));
  bool sticky = false;
  for (int p = 0; p < low && !sticky; ++p) sticky = acc.bit(p);
  if (sticky) m |= 1;  // round to odd
  __float128 q = static_cast<__float128>(m);  // exact: at most 113 bits
  for (int e = low - 1074; e > 0; --e) q *= 2;
  for (int e = low - 1074; e < 0; ++e) q /= 2;  // exact: quad's range and precision hold it
  R const r = static_cast<R>(q);
  return negative ? -r : r;
}

template float exact_sum<float>(std::vector<double> const&, double);
template double exact_sum<double>(std::vector<double> const&, double);

}  // namespace cascade_test
