// Free device memory for the tests' leak checks: after the device is idle and cascade's scratch pool
// has given back what it does not use, so only memory really held counts.
#pragma once

#include <cascade/detail/runtime/scratch.cuh>
#include <cascade/error.cuh>

#include <cstddef>

namespace cascade_test {

inline std::size_t free_device_bytes() {
  std::size_t free = 0, total = 0;
  CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
  cascade::detail::scratch_trim();
  CASCADE_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  return free;
}

}  // namespace cascade_test
