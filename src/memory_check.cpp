// The pointer check behind detail/memory_check.cuh: cudaPointerGetAttributes, at most once per
// pointer among the last few this thread passed.
#include <cascade/detail/device.cuh>
#include <cascade/detail/memory_check.cuh>
#include <cascade/error.cuh>

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace cascade::detail {

void require_device_accessible(void const volatile* p, char const* what) {
  if (p == nullptr)
    throw std::invalid_argument(std::string("cascade: ") + what + " is a null pointer; pass device memory");
  constexpr int remembered = 8;
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

}  // namespace cascade::detail
