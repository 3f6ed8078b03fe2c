// src/measure/timer.cuh: how cascade measures device time. CUDA events around the timed call
// only, warm-up runs first, the median of many runs. Hot: the same buffers again (inputs that fit
// in L2 are read from L2). Cold: before every run a buffer twice the L2 size is written, evicting
// the input, and only then the start event is recorded.
#pragma once

#include <cascade/error.cuh>

#include <algorithm>
#include <cstddef>
#include <vector>

namespace cascade_bench {

class timer {
 public:
  timer() {
    int device = 0, l2 = 0;
    CASCADE_CUDA_CHECK(cudaGetDevice(&device));
    CASCADE_CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
    flush_bytes_ = 2 * static_cast<std::size_t>(l2 > 0 ? l2 : (64 << 20));
    CASCADE_CUDA_CHECK(cudaMalloc(&flush_, flush_bytes_));
    CASCADE_CUDA_CHECK(cudaEventCreate(&start_));
    CASCADE_CUDA_CHECK(cudaEventCreate(&stop_));
  }
  ~timer() {
    cudaFree(flush_);
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  timer(timer const&) = delete;
  timer& operator=(timer const&) = delete;

  // Median time of `run()` in microseconds. `run` must enqueue its work on the legacy default stream.
  template <class F>
  double median_us(F&& run, bool cold, int warmup = 5, int runs = 51) {
    for (int i = 0; i < warmup; ++i) run();
    std::vector<float> ms(runs);
    for (float& t : ms) {
      if (cold) CASCADE_CUDA_CHECK(cudaMemsetAsync(flush_, 0, flush_bytes_));
      CASCADE_CUDA_CHECK(cudaEventRecord(start_));
      run();
      CASCADE_CUDA_CHECK(cudaEventRecord(stop_));
      CASCADE_CUDA_CHECK(cudaEventSynchronize(stop_));
      CASCADE_CUDA_CHECK(cudaEventElapsedTime(&t, start_, stop_));
    }
    std::nth_element(ms.begin(), ms.begin() + runs / 2, ms.end());
    return ms[runs / 2] * 1e3;
  }

  // The same, with the number of runs fitted to a time budget: up to `max_runs` for fast calls, down
  // to 5 when one run is long (a seed kernel at 2^30 items), so sweeps stay bounded.
  template <class F>
  double median_us_budget(F&& run, bool cold, int max_runs = 51, double budget_us = 2e5) {
    double const one = median_us(run, cold, 2, 1);
    int runs = static_cast<int>(budget_us / (one > 1 ? one : 1));
    runs = std::clamp(runs, 5, max_runs) | 1;  // odd: the median is one run's time
    return median_us(run, cold, 1, runs);
  }

 private:
  void* flush_ = nullptr;
  std::size_t flush_bytes_ = 0;
  cudaEvent_t start_{}, stop_{};
};

}  // namespace cascade_bench
