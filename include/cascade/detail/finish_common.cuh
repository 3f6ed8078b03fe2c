// cascade/detail/finish_common.cuh: what several finishing strategies share: the occupancy-sized
// grid, a reader that bypasses L1 for partials other blocks wrote, and copying a device-resident
// value to the output iterator.
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <atomic>

#include <cuda/std/cstring>

#include "../error.cuh"
#include "device.cuh"
#include "kernels.cuh"
#include "math.cuh"
#include "sinks.cuh"

namespace cascade::detail {

// How many blocks of `Kernel` fit on the current device at once (SMs x resident blocks per SM),
// read once per device through the occupancy API and cached.
template <auto Kernel, int BlockSize>
unsigned resident_grid() {
  static std::array<std::atomic<unsigned>, 64> cache{};
  device_info const& device = current_device();
  unsigned grid = cache[device.ordinal].load(std::memory_order_relaxed);
  if (grid == 0) {
    int per_sm = 0;
    check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, Kernel, BlockSize, 0),
               "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    grid = static_cast<unsigned>((per_sm > 0 ? per_sm : 1) * device.sm_count);
    cache[device.ordinal].store(grid, std::memory_order_relaxed);
  }
  return grid;
}

// The grid for `n` items under Policy when blocks loop over tiles: one block a tile, at most enough
// to fill the device once (resident_grid), so no block waits for another to leave an SM.
template <auto Kernel, class Policy, class Offset>
unsigned filled_grid(Offset n) {
  unsigned const resident = resident_grid<Kernel, Policy::block_size>();
  auto const tiles = ceil_div(n, static_cast<Offset>(Policy::tile_size));
  return static_cast<unsigned>(tiles < resident ? tiles : resident);
}

// Reads T from global memory through L2 only (ld.global.cg), in 4-byte words so any T works: for
// partials that other blocks of the same launch wrote, which this SM's L1 may hold stale.
template <class T>
struct l2_reader {
  T const* data;
  template <class Offset>
  __device__ T operator[](Offset i) const {
    constexpr int words = (sizeof(T) + 3) / 4;
    if constexpr (sizeof(T) % 4 == 0 && alignof(T) >= 4) {
      unsigned buffer[words];
      auto const* src = reinterpret_cast<unsigned const*>(data + i);
#pragma unroll
      for (int w = 0; w < words; ++w) buffer[w] = __ldcg(src + w);
      T value;
      cuda::std::memcpy(&value, buffer, sizeof(T));
      return value;
    } else {
      auto const* src = reinterpret_cast<unsigned char const volatile*>(data + i);
      unsigned char buffer[sizeof(T)];
      for (unsigned b = 0; b < sizeof(T); ++b) buffer[b] = src[b];
      T value;
      cuda::std::memcpy(&value, buffer, sizeof(T));
      return value;
    }
  }
};

template <class OutIt, class T>
__global__ void copy_value_kernel(OutIt d_out, T const* src) {
  store_value(d_out, *src);
}

template <class OutIt, class T>
void launch_copy_value(OutIt d_out, T const* src, cudaStream_t stream) {
  launch(&copy_value_kernel<OutIt, T>, 1, 1, stream, "copy_value_kernel<<<...>>> (launch)", d_out, src);
}

}  // namespace cascade::detail
