// cascade/detail/sinks.cuh: where a block's result goes. A kernel pass either stores per-block
// partials for a later pass, or is the last pass and writes op(init, result) to the output.
#pragma once

#include <cuda/std/cstring>
#include <cuda/std/type_traits>

namespace cascade::detail {

// *out = value. To device memory of type T with padding (e.g. indexed<int>: 8 + 4 + 4 bytes) the
// whole object representation is stored, word by word, so that a later byte copy of the result
// (cudaMemcpy to the host, l2_reader) reads no uninitialized bytes (compute-sanitizer initcheck).
template <class OutIt, class T>
__device__ void store_value(OutIt out, T const& value) {
  if constexpr (cuda::std::is_same_v<OutIt, T*> && !cuda::std::has_unique_object_representations_v<T> &&
                sizeof(T) % 4 == 0 && alignof(T) >= 4) {
    unsigned words[sizeof(T) / 4];
    cuda::std::memcpy(words, &value, sizeof(T));
    auto* dst = reinterpret_cast<unsigned*>(out);
#pragma unroll
    for (unsigned w = 0; w < sizeof(T) / 4; ++w) dst[w] = words[w];
  } else {
    *out = value;
  }
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
