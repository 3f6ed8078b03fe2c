// Per-stream state for finish::last_block and finish::flagged (include/cascade/detail/stream_state.cuh):
// one device block per stream, for the first max_streams streams of each device, [ticket | padding to
// 256 | partials | flags]. The block is zeroed by a memset on that stream when it is made, so the
// memset is ordered before the stream's first kernel using it.
#include <cascade/detail/capture.cuh>
#include <cascade/detail/device.cuh>
#include <cascade/detail/stream_state.cuh>

#include <array>
#include <mutex>
#include <unordered_map>

namespace cascade::detail {

namespace {

constexpr int max_devices = 64;
constexpr std::size_t partials_offset = 256;
constexpr std::size_t flags_offset = partials_offset + stream_state::partials_bytes;
constexpr std::size_t block_bytes = flags_offset + stream_state::flags_bytes;

struct device_states {
  std::mutex mutex;
  std::unordered_map<unsigned long long, unsigned char*> by_stream;  // kept until exit: may be in use
};

// Every device's states, freed at process exit. Created on first use, after the CUDA runtime has set
// up its own exit handling, so it is destroyed (and frees the blocks, which cudaFree waits for) before
// the runtime tears down: compute-sanitizer's leak check then finds nothing left.
struct all_states {
  std::array<device_states, max_devices> devices;
  ~all_states() {
    for (auto& d : devices)
      for (auto const& [id, block] : d.by_stream) (void)cudaFree(block);
  }
};

device_states& states_of(int ordinal) {
  static all_states instance;
  return instance.devices[ordinal];
}

struct last_lookup {
  int device = -1;
  unsigned long long id = 0;
  unsigned char* block = nullptr;
};
thread_local last_lookup last;  // most calls reuse the stream of the call before

stream_state state_of(unsigned char* block) {
  return {reinterpret_cast<unsigned*>(block), block + partials_offset,
          reinterpret_cast<unsigned long long*>(block + flags_offset)};
}

}  // namespace

stream_state stream_state_by_id(unsigned long long id, cudaStream_t stream) {
  int const ordinal = current_device().ordinal;
  if (last.block != nullptr && last.device == ordinal && last.id == id) return state_of(last.block);
  device_states& d = states_of(ordinal);
  std::lock_guard<std::mutex> lock(d.mutex);
  auto found = d.by_stream.find(id);
  if (found == d.by_stream.end()) {
    if (d.by_stream.size() >= stream_state::max_streams) return {};  // the caller falls back to scratch
    void* block = nullptr;
    {
      relaxed_capture_mode relaxed;  // this stream is not capturing, but another thread may be
      check_cuda(cudaMalloc(&block, block_bytes), "cudaMalloc (cascade stream state)");
    }
    cudaError_t const zeroed = cudaMemsetAsync(block, 0, block_bytes, stream);
    if (zeroed != cudaSuccess) {
      (void)cudaFree(block);
      throw_cuda_error(zeroed, "cudaMemsetAsync (cascade stream state)");
    }
    found = d.by_stream.emplace(id, static_cast<unsigned char*>(block)).first;
  }
  last = {ordinal, id, found->second};
  return state_of(found->second);
}

}  // namespace cascade::detail
