// cascade/memory/scratch_pool.cuh: cascade's own device memory for temporary storage, and how much of it it keeps.
//
//   cascade::set_scratch_release_threshold(64 << 20);  // keep at most 64 MiB across synchronizations
//   ...
//   cascade::scratch_trim();                           // give back everything not in use, now
//
// A call takes its temporary storage (a few KiB of partials and flags for most policies) from a CUDA
// memory pool that cascade makes per device, created on first use, and in steady state allocates
// nothing from the driver. By default the pool keeps whatever it has reserved (release threshold:
// unlimited). A call given the caller's storage (a memory resource, or CUB-style temporary storage:
// docs/memory.md) takes nothing from it. Not counted here, and never given back before exit: 98 KiB
// per stream that has run finish::last_block, finish::flagged, exact_plus or reproducible_plus (at
// most 64 streams per device), and the page-locked host blocks reduce() and finish::host use.
//
// Every function acts on the current device's pools: the one calls draw from, and the one graph
// captures draw from (a captured call's scratch belongs to its graph until the graph is destroyed).
// Each throws cuda_error when a CUDA call fails or there is no device.
#pragma once

#include <cstddef>
#include <cstdint>

#include "../detail/runtime/scratch.cuh"

namespace cascade {

// Gives back to the driver every byte of the pools that no call or graph uses. Synchronize the
// streams cascade ran on first: a block whose release is still pending on a stream stays.
inline void scratch_trim() { detail::scratch_trim(); }

// Bytes the pools hold from the driver.
inline std::size_t scratch_reserved_bytes() {
  return detail::scratch_pools_bytes(cudaMemPoolAttrReservedMemCurrent,
                                     "cudaMemPoolGetAttribute(cudaMemPoolAttrReservedMemCurrent)");
}

// Bytes of the pools handed out and not yet released (in stream order) by a call or a graph.
inline std::size_t scratch_used_bytes() {
  return detail::scratch_pools_bytes(cudaMemPoolAttrUsedMemCurrent,
                                     "cudaMemPoolGetAttribute(cudaMemPoolAttrUsedMemCurrent)");
}

// How much unused memory each pool keeps (cudaMemPoolAttrReleaseThreshold): when a pool holds more
// than `bytes`, CUDA gives the excess back to the driver at the next synchronization (of a stream,
// an event or the device). Not a limit on use: a call still gets what it needs, and memory in use
// is never given back. 0 gives everything back at each synchronization (then calls allocate from
// the driver again, which costs far more than a call); the default keeps everything
// (UINT64_MAX).
inline void set_scratch_release_threshold(std::uint64_t bytes) { detail::set_scratch_pools_release_threshold(bytes); }

inline std::uint64_t scratch_release_threshold() { return detail::scratch_pools_release_threshold(); }

}  // namespace cascade
