// test/support/binned_reference.hpp: what cascade::reproducible_plus promises (docs/reproducible.md),
// computed directly from that description and not from cascade's code: on a grid of units 2^unit_exp,
// in bins of bin_bits positions, the window's top bin is the bin of the position just above the
// largest item's top bit, at least levels - 1; each item is cut, from the top bin down, into `levels`
// slices, each the multiple of its bin's unit nearest to what is left (halves away from zero, or to
// an even multiple with ties_to_even); init
// and the slices are summed exactly and rounded once (exact_sum). NaN and infinities as IEEE addition
// gives them. reproducible_sum<R, T> takes the parameters the docs give for items of type T.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "exact_reference.hpp"

namespace cascade_test {

template <class R>
R binned_sum(std::vector<double> const& items, double init, int levels, int bin_bits, int unit_exp,
             bool ties_to_even) {
  bool nan = std::isnan(init), pos = init == INFINITY, neg = init == -INFINITY;
  int top = -1;
  for (double x : items) {
    if (std::isnan(x)) nan = true;
    else if (x == INFINITY) pos = true;
    else if (x == -INFINITY) neg = true;
    else if (x != 0) top = std::max(top, (std::ilogb(x) - unit_exp + 1) / bin_bits);
  }
  if (nan || (pos && neg)) return std::numeric_limits<R>::quiet_NaN();
  if (pos) return std::numeric_limits<R>::infinity();
  if (neg) return -std::numeric_limits<R>::infinity();
  top = std::max(top, levels - 1);
  std::vector<double> slices;
  for (double x : items) {
    if (x == 0 || !std::isfinite(x)) continue;
    double r = x;
    for (int k = 0; k < levels; ++k) {
      int const lo = unit_exp + bin_bits * (top - k);
      double const u = std::ldexp(r, -lo);  // |u| <= 2^(bin_bits - 1) + 1
      double const q = ties_to_even ? std::nearbyint(u) : std::round(u);  // (the default rounding mode)
      if (lo < 900) {
        double const slice = std::ldexp(q, lo);
        slices.push_back(slice);
        r -= slice;  // exact: multiples of r's ulp, at most 2^52 of them apart
      } else {  // the slice, as two halves: at the top of the range it may be 2^1024
        double const half = std::ldexp(q, lo - 1);
        slices.push_back(half);
        slices.push_back(half);
        r = (r - half) - half;  // exact: within a factor 2 (Sterbenz), then as above
      }
    }
  }
  return exact_sum<R>(slices, init);
}

// Items of type T: floats, halves, bfloat16s and integers of at most 16 bits on the float grid
// (2^-149), 22-bit bins, 3 levels, ties to even; doubles on the double grid (2^-1074), 32-bit bins, 3
// levels, ties away from zero; 32-bit integers there with 2 levels.
template <class R, class T>
R reproducible_sum(std::vector<double> const& items, double init) {
  if constexpr (sizeof(T) > 4) return binned_sum<R>(items, init, 3, 32, -1074, false);
  else if constexpr (std::is_integral_v<T> && sizeof(T) == 4) return binned_sum<R>(items, init, 2, 32, -1074, false);
  else return binned_sum<R>(items, init, 3, 22, -149, true);
}

}  // namespace cascade_test
