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
#include <mutex>
#include <vector>

#include "../../error.cuh"
#include "capture.cuh"

namespace cascade::detail {

namespace pinned_impl {

// Every block made, searched in order: a program holds a handful (one a call in flight), and a list
// spares every including file the compile time of <map> and <unordered_map>.
struct pinned_block {
  void* block;
  std::size_t size;
  bool free;
};
struct pinned_cache {
  std::mutex mutex;
  std::vector<pinned_block> blocks;
  ~pinned_cache() {
    for (auto const& b : blocks) (void)cudaFreeHost(b.block);
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
    pinned_impl::pinned_block* best = nullptr;  // the smallest free block that fits
    for (auto& b : c.blocks)
      if (b.free && b.size >= bytes && (best == nullptr || b.size < best->size)) best = &b;
    if (best != nullptr) {
      best->free = false;
      return best->block;
    }
  }
  std::size_t const size = bytes < 4096 ? 4096 : bytes;
  void* block = nullptr;
  {
    relaxed_capture_mode relaxed;  // allowed while any thread captures: it touches no stream
    check_cuda(cudaMallocHost(&block, size), "cudaMallocHost (cascade page-locked buffer)");
  }
  std::lock_guard<std::mutex> lock(c.mutex);
  try {
    c.blocks.push_back({block, size, false});
  } catch (...) {
    (void)cudaFreeHost(block);
    throw;
  }
  return block;
}

inline void pinned_release(void* block) noexcept {
  if (block == nullptr) return;
  pinned_impl::pinned_cache& c = pinned_impl::cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  for (auto& b : c.blocks)
    if (b.block == block) {
      b.free = true;
      return;
    }
}

}  // namespace cascade::detail
