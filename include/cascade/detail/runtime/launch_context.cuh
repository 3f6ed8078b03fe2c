// cascade/detail/runtime/launch_context.cuh: one call's way down the layers, from the entry point to
// the finish: its stream, its device (read once, at the entry, and passed down), and whether it
// launches or only sizes.
//
// A call that takes CUB-style temporary storage is first sized: the same path runs with sizing
// contexts (those made while a scoped_sizing lives on the thread), which hand out no scratch (each
// request's piece is counted instead), no stream state (the caller's storage replaces it, so the
// finishes take their scratch path and count it) and which every step that launches or copies asks,
// after taking its scratch, whether to. So the storage a call asks for is what
// its own requests add up to, with no second description of the path to keep in step (CUB's
// dispatch sizes its temporaries the same way, returning before its first launch). runtime/
// temp_storage.cuh runs any entry point so.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "device.cuh"
#include "scratch.cuh"
#include "scratch_source.cuh"
#include "stream_state.cuh"

namespace cascade::detail {

// The count of the scoped_sizing that lives on this thread; nullptr: contexts launch.
inline std::size_t*& current_sizing_slot() {
  thread_local std::size_t* current = nullptr;
  return current;
}

class launch_context {
 public:
  launch_context(cudaStream_t stream, device_info const& device)
      : stream_(stream), device_(&device), sized_(current_sizing_slot()) {}

  cudaStream_t stream() const { return stream_; }
  device_info const& device() const { return *device_; }
  // False while the call is being sized: take scratch as a launch would, then launch nothing.
  bool launches() const { return sized_ == nullptr; }

  // Temporary device storage for the call, ordered on its stream; while sizing, none (its piece is
  // counted). `user` (a strategy's name) is for messages. Its first `zeroed` bytes are zero when the
  // call's kernel runs, for a kernel that leaves them zero when it ends (a ticket, flags): a captured
  // call's are zeroed as the graph's block is allocated, so the graph has no memset node (scratch.cuh,
  // scratch_allocate).
  scratch_buffer scratch(std::size_t bytes, char const* user, std::size_t zeroed = 0) const {
    if (sized_ != nullptr) {
      *sized_ += scratch_piece_bytes(bytes);
      return scratch_buffer();
    }
    return scratch_buffer(bytes, stream_, user, device_->ordinal, zeroed);
  }

  // While sizing, bytes of scratch counted as they are (a finish of the earlier shape's scratch_bytes:
  // detail/dispatch.cuh's adapter).
  void add_sized_bytes(std::size_t bytes) const {
    if (sized_ != nullptr) *sized_ += bytes;
  }

  // The stream's own state (stream_state.cuh); none while sizing.
  stream_state state() const { return sized_ != nullptr ? stream_state{} : stream_state_of(stream_, device_->ordinal); }

 private:
  cudaStream_t stream_;
  device_info const* device_;
  std::size_t* sized_;
};

// While it lives, every launch_context made on this thread sizes into bytes() (and launches nothing),
// so a call that makes its own contexts is sized by running it inside one.
class scoped_sizing {
 public:
  scoped_sizing() : previous_(current_sizing_slot()) { current_sizing_slot() = &bytes_; }
  ~scoped_sizing() { current_sizing_slot() = previous_; }
  scoped_sizing(scoped_sizing const&) = delete;
  scoped_sizing& operator=(scoped_sizing const&) = delete;
  std::size_t bytes() const { return bytes_; }

 private:
  std::size_t bytes_ = 0;
  std::size_t* previous_;
};

}  // namespace cascade::detail
