// cascade/exact/exact_partial.cuh: an exact or binned sum held as integers alone, so that partial sums
// made apart (the ranks of a distributed reduce) add exactly and round once.
//
// The area of a call (exact_plus's spill, reproducible_plus's atomic bins) is already a sum of
// integers; add_state adds the call's final state to it as finish::atomic adds a block's, and the area
// alone then holds the call's sum. Areas add word by word: chunks and bins as int64 (wrapping, as the
// atomics do), flags and touched bits or-ed, the binned sum's window the larger. Integer addition is
// exact and order-free, so any number of areas, added in any order and rounded once with init
// (round_area), give bitwise what one call over all their items gives: the rounding of the exact sum
// (exact_plus), or of the items' bits within the largest window (reproducible_plus; finalize drops the
// bins below it, from every area alike).
#pragma once

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include "../detail/kernel/sinks.cuh"
#include "binned_small_sum.cuh"
#include "binned_sum.cuh"
#include "exact_sum.cuh"

namespace cascade::detail {

// ---- the final state into the area -----------------------------------------------------------------

template <int K>
__host__ __device__ inline void add_state(exact::spill_area* spill, exact::state<K> const& s) {
  // An empty state's levels are not values (its window gives no bias): only its flags count.
  for (int k = 0; k <= K && s.window != 0; ++k) exact::add_to_chunks(spill, exact::value(s, k));
  exact::mark(&spill->flags, s.flags);
}
template <int K>
__host__ __device__ inline void add_state(binned::atomic_area* area, binned::state<K> const& s) {
  binned::add_to_area(area, s);
}
__host__ __device__ inline void add_state(binned::atomic_area* area, binned::small_state const& s) {
  binned::add_to_area(area, s);
}
__host__ __device__ inline void add_state(exact::spill_area* spill, binned::small_state const& s) {
  binned::add_to_area(spill, s);
}

// ---- areas added ---------------------------------------------------------------------------------------

__host__ __device__ inline long long wrapping_add(long long a, long long b) {
  return static_cast<long long>(static_cast<cuda::std::uint64_t>(a) + static_cast<cuda::std::uint64_t>(b));
}

struct area_sum {
  __host__ __device__ exact::spill_area operator()(exact::spill_area a, exact::spill_area const& b) const {
    a.flags |= b.flags;
    a.touched[0] |= b.touched[0];
    a.touched[1] |= b.touched[1];
    for (int j = 0; j < exact::chunk_count; ++j) a.chunks[j] = wrapping_add(a.chunks[j], b.chunks[j]);
    return a;
  }
  __host__ __device__ binned::atomic_area operator()(binned::atomic_area a, binned::atomic_area const& b) const {
    a.flags |= b.flags;
    a.touched[0] |= b.touched[0];
    a.touched[1] |= b.touched[1];
    a.window = a.window > b.window ? a.window : b.window;
    for (int j = 0; j < binned::bin_count; ++j) {
      a.value[j] = wrapping_add(a.value[j], b.value[j]);
      a.carry[j] = wrapping_add(a.carry[j], b.carry[j]);
    }
    return a;
  }
};

// ---- the total rounded ----------------------------------------------------------------------------------

// init + the area's sum, rounded once to R (the finalize of State's accumulator, with no state left).
template <class R, class State>
struct round_area {
  double init;
  template <class Area>
  __host__ __device__ R operator()(Area area) const {
    if constexpr (cuda::std::is_same_v<State, binned::small_state>) return binned::finalize<R>(area, State{}, init);
    else if constexpr (cuda::std::is_same_v<Area, binned::atomic_area>) return binned::finalize<R>(area, State{}, init);
    else return exact::finalize<R>(area, State{}, init);
  }
};

// ---- where a call's final state goes: into its area, and the area to a slot ----------------------------

// The last step of a call's finish (one thread): adds the final state to the area, takes the area
// word by word (from L2: other blocks' atomics wrote it), zeroes it for the stream's next call, as a
// rounding would, and writes what it took to `slot` (an Area*, or any output iterator of Area).
template <class State, class Area, class Slot = Area*>
struct area_writer {
  static_assert(sizeof(Area) % sizeof(unsigned long long) == 0, "cascade: an area is made of 8-byte words");
  Area* area;
  Slot slot;
  struct proxy {
    area_writer const& to;
    __device__ proxy const& operator=(State const& s) const {
      add_state(to.area, s);
      Area taken;
      auto* const from = reinterpret_cast<unsigned long long*>(to.area);
      auto* const into = reinterpret_cast<unsigned long long*>(&taken);
      for (unsigned i = 0; i < sizeof(Area) / sizeof(unsigned long long); ++i) {
        into[i] = exact::load_word(from + i);
        from[i] = 0;
      }
      store_value(to.slot, taken);
      return *this;
    }
  };
  __device__ proxy operator*() const { return {*this}; }
};

}  // namespace cascade::detail
