// cascade/finish/cluster.cuh: single pass inside one thread block cluster (Hopper, compute
// capability 9.0 and later). The grid is one cluster of up to 16 blocks, each on its own SM; every
// block folds its tiles and, once every block of the cluster has started (a split cluster barrier
// begun before the tiles), stores its partial straight into the first block's shared memory
// (distributed shared memory); a second cluster barrier makes them visible, and the first block's
// first warp folds them in block order and writes op(init, result).
//
// Launches: 1 kernel (cudaLaunchKernelEx with a cluster dimension); no scratch, no ticket, no global
// round trip after the tiles: the fastest finish where latency rules. Its bandwidth is that of the
// cluster's SMs (up to 16 of the device's), so it suits inputs up to about 2^20 items; larger ones
// are right but slow. The cluster holds up to 16 blocks where the device allows (non-portable
// cluster size) and 8 otherwise. Deterministic. Where the running code has no cluster path (a device
// older than 9.0, or a program's image for an older architecture) it runs as finish::last_block, so
// a tuning table naming it works everywhere; a policy that names it by hand in a file compiled for
// no 9.0 target does not compile (detail/dispatch.cuh).
#pragma once


#include "../detail/runtime/launch_context.cuh"
#include "../detail/kernel/kernels.cuh"
#include "../detail/meta/math.cuh"
#include "../detail/block/shared_array.cuh"
#include "../detail/block/warp_reduce.cuh"
#include "last_block.cuh"
#include "tag.cuh"

namespace cascade::finish {

struct cluster : tag {
  static constexpr char const* name = "finish::cluster";
  static constexpr bool preserves_order = true;
  static constexpr int native_arch = 90;  // thread block clusters; finish::last_block before
};

}  // namespace cascade::finish

namespace cascade::detail {

inline constexpr int max_cluster_blocks = 16;

template <int BlockSize, int CoarseFactor, class Tree, class T, class It, class Offset, class Op, class OutIt>
__global__ void __launch_bounds__(BlockSize) cluster_kernel(It first, Offset n, Op op, OutIt d_out, T init) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  __shared__ typename block_reduce<Tree, BlockSize, T>::storage storage;
  __shared__ shared_array<T, max_cluster_blocks> slots;  // used in the cluster's first block
  T* const partials = slots.data();
  // the runtime's cluster intrinsics (what cooperative_groups' cluster_group calls; that header costs
  // every including file compile time)
  unsigned const rank = __clusterRelativeBlockRank(), blocks = __clusterSizeInBlocks();  // blocks <= 16
  // Another block's shared memory may be written only once that block has started: every block
  // arrives here and waits after its tiles, so the wait costs nothing by then.
  asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
  T const partial = block_fold<BlockSize, CoarseFactor, Tree, T>(storage, first, n, op, rank, blocks);
  asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
  if (threadIdx.x == 0) static_cast<T*>(__cluster_map_shared_rank(partials, 0))[rank] = partial;
  __cluster_barrier_arrive();  // release/acquire at cluster scope: every partial is in block 0's shared memory
  __cluster_barrier_wait();
  if (rank != 0 || threadIdx.x >= 32) return;
  int const lane = static_cast<int>(threadIdx.x);
  T mine = partials[lane < static_cast<int>(blocks) ? lane : 0];
  if constexpr (requires(T& v) { op.align_warp(v, true); }) op.align_warp(mine, lane < static_cast<int>(blocks));
  T const total = shuffle_warp_reduce{}(mine, lane, static_cast<int>(blocks), op);
  if (lane == 0) store_value(d_out, static_cast<T>(op(init, total)));
#else
  __trap();  // never launched: the host side takes finish::last_block where this code runs
#endif
}

template <>
struct finish_dispatch<finish::cluster> {
  // A launch of one cluster of `blocks` blocks; `attribute` must outlive the config.
  static cudaLaunchConfig_t cluster_config(unsigned blocks, int block_size, cudaStream_t stream,
                                           cudaLaunchAttribute& attribute) {
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(blocks);
    config.blockDim = dim3(block_size);
    config.stream = stream;
    attribute = {};
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = blocks;
    attribute.val.clusterDim.y = attribute.val.clusterDim.z = 1;
    config.attrs = &attribute;
    config.numAttrs = 1;
    return config;
  }

  // The largest cluster (up to 16 blocks) of `Kernel` the current device can run, found once per
  // device; 0 where the code that runs has no cluster path: a device before 9.0, or a program whose
  // image for this device was compiled for an older architecture (an 8.0 image on a 9.0 device has a
  // trap in its place), so the code decides, not the device alone.
  template <auto Kernel, int BlockSize>
  static unsigned cluster_blocks(device_info const& device) {
    return once_per_device(device, [&] {
      unsigned blocks = 0;
      if (device.cc_major * 10 >= finish::cluster::native_arch &&
          kernel_arch(Kernel) >= finish::cluster::native_arch) {
        blocks = 8;  // portable: every 9.0 device runs clusters of 8
        if (cudaFuncSetAttribute(Kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) == cudaSuccess) {
          cudaLaunchAttribute attribute;
          cudaLaunchConfig_t const config = cluster_config(max_cluster_blocks, BlockSize, nullptr, attribute);
          int size = 0;
          if (cudaOccupancyMaxPotentialClusterSize(&size, Kernel, &config) == cudaSuccess && size > 8)
            blocks = static_cast<unsigned>(size < max_cluster_blocks ? size : max_cluster_blocks);
        }
        (void)cudaGetLastError();  // a refused attribute is not the caller's error
      }
      return blocks;
    });
  }

  template <class Policy, class It, class Offset, class OutIt, class T, class Op>
  static constexpr auto kernel_of() {
    return &cluster_kernel<Policy::block_size, Policy::coarse_factor, typename Policy::tree_type, T, It, Offset, Op,
                           OutIt>;
  }

  // No scratch; where it falls back to finish::last_block, that finish's (cluster_blocks decides once
  // per device and kernel, so a sized call and its launch agree).
  template <class Policy, class It, class Offset, class OutIt, class T, class Op>
  static void run(launch_context const& call, It first, Offset n, OutIt d_out, T init, Op op) {
    constexpr auto kernel = kernel_of<Policy, It, Offset, OutIt, T, Op>();
    unsigned const most = cluster_blocks<kernel, Policy::block_size>(call.device());
    if (most == 0) {
      finish_dispatch<finish::last_block>::run<Policy>(call, first, n, d_out, init, op);
      return;
    }
    if (!call.launches()) return;
    auto const tiles = ceil_div(n, static_cast<Offset>(Policy::tile_size));
    unsigned const blocks = static_cast<unsigned>(tiles < most ? tiles : most);  // every block gets a tile

    cudaLaunchAttribute attribute;
    cudaLaunchConfig_t const config = cluster_config(blocks, Policy::block_size, call.stream(), attribute);
    check_cuda(cudaLaunchKernelEx(&config, kernel, first, n, op, d_out, init), "cudaLaunchKernelEx (cluster_kernel)");
  }
};

}  // namespace cascade::detail
