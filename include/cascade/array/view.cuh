// cascade/array/view.cuh: an N-d array as the axis reductions read and write it (reduce_axes.cuh):
// an iterator to its first item, and per axis an extent and a stride in items.
//
//   auto a = cascade::view(d, {rows, cols});                     // row-major (layout_right)
//   auto t = cascade::view(d, {64, 32}, {1, 64});                // any strides (here column-major)
//   auto m = cascade::view(md);                                  // a cuda::std::mdspan (strided layouts)
//   auto b = cascade::view(cuda::make_counting_iterator(0ll), {1 << 20, 1 << 16}, {1 << 16, 1});
//
// Rank 0..8 (cascade::max_rank). Strides may be 0 (an axis that repeats the same items: a broadcast)
// and are not checked for overlap: an input may alias itself, an output must not. The first item is
// at data[0] and item (i0, i1, ...) at data[i0 * stride0 + i1 * stride1 + ...]; any random-access
// iterator is an input (a counting or transform iterator needs no array), a pointer to device memory
// is an output. mdspan's layout_right, layout_left and layout_stride (any layout that is always
// strided) convert, with the default accessor: cuda::std::mdspan, or std::mdspan where the standard
// library has it. This header does not include <cuda/std/mdspan> (the caller that has an mdspan has
// included it; every other includer is spared its compile time): view(m) takes any type with
// mdspan's members.
#pragma once

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include <cstddef>
#include <initializer_list>
#include <stdexcept>
#include <string>

#include "../detail/meta/config.cuh"

namespace cascade {

inline constexpr int max_rank = 8;

template <class It>
struct array_view {
  It data{};
  int rank = 0;
  cuda::std::int64_t extents[max_rank] = {};
  cuda::std::int64_t strides[max_rank] = {};

  // Items the extents span (1 for rank 0).
  cuda::std::int64_t size() const {
    cuda::std::int64_t n = 1;
    for (int a = 0; a < rank; ++a) n *= extents[a];
    return n;
  }
};

namespace detail {

inline void check_view_rank(std::size_t rank, char const* who) {
  if (rank > static_cast<std::size_t>(max_rank))
    throw std::invalid_argument(std::string(who) + ": rank " + std::to_string(rank) + " is above " +
                                std::to_string(max_rank) + "; merge axes that are contiguous first");
}

}  // namespace detail

// A view of `extents` (outermost first) and `strides` (in items, each >= 0), or row-major where the
// strides are left out.
template <class It>
array_view<It> view(It data, std::initializer_list<cuda::std::int64_t> extents,
                    std::initializer_list<cuda::std::int64_t> strides) {
  char const* const who = "cascade::view";
  detail::check_view_rank(extents.size(), who);
  if (strides.size() != extents.size())
    throw std::invalid_argument(std::string(who) + ": " + std::to_string(extents.size()) + " extents and " +
                                std::to_string(strides.size()) + " strides; give one stride an axis");
  array_view<It> v{data, static_cast<int>(extents.size())};
  int a = 0;
  for (auto e : extents) {
    if (e < 0) throw std::invalid_argument(std::string(who) + ": extent " + std::to_string(e) + " is negative");
    v.extents[a++] = e;
  }
  a = 0;
  for (auto s : strides) {
    if (s < 0)
      throw std::invalid_argument(std::string(who) + ": stride " + std::to_string(s) +
                                  " is negative; a negative stride is not supported (start from the last item "
                                  "with a reverse iterator instead)");
    v.strides[a++] = s;
  }
  return v;
}

template <class It>
array_view<It> view(It data, std::initializer_list<cuda::std::int64_t> extents) {
  detail::check_view_rank(extents.size(), "cascade::view");
  cuda::std::int64_t strides[max_rank];
  cuda::std::int64_t step = 1;
  int a = static_cast<int>(extents.size());
  for (auto it = extents.end(); it != extents.begin();) {
    --it;
    strides[--a] = step;
    step *= *it > 0 ? *it : 1;
  }
  array_view<It> v{data, static_cast<int>(extents.size())};
  a = 0;
  for (auto e : extents) {
    if (e < 0) throw std::invalid_argument("cascade::view: extent " + std::to_string(e) + " is negative");
    v.extents[a] = e;
    v.strides[a] = strides[a];
    ++a;
  }
  return v;
}

namespace detail {

// An mdspan (cuda::std's or std's): its members as the standard names them.
template <class M>
concept mdspan_like = requires(M const& m, std::size_t r) {
  typename M::extents_type;
  typename M::mapping_type;
  typename M::accessor_type;
  M::rank();
  M::mapping_type::is_always_strided();
  m.data_handle();
  m.extent(r);
  m.stride(r);
};

// mdspan's default_accessor, told by what it is: an empty accessor whose handle is a pointer to the
// element and whose reference is the element's (an accessor that transforms items is not).
template <class A>
inline constexpr bool plain_accessor_v =
    cuda::std::is_empty_v<A> && cuda::std::is_same_v<typename A::data_handle_type, typename A::element_type*> &&
    cuda::std::is_same_v<typename A::reference, typename A::element_type&> &&
    cuda::std::is_same_v<typename A::offset_policy, A>;

}  // namespace detail

template <detail::mdspan_like M>
array_view<typename M::accessor_type::data_handle_type> view(M const& m) {
  static_assert(detail::plain_accessor_v<typename M::accessor_type>,
                "cascade::view: the mdspan's accessor is not cuda::std::default_accessor; for an accessor that "
                "transforms items, view its data handle and pass the transform to transform_reduce_axes");
  static_assert(M::mapping_type::is_always_strided(),
                "cascade::view: the mdspan's layout is not strided; use layout_right, layout_left or layout_stride");
  static_assert(M::rank() <= static_cast<std::size_t>(max_rank),
                "cascade::view: rank above 8 (cascade::max_rank); merge contiguous axes first");
  array_view<typename M::accessor_type::data_handle_type> v{m.data_handle(), static_cast<int>(M::rank())};
  for (std::size_t a = 0; a < M::rank(); ++a) {
    v.extents[a] = static_cast<cuda::std::int64_t>(m.extent(a));
    v.strides[a] = static_cast<cuda::std::int64_t>(m.stride(a));
  }
  return v;
}

template <class It>
array_view<It> view(array_view<It> const& v) {
  return v;
}

}  // namespace cascade
