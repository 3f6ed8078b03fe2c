// cascade/detail/dispatch.cuh: between the public API and the finishes. For a policy named by the
// caller: resolves the tree for the op (tree choosers), checks operand order and the tree-finish
// pairing, checks the pointers, handles the empty range and the input that fits one tile (one block,
// for every finish), picks the offset type and hands the rest to the policy's finishing strategy. A
// call carries a launch_context (runtime/launch_context.cuh) from its entry point down: the device,
// read once, and whether it launches or is being sized for the caller's temporary storage (CUB's
// two-phase shape), which runs this same path. policy/default_policy.cuh, the layer above,
// specializes policy_dispatch to look its policy up in the tuning tables first; nothing here knows
// about tuning, nor about any op's own accumulator but through meta/accumulator.cuh.
#pragma once

#include <cuda_runtime_api.h>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "../finish/tag.cuh"
#include "../ops.cuh"
#include "../policy/policy.cuh"
#include "../tree/tag.cuh"
#include "meta/accumulator.cuh"
#include "meta/arch.cuh"
#include "runtime/device.cuh"
#include "runtime/launch_context.cuh"
#include "kernel/arguments.cuh"
#include "kernel/device_held.cuh"
#include "kernel/kernels.cuh"
#include "runtime/memory_check.cuh"
#include "meta/op_call.cuh"
#include "runtime/scratch.cuh"
#include "runtime/scratch_source.cuh"
#include "kernel/sinks.cuh"
#include "runtime/stream_state.cuh"

