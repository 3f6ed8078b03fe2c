// cascade/array/axes.cuh: which axes of an array an axis reduction folds (reduce_axes.cuh).
//
//   cascade::axes{0}          // the first axis: column sums of a row-major matrix
//   cascade::axes{0, 2}       // PyTorch's dim=(0, 2)
//   cascade::axes{-1}         // the last axis, as PyTorch and NumPy count from the end
//   cascade::axes::all()      // every axis: one result
//   cascade::axes_of<0, 2>{}  // the same set fixed at compile time (repeats fail to compile)
//
// A negative axis counts from the end (-1 is the last). An axis out of range or named twice is
// std::invalid_argument at the call that reads the set against an array's rank.
#pragma once

#include <initializer_list>
#include <stdexcept>
#include <string>

#include "view.cuh"

namespace cascade {

class axes {
 public:
  constexpr axes() = default;
  axes(std::initializer_list<int> list) {
    if (list.size() > static_cast<std::size_t>(max_rank))
      throw std::invalid_argument("cascade::axes: " + std::to_string(list.size()) + " axes; an array has at most " +
                                  std::to_string(max_rank));
    for (int a : list) list_[count_++] = a;
  }
  static axes all() {
    axes a;
    a.all_ = true;
    return a;
  }

  // The set as a bit mask over an array of `rank` axes (bit a: axis a), or std::invalid_argument.
  unsigned mask(int rank, char const* who) const {
    if (all_) return rank == 0 ? 0u : (1u << rank) - 1u;
    unsigned m = 0;
    for (int k = 0; k < count_; ++k) {
      int const given = list_[k];
      int const a = given < 0 ? given + rank : given;
      if (a < 0 || a >= rank)
        throw std::invalid_argument(std::string(who) + ": axis " + std::to_string(given) + " of an array of rank " +
                                    std::to_string(rank) + "; name axes 0.." + std::to_string(rank - 1) +
                                    " (or -1..-" + std::to_string(rank) + " from the end)");
      if (m & (1u << a))
        throw std::invalid_argument(std::string(who) + ": axis " + std::to_string(a) + " is named twice");
      m |= 1u << a;
    }
    return m;
  }

 private:
  int list_[max_rank] = {};
  int count_ = 0;
  bool all_ = false;
};

namespace detail {

template <int... A>
constexpr bool distinct_axes() {
  int const list[] = {A..., 0};
  for (std::size_t i = 0; i < sizeof...(A); ++i)
    for (std::size_t j = i + 1; j < sizeof...(A); ++j)
      if (list[i] == list[j]) return false;
  return true;
}

}  // namespace detail

// A set of axes fixed at compile time; converts to cascade::axes.
template <int... A>
struct axes_of {
  static_assert(sizeof...(A) <= static_cast<std::size_t>(max_rank), "cascade::axes_of: at most 8 axes");
  static_assert(detail::distinct_axes<A...>(), "cascade::axes_of: an axis is named twice; name each once");
  operator axes() const { return axes{A...}; }
};

}  // namespace cascade
