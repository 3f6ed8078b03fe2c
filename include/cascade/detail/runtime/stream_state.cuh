// cascade/detail/runtime/stream_state.cuh: device memory each stream keeps for single-pass finishes
// (finish::last_block, finish::flagged): a zeroed ticket that counts blocks, room for the blocks'
// partials, and zeroed room for flagged partials, so that a call makes no memset launch and no
// scratch allocation before its kernel; and a zeroed spill for exact_plus and reproducible_plus (exact/exact_sum.cuh, binned_sum.cuh),
// which the call's rounding zeroes again.
//
// The kernel that uses a stream's state sets the ticket (and the flags it read) back to zero before
// it ends, and work on one stream runs in order, so the next call on that stream finds them zeroed. Streams are told apart by
// cudaStreamGetId, unique for the life of the program, so a destroyed stream's state is never handed
// to another. Each stream that has made a call holds 98 KiB + 256 bytes until the process exits, for
// the first max_streams streams of a device: CUDA says nothing when a stream is destroyed, so a
// program that keeps making streams would otherwise grow without bound. Later streams
// get none, and neither does a stream being captured (a graph may be replayed on several streams at
// once), nor a call made with the caller's storage (scratch_source.cuh): their calls zero a ticket in
// their own scratch instead, a memset more per call (none in a captured graph: scratch.cuh).
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>
#include <mutex>

#include "../../error.cuh"
#include "capture.cuh"
#include "device.cuh"
#include "scratch_source.cuh"

namespace cascade::detail {

struct stream_state {
  unsigned* ticket = nullptr;  // nullptr: none (captured, too late, or the caller brought storage)
  void* partials = nullptr;    // 256-byte aligned
  unsigned long long* flags = nullptr;  // zeroed; finish::flagged's words
  void* spill = nullptr;                // zeroed; exact_plus's spill, reproducible_plus's atomic bins
  static constexpr std::size_t partials_bytes = 32 * 1024;
  static constexpr std::size_t flags_bytes = 64 * 1024;
  static constexpr std::size_t spill_bytes = 2048;
  static constexpr std::size_t max_streams = 64;  // per device: at most 6 MiB
};

// One device block per stream, for the first max_streams streams of each device, [ticket | padding to
// 256 | partials | flags | spill]. The block is zeroed by a memset on that stream when it is made, so the
// memset is ordered before the stream's first kernel using it.
namespace stream_state_impl {

inline constexpr std::size_t partials_offset = 256;
inline constexpr std::size_t flags_offset = partials_offset + stream_state::partials_bytes;
inline constexpr std::size_t spill_offset = flags_offset + stream_state::flags_bytes;
inline constexpr std::size_t block_bytes = spill_offset + stream_state::spill_bytes;

// At most max_streams entries, so a list searched in order (no hash map: <unordered_map> costs every
// including file more compile time than this search costs a call, which the thread_local below mostly skips).
struct device_states {
  std::mutex mutex;
  std::array<unsigned long long, stream_state::max_streams> ids{};
  std::array<unsigned char*, stream_state::max_streams> blocks{};  // kept until exit: may be in use
  std::size_t count = 0;
  unsigned char* find(unsigned long long id) const {
    for (std::size_t i = 0; i < count; ++i)
      if (ids[i] == id) return blocks[i];
    return nullptr;
  }
};

// Every device's states, freed at process exit. Created on first use, after the CUDA runtime has set
// up its own exit handling, so it is destroyed (and frees the blocks, which cudaFree waits for) before
// the runtime tears down: compute-sanitizer's leak check then finds nothing left.
struct all_states {
  std::array<device_states, max_devices> devices;
  ~all_states() {
    for (auto& d : devices)
      for (std::size_t i = 0; i < d.count; ++i) (void)cudaFree(d.blocks[i]);
  }
};

// One per program (a static of an inline function).
inline device_states& states_of(int ordinal) {
  static all_states instance;
  return instance.devices[ordinal];
}

struct last_lookup {
  int device = -1;
  unsigned long long id = 0;
  unsigned char* block = nullptr;
};

inline stream_state state_of(unsigned char* block) {
  return {reinterpret_cast<unsigned*>(block), block + partials_offset,
          reinterpret_cast<unsigned long long*>(block + flags_offset), block + spill_offset};
}

}  // namespace stream_state_impl

// The state of stream `id` on device `ordinal` (the current one), its ticket and flags zeroed on
// `stream` when first handed out; none (ticket nullptr) once max_streams other streams hold one.
// Throws cuda_error.
inline stream_state stream_state_by_id(unsigned long long id, cudaStream_t stream, int ordinal) {
  using namespace stream_state_impl;
  thread_local last_lookup last;  // most calls reuse the stream of the call before
  if (last.block != nullptr && last.device == ordinal && last.id == id) return state_of(last.block);
  device_states& d = states_of(ordinal);
  std::lock_guard<std::mutex> lock(d.mutex);
  unsigned char* found = d.find(id);
  if (found == nullptr) {
    if (d.count >= stream_state::max_streams) return {};  // the caller falls back to scratch
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
    found = static_cast<unsigned char*>(block);
    d.ids[d.count] = id;
    d.blocks[d.count++] = found;
  }
  last = {ordinal, id, found};
  return state_of(found);
}

// Inline, so that the stream handle (0 above all) is resolved as the caller's kernel launches
// resolve it: per-thread default stream or legacy.
// `ordinal`: the current device's, as the call read it (-1: read it here).
inline stream_state stream_state_of(cudaStream_t stream, int ordinal = -1) {
  if (current_scratch_source() != nullptr || is_capturing(stream)) return {};
  unsigned long long id = 0;
  check_cuda(cudaStreamGetId(stream, &id), "cudaStreamGetId");
  return stream_state_by_id(id, stream, ordinal < 0 ? current_device().ordinal : ordinal);
}

}  // namespace cascade::detail
