// src/measure/workspace.cuh: one configuration's buffers on the device, and timing one call on them.
#pragma once

#include <cascade/error.cuh>

#include <cmath>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "candidates.cuh"
#include "timer.cuh"

namespace cascade_measure {

// Items (seeded, up to max_n), the output slot, CUB's temporary storage for up to max_n items (made
// here, outside any timed region) and the init every call uses (the op's identity).
class workspace {
 public:
  workspace(config const& c, long long max_n, unsigned long long seed) : ops_(c.ops()) {
    CASCADE_CUDA_CHECK(cudaMalloc(&items_, static_cast<std::size_t>(max_n) * ops_.item_bytes));
    ops_.fill(items_, max_n, seed);
    CASCADE_CUDA_CHECK(cudaMalloc(&out_, 64));
    temp_bytes_ = ops_.cub_temp_bytes(max_n);
    CASCADE_CUDA_CHECK(cudaMalloc(&temp_, temp_bytes_ == 0 ? 1 : temp_bytes_));
    init_.resize(ops_.accumulator_bytes);
    ops_.identity(init_.data());
  }
  ~workspace() {
    cudaFree(items_);
    cudaFree(out_);
    cudaFree(temp_);
  }
  workspace(workspace const&) = delete;
  workspace& operator=(workspace const&) = delete;

  typed_ops const& ops() const { return ops_; }
  void const* items() const { return items_; }
  void* out() const { return out_; }
  void const* init() const { return init_.data(); }

  void cub(long long n) const {
    std::size_t bytes = ops_.cub_temp_bytes(n);  // host-side arithmetic, no device work
    ops_.cub_reduce(temp_, bytes, items_, n, out_, nullptr);
  }
  void candidate(candidate const& c, long long n) const { c.run(items_, n, out_, init_.data(), nullptr); }
  std::vector<unsigned char> read_out() const {
    std::vector<unsigned char> v(ops_.accumulator_bytes);
    CASCADE_CUDA_CHECK(cudaMemcpy(v.data(), out_, v.size(), cudaMemcpyDeviceToHost));
    return v;
  }
  // Poisons the output slot, so that a call that writes nothing cannot pass for one that agrees.
  void poison_out() const { CASCADE_CUDA_CHECK(cudaMemset(out_, 0xA5, 64)); }

 private:
  typed_ops ops_;
  void* items_ = nullptr;
  void* out_ = nullptr;
  void* temp_ = nullptr;
  std::size_t temp_bytes_ = 0;
  std::vector<unsigned char> init_;
};

struct timing {
  double hot_us = NAN, cold_us = NAN;
  double hot_idle_us = NAN;  // measured only when asked (with_idle)
  bool agrees = false;
  std::string value;  // the result, formatted
};

// Runs `call` once more into a poisoned output and records whether its result agrees with `reference`.
template <class F>
void check_result(workspace const& w, F&& call, std::vector<unsigned char> const& reference, timing& r) {
  w.poison_out();
  call();
  auto const got = w.read_out();
  r.agrees = w.ops().agrees(got.data(), reference.data());
  r.value = w.ops().format(got.data());
}

// Times `call` hot and cold (and hot on an idle GPU, launch included, when with_idle; up to max_runs
// each, fewer for long calls) and checks the device result it leaves against `reference`.
template <class F>
timing time_device_call(cascade_bench::timer& t, workspace const& w, F&& call,
                        std::vector<unsigned char> const& reference, int max_runs, double budget_us,
                        bool with_idle = false) {
  using cascade_bench::mode;
  timing r;
  r.hot_us = t.median_us_budget(call, mode::hot, max_runs, budget_us);
  r.cold_us = t.median_us_budget(call, mode::cold, max_runs, budget_us);
  if (with_idle) r.hot_idle_us = t.median_us_budget(call, mode::hot_idle, max_runs, budget_us);
  check_result(w, call, reference, r);
  return r;
}

// time_device_call for two calls at once, their runs alternating in each mode (timer's *_pair_*), so
// that their ratio is measured under the same conditions.
template <class A, class B>
std::pair<timing, timing> time_device_pair(cascade_bench::timer& t, workspace const& w, A&& a, B&& b,
                                           std::vector<unsigned char> const& reference, int max_runs,
                                           double budget_us, bool with_idle = false) {
  using cascade_bench::mode;
  timing ra, rb;
  std::tie(ra.hot_us, rb.hot_us) = t.median_pair_us_budget(a, b, mode::hot, max_runs, budget_us);
  std::tie(ra.cold_us, rb.cold_us) = t.median_pair_us_budget(a, b, mode::cold, max_runs, budget_us);
  if (with_idle) std::tie(ra.hot_idle_us, rb.hot_idle_us) = t.median_pair_us_budget(a, b, mode::hot_idle, max_runs, budget_us);
  check_result(w, a, reference, ra);
  check_result(w, b, reference, rb);
  return {ra, rb};
}

}  // namespace cascade_measure
