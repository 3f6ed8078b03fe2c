// cascade/detail/dispatch.cuh: between the public API and the finishes. For a policy named by the
// caller: resolves the tree for the op (tree choosers), checks operand order and the tree-finish
// pairing, checks the pointers and the device, handles the empty range and the input that fits one
// tile (one block, for every finish), picks the offset type and hands the rest to the policy's
// finishing strategy. default_policy.cuh, the layer above, specializes policy_dispatch to look its
// policy up in the tuning tables first; nothing here knows about tuning.
#pragma once

#include <cuda_runtime_api.h>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include <algorithm>
#include <vector>

#include "../finish/tag.cuh"
#include "../policy.cuh"
#include "../tree/tag.cuh"
#include "arch.cuh"
#include "device.cuh"
#include "kernels.cuh"
#include "memory_check.cuh"
#include "sinks.cuh"

namespace cascade::detail {

template <class Policy, bool Wide = true, class It, class OutIt, class T, class Op>
void dispatch_policy(Policy const& policy, It first, cuda::std::int64_t n, OutIt d_out, T init, Op op) {
  using resolved = cascade::policy<Policy::block_size, Policy::coarse_factor,
                                   resolve_tree_t<typename Policy::tree_type, Op>, typename Policy::finish_type>;
  using tree = typename resolved::tree_type;
  using finish = typename resolved::finish_type;
  static_assert(tree_order_ok<tree, Op> && finish_order_ok<finish, Op> && pairing_ok<tree, finish>);
  cudaStream_t const stream = policy.stream();
  current_device();  // a clear cuda_error when there is no device
  // before any launch: a kernel that faults on a host pointer would end the CUDA context
  check_device_accessible(d_out, "the output (d_out)");
  if (n > 0) check_device_accessible(first, "the input");
  if (n == 0) {
    launch_write_value(d_out, init, stream);
    return;
  }
  if constexpr (!tree::per_thread_results) {
    // One tile: a single block folds it and writes op(init, result); one launch, no scratch, whatever
    // the finish.
    if (n <= resolved::tile_size) {
      launch_reduce_tiles<resolved, T>(first, static_cast<cuda::std::uint32_t>(n), op,
                                       store_result<OutIt, T, Op>{d_out, init, op}, 1, stream);
      return;
    }
  }
  // 32-bit offsets are cheaper in the tile loop; they must hold n plus one grid stride past it.
  auto const n64 = static_cast<cuda::std::uint64_t>(n);
  if (!Wide || 2 * n64 + static_cast<cuda::std::uint64_t>(Policy::tile_size) < (cuda::std::uint64_t(1) << 32))
    finish_dispatch<finish>::template run<resolved>(first, static_cast<cuda::std::uint32_t>(n), d_out, init, op, stream);
  else if constexpr (Wide)
    finish_dispatch<finish>::template run<resolved>(first, n64, d_out, init, op, stream);
}

// Sizes at which calls of lo..hi items under Policy take every path dispatch_policy and the finishes
// have: the first, one tile, one tile and one item, the last, and both sides of the switch to 64-bit
// offsets. prepare() (prepare.cuh) captures a call at each.
template <class Policy>
void add_path_sizes(std::vector<cuda::std::int64_t>& sizes, cuda::std::int64_t lo, cuda::std::int64_t hi) {
  constexpr cuda::std::int64_t tile = Policy::tile_size;
  constexpr cuda::std::int64_t narrow_max = ((cuda::std::int64_t(1) << 32) - tile - 1) / 2;  // see dispatch_policy
  for (cuda::std::int64_t n : {lo, hi, tile, tile + 1, narrow_max, narrow_max + 1})
    if (n >= lo && n <= hi) sizes.push_back(n);
}

// How calls under Policy are dispatched: a policy's own parameters. default_policy.cuh specializes it.
template <class Policy>
struct policy_dispatch {
  template <class It, class OutIt, class T, class Op>
  static void run(Policy const& policy, It first, cuda::std::int64_t n, OutIt d_out, T init, Op op) {
    // A strategy named by hand must have its own code in some target of this file (a tuning table's
    // may fall back: default_policy specializes this template).
    static_assert(is_compiled_v<typename Policy::tree_type>,
                  "cascade: the policy's tree needs a newer architecture than every target this file is "
                  "compiled for (tree::redux: 8.0): add one (nvcc -arch=sm_80 or later, or -gencode, or "
                  "CMake's CUDA_ARCHITECTURES), or name tree::shuffle, which runs everywhere");
    static_assert(is_compiled_v<typename Policy::finish_type>,
                  "cascade: the policy's finish needs a newer architecture than every target this file is "
                  "compiled for (finish::cluster: 9.0): add one (nvcc -arch=sm_90 or later, or -gencode, or "
                  "CMake's CUDA_ARCHITECTURES), or name finish::last_block, which runs everywhere");
    dispatch_policy(policy, first, n, d_out, init, op);
  }
  template <class It, class T, class Op>
  static void add_sizes(std::vector<cuda::std::int64_t>& sizes, cuda::std::int64_t n) {
    add_path_sizes<Policy>(sizes, 1, n);
  }
};

template <class Policy, class It, class OutIt, class T, class Op>
void dispatch_reduce_into(Policy const& policy, It first, cuda::std::int64_t n, OutIt d_out, T init, Op op) {
  static_assert(is_policy_v<Policy>,
                "cascade: the first argument must be a cascade::policy<BlockSize, CoarseFactor, Tree, Finish>, "
                "e.g. cascade::default_policy{}");
  static_assert(cuda::std::is_trivially_copyable_v<T> && cuda::std::is_default_constructible_v<T>,
                "cascade: the accumulator type (the type of init) must be trivially copyable and default "
                "constructible, as it lives in registers and shared memory");
  policy_dispatch<Policy>::run(policy, first, n, d_out, init, op);
}

// Every size whose call takes a path (kernel) that no other of them takes, among calls of 0..n items.
template <class It, class T, class Op, class Policy>
std::vector<cuda::std::int64_t> path_sizes(Policy const&, cuda::std::int64_t n) {
  std::vector<cuda::std::int64_t> sizes = {0};
  policy_dispatch<Policy>::template add_sizes<It, T, Op>(sizes, n);
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

}  // namespace cascade::detail
