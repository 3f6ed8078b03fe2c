// cascade/policy/default_policy.cuh: the policy reduce(first, last, init[, op]) uses.
//
//   cascade::reduce(cascade::default_policy{}.on(stream), d, d + n, 0.0f);
//
// Not one fixed policy: for each call it looks up the measured tuning table (cascade/tuning/) of the
// device's GPU class (its architecture and memory bandwidth, read once per device), the input's item
// size and the op's kind, and runs the policy that was fastest for inputs of that size. Every policy in
// the tables preserves operand order, so it serves non-commutative ops too. A device uses a table of
// its own architecture (of its classes, the fastest whose bandwidth it has) when the calling file's
// code for it was compiled for that architecture; any other device, or code compiled for an older
// architecture (run through PTX), uses the portable table, whose choices follow from the device's SM
// count and resident threads (tuning/portable.cuh). It compiles every class's policies into each
// call; tuned_policy<Class> runs one class's table alone.
//
// The layer above tuned_policy: it specializes detail::policy_dispatch for default_policy.
#pragma once

#include <cuda_runtime_api.h>

#include <cuda/std/cstdint>

#include <iterator>
#include <vector>

#include "../detail/runtime/device.cuh"
#include "../detail/dispatch.cuh"
#include "policy.cuh"
#include "../reduce.cuh"
#include "tuned_policy.cuh"
#include "../tuning/gpus.cuh"
#include "../tuning/table.cuh"

namespace cascade::detail {

// Calls f(Class{}) with the GPU class whose table `device` (the current one) uses (tuning/gpus.cuh): a
// measured one, or tuning::portable.
template <class... Classes, class F>
void with_device_class(tuning::gpu_list<Classes...> gpus, device_info const& device, F&& f) {
  int const cc = device.cc_major * 10 + device.cc_minor;
  int const chosen = gpu_class_index(gpus, cc, device.memory_gbs, running_arch(cc));
  if (chosen < 0) return f(tuning::portable{});
  int index = 0;
  ((index++ == chosen ? f(Classes{}) : void()), ...);
}

template <>
struct policy_dispatch<default_policy> {
  template <class It, class OutIt, class T, class Op>
  static void run(launch_context const& call, default_policy const&, It first, cuda::std::int64_t n, OutIt d_out,
                  T init, Op op) {
    with_device_class(tuning::tuned_gpus{}, call.device(), [&](auto gpu) {
      run_table(table_entry_t<decltype(gpu), It, T, Op>{}, call, first, n, d_out, init, op);
    });
  }
  template <class It, class T, class Op>
  static void add_sizes(std::vector<cuda::std::int64_t>& sizes, cuda::std::int64_t n) {
    with_device_class(tuning::tuned_gpus{}, current_device(),
                      [&](auto gpu) { add_table_sizes(table_entry_t<decltype(gpu), It, T, Op>{}, sizes, n); });
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