namespace cascade::detail {

// Policy with its tree resolved for Op (tree::by_commutativity picks one).
template <class Policy, class Op>
using resolved_policy_t = cascade::policy<Policy::block_size, Policy::coarse_factor,
                                          resolve_tree_t<typename Policy::tree_type, Op>, typename Policy::finish_type>;

// Whether n items (n >= 1) take the one-tile path: a single block folds them and writes
// op(init, result); one launch, no scratch, whatever the finish. Not for per-thread trees.
template <class Resolved>
constexpr bool takes_one_tile(cuda::std::int64_t n) {
  return !Resolved::tree_type::per_thread_results && n <= Resolved::tile_size;
}

// f(n) with n as the offset type the finish gets. 32-bit offsets are cheaper in the tile loop; they
// must hold n plus one grid stride past it. Wide = false: callers whose n never needs 64 bits (a
// tuning range's bound) compile no 64-bit kernels.
template <class Policy, bool Wide, class F>
decltype(auto) with_offset(cuda::std::int64_t n, F&& f) {
  auto const n64 = static_cast<cuda::std::uint64_t>(n);
  if constexpr (Wide)
    if (2 * n64 + static_cast<cuda::std::uint64_t>(Policy::tile_size) >= (cuda::std::uint64_t(1) << 32)) return f(n64);
  return f(static_cast<cuda::std::uint32_t>(n));
}

// The finish's run. A finish of the earlier shape (run(first, n, d_out, init, op, stream), with
// scratch_bytes(n) to size it: finish/tag.cuh) is called through this adapter for one release.
template <class Finish, class Resolved, class It, class Offset, class OutIt, class T, class Op>
void run_finish(launch_context const& call, It first, Offset n, OutIt d_out, T init, Op op) {
  using dispatch = finish_dispatch<Finish>;
  if constexpr (requires { dispatch::template run<Resolved>(call, first, n, d_out, init, op); }) {
    dispatch::template run<Resolved>(call, first, n, d_out, init, op);
  } else if (call.launches()) {
    dispatch::template run<Resolved>(first, n, d_out, init, op, call.stream());
  } else if constexpr (requires { dispatch::template scratch_bytes<Resolved, It, Offset, OutIt, T, Op>(n); }) {
    call.add_sized_bytes(dispatch::template scratch_bytes<Resolved, It, Offset, OutIt, T, Op>(n));
  } else {
    throw std::invalid_argument(std::string("cascade: ") + Finish::name +
                                " has the earlier run(first, n, d_out, init, op, stream) and no scratch_bytes(n), so "
                                "a call cannot be sized for the caller's temporary storage; give it "
                                "run(launch_context const&, first, n, d_out, init, op) (finish/tag.cuh), or pass a "
                                "memory resource instead of d_temp_storage");
  }
}

// dispatch_policy's call whose count and init are the host's: the empty range, one tile, or the finish.
template <class Policy, bool Wide, class It, class OutIt, class T, class Op>
void dispatch_host_held(launch_context const& call, It first, cuda::std::int64_t n, OutIt d_out, T init, Op op) {
  using resolved = resolved_policy_t<Policy, Op>;
  using tree = typename resolved::tree_type;
  using finish = typename resolved::finish_type;
  cudaStream_t const stream = call.stream();
  if (n == 0) {
    if (call.launches()) launch_write_value(d_out, init, stream);
    return;
  }
  if constexpr (!tree::per_thread_results) {  // (no one-tile kernel compiled for per-thread trees)
    if (takes_one_tile<resolved>(n)) {
      if (call.launches())
        launch_reduce_tiles<resolved, T>(first, static_cast<cuda::std::uint32_t>(n), op,
                                         store_result<OutIt, T, Op>{d_out, init, op}, 1, stream);
      return;
    }
  }
  with_offset<Policy, Wide>(n, [&](auto offset_n) {
    run_finish<finish, resolved>(call, first, offset_n, d_out, init, op);
  });
}

template <class Policy, bool Wide = true, class It, class OutIt, class T, class Op>
void dispatch_policy(launch_context const& call, It first, cuda::std::int64_t n, OutIt d_out, T init, Op op) {
  using resolved = resolved_policy_t<Policy, Op>;
  using tree = typename resolved::tree_type;
  using finish = typename resolved::finish_type;
  static_assert(tree_order_ok<tree, Op> && finish_order_ok<finish, Op> && pairing_ok<tree, finish>);
  if (call.launches()) {
    // before any launch: a kernel that faults on a host pointer would end the CUDA context
    check_device_accessible(d_out, "the output (d_out)");
    if (n > 0) check_device_accessible(first, "the input");
  }
  if constexpr (is_held_output_v<OutIt>) {  // the device holds the count (n is its bound) or init
    with_offset<Policy, Wide>(n, [&](auto offset_n) { run_held<resolved>(call, first, offset_n, d_out, init, op); });
  } else {
    dispatch_host_held<Policy, Wide>(call, first, n, d_out, init, op);
  }
}

// Sizes at which calls of lo..hi items under Policy take every path dispatch_policy and the finishes
// have: the first, one tile, one tile and one item, the last, and both sides of the switch to 64-bit
// offsets. prepare() (memory/prepare.cuh) captures a call at each.
template <class Policy>
void add_path_sizes(std::vector<cuda::std::int64_t>& sizes, cuda::std::int64_t lo, cuda::std::int64_t hi) {
  constexpr cuda::std::int64_t tile = Policy::tile_size;
  constexpr cuda::std::int64_t narrow_max = ((cuda::std::int64_t(1) << 32) - tile - 1) / 2;  // see dispatch_policy
  for (cuda::std::int64_t n : {lo, hi, tile, tile + 1, narrow_max, narrow_max + 1})
    if (n >= lo && n <= hi) sizes.push_back(n);
}

// How calls under Policy are dispatched: a policy's own parameters. policy/default_policy.cuh specializes it.
template <class Policy>
struct policy_dispatch {
  static_assert(!cuda::std::is_same_v<Policy, default_policy>,
                "cascade: default_policy's dispatch reads the tuning tables: include <cascade/policy/default_policy.cuh> "
                "(or <cascade/cascade.cuh>) where reduce, reduce_into or an algorithm on them runs with it");
  // A strategy named by hand must have its own code in some target of this file (a tuning table's
  // may fall back: default_policy specializes this template).
  static constexpr void check_compiled() {
    static_assert(is_compiled_v<typename Policy::tree_type>,
                  "cascade: the policy's tree needs a newer architecture than every target this file is "
                  "compiled for (tree::redux: 8.0): add one (nvcc -arch=sm_80 or later, or -gencode, or "
                  "CMake's CUDA_ARCHITECTURES), or name tree::shuffle, which runs everywhere");
    static_assert(is_compiled_v<typename Policy::finish_type>,
                  "cascade: the policy's finish needs a newer architecture than every target this file is "
                  "compiled for (finish::cluster: 9.0): add one (nvcc -arch=sm_90 or later, or -gencode, or "
                  "CMake's CUDA_ARCHITECTURES), or name finish::last_block, which runs everywhere");
  }
  template <class It, class OutIt, class T, class Op>
  static void run(launch_context const& call, Policy const&, It first, cuda::std::int64_t n, OutIt d_out, T init,
                  Op op) {
    check_compiled();
    dispatch_policy<Policy>(call, first, n, d_out, init, op);
  }
  template <class It, class T, class Op>
  static void add_sizes(std::vector<cuda::std::int64_t>& sizes, cuda::std::int64_t n) {
    add_path_sizes<Policy>(sizes, 1, n);
  }
};

// The item type of an input iterator (a device_reference: its value).
template <class It>
using input_item_t = item_value_t<decltype(cuda::std::declval<It const&>()[0])>;

// A call under an op with its own accumulator (meta/accumulator.cuh): its description for init's type
// and the input's items.
template <class It, class T, class Op>
using accumulated_call = typename accumulator<Op>::template call<T, input_item_t<It>>;

// [first, first + n) folded into the accumulator of Op, in the call's area (the stream's own, which the
// writer zeroes again, else one in scratch and a memset), the final state given to make_writer(area)'s
// writer: dispatch_accumulated_into rounds it into d_out; the distributed reduce keeps it for the other
// ranks (distributed/plans.cuh).
template <class Policy, class It, class T, class Op, class MakeWriter>
void dispatch_accumulated_with(launch_context const& context, Policy const& policy, It first, cuda::std::int64_t n,
                               MakeWriter const& make_writer) {
  using call = accumulated_call<It, T, Op>;
  using area_type = typename call::area;
  if (call::max_items >= 0 && n > call::max_items)
    throw std::invalid_argument(std::string(call::name) + call::too_many + call::instead);
  static_assert(sizeof(area_type) <= stream_state::spill_bytes,
                "cascade: an accumulator's area (exact_plus's spill, reproducible_plus's atomic bins) outgrew the "
                "stream state's room for it; raise stream_state::spill_bytes");
  if constexpr (requires { Policy::finish_type::folds_on_host; })
    static_assert(!Policy::finish_type::folds_on_host,
                  "cascade::exact_plus / reproducible_plus: finish::host folds on the host, which cannot add to "
                  "the device's exact accumulator; use any other finish");
  stream_state const own = context.state();
  auto const run = [&](area_type* area) {
    policy_dispatch<Policy>::run(context, policy, first, n, make_writer(area), typename call::state{},
                                 typename call::op{area});
  };
  if (own.spill != nullptr) return run(static_cast<area_type*>(own.spill));
  scratch_buffer const spill = context.scratch(sizeof(area_type), call::name);
  if (context.launches())
    check_cuda(cudaMemsetAsync(spill.as<void>(), 0, sizeof(area_type), context.stream()),
               "cudaMemsetAsync (the accumulator's area)");
  run(spill.as<area_type>());
}

template <class Policy, class It, class OutIt, class T, class Op>
void dispatch_accumulated_into(launch_context const& context, Policy const& policy, It first, cuda::std::int64_t n,
                               OutIt d_out, T init) {
  using call = accumulated_call<It, T, Op>;
  if (context.launches()) check_device_accessible(d_out, "the output (d_out)");
  dispatch_accumulated_with<Policy, It, T, Op>(context, policy, first, n, [&](typename call::area* area) {
    return call::make_writer(d_out, area, init);
  });
}

// Whether Policy can run reduce and the algorithms on it; says what to change when not.
template <class Policy>
constexpr bool policy_ok() {
  static_assert(is_policy_v<Policy>,
                "cascade: the first argument must be a cascade::policy<BlockSize, CoarseFactor, Tree, Finish>, "
                "e.g. cascade::default_policy{}");
  static_assert(!is_segmented_policy_v<Policy>,
                "cascade: the policy names a segment owner, which segmented_reduce and batched_reduce take; reduce "
                "and the algorithms on it need a finish in its place, e.g. cascade::finish::last_block");
  return is_policy_v<Policy> && !is_segmented_policy_v<Policy>;
}

// The call under `context`: launched, or sized (launch_context.cuh).
template <class Policy, class It, class OutIt, class T, class Op>
void dispatch_reduce_into(launch_context const& context, Policy const& policy, It first, cuda::std::int64_t n,
                          OutIt d_out, T init, Op op) {
  if constexpr (!policy_ok<Policy>()) {
    return;
  } else if constexpr (is_cccl_op_v<Op, T>) {
    // CCCL's function objects run as the cascade op they name (detail/meta/known_op.cuh): cuda::minimum's
    // `a < b ? a : b` depends on the grouping once NaN is in the data; cascade::minimum does not.
    dispatch_reduce_into(context, policy, first, n, d_out, init, known_op_t<Op, T>{});
  } else if constexpr (!is_plain_accumulator_v<Op>) {
    if constexpr (input_ok<It>()) dispatch_accumulated_into<Policy, It, OutIt, T, Op>(context, policy, first, n, d_out, init);
  } else {
    if constexpr (arguments_ok<It, T, Op>()) policy_dispatch<Policy>::run(context, policy, first, n, d_out, init, op);
  }
}

// The call, launched on the policy's stream; the device is read here, once.
template <class Policy, class It, class OutIt, class T, class Op>
void dispatch_reduce_into(Policy const& policy, It first, cuda::std::int64_t n, OutIt d_out, T init, Op op) {
  if constexpr (policy_ok<Policy>())
    dispatch_reduce_into(launch_context(policy.stream(), current_device()), policy, first, n, d_out, init, op);
}

// Every size whose call takes a path (kernel) that no other of them takes, among calls of 0..n items.
template <class It, class T, class Op, class Policy>
std::vector<cuda::std::int64_t> path_sizes(Policy const&, cuda::std::int64_t n) {
  std::vector<cuda::std::int64_t> sizes = {0};
  policy_dispatch<Policy>::template add_sizes<It, T, known_op_t<Op, T>>(sizes, n);
  // a few dozen sizes: sorted by insertion, repeats dropped (no <algorithm>: C++20's costs every
  // including file more compile time than the rest of this header)
  std::vector<cuda::std::int64_t> sorted;
  for (cuda::std::int64_t s : sizes) {
    std::size_t at = 0;
    while (at < sorted.size() && sorted[at] < s) ++at;
    if (at == sorted.size() || sorted[at] != s) sorted.insert(sorted.begin() + static_cast<std::ptrdiff_t>(at), s);
  }
  return sorted;
}

}  // namespace cascade::detail
