// test/support/binned_reference.hpp: what cascade::reproducible_plus promises (docs/reproducible.md),
// computed directly from that description and not from cascade's code: the window's top bin is the
// bin (32 positions of 2^-1074 each) of the position just above the largest item's top bit, at least
// levels - 1; each item is cut, from the top bin down, into `levels` slices, each the multiple of its
// bin's unit nearest to what is left (halves away from zero); init and the slices are summed exactly
// and rounded once (exact_sum). NaN and infinities as IEEE addition gives them.
#pragma once

#include <cmath>
#include <limits>
#include <vector>

#include "exact_reference.hpp"

namespace cascade_test {

template <class R>
R binned_sum(std::vector<double> const& items, double init, int levels) {
  bool nan = std::isnan(init), pos = init == INFINITY, neg = init == -INFINITY;
  int top = -1;
  for (double x : items) {
    if (std::isnan(x)) nan = true;
    else if (x == INFINITY) pos = true;
    else if (x == -INFINITY) neg = true;
    else if (x != 0) top = std::max(top, (std::ilogb(x) + 1074 + 1) / 32);
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
      int const lo = -1074 + 32 * (top - k);
      double const q = std::round(std::ldexp(r, -lo));  // |q| <= 2^32
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

}  // namespace cascade_test
