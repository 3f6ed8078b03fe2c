// cascade/detail/dispatch.cuh: between the public API and the kernels. Resolves the policy for the
// op (tree choosers, operand-order checks), checks the device, handles the empty range, picks the
// offset type and hands the rest to the policy's finishing strategy.
#pragma once

#include <cuda_runtime_api.h>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include "../finish/tag.cuh"
#include "../policy.cuh"
#include "device.cuh"
#include "kernels.cuh"

namespace cascade::detail {

template <class Policy, class It, class OutIt, class T, class Op>
void dispatch_reduce_into(Policy const& policy, It first, cuda::std::int64_t n, OutIt d_out, T init, Op op) {
  static_assert(is_policy_v<Policy>,
                "cascade: the first argument must be a cascade::policy<BlockSize, CoarseFactor, Tree, Finish>, "
                "e.g. cascade::default_policy{}");
  static_assert(cuda::std::is_trivially_copyable_v<T> && cuda::std::is_default_constructible_v<T>,
                "cascade: the accumulator type (the type of init) must be trivially copyable and default "
                "constructible, as it lives in registers and shared memory");
  using resolved = cascade::policy<Policy::block_size, Policy::coarse_factor, resolve_tree_t<typename Policy::tree_type, Op>,
                          typename Policy::finish_type>;
  static_assert(tree_order_check<typename resolved::tree_type, Op>::value &&
                finish_order_check<typename resolved::finish_type, Op>::value);
  static_assert(!resolved::tree_type::per_thread_results || resolved::finish_type::accepts_per_thread_results,
                "cascade: tree::none sends every thread's value straight to the finish, and only finish::atomic "
                "combines those; pair tree::none with finish::atomic, or pick another tree (e.g. tree::shuffle)");
  cudaStream_t const stream = policy.stream();
  current_device();  // a clear cuda_error when there is no device
  if (n == 0) {
    launch_write_value(d_out, init, stream);
    return;
  }
  using finish = finish_dispatch<typename resolved::finish_type>;
  // 32-bit offsets are cheaper in the tile loop; they must hold n plus one grid stride past it.
  auto const n64 = static_cast<cuda::std::uint64_t>(n);
  if (2 * n64 + static_cast<cuda::std::uint64_t>(Policy::tile_size) < (cuda::std::uint64_t(1) << 32))
    finish::template run<resolved>(first, static_cast<cuda::std::uint32_t>(n), d_out, init, op, stream);
  else
    finish::template run<resolved>(first, n64, d_out, init, op, stream);
}

}  // namespace cascade::detail
