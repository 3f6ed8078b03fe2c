// src/measure/timer.cuh: how cascade measures device time. CUDA events around the timed call
// only, warm-up runs first, the median of many runs. Hot: the same buffers again (inputs that fit
// in L2 are read from L2). Cold: before every run a buffer twice the L2 size is written, evicting
// the input, and only then the start event is recorded. Either way the GPU is busy when the start
// event is enqueued (a spin kernel when hot, the flush and then the spin when cold), so the call's
// launches are queued behind it and the events time the GPU's work, not the host's launch
// submission (as nvbench's blocking kernel does). Hot-idle: the same buffers, but the GPU idle when the start event is
// enqueued, so the time includes the host's launch of the call, as one isolated call sees it (the
// method of the project's first reference timings). Calls that return their result to the host are timed by the host's
// clock instead (median_wall_us): what their caller waits. Two calls to be compared (CUB and
// cascade) are timed in alternating runs (the *_pair_* forms), so drift between them cannot tilt
// their ratio.
#pragma once

#include <cascade/error.cuh>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <utility>
#include <vector>

namespace cascade_bench {

enum class mode { hot, cold, hot_idle };

// Keeps the GPU busy for ns nanoseconds (global timer), so that what the host enqueues meanwhile
// starts back to back with it.
template <int = 0>
__global__ void spin_kernel(unsigned long long ns) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
}

