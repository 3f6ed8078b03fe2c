// cascade/detail/runtime/allocation.cuh: how far a device allocation reaches past a pointer into it, so that a
// segmented call can tell segments that end beyond the input before any kernel reads there.
#pragma once

#include "../meta/config.cuh"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <type_traits>

namespace cascade::detail {

// Bytes from p to the end of the device allocation (cudaMalloc, cudaMallocAsync, a pool) that holds
// it, or -1 where the driver cannot say (host memory, fancy iterators). The driver's
// cuMemGetAddressRange, found through the runtime, so that nothing links libcuda.
inline long long bytes_to_allocation_end(void const* p) {
  using get_range = int (*)(unsigned long long*, std::size_t*, unsigned long long);  // CUresult, CUdeviceptr
  static get_range const fn = [] {
    void* f = nullptr;
    cudaDriverEntryPointQueryResult found{};
    if (cudaGetDriverEntryPointByVersion("cuMemGetAddressRange", &f, 12000, cudaEnableDefault, &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess) {
      (void)cudaGetLastError();
      f = nullptr;
    }
    return reinterpret_cast<get_range>(f);
  }();
  if (fn == nullptr || p == nullptr) return -1;
  unsigned long long base = 0;
  std::size_t size = 0;
  auto const address = reinterpret_cast<unsigned long long>(p);
  if (fn(&base, &size, address) != 0) return -1;  // not a device allocation (CUDA_ERROR_NOT_FOUND, ...)
  return static_cast<long long>(base + size - address);
}

// Items of It from first to the end of its allocation, or -1 when unknown.
template <class It>
long long items_to_allocation_end(It const& first) {
  if constexpr (std::is_pointer_v<It>) {
    long long const bytes = bytes_to_allocation_end(static_cast<void const*>(first));
    return bytes < 0 ? -1 : bytes / static_cast<long long>(sizeof(*first));
  } else {
    return -1;
  }
}

}  // namespace cascade::detail
