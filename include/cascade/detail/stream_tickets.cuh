// cascade/detail/stream_tickets.cuh: a zeroed counter per stream for single-pass finishes that count
// finished blocks (finish::last_block), so that a call needs no memset launch before its kernel.
//
// The kernel that takes a stream's ticket sets it back to zero before it ends, and work on one stream
// runs in order, so the next call on that stream finds it zeroed. Streams are told apart by
// cudaStreamGetId, unique for the life of the program, so a destroyed stream's ticket is never handed
// to another. Each ticket costs 4 bytes of device memory (src/stream_tickets.cpp), kept until exit.
// A stream being captured gets none: a graph may be replayed on several streams at once, so captured
// calls zero a ticket of their own instead.
#pragma once

#include <cuda_runtime_api.h>

#include "../error.cuh"

namespace cascade::detail {

// The ticket of stream `id` on the current device, zeroed on `stream` the first time it is handed out.
unsigned* stream_ticket_by_id(unsigned long long id, cudaStream_t stream);  // throws cuda_error

// The stream's ticket, or nullptr while the stream is being captured. Inline, so that the stream
// handle (0 above all) is resolved as the caller's kernel launches resolve it, per-thread default
// stream or legacy.
inline unsigned* stream_ticket(cudaStream_t stream) {
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  check_cuda(cudaStreamIsCapturing(stream, &capture), "cudaStreamIsCapturing");
  if (capture != cudaStreamCaptureStatusNone) return nullptr;
  unsigned long long id = 0;
  check_cuda(cudaStreamGetId(stream, &id), "cudaStreamGetId");
  return stream_ticket_by_id(id, stream);
}

}  // namespace cascade::detail
