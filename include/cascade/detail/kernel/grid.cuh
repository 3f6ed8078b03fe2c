// cascade/detail/kernel/grid.cuh: grid sizes for the finishes whose blocks loop over tiles: as many blocks
// as the device holds at once, read through the occupancy API once per device and kernel.
#pragma once

#include <cuda_runtime_api.h>

#include "../../error.cuh"
#include "../runtime/device.cuh"
#include "kernels.cuh"
#include "../meta/math.cuh"
#include "sinks.cuh"

namespace cascade::detail {

// How many blocks of `Kernel` fit on `device` (the current one, as the call read it) at once (SMs x
// resident blocks per SM), read once per device through the occupancy API and cached.
template <auto Kernel, int BlockSize>
unsigned resident_grid(device_info const& device) {
  return once_per_device(device, [&] {
    int per_sm = 0;
    check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, Kernel, BlockSize, 0),
               "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    return static_cast<unsigned>((per_sm > 0 ? per_sm : 1) * device.sm_count);
  });
}

// The grid for `n` items under Policy when blocks loop over tiles: one block a tile, at most enough
// to fill the device once (resident_grid), so no block waits for another to leave an SM.
template <auto Kernel, class Policy, class Offset>
unsigned filled_grid(device_info const& device, Offset n) {
  unsigned const resident = resident_grid<Kernel, Policy::block_size>(device);
  auto const tiles = ceil_div(n, static_cast<Offset>(Policy::tile_size));  // >= 0: n is a count
  return static_cast<unsigned long long>(tiles) < resident ? static_cast<unsigned>(tiles) : resident;
}

// The grid of the kernel that stores one partial per block (finish::two_pass's first pass,
// finish::host's kernel): filled_grid of reduce_tiles_kernel into store_partial.
template <class Policy, class T, class It, class Offset, class Op>
unsigned partials_grid(device_info const& device, Offset n) {
  constexpr auto kernel = &reduce_tiles_kernel<Policy::block_size, Policy::coarse_factor, typename Policy::tree_type, T,
                                               It, Offset, Op, store_partial<T>>;
  return filled_grid<kernel, Policy>(device, n);
}

}  // namespace cascade::detail
