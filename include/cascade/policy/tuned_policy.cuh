// cascade/policy/tuned_policy.cuh: the policy that runs one GPU class's tuning table, whatever the device.
//
//   cascade::reduce(cascade::tuned_policy<cascade::tuning::sm90_h100>{}.on(stream), d, d + n, 0.0f);
//
// default_policy chooses the table by the device at run time and compiles every table's policies
// into each call; tuned_policy<Class> compiles only Class's, and runs them on any device: for a fleet of
// one GPU, for a GPU whose bandwidth puts it in the other class than its best table, or to measure one
// table against another on the same GPU (cascade-rivals does).
//
// The layer above dispatch: it specializes detail::policy_dispatch, so that detail/ never includes
// tuning/.
#pragma once

#include <cuda_runtime_api.h>

#include <cuda/std/cstdint>

#include <cstddef>
#include <iterator>
#include <vector>

#include "../detail/dispatch.cuh"
#include "policy.cuh"
#include "../reduce.cuh"
#include "../tuning/table.cuh"

namespace cascade {

template <class Class>
struct tuned_policy : detail::on_stream<tuned_policy<Class>> {
  static_assert(requires { Class::arch; Class::min_gbs; },
                "cascade::tuned_policy<Class>: Class is a GPU class with a tuning table, e.g. "
                "cascade::tuning::sm90_h200 (cascade/tuning/gpus.cuh lists them)");
  using gpu_class = Class;
};

template <class Class>
inline constexpr bool is_policy_v<tuned_policy<Class>> = true;

}  // namespace cascade

namespace cascade::detail {

// The item type the tables are keyed on: the iterator's value type; for the views transform_reduce and
// argmin read through (detail/kernel/input_iterators.cuh), the type they read; else the accumulator's.
template <class It, class T>
struct table_item {
  using type = T;
};
template <class It, class T>
  requires requires { typename std::iterator_traits<It>::value_type; }
struct table_item<It, T> {
  using type = typename std::iterator_traits<It>::value_type;
};
template <class It, class T>
  requires requires { typename It::read_type; }
struct table_item<It, T> {
  using type = typename It::read_type;
};

// Class's table entry for calls over It with accumulator T and op Op: a tuning::ranges<...>.
template <class Class, class It, class T, class Op>
using table_entry_t =
    typename tuning::table<Class, tuning::item_bytes_of<typename table_item<It, T>::type>,
                         tuning::op_kind_of<Op, T>>::type;

// Whether a range's calls may need 64-bit offsets: one bounded below 2^31 items on every device never
// does, so their kernels are not compiled.
template <class Range>
inline constexpr bool range_is_wide = Range::most < 0 || Range::most >= (1ll << 31) - Range::policy::tile_size;

// Runs (or sizes) the entry's policy for n items (the layer below: dispatch_policy).
template <class It, class OutIt, class T, class Op, class... Ranges>
void run_table(tuning::ranges<Ranges...> entry, launch_context const& call, It first, cuda::std::int64_t n,
               OutIt d_out, T init, Op op) {
  visit_range(entry, call.device(), n, [&](auto range) {
    using r = decltype(range);
    dispatch_policy<typename r::policy, range_is_wide<r>>(call, first, n, d_out, init, op);
  });
}

// The sizes of the scratch and flags the entry's policies need for n items (detail/dispatch.cuh).
template <class... Ranges>
void add_table_sizes(tuning::ranges<Ranges...>, std::vector<cuda::std::int64_t>& sizes, cuda::std::int64_t n) {
  cuda::std::int64_t lo = 1;
  std::size_t index = 0;
  auto const add = [&](auto range) {
    using r = decltype(range);
    long long const max_n = ++index == sizeof...(Ranges) ? -1 : range_bound<r>();  // visit_range: the last takes the rest
    cuda::std::int64_t const hi = max_n < 0 || max_n > n ? n : max_n;
    if (lo <= hi) add_path_sizes<typename r::policy>(sizes, lo, hi);
    lo = max_n < 0 ? n + 1 : max_n + 1;
  };
  (add(Ranges{}), ...);
}

template <class Class>
struct policy_dispatch<tuned_policy<Class>> {
  template <class It, class OutIt, class T, class Op>
  static void run(launch_context const& call, tuned_policy<Class> const&, It first, cuda::std::int64_t n, OutIt d_out,
                  T init, Op op) {
    run_table(table_entry_t<Class, It, T, Op>{}, call, first, n, d_out, init, op);
  }
  template <class It, class T, class Op>
  static void add_sizes(std::vector<cuda::std::int64_t>& sizes, cuda::std::int64_t n) {
    add_table_sizes(table_entry_t<Class, It, T, Op>{}, sizes, n);
  }
};

}  // namespace cascade::detail
