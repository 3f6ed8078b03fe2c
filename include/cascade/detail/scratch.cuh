// cascade/detail/scratch.cuh: temporary device storage for one call.
//
// Memory comes from a per-device CUDA memory pool owned by cascade (src/scratch.cpp) that keeps what
// it has reserved, so in steady state a call costs a stream-ordered pool sub-allocation, never a
// cudaMalloc/cudaFree. Allocation and release are ordered on the call's stream: calls on different
// streams never share scratch, and the pool reuses a block only once its release has been ordered.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace cascade::detail {

void* scratch_allocate(std::size_t bytes, cudaStream_t stream);   // throws cuda_error
void scratch_release(void* p, cudaStream_t stream) noexcept;
std::size_t scratch_reserved_bytes();  // bytes the current device's pool holds from the driver
std::size_t scratch_used_bytes();      // bytes of it handed out and not yet released
// Gives the current device's pool memory not in use back to the driver (the tests' leak checks).
void scratch_trim();

class scratch_buffer {
 public:
  scratch_buffer(std::size_t bytes, cudaStream_t stream)
      : ptr_(scratch_allocate(bytes, stream)), stream_(stream) {}
  ~scratch_buffer() { scratch_release(ptr_, stream_); }
  scratch_buffer(scratch_buffer const&) = delete;
  scratch_buffer& operator=(scratch_buffer const&) = delete;

  template <class T>
  T* as() const { return static_cast<T*>(ptr_); }

 private:
  void* ptr_;
  cudaStream_t stream_;
};

}  // namespace cascade::detail
