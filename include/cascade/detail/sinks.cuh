// cascade/detail/sinks.cuh: where a block's result goes. A kernel pass either stores per-block
// partials for a later pass, or is the last pass and writes op(init, result) to the output.
#pragma once

namespace cascade::detail {

template <class T>
struct store_partial {
  T* d_partials;
  __device__ void operator()(T const& value) const { d_partials[blockIdx.x] = value; }
};

// init is applied here and only here, on the left: the result is init op (x0 op x1 op ...).
template <class OutIt, class T, class Op>
struct store_result {
  OutIt d_out;
  T init;
  Op op;
  __device__ void operator()(T const& value) const { *d_out = static_cast<T>(op(init, value)); }
};

}  // namespace cascade::detail
