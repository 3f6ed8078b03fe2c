// Page-locked host blocks for finish::host, kept for reuse: cudaMallocHost costs far more than a
// call. Freed at process exit: the cache is created on first use, after the CUDA runtime has set up
// its own exit handling, so it is destroyed (and frees its blocks) before the runtime tears down.
#include <cascade/detail/capture.cuh>
#include <cascade/detail/pinned.cuh>
#include <cascade/error.cuh>

#include <map>
#include <mutex>
#include <unordered_map>

namespace cascade::detail {

namespace {

struct pinned_cache {
  std::mutex mutex;
  std::multimap<std::size_t, void*> free_blocks;      // size -> block, for best fit
  std::unordered_map<void*, std::size_t> block_sizes;  // every block made
  ~pinned_cache() {
    for (auto const& [block, size] : block_sizes) (void)cudaFreeHost(block);
  }
};

pinned_cache& cache() {
  static pinned_cache instance;
  return instance;
}

}  // namespace

void* pinned_acquire(std::size_t bytes) {
  pinned_cache& c = cache();
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

void pinned_release(void* block) noexcept {
  if (block == nullptr) return;
  pinned_cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  auto const it = c.block_sizes.find(block);
  if (it != c.block_sizes.end()) c.free_blocks.emplace(it->second, block);
}

}  // namespace cascade::detail