// Holds a stream until the host opens the gate (a word of mapped host memory), or for at most
// limit_ns (then *late is raised: the host blocked before opening it, and the time is not a GPU time).
// Several GPUs' streams held by one gate start together: launch skew between them does not count.
template <int = 0>
__global__ void gate_kernel(unsigned volatile const* open, unsigned long long limit_ns, unsigned volatile* late) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  while (*open == 0u) {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    if (now - start > limit_ns) {
      *late = 1u;
      return;
    }
  }
}

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

  // Median time of `run()` in microseconds. `run` must enqueue its work on the legacy default stream,
  // and all of it within spin_ns (a few launches do).
  template <class F>
  double median_us(F&& run, mode m, int warmup = 5, int runs = 51) {
    for (int i = 0; i < warmup; ++i) run();
    std::vector<float> ms(runs);
    for (float& t : ms) t = once_ms(run, m);
    return median_of(ms) * 1e3;
  }

  // The same, with the number of runs fitted to a time budget: up to `max_runs` for fast calls, down
  // to 5 when one run is long (a seed kernel at 2^30 items), so sweeps stay bounded.
  template <class F>
  double median_us_budget(F&& run, mode m, int max_runs = 51, double budget_us = 2e5) {
    auto us = samples_us_budget(run, m, max_runs, budget_us);
    return median_of(us);
  }

  // Every run's time in microseconds, as median_us_budget takes them (for a harness that keeps its
  // own statistics: bench/support/nvbench_hot.cuh).
  template <class F>
  std::vector<double> samples_us_budget(F&& run, mode m, int max_runs = 51, double budget_us = 2e5) {
    int const runs = runs_within(median_us(run, m, 2, 1), max_runs, budget_us);
    run();
    std::vector<double> us(runs);
    for (double& t : us) t = once_ms(run, m) * 1e3;
    return us;
  }

  // Median times of a() and b() in microseconds, their runs alternating (a, b, a, b, ...), so that
  // both see the same clocks, host load and drift: for the ratio of the two (CUB against cascade).
  template <class A, class B>
  std::pair<double, double> median_pair_us_budget(A&& a, B&& b, mode m, int max_runs = 51, double budget_us = 2e5) {
    double const one = std::max(median_us(a, m, 2, 1), median_us(b, m, 2, 1));
    int const runs = runs_within(2 * one, max_runs, budget_us);
    std::vector<float> ta(runs), tb(runs);
    for (int i = 0; i < runs; ++i) ta[i] = once_ms(a, m), tb[i] = once_ms(b, m);
    return {median_of(ta) * 1e3, median_of(tb) * 1e3};
  }

  // Median times of each call in `calls` in microseconds, their runs alternating (c0, c1, ..., c0, c1,
  // ...), as median_pair_us_budget does for two: every rival of one measurement sees the same drift.
  template <class F>
  std::vector<double> median_group_us_budget(std::vector<F> const& calls, mode m, int max_runs = 51,
                                             double budget_us = 2e5) {
    std::vector<double> us;
    for (auto& v : group_samples_us_budget(calls, m, max_runs, budget_us)) us.push_back(median_of(v));
    return us;
  }

  // The same runs, every run's time in microseconds, a list per call (for a harness that keeps its
  // own statistics: bench/support/nvbench_hot.cuh).
  template <class F>
  std::vector<std::vector<double>> group_samples_us_budget(std::vector<F> const& calls, mode m, int max_runs = 51,
                                                           double budget_us = 2e5) {
    return alternating_us(calls, max_runs, budget_us, [&](F const& c) { return once_ms(c, m) * 1e3; });
  }

  // Median host wall time of `run()` in microseconds, for calls that return only once their result
  // is on the host (thrust::reduce, cascade::reduce): the device is idle before each run, and cold
  // runs flush L2 first.
  template <class F>
  double median_wall_us(F&& run, bool cold, int warmup = 5, int runs = 51) {
    for (int i = 0; i < warmup; ++i) run();
    std::vector<double> us(runs);
    for (double& t : us) t = once_wall_us(run, cold);
    CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
    return median_of(us);
  }

  template <class F>
  double median_wall_us_budget(F&& run, bool cold, int max_runs = 51, double budget_us = 2e5) {
    return median_wall_us(run, cold, 1, runs_within(median_wall_us(run, cold, 2, 1), max_runs, budget_us));
  }

  // The host-clock pair, alternating as median_pair_us_budget does (thrust::reduce against cascade::reduce).
  template <class A, class B>
  std::pair<double, double> median_wall_pair_us_budget(A&& a, B&& b, bool cold, int max_runs = 51,
                                                       double budget_us = 2e5) {
    double const one = std::max(median_wall_us(a, cold, 2, 1), median_wall_us(b, cold, 2, 1));
    int const runs = runs_within(2 * one, max_runs, budget_us);
    std::vector<double> ta(runs), tb(runs);
    for (int i = 0; i < runs; ++i) ta[i] = once_wall_us(a, cold), tb[i] = once_wall_us(b, cold);
    CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
    return {median_of(ta), median_of(tb)};
  }

  // Every host-clock run of each call in `calls` in microseconds, their runs alternating (c0, c1, ...,
  // c0, c1, ...), a list per call, L2 warm (bench/support/contest.cu: calls that return to the host).
  template <class F>
  std::vector<std::vector<double>> wall_group_samples_us_budget(std::vector<F> const& calls, int max_runs = 51,
                                                                double budget_us = 2e5) {
    auto us = alternating_us(calls, max_runs, budget_us, [&](F const& c) { return once_wall_us(c, false); });
    CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
    return us;
  }

  // 300 us: the segmented bench's first cascade call after CUB's kernels of 7-73 ms (segments of 1-10
  // items) now and then took its host work past a 50 us spin, which its hot figure then counted (up to
  // 16 us at 4 items); behind 300 us it never did (at 55e5fe6: docs/notes/segmented-owners.md).
  static constexpr unsigned long long spin_ns = 300'000;

 private:
  // The alternating runs of the two group_samples above, each run timed by once(call) in
  // microseconds: two warm-up runs of each call, then as many rounds as the slowest call's third run
  // fits in the budget.
  template <class F, class Once>
  std::vector<std::vector<double>> alternating_us(std::vector<F> const& calls, int max_runs, double budget_us,
                                                  Once once) {
    double one = 0;
    for (auto const& c : calls) {
      c();
      c();
      one = std::max(one, once(c));
    }
    int const runs = runs_within(one * static_cast<double>(calls.size()), max_runs, budget_us);
    std::vector<std::vector<double>> us(calls.size(), std::vector<double>(runs));
    for (int i = 0; i < runs; ++i)
      for (std::size_t k = 0; k < calls.size(); ++k) us[k][i] = once(calls[k]);
    return us;
  }

  // One run of `run()` in milliseconds of GPU time, started the way mode `m` says.
  template <class F>
  float once_ms(F&& run, mode m) {
    if (m == mode::hot_idle) {
      CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
    } else {
      // Cold: the spin behind the flush too (it touches no memory), for a call whose host work
      // outlasts the flush (about 40 us on an H200): the GPU's wait for its launches would count.
      if (m == mode::cold) CASCADE_CUDA_CHECK(cudaMemsetAsync(flush_, 0, flush_bytes_));
      spin_kernel<<<1, 1>>>(spin_ns);
      CASCADE_CUDA_CHECK(cudaGetLastError());
    }
    CASCADE_CUDA_CHECK(cudaEventRecord(start_));
    run();
    CASCADE_CUDA_CHECK(cudaEventRecord(stop_));
    CASCADE_CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0;
    CASCADE_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
  }

  // One run of `run()` by the host clock, the device idle first (and L2 flushed when cold).
  template <class F>
  double once_wall_us(F&& run, bool cold) {
    if (cold) CASCADE_CUDA_CHECK(cudaMemsetAsync(flush_, 0, flush_bytes_));
    CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
    auto const begin = std::chrono::steady_clock::now();
    run();
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - begin).count();
  }

  // How many runs of `one_us` each fit `budget_us`: between 5 and max_runs, odd so that the median
  // is one run's time.
  static int runs_within(double one_us, int max_runs, double budget_us) {
    return std::clamp(static_cast<int>(budget_us / (one_us > 1 ? one_us : 1)), 5, max_runs) | 1;
  }
  template <class V>
  static double median_of(std::vector<V>& v) {
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
  }

  void* flush_ = nullptr;
  std::size_t flush_bytes_ = 0;
  cudaEvent_t start_{}, stop_{};
};

}  // namespace cascade_bench
