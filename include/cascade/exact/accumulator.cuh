// cascade/exact/accumulator.cuh: exact_plus and reproducible_plus through the accumulator hook
// (detail/meta/accumulator.cuh). A call runs with the op's accumulator as T (exact_plus: the exact sum,
// exact/exact_sum.cuh; reproducible_plus: the binned sum, exact/binned_sum.cuh), its op, and a writer
// that rounds the final state into the output, over a zeroed area (exact_plus's spill, the binned sum's
// atomic bins) that the dispatch provides.
#pragma once

#include <cuda/std/type_traits>

#include "../detail/meta/accumulator.cuh"
#include "../detail/meta/known_op.cuh"
#include "binned_small_sum.cuh"
#include "binned_sum.cuh"
#include "exact_sum.cuh"

namespace cascade::detail {

template <bool Binned>
struct exact_accumulator {
  static constexpr bool is_plain = false;
  // transform_reduce's results are read as double, which holds every result the sums take (float,
  // double, half, bfloat16, 32-bit integers) exactly: exact_plus sums t's own results even into a float
  // (e.g. products of two floats, formed in double: an exact dot product).
  template <class T>
  using transformed_as = double;

  template <class T, class Item>
  struct call {
    static_assert(cuda::std::is_same_v<T, float> || cuda::std::is_same_v<T, double>,
                  "cascade::exact_plus / reproducible_plus: the result type (init's type) must be float or double; "
                  "pass 0.0f or 0.0 as init");
    static_assert(exact::is_item_v<Item>,
                  "cascade::exact_plus / reproducible_plus: the items must be float, double, __half, __nv_bfloat16 "
                  "or integers of at most 32 bits (transform_reduce: the transform's result)");
    // Items that are floats exactly (float, half, bfloat16, integers of at most 16 bits) take the
    // float-grid accumulator (float arithmetic, exact/binned_small_sum.cuh) for both ops: exact_plus's
    // spills what reproducible_plus's drops.
    static constexpr bool is_small = binned::is_small_item_v<Item>;
    static constexpr int levels = Binned ? binned::levels_for<Item> : exact::levels_for<Item>;
    using state = cuda::std::conditional_t<
        is_small, binned::small_state,
        cuda::std::conditional_t<Binned, binned::state<levels>, exact::state<levels>>>;
    using op = cuda::std::conditional_t<
        is_small, binned::small_op_of<!Binned>,
        cuda::std::conditional_t<Binned, binned::op<levels>, exact::op<levels>>>;
    using area = typename op::area_type;
    // a small item's integer levels gain at most 2^21 units an item
    static constexpr long long max_items = is_small ? binned::small_max_items : -1;
    static constexpr char const* name = Binned ? "cascade::reproducible_plus" : "cascade::exact_plus";
    static constexpr char const* too_many =
        ": at most 2^41 items of float, __half, __nv_bfloat16 or integers of 16 bits or fewer in one call, so "
        "that its integer levels cannot overflow; ";
    static constexpr char const* instead =
        Binned ? "split the range and add the results with exact_plus"
               : "convert the items to double (transform_reduce), whose accumulator has no such bound";
    template <class OutIt>
    using writer = exact::result_writer<OutIt, T, state, area>;
    template <class OutIt>
    static writer<OutIt> make_writer(OutIt d_out, area* a, T init) {
      return writer<OutIt>{d_out, a, double(init)};
    }
  };
};

template <>
struct accumulator<exact_plus> : exact_accumulator<false> {};
template <>
struct accumulator<reproducible_plus> : exact_accumulator<true> {};

}  // namespace cascade::detail
