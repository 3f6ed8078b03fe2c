// cascade/default_policy.cuh: the policy reduce(first, last, init[, op]) uses.
//
//   cascade::reduce(cascade::default_policy{}.on(stream), d, d + n, 0.0f);
//
// Not one fixed policy: for each call it looks up the measured tuning table (cascade/tuning/) for the
// device's architecture, the input's item size and the op's kind, and runs the policy that was
// fastest for inputs of that size. Every policy in the tables preserves operand order, so it serves
// non-commutative ops too. Devices of an architecture with no table of its own use the nearest older
// table (the oldest if none is older).
//
// The layer above dispatch: it specializes detail::policy_dispatch for default_policy, so that
// detail/ never includes tuning/.
#pragma once

#include <cuda_runtime_api.h>

#include <cuda/std/cstdint>

#include <iterator>
#include <vector>

#include "detail/device.cuh"
#include "detail/dispatch.cuh"
#include "policy.cuh"
#include "reduce.cuh"
#include "tuning/sm90.cuh"
#include "tuning/table.cuh"

namespace cascade {

struct default_policy {
  // A copy whose work is ordered on `s`.
  constexpr default_policy on(cudaStream_t s) const {
    default_policy p = *this;
    p.stream_ = s;
    return p;
  }
  constexpr cudaStream_t stream() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;  // the legacy default stream
};

template <>
inline constexpr bool is_policy_v<default_policy> = true;

namespace tuning {
// The architectures with a table, oldest first (compute capability x 10).
template <int... Archs>
struct arch_list {};
using tuned_archs = arch_list<90>;
}  // namespace tuning

}  // namespace cascade

namespace cascade::detail {

// The item type the tables are keyed on: the iterator's value type; for the views transform_reduce and
// argmin read through (detail/input_iterators.cuh), the type they read; else the accumulator's.
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

// The table architecture for compute capability `cc` (x 10): the newest one not newer, else the oldest.
template <int First, int... Rest>
int table_arch(tuning::arch_list<First, Rest...>, int cc) {
  int chosen = First;
  ((chosen = Rest <= cc ? Rest : chosen), ...);
  return chosen;
}

// Calls f(ranges{}) with the tuning table default_policy uses on the current device for calls over It
// with accumulator T and op Op.
template <class It, class T, class Op, int... Archs, class F>
void with_tuned_table(tuning::arch_list<Archs...> archs, F&& f) {
  device_info const& device = current_device();  // a clear cuda_error when there is no device
  int const arch = table_arch(archs, device.cc_major * 10 + device.cc_minor);
  constexpr int bytes = tuning::item_bytes_of<typename table_item<It, T>::type>;
  ((arch == Archs ? f(typename tuning::table<Archs, bytes, tuning::op_kind_of<Op>>::type{}) : void()), ...);
}

template <class... Ranges>
void add_table_sizes(tuning::ranges<Ranges...>, std::vector<cuda::std::int64_t>& sizes, cuda::std::int64_t n) {
  cuda::std::int64_t lo = 1;
  std::size_t index = 0;
  auto const add = [&](auto range) {
    using r = decltype(range);
    long long const max_n = ++index == sizeof...(Ranges) ? -1 : r::max_n;  // visit_range: the last takes the rest
    cuda::std::int64_t const hi = max_n < 0 || max_n > n ? n : max_n;
    if (lo <= hi) add_path_sizes<typename r::policy>(sizes, lo, hi);
    lo = max_n < 0 ? n + 1 : max_n + 1;
  };
  (add(Ranges{}), ...);
}

template <>
struct policy_dispatch<default_policy> {
  template <class It, class OutIt, class T, class Op>
  static void run(default_policy const& policy, It first, cuda::std::int64_t n, OutIt d_out, T init, Op op) {
    // A range bounded below 2^31 items never needs 64-bit offsets, so their kernels are not compiled.
    auto const run_range = [&](auto range) {
      using r = decltype(range);
      constexpr bool wide = r::max_n < 0 || r::max_n >= (1ll << 31) - r::policy::tile_size;
      dispatch_policy<typename r::policy, wide>(typename r::policy{}.on(policy.stream()), first, n, d_out, init, op);
    };
    with_tuned_table<It, T, Op>(tuning::tuned_archs{}, [&](auto table) { visit_range(table, n, run_range); });
  }
  template <class It, class T, class Op>
  static void add_sizes(std::vector<cuda::std::int64_t>& sizes, cuda::std::int64_t n) {
    with_tuned_table<It, T, Op>(tuning::tuned_archs{}, [&](auto table) { add_table_sizes(table, sizes, n); });
  }
};

}  // namespace cascade::detail

namespace cascade {

// reduce(first, last[, init][, op]): default_policy on the legacy default stream (reduce.cuh says
// what they compute).
template <class It, class T, class Op>
  requires(!is_policy_v<It>)
T reduce(It first, It last, T init, Op op) {
  return reduce(default_policy{}, first, last, init, op);
}

template <class It, class X>
  requires(!is_policy_v<It>)
auto reduce(It first, It last, X init_or_op) {
  return reduce(default_policy{}, first, last, init_or_op);
}

template <class It>
  requires(!is_policy_v<It>)
detail::input_value_t<It> reduce(It first, It last) {
  return reduce(default_policy{}, first, last, plus{});
}

}  // namespace cascade
