// cascade/detail/input_iterators.cuh: the views the algorithms built on reduce read their input
// through. Each offers a __device__ operator[] only, which is all the tile loop uses.
#pragma once

#include <cuda/std/cstdint>

#include "../indexed.cuh"

namespace cascade::detail {

// transform(first[i]) as T: transform_reduce's input. T is named rather than deduced because the
// host cannot ask an extended __device__ lambda for its return type.
template <class It, class F, class T>
struct transform_input {
  It first;
  F transform;
  template <class Offset>
  __device__ T operator[](Offset i) const {
    return static_cast<T>(transform(first[i]));
  }
};

// {i, first[i]}: argmin's and argmax's input.
template <class It, class T>
struct indexed_input {
  It first;
  template <class Offset>
  __device__ indexed<T> operator[](Offset i) const {
    return {static_cast<cuda::std::int64_t>(i), static_cast<T>(first[i])};
  }
};

// {{i, first[i]}, {i, first[i]}}: minmax's input.
template <class It, class T>
struct minmax_input {
  It first;
  template <class Offset>
  __device__ minmax_result<T> operator[](Offset i) const {
    indexed<T> const x{static_cast<cuda::std::int64_t>(i), static_cast<T>(first[i])};
    return {x, x};
  }
};

}  // namespace cascade::detail
