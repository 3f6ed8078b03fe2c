// cascade/detail/kernel/vector_load.cuh: 16-byte loads for contiguous input of arithmetic type.
//
// A pointer to an arithmetic type (or __half, __nv_bfloat16) whose address is a multiple of 16 is
// read 16 bytes per load instruction (4 floats, 8 halves, 16 int8) instead of one item per load:
// fewer instructions in flight for the same bytes. Any other iterator, or a pointer that is not
// 16-byte aligned (d + 1), takes the scalar path; the tile loops make that choice once per block.
// The views of transform_reduce, argmin, argmax and minmax over such a pointer read the same way.
#pragma once

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include "../../ops/identity.cuh"

namespace cascade::detail {

template <class It>
struct vector_input {
  static constexpr bool enabled = false;
  static constexpr int width = 1;
};

template <class V, int Width>
struct vector_of {
  V items[Width];
};

// The 16 bytes at `p` (16-byte aligned) as Width items, through the read-only data path
// (ld.global.nc, as CUB's LOAD_LDG): the input is never written while a reduction reads it.
template <int Width, class V>
__device__ vector_of<cuda::std::remove_cv_t<V>, Width> load_vector(V* p) {
  uint4 const raw = __ldg(reinterpret_cast<uint4 const*>(p));
  vector_of<cuda::std::remove_cv_t<V>, Width> v;
  __builtin_memcpy(&v, &raw, sizeof(raw));
  return v;
}

// What the tile loops need of an input that can be read 16 bytes at a time: the raw vector at item i
// (load), item j of it as the fold sees it, at index i + j (item), and whether the input is aligned.
// Views over a pointer (detail/kernel/input_iterators.cuh: transform_reduce's, argmin's) specialize it too,
// so that they read as fast as the pointer itself.
template <class U>
struct vector_input<U*> {
  using value_type = cuda::std::remove_cv_t<U>;
  static constexpr bool enabled = is_numeric_v<value_type> && sizeof(value_type) <= 16 && 16 % sizeof(value_type) == 0;
  static constexpr int width = enabled ? static_cast<int>(16 / sizeof(value_type)) : 1;
  using raw_type = vector_of<value_type, width>;

  template <class Offset>
  __device__ static raw_type load(U* first, Offset i) {
    return load_vector<width>(first + i);
  }
  template <class Offset>
  __device__ static value_type item(U*, raw_type const& v, int j, Offset) {
    return v.items[j];
  }
  __host__ __device__ static bool aligned(U* first) { return reinterpret_cast<cuda::std::uintptr_t>(first) % 16 == 0; }
};

// Whether tiles of `Items` items per thread read from `first` can use vector loads: the iterator is a
// suitable pointer and the per-thread run is a whole number of vectors.
template <class It, int Items>
inline constexpr bool vectorizable = vector_input<It>::enabled && Items % vector_input<It>::width == 0;

template <class It>
__host__ __device__ bool is_vector_aligned(It const& first) {
  if constexpr (vector_input<It>::enabled) return vector_input<It>::aligned(first);
  else return false;
}

}  // namespace cascade::detail
