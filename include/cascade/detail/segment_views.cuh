// cascade/detail/segment_views.cuh: what segmented_transform_reduce and segmented_argmin/argmax put
// around segmented_reduce's input and output. made_iterator reads item i as make(i, first[i]) (t(x),
// or {i, x}) and moves as an iterator, so every owner (which reads first[i], or (first + begin)[k])
// sees the same absolute index; relative_index_out turns that index into the offset within segment s
// as it writes d_out[s] (CUB's ArgMin/ArgMax shape), -1 for an empty segment.
#pragma once

#include <cuda/std/cstdint>

#include <iterator>

#include "../ops/indexed.cuh"
#include "kernel/sinks.cuh"

namespace cascade::detail {

template <class It, class Make, class V>
struct made_iterator {
  using value_type = V;
  using difference_type = long long;
  using reference = V;
  using pointer = void;
  using iterator_category = std::random_access_iterator_tag;
  It first;
  Make make;
  long long at = 0;
  __host__ __device__ V operator[](long long k) const { return make(at + k, first[at + k]); }
  __host__ __device__ V operator*() const { return (*this)[0]; }
  __host__ __device__ made_iterator operator+(long long k) const { return {first, make, at + k}; }
};

template <class T, class F>
struct apply_transform {
  F f;
  template <class X>
  __host__ __device__ T operator()(long long, X const& x) const { return static_cast<T>(f(x)); }
};

template <class T>
struct with_index {
  template <class X>
  __host__ __device__ indexed<T> operator()(long long i, X const& x) const { return {i, static_cast<T>(x)}; }
};

// Slot s of d_out: takes an absolute index, stores it relative to segment s's begin.
template <class OutIt, class Segments>
struct relative_index_out {
  OutIt out;
  Segments segments;
  long long at = 0;

  __host__ __device__ relative_index_out operator+(long long k) const { return {out, segments, at + k}; }
  __host__ __device__ relative_index_out const& operator*() const { return *this; }
  template <class T>
  __device__ relative_index_out const& operator=(indexed<T> const& v) const {
    store_value(out + at, indexed<T>{v.index == detail::no_index ? -1 : v.index - segments(at).begin, v.value});
    return *this;
  }
};

}  // namespace cascade::detail
