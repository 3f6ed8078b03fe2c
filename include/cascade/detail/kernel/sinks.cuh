// cascade/detail/kernel/sinks.cuh: where a block's result goes. A kernel pass either stores per-block
// partials for a later pass, or is the last pass and writes op(init, result) to the output.
#pragma once

#include "../meta/config.cuh"

#include <cuda/std/type_traits>

namespace cascade::detail {

// *out = value. To device memory of a type that may have padding (e.g. indexed<int>: 8 + 4 bytes
// and 4 of padding) the words are zeroed first, so that a later byte copy of the result (cudaMemcpy
// to the host) reads only bytes the device wrote, which is what compute-sanitizer initcheck checks.
// Copying the value's own padding would not do: the compiler may drop stores of indeterminate bytes.
template <class T>
inline constexpr bool may_have_padding = !cuda::std::is_arithmetic_v<T> && !cuda::std::has_unique_object_representations_v<T>;

template <class OutIt, class T>
__device__ __forceinline__ void store_value(OutIt out, T const& value) {
  if constexpr (cuda::std::is_same_v<OutIt, T*> && may_have_padding<T> && sizeof(T) % 4 == 0 && alignof(T) >= 4) {
    auto* words = reinterpret_cast<unsigned volatile*>(out);  // volatile: kept even where *out = value rewrites it
#pragma unroll
    for (unsigned w = 0; w < sizeof(T) / 4; ++w) words[w] = 0;
  }
  *out = value;
}

template <class T>
struct store_partial {
  T* d_partials;
  __device__ void operator()(T const& value) const { store_value(d_partials + blockIdx.x, value); }
};

// init is applied here and only here, on the left: the result is init op (x0 op x1 op ...).
template <class OutIt, class T, class Op>
struct store_result {
  OutIt d_out;
  T init;
  Op op;
  __device__ void operator()(T const& value) const { store_value(d_out, static_cast<T>(op(init, value))); }
};

}  // namespace cascade::detail
