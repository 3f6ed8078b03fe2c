// cascade/detail/runtime/launch_context.cuh: one call's way down the layers, from the entry point to
// the finish: its stream, its device (read once, at the entry, and passed down), and whether it
// launches or only sizes.
//
// A call that takes CUB-style temporary storage is first sized: the same path runs with a sizing
// context, which hands out no scratch (each request's piece is counted instead), no stream state (the
// caller's storage replaces it, so the finishes take their scratch path and count it) and which the
// finishes ask, after taking their scratch, whether to launch. So the storage a call asks for is what
// its own requests add up to, with no second description of the path to keep in step (CUB's
// dispatch sizes its temporaries the same way, returning before its first launch).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "device.cuh"
#include "scratch.cuh"
#include "scratch_source.cuh"
#include "stream_state.cuh"

namespace cascade::detail {

class launch_context {
 public:
  launch_context(cudaStream_t stream, device_info const& device) : stream_(stream), device_(&device) {}

  cudaStream_t stream() const { return stream_; }
  device_info const& device() const { return *device_; }
  // False while the call is being sized: take scratch as a launch would, then launch nothing.
  bool launches() const { return sized_ == nullptr; }

  // Temporary device storage for the call, ordered on its stream; while sizing, none (its piece is
  // counted). `user` (a strategy's name) is for messages.
  scratch_buffer scratch(std::size_t bytes, char const* user) const {
    if (sized_ != nullptr) {
      *sized_ += scratch_piece_bytes(bytes);
      return scratch_buffer();
    }
    return scratch_buffer(bytes, stream_, user, device_->ordinal);
  }

  // While sizing, bytes of scratch counted as they are (a finish of the earlier shape's scratch_bytes:
  // detail/dispatch.cuh's adapter).
  void add_sized_bytes(std::size_t bytes) const {
    if (sized_ != nullptr) *sized_ += bytes;
  }

  // The stream's own state (stream_state.cuh); none while sizing.
  stream_state state() const { return sized_ != nullptr ? stream_state{} : stream_state_of(stream_, device_->ordinal); }

 protected:
  launch_context(cudaStream_t stream, device_info const& device, std::size_t* sized)
      : stream_(stream), device_(&device), sized_(sized) {}

 private:
  cudaStream_t stream_;
  device_info const* device_;
  std::size_t* sized_ = nullptr;
};

// A context that sizes: run the call's path with it, then bytes() is the sum of the
// scratch_piece_bytes of every request on the way.
class sizing_context : public launch_context {
 public:
  sizing_context(cudaStream_t stream, device_info const& device) : launch_context(stream, device, &bytes_) {}
  sizing_context(sizing_context const&) = delete;
  sizing_context& operator=(sizing_context const&) = delete;
  std::size_t bytes() const { return bytes_; }

 private:
  std::size_t bytes_ = 0;
};

}  // namespace cascade::detail
