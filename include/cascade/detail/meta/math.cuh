// cascade/detail/meta/math.cuh: small integer helpers shared by dispatch and kernels.
#pragma once

#include "config.cuh"

namespace cascade::detail {

template <class A, class B>
__host__ __device__ constexpr A ceil_div(A a, B b) {
  return static_cast<A>((a + static_cast<A>(b) - 1) / static_cast<A>(b));
}

}  // namespace cascade::detail
