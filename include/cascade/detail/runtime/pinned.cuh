// cascade/detail/runtime/pinned.cuh: page-locked host blocks for finish::host, kept for reuse: cudaMallocHost
// costs far more than a call. After the first calls, acquiring one is a lookup, not a cudaMallocHost.
// A block belongs to one call from acquire to release; release may run in a stream callback
// (cudaLaunchHostFunc).
//
// Freed at process exit: the cache is created on first use, after the CUDA runtime has set up its own
// exit handling, so it is destroyed (and frees its blocks) before the runtime tears down.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <map>
#include <mutex>
#include <unordered_map>

#include "../../error.cuh"
#include "capture.cuh"

namespace cascade::detail {

namespace pinned_impl {

struct pinned_cache {
  std::mutex mutex;
  std::multimap<std::size_t, void*> free_blocks;      // size -> block, for best fit
  std::unordered_map<void*, std::size_t> block_sizes;  // every block made
  ~pinned_cache() {
    for (auto const& [block, size] : block_sizes) (void)cudaFreeHost(block);
  }
};

// One per program (a static of an inline function), made on first use.
inline pinned_cache& cache() {
  static pinned_cache instance;
  return instance;
}

}  // namespace pinned_impl

// Throws cuda_error.
inline void* pinned_acquire(std::size_t bytes) {
  pinned_impl::pinned_cache& c = pinned_impl::cache();
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    auto const it = c.free_blocks.lower_bound(bytes);
    if (it != c.free_blocks.end()) {
      void* block = it->second;
      c.free_blocks.erase(it);
      return block;
    }
  }
  std::size_t const size = bytes < 4096 ? 4096 : bytes;
  void* block = nullptr;
  {
    relaxed_capture_mode relaxed;  // allowed while any thread captures: it touches no stream
    check_cuda(cudaMallocHost(&block, size), "cudaMallocHost (cascade page-locked buffer)");
  }
  std::lock_guard<std::mutex> lock(c.mutex);
  c.block_sizes.emplace(block, size);
  return block;
}

inline void pinned_release(void* block) noexcept {
  if (block == nullptr) return;
  pinned_impl::pinned_cache& c = pinned_impl::cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  auto const it = c.block_sizes.find(block);
  if (it != c.block_sizes.end()) c.free_blocks.emplace(it->second, block);
}

}  // namespace cascade::detail
