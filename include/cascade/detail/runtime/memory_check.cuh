// cascade/detail/runtime/memory_check.cuh: a raw pointer handed to the device must point where the device
// can reach: a host pointer from malloc, new or std::vector would fault the kernel, and a fault is a
// sticky error that ends the CUDA context, so it is caught here first, where it can be told.
//
// Only raw pointers are checked: a fancy iterator (a transform iterator over a host pointer, say)
// hides what it reads. Device, managed and page-locked host memory pass, and so does pageable host
// memory on a device that reads it (HMM, ATS). Memory of another device is not checked (peer access).
#pragma once

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>
#include <type_traits>

#include "../../error.cuh"
#include "device.cuh"

namespace cascade::detail {

// Throws std::invalid_argument naming `what` ("the input", "the output (d_out)") when p is null or
// pageable host memory the current device cannot read. The check is cudaPointerGetAttributes, at
// most once per pointer among the last few this thread passed, so a loop over the same buffers asks
// the driver once.
inline void require_device_accessible(void const volatile* p, char const* what) {
  if (p == nullptr)
    throw std::invalid_argument(std::string("cascade: ") + what + " is a null pointer; pass device memory");
  constexpr int remembered = 8;
  // One set per thread in the program (thread_locals of an inline function).
  thread_local void const volatile* recent[remembered] = {};
  thread_local int next = 0;
  for (void const volatile* r : recent)
    if (r == p) return;
  cudaPointerAttributes attributes{};
  // also reports a sticky error from earlier work
  check_cuda(cudaPointerGetAttributes(&attributes, const_cast<void const*>(p)), "cudaPointerGetAttributes");
  if (attributes.type == cudaMemoryTypeUnregistered && !current_device().pageable_memory_access)
    throw std::invalid_argument(std::string("cascade: ") + what +
                                " is pageable host memory (malloc, new, std::vector), which this GPU cannot "
                                "read or write; use device memory (cudaMalloc, thrust::device_vector), or "
                                "page-lock the host memory with cudaHostRegister");
  recent[next] = p;
  next = (next + 1) % remembered;
}

// An output view that writes through another iterator (detail/kernel/output_views.cuh names it as
// `wrapped_output`) answers for that one; an input view (detail/kernel/input_iterators.cuh: argmin's,
// transform_reduce's, count_if's) for the iterator it reads, its `first` (inner_product's two: `first1`
// and `first2`), so that a host pointer under a view is refused as it is bare, not read by a kernel.
template <class It>
void check_device_accessible(It const& it, char const* what) {
  if constexpr (std::is_pointer_v<It>) {
    require_device_accessible(it, what);
  } else if constexpr (requires { typename It::wrapped_output; }) {
    check_device_accessible(it.out, what);
  } else if constexpr (requires { typename It::read_type; it.first1; it.first2; }) {
    check_device_accessible(it.first1, what);
    check_device_accessible(it.first2, what);
  } else if constexpr (requires { typename It::read_type; it.first; }) {
    check_device_accessible(it.first, what);
  }
}

}  // namespace cascade::detail
