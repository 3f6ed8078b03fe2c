// cascade/detail/side_stream.cuh: a second stream per device, for a call that runs two kernels side by
// side on the GPU (segment::binned: the long segments' parts beside the binning pass). stream_wait(to,
// from) makes `to` wait for the work enqueued on `from` so far, through an event of its own, so calls
// from several host threads stay ordered. A call whose stream is being captured runs everything on its
// own stream instead (the side stream would join the capture, and another thread's work on it would
// break the graph).
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <mutex>

#include "../error.cuh"
#include "capture.cuh"
#include "device.cuh"

namespace cascade::detail {

namespace side_stream_impl {

// Created on first use, after the CUDA runtime has set up its exit handling, so destroyed before it.
struct all_sides {
  std::array<cudaStream_t, max_devices> streams{};
  std::mutex mutex;
  ~all_sides() {
    for (cudaStream_t s : streams)
      if (s != nullptr) (void)cudaStreamDestroy(s);
  }
};

inline all_sides& sides() {
  static all_sides instance;
  return instance;
}

}  // namespace side_stream_impl

// The current device's side stream: made once, non-blocking (the legacy default stream neither waits
// for it nor makes it wait), kept until exit.
inline cudaStream_t side_stream() {
  auto& all = side_stream_impl::sides();
  int const ordinal = current_device().ordinal;
  std::lock_guard<std::mutex> lock(all.mutex);
  cudaStream_t& s = all.streams[static_cast<std::size_t>(ordinal)];
  if (s == nullptr) {
    relaxed_capture_mode relaxed;  // another thread may be capturing
    check_cuda(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreateWithFlags (cascade side stream)");
  }
  return s;
}

// `to` waits for the work enqueued on `from` so far.
inline void stream_wait(cudaStream_t to, cudaStream_t from) {
  cudaEvent_t event = nullptr;
  check_cuda(cudaEventCreateWithFlags(&event, cudaEventDisableTiming), "cudaEventCreateWithFlags (cascade side stream)");
  cudaError_t result = cudaEventRecord(event, from);
  if (result == cudaSuccess) result = cudaStreamWaitEvent(to, event, 0);
  (void)cudaEventDestroy(event);  // released once it has happened; the wait keeps what it needs
  check_cuda(result, "cudaEventRecord / cudaStreamWaitEvent (cascade side stream)");
}

// The side stream of one call: made to wait for `stream`'s work so far when constructed, and `stream`
// made to wait for the side's work by join(), or by the destructor on a path that throws (so that the
// call's scratch, freed on `stream`, outlives the side's kernels).
class side_scope {
 public:
  explicit side_scope(cudaStream_t stream) : stream_(stream), side_(side_stream()) { stream_wait(side_, stream_); }
  ~side_scope() {
    if (!joined_) {
      cudaEvent_t event = nullptr;
      if (cudaEventCreateWithFlags(&event, cudaEventDisableTiming) == cudaSuccess) {
        if (cudaEventRecord(event, side_) == cudaSuccess) (void)cudaStreamWaitEvent(stream_, event, 0);
        (void)cudaEventDestroy(event);
      }
    }
  }
  side_scope(side_scope const&) = delete;
  side_scope& operator=(side_scope const&) = delete;
  cudaStream_t side() const { return side_; }
  void join() {
    joined_ = true;
    stream_wait(stream_, side_);
  }

 private:
  cudaStream_t stream_;
  cudaStream_t side_;
  bool joined_ = false;
};

}  // namespace cascade::detail
