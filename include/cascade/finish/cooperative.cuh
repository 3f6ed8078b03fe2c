// cascade/finish/cooperative.cuh: single pass with a grid-wide barrier. A cooperative launch
// guarantees every block is resident at once, so after each block writes its partial the whole grid
// can wait at cooperative_groups' grid.sync(), and block 0 then folds the partials and writes
// op(init, result).
//
// Launches: 1 (cudaLaunchCooperativeKernel). The grid is limited to co-resident blocks (SMs x
// resident blocks per SM); blocks loop over tiles. Deterministic: block 0 folds in index order. Needs
// a device with cooperative launch support (every GPU cascade targets has it); otherwise cuda_error.
#pragma once

#include <cooperative_groups.h>

#include <cstddef>

#include "../detail/kernel/grid.cuh"
#include "../detail/block/l2_reader.cuh"
#include "../detail/kernel/kernels.cuh"
#include "../detail/runtime/launch_context.cuh"
#include "tag.cuh"

namespace cascade::finish {

struct cooperative : tag {
  static constexpr char const* name = "finish::cooperative";
  static constexpr bool preserves_order = true;
  static constexpr bool waits_for_other_streams = true;
};

}  // namespace cascade::finish

namespace cascade::detail {

template <int BlockSize, int CoarseFactor, class Tree, class T, class It, class Offset, class Op, class OutIt>
__global__ void __launch_bounds__(BlockSize)
    cooperative_kernel(It first, Offset n, Op op, T* partials, OutIt d_out, T init) {
  __shared__ typename block_reduce<Tree, BlockSize, T>::storage storage;
  T const partial = block_fold<BlockSize, CoarseFactor, Tree, T>(storage, first, n, op, blockIdx.x, gridDim.x);
  if (threadIdx.x == 0) store_value(partials + blockIdx.x, partial);
  cooperative_groups::this_grid().sync();
  if (blockIdx.x != 0) return;
  T const total = block_fold<BlockSize, CoarseFactor, Tree, T>(storage, l2_reader<T>{partials}, gridDim.x, op, 0, 1);
  if (threadIdx.x == 0) store_value(d_out, static_cast<T>(op(init, total)));
}

template <>
struct finish_dispatch<finish::cooperative> {
  template <class Policy, class It, class Offset, class OutIt, class T, class Op>
  static constexpr auto kernel_of() {
    return &cooperative_kernel<Policy::block_size, Policy::coarse_factor, typename Policy::tree_type, T, It, Offset, Op,
                               OutIt>;
  }

  template <class Policy, class It, class Offset, class OutIt, class T, class Op>
  static void run(launch_context const& call, It first, Offset n, OutIt d_out, T init, Op op) {
    if (!call.device().cooperative_launch)
      throw cuda_error(cudaErrorNotSupported, "cascade::finish::cooperative: this device does not support "
                                              "cooperative launches; use finish::last_block");
    constexpr auto kernel = kernel_of<Policy, It, Offset, OutIt, T, Op>();
    unsigned const grid = filled_grid<kernel, Policy>(call.device(), n);

    scratch_buffer const scratch = call.scratch(sizeof(T) * std::size_t(grid), finish::cooperative::name);
    if (!call.launches()) return;
    cudaStream_t const stream = call.stream();
    T* partials = scratch.as<T>();
    void* args[] = {&first, &n, &op, &partials, &d_out, &init};
    check_cuda(cudaLaunchCooperativeKernel(reinterpret_cast<void const*>(kernel), dim3(grid), dim3(Policy::block_size),
                                           args, 0, stream),
               "cudaLaunchCooperativeKernel (cooperative_kernel)");
  }
};

}  // namespace cascade::detail
