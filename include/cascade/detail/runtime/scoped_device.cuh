// cascade/detail/runtime/scoped_device.cuh: makes a device current for a scope and restores the one before,
// so that a call made for another GPU (a communicator's, in one process driving several GPUs) leaves
// the caller's current device as it was.
#pragma once

#include <cuda_runtime_api.h>

#include "../../error.cuh"

namespace cascade::detail {

class scoped_device {
 public:
  explicit scoped_device(int ordinal) {
    check_cuda(cudaGetDevice(&previous_), "cudaGetDevice");
    if (ordinal != previous_) check_cuda(cudaSetDevice(ordinal), "cudaSetDevice");
  }
  ~scoped_device() {
    int now = previous_;
    if (cudaGetDevice(&now) == cudaSuccess && now != previous_) (void)cudaSetDevice(previous_);
  }
  scoped_device(scoped_device const&) = delete;
  scoped_device& operator=(scoped_device const&) = delete;

 private:
  int previous_ = 0;
};

// As scoped_device, for teardown: never throws (a device it cannot make current is left as is).
class scoped_device_noexcept {
 public:
  explicit scoped_device_noexcept(int ordinal) noexcept {
    switched_ = cudaGetDevice(&previous_) == cudaSuccess && previous_ != ordinal && cudaSetDevice(ordinal) == cudaSuccess;
  }
  ~scoped_device_noexcept() {
    if (switched_) (void)cudaSetDevice(previous_);
  }
  scoped_device_noexcept(scoped_device_noexcept const&) = delete;
  scoped_device_noexcept& operator=(scoped_device_noexcept const&) = delete;

 private:
  int previous_ = 0;
  bool switched_ = false;
};

}  // namespace cascade::detail
