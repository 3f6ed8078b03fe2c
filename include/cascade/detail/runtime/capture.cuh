// cascade/detail/runtime/capture.cuh: what cascade needs to know and do about CUDA stream capture (graphs).
//
// A call enqueued on a stream that is being captured becomes nodes of the capture's graph and runs
// each time the graph is launched, so whatever host-side state those nodes use must live as long as
// the graph (graph_owned below), and nothing may be handed back to a pool when the call returns.
#pragma once

#include <cuda_runtime_api.h>

#include <memory>

#include "../../error.cuh"

namespace cascade::detail {

inline bool is_capturing(cudaStream_t stream) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  check_cuda(cudaStreamIsCapturing(stream, &status), "cudaStreamIsCapturing");
  return status != cudaStreamCaptureStatusNone;
}

// While it lives, this thread may make calls that a capture in cudaStreamCaptureModeGlobal (the
// default, on any thread) forbids as "potentially unsafe": cascade's own one-time allocations
// (page-locked blocks, per-stream state, the scratch pool), none of which touches a captured stream.
// Without it, such an allocation fails, and invalidates the capture, whenever any thread of the
// process happens to be capturing.
class relaxed_capture_mode {
 public:
  relaxed_capture_mode() { (void)cudaThreadExchangeStreamCaptureMode(&mode_); }
  ~relaxed_capture_mode() { (void)cudaThreadExchangeStreamCaptureMode(&mode_); }
  relaxed_capture_mode(relaxed_capture_mode const&) = delete;
  relaxed_capture_mode& operator=(relaxed_capture_mode const&) = delete;

 private:
  cudaStreamCaptureMode mode_ = cudaStreamCaptureModeRelaxed;
};

// Hands `object` to the graph that `stream` is capturing into: the graph (and every executable graph
// instantiated from it) keeps it alive, and it is deleted once the last of them is destroyed and its
// launches have finished. The deleter runs on a CUDA-internal thread and must make no CUDA call.
template <class Object>
void graph_owned(std::unique_ptr<Object>& object, cudaStream_t stream) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  cudaGraph_t graph = nullptr;
  check_cuda(cudaStreamGetCaptureInfo(stream, &status, nullptr, &graph), "cudaStreamGetCaptureInfo");
  if (status != cudaStreamCaptureStatusActive || graph == nullptr)
    throw_cuda_error(cudaErrorStreamCaptureInvalidated, "cudaStreamGetCaptureInfo (cascade: the capture is not active)");
  cudaUserObject_t user_object = nullptr;
  auto const destroy = [](void* p) { delete static_cast<Object*>(p); };
  check_cuda(cudaUserObjectCreate(&user_object, object.get(), destroy, 1, cudaUserObjectNoDestructorSync),
             "cudaUserObjectCreate");
  object.release();  // the user object owns it now
  cudaError_t const retained = cudaGraphRetainUserObject(graph, user_object, 1, cudaGraphUserObjectMove);
  if (retained != cudaSuccess) {
    (void)cudaUserObjectRelease(user_object, 1);  // the last reference: deletes the object
    throw_cuda_error(retained, "cudaGraphRetainUserObject");
  }
}

}  // namespace cascade::detail
