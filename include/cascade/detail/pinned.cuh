// cascade/detail/pinned.cuh: page-locked host blocks for finish::host (src/pinned.cpp). Blocks are
// reused: after the first calls, acquiring one is a lookup, not a cudaMallocHost. A block belongs to
// one call from acquire to release; release may run in a stream callback (cudaLaunchHostFunc).
#pragma once

#include <cstddef>

namespace cascade::detail {

void* pinned_acquire(std::size_t bytes);  // throws cuda_error
void pinned_release(void* block) noexcept;

}  // namespace cascade::detail
