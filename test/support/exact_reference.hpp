// test/support/exact_reference.hpp: the exact sum of doubles (init first), rounded once to nearest
// (ties to even) to R (float or double); NaN and infinities as IEEE addition gives them. Compiled as
// C++ by the host compiler (__float128), independent of cascade's code.
#pragma once

#include <vector>

namespace cascade_test {

template <class R>
R exact_sum(std::vector<double> const& items, double init);

}  // namespace cascade_test
