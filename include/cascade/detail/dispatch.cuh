// cascade/detail/dispatch.cuh: between the public API and the kernels. Looks default_policy up in the
// tuning tables, resolves the policy for the op (tree choosers, operand-order checks), checks the
// device, handles the empty range, picks the offset type and hands the rest to the policy's
// finishing strategy.
#pragma once

#include <cuda_runtime_api.h>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include <algorithm>
#include <iterator>
#include <vector>

#include "../default_policy.cuh"
#include "../finish/tag.cuh"
#include "../policy.cuh"
#include "../tuning/table.cuh"
#include "device.cuh"
#include "kernels.cuh"
#include "memory_check.cuh"

namespace cascade::detail {

// The item type the tables are keyed on: the iterator's value type, or the accumulator's for cascade's
// own internal iterators, which have none.
template <class It, class T>
struct table_item {
  using type = T;
};
template <class It, class T>
  requires requires { typename std::iterator_traits<It>::value_type; }
struct table_item<It, T> {
  using type = typename std::iterator_traits<It>::value_type;
};

// The table architecture for compute capability `cc` (x 10): the newest one not newer, else the oldest.
template <int First, int... Rest>
int table_arch(tuning::arch_list<First, Rest...>, int cc) {
  int chosen = First;
  ((chosen = Rest <= cc ? Rest : chosen), ...);
  return chosen;
}

template <class Policy, class It, class OutIt, class T, class Op>
void dispatch_reduce_into(Policy const& policy, It first, cuda::std::int64_t n, OutIt d_out, T init, Op op);
template <class Policy, bool Wide = true, class It, class OutIt, class T, class Op>
void dispatch_policy(Policy const& policy, It first, cuda::std::int64_t n, OutIt d_out, T init, Op op);

// Calls f(ranges{}) with the tuning table default_policy uses on the current device for calls over It
// with accumulator T and op Op.
template <class It, class T, class Op, int... Archs, class F>
void with_tuned_table(tuning::arch_list<Archs...> archs, F&& f) {
  device_info const& device = current_device();  // a clear cuda_error when there is no device
  int const arch = table_arch(archs, device.cc_major * 10 + device.cc_minor);
  constexpr int bytes = tuning::item_bytes_of<typename table_item<It, T>::type>;
  ((arch == Archs ? f(typename tuning::table<Archs, bytes, tuning::op_kind_of<Op>>::type{}) : void()), ...);
}

template <class It, class OutIt, class T, class Op>
void dispatch_tuned(default_policy const& policy, It first, cuda::std::int64_t n, OutIt d_out, T init, Op op) {
  // A range bounded below 2^31 items never needs 64-bit offsets, so their kernels are not compiled.
  auto const run = [&](auto range) {
    using r = decltype(range);
    constexpr bool wide = r::max_n < 0 || r::max_n >= (1ll << 31) - r::policy::tile_size;
    dispatch_policy<typename r::policy, wide>(typename r::policy{}.on(policy.stream()), first, n, d_out, init, op);
  };
  with_tuned_table<It, T, Op>(tuning::tuned_archs{}, [&](auto table) { visit_range(table, n, run); });
}

template <class Policy, class It, class OutIt, class T, class Op>
void dispatch_reduce_into(Policy const& policy, It first, cuda::std::int64_t n, OutIt d_out, T init, Op op) {
  static_assert(is_policy_v<Policy>,
                "cascade: the first argument must be a cascade::policy<BlockSize, CoarseFactor, Tree, Finish>, "
                "e.g. cascade::default_policy{}");
  static_assert(cuda::std::is_trivially_copyable_v<T> && cuda::std::is_default_constructible_v<T>,
                "cascade: the accumulator type (the type of init) must be trivially copyable and default "
                "constructible, as it lives in registers and shared memory");
  if constexpr (cuda::std::is_same_v<Policy, default_policy>) {
    dispatch_tuned(policy, first, n, d_out, init, op);
  } else {
    dispatch_policy(policy, first, n, d_out, init, op);
  }
}

// Sizes at which calls of 1..hi items under Policy (those of lo..hi) take every path dispatch_policy
// and the finishes have: the first, one tile, one tile and one item, the last, and both sides of the
// switch to 64-bit offsets. prepare() (prepare.cuh) captures a call at each.
template <class Policy>
void add_path_sizes(std::vector<cuda::std::int64_t>& sizes, cuda::std::int64_t lo, cuda::std::int64_t hi) {
  constexpr cuda::std::int64_t tile = Policy::tile_size;
  constexpr cuda::std::int64_t narrow_max = ((cuda::std::int64_t(1) << 32) - tile - 1) / 2;  // see dispatch_policy
  for (cuda::std::int64_t n : {lo, hi, tile, tile + 1, narrow_max, narrow_max + 1})
    if (n >= lo && n <= hi) sizes.push_back(n);
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

// Every size whose call takes a path (kernel) that no other of them takes, among calls of 0..n items.
template <class Policy, class It, class T, class Op>
std::vector<cuda::std::int64_t> path_sizes(cuda::std::int64_t n) {
  std::vector<cuda::std::int64_t> sizes = {0};
  if constexpr (cuda::std::is_same_v<Policy, default_policy>) {
    with_tuned_table<It, T, Op>(tuning::tuned_archs{}, [&](auto table) { add_table_sizes(table, sizes, n); });
  } else {
    add_path_sizes<Policy>(sizes, 1, n);
  }
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

template <class Policy, bool Wide, class It, class OutIt, class T, class Op>
void dispatch_policy(Policy const& policy, It first, cuda::std::int64_t n, OutIt d_out, T init, Op op) {
  using resolved = cascade::policy<Policy::block_size, Policy::coarse_factor, resolve_tree_t<typename Policy::tree_type, Op>,
                          typename Policy::finish_type>;
  static_assert(tree_order_check<typename resolved::tree_type, Op>::value &&
                finish_order_check<typename resolved::finish_type, Op>::value);
  static_assert(!resolved::tree_type::per_thread_results || resolved::finish_type::accepts_per_thread_results,
                "cascade: tree::none sends every thread's value straight to the finish, and only finish::atomic "
                "combines those; pair tree::none with finish::atomic, or pick another tree (e.g. tree::shuffle)");
  cudaStream_t const stream = policy.stream();
  current_device();  // a clear cuda_error when there is no device
  // before any launch: a kernel that faults on a host pointer would end the CUDA context
  check_device_accessible(d_out, "the output (d_out)");
  if (n > 0) check_device_accessible(first, "the input");
  if (n == 0) {
    launch_write_value(d_out, init, stream);
    return;
  }
  using finish = finish_dispatch<typename resolved::finish_type>;
  // 32-bit offsets are cheaper in the tile loop; they must hold n plus one grid stride past it.
  auto const n64 = static_cast<cuda::std::uint64_t>(n);
  if (!Wide || 2 * n64 + static_cast<cuda::std::uint64_t>(Policy::tile_size) < (cuda::std::uint64_t(1) << 32))
    finish::template run<resolved>(first, static_cast<cuda::std::uint32_t>(n), d_out, init, op, stream);
  else if constexpr (Wide)
    finish::template run<resolved>(first, n64, d_out, init, op, stream);
}

}  // namespace cascade::detail
