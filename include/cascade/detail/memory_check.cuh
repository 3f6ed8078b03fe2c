// cascade/detail/memory_check.cuh: a raw pointer handed to the device must point where the device
// can reach: a host pointer from malloc, new or std::vector would fault the kernel, and a fault is a
// sticky error that ends the CUDA context, so it is caught here first, where it can be told.
//
// Only raw pointers are checked: a fancy iterator (a transform iterator over a host pointer, say)
// hides what it reads. Device, managed and page-locked host memory pass, and so does pageable host
// memory on a device that reads it (HMM, ATS). Memory of another device is not checked (peer access).
#pragma once

#include <type_traits>

namespace cascade::detail {

// Throws std::invalid_argument naming `what` ("the input", "the output (d_out)") when p is null or
// pageable host memory the current device cannot read. The last few pointers this thread passed
// are remembered, so a loop over the same buffers asks the driver once (src/memory_check.cpp).
void require_device_accessible(void const volatile* p, char const* what);

template <class It>
void check_device_accessible(It const& it, char const* what) {
  if constexpr (std::is_pointer_v<It>) require_device_accessible(it, what);
}

}  // namespace cascade::detail
