// A kernel that keeps one SM busy for a given time, on a stream of the test's: the "other work" beside
// which reductions must not wait (docs/streams.md, "Concurrency"). It writes `token` when it ends, so the
// test can check that it ran whole.
#pragma once

#include <cascade/error.cuh>

#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdlib>

namespace cascade_test {

static __global__ void busy_kernel(unsigned long long nanoseconds, int* done, int token) {
  unsigned long long start;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  for (unsigned long long now = start; now - start < nanoseconds;) asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  *done = token;
}

inline void launch_busy(double milliseconds, int* done, int token, cudaStream_t stream) {
  busy_kernel<<<1, 1, 0, stream>>>(static_cast<unsigned long long>(milliseconds * 1e6), done, token);
  CASCADE_CUDA_CHECK(cudaGetLastError());
}

// Whether to check that a call did not wait for the busy kernel: scripts/sanitize.sh turns it off
// (CASCADE_TEST_NO_TIMING=1), since compute-sanitizer runs kernels one at a time.
inline bool timing_checks() { return std::getenv("CASCADE_TEST_NO_TIMING") == nullptr; }

inline double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace cascade_test
