// Graph capture and stream pairs for the tests of graphs and concurrent streams (concurrency_test,
// segmented_test).
#pragma once

#include <cascade/error.cuh>

#include <cuda_runtime_api.h>

#include <exception>
#include <string>

namespace cascade_test {

// Captures f() on `stream` (global mode, as a user would) into a graph; the capture is ended whatever
// f throws, and the failure comes back as text.
template <class F>
cudaGraph_t capture(cudaStream_t stream, F f, std::string& failure) {
  CASCADE_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  try {
    f();
  } catch (std::exception const& e) {
    failure = e.what();
  }
  cudaGraph_t graph = nullptr;
  cudaError_t const ended = cudaStreamEndCapture(stream, &graph);
  if (failure.empty() && ended != cudaSuccess) failure = cudaGetErrorString(ended);
  (void)cudaGetLastError();
  return graph;
}

// Two non-blocking streams, destroyed with the object.
struct streams {
  cudaStream_t a = nullptr, b = nullptr;
  streams() {
    CASCADE_CUDA_CHECK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
    CASCADE_CUDA_CHECK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
  }
  ~streams() {
    (void)cudaStreamDestroy(a);
    (void)cudaStreamDestroy(b);
  }
  streams(streams const&) = delete;
  streams& operator=(streams const&) = delete;
};

}  // namespace cascade_test
