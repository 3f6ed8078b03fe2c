// cascade/detail/arg_call.cuh: argmin, argmax and minmax described once, for their one-range,
// segmented and distributed forms: the op (arg_min, arg_max, arg_min_max: ops/indexed.cuh), the
// identities it starts from (checked here, with one message), the initial pair and the view that
// pairs each item with its position.
#pragma once

#include <cuda/std/cstdint>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

#include "../ops/identity.cuh"
#include "../ops/indexed.cuh"
#include "../ops.cuh"
#include "kernel/input_iterators.cuh"

namespace cascade::detail {

// ArgOp: arg_min, arg_max, arg_min_max or arg_min_last_max; T: the value type; Index: the pairs'
// index (int32 where the call has fewer than 2^31 items: narrow_index_fits).
template <class ArgOp, class T, class Index = cuda::std::int64_t>
struct arg_call {
  static constexpr bool both = cuda::std::is_same_v<ArgOp, arg_min_max> || cuda::std::is_same_v<ArgOp, arg_min_last_max>;
  static constexpr bool lowest = both || cuda::std::is_same_v<ArgOp, arg_min>;
  static constexpr bool highest = both || cuda::std::is_same_v<ArgOp, arg_max>;
  using result = cuda::std::conditional_t<both, minmax_result<T, Index>, indexed<T, Index>>;

  // Whether T has the identities the call starts from (minimum's for argmin, maximum's for argmax):
  // the entry points instantiate the call only when it does, so the message below is the only one.
  static constexpr bool identities_ok() {
    constexpr bool ok = (!lowest || has_identity_v<minimum, T>) && (!highest || has_identity_v<maximum, T>);
    static_assert(ok, "cascade::argmin/argmax/minmax: the value type needs an identity for minimum (argmin) and "
                      "maximum (argmax) to start from; specialize cascade::identity<cascade::minimum, T> (and "
                      "maximum) for it");
    return ok;
  }

  // {no position, the identity of the extremum}: what an empty range (segment, shard) gives.
  static result init() {
    if constexpr (both)
      return {{no_index_of<Index>, identity<minimum, T>::value()}, {no_index_of<Index>, identity<maximum, T>::value()}};
    else if constexpr (lowest)
      return {no_index_of<Index>, identity<minimum, T>::value()};
    else
      return {no_index_of<Index>, identity<maximum, T>::value()};
  }
  // The items of [first, ...) with their positions, as the op takes them.
  template <class It>
  static auto input(It first) {
    if constexpr (both) return minmax_input<It, T, Index>{first};
    else return indexed_input<It, T, Index>{first};
  }
};

// Whether n items take int32 indices: every index, and no_index_of<int32>, then fit.
inline bool narrow_index_fits(cuda::std::int64_t n) { return n < cuda::std::int64_t(cuda::std::numeric_limits<cuda::std::int32_t>::max()); }

}  // namespace cascade::detail
