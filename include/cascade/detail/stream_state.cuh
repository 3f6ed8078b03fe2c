// cascade/detail/stream_state.cuh: device memory each stream keeps for single-pass finishes
// (finish::last_block, finish::flagged): a zeroed ticket that counts blocks, room for the blocks'
// partials, and zeroed room for flagged partials, so that a call makes no memset launch and no
// scratch allocation before its kernel.
//
// The kernel that uses a stream's state sets the ticket (and the flags it read) back to zero before
// it ends, and work on one stream runs in order, so the next call on that stream finds them zeroed. Streams are told apart by
// cudaStreamGetId, unique for the life of the program, so a destroyed stream's state is never handed
// to another. Each stream that has made a call holds 96 KiB + 256 bytes (src/stream_state.cpp) until
// the process exits, for the first max_streams streams of a device: CUDA says nothing when a stream is
// destroyed, so a program that keeps making streams would otherwise grow without bound. Later streams
// get none, and neither does a stream being captured (a graph may be replayed on several streams at
// once): their calls zero a ticket in their own scratch instead, a memset more per call.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "../error.cuh"
#include "capture.cuh"

namespace cascade::detail {

struct stream_state {
  unsigned* ticket = nullptr;  // nullptr: none (the stream is being captured, or came too late)
  void* partials = nullptr;    // 256-byte aligned
  unsigned long long* flags = nullptr;  // zeroed; finish::flagged's words
  static constexpr std::size_t partials_bytes = 32 * 1024;
  static constexpr std::size_t flags_bytes = 64 * 1024;
  static constexpr std::size_t max_streams = 64;  // per device: at most 6 MiB
};

// The state of stream `id` on the current device, its ticket and flags zeroed on `stream` when first
// handed out; none (ticket nullptr) once max_streams other streams hold one.
stream_state stream_state_by_id(unsigned long long id, cudaStream_t stream);  // throws cuda_error

// Inline, so that the stream handle (0 above all) is resolved as the caller's kernel launches
// resolve it: per-thread default stream or legacy.
inline stream_state stream_state_of(cudaStream_t stream) {
  if (is_capturing(stream)) return {};
  unsigned long long id = 0;
  check_cuda(cudaStreamGetId(stream, &id), "cudaStreamGetId");
  return stream_state_by_id(id, stream);
}

}  // namespace cascade::detail
