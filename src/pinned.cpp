// Page-locked host blocks for finish::host, kept for reuse: cudaMallocHost costs far more than a call.
#include <cascade/detail/pinned.cuh>
#include <cascade/error.cuh>

#include <map>
#include <mutex>
#include <unordered_map>

namespace cascade::detail {

namespace {

std::mutex mutex;
std::multimap<std::size_t, void*> free_blocks;      // size -> block, for best fit
std::unordered_map<void*, std::size_t> block_sizes;  // every block ever made

}  // namespace

void* pinned_acquire(std::size_t bytes) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto const it = free_blocks.lower_bound(bytes);
    if (it != free_blocks.end()) {
      void* block = it->second;
      free_blocks.erase(it);
      return block;
    }
  }
  std::size_t const size = bytes < 4096 ? 4096 : bytes;
  void* block = nullptr;
  check_cuda(cudaMallocHost(&block, size), "cudaMallocHost (cascade finish::host buffer)");
  std::lock_guard<std::mutex> lock(mutex);
  block_sizes.emplace(block, size);
  return block;
}

void pinned_release(void* block) noexcept {
  if (block == nullptr) return;
  std::lock_guard<std::mutex> lock(mutex);
  auto const it = block_sizes.find(block);
  if (it != block_sizes.end()) free_blocks.emplace(it->second, block);
}

}  // namespace cascade::detail
