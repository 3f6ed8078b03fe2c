// bench/support/nvbench_hot.cuh: the one time cascade's tables quote that NVBench does not measure.
// cascade's "hot" is one call's GPU time with its input left in L2 by the run before and its launch
// excluded (queued behind a spin kernel: src/measure/timer.cuh). NVBench flushes L2 before every
// sample of its cold measurement, and its batch measurement times launches back to back, which below
// about 2^24 items is the host's launch rate as much as the kernels (docs/notes/nvbench-harness.md).
// add_hot() takes cascade's hot samples of a state's call and records them as summaries of that
// state (tags cascade/hot/...), so NVBench's own output, its JSON included, carries them beside its
// cold and batch times; hot_group_samples() takes rivals' in alternating runs, as cascade's timer
// does, for a program to record each at its own state.
#pragma once

#include <nvbench/nvbench.cuh>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "measure/timer.cuh"
#include "nvbench_program.cuh"

namespace cascade_nvbench {

// One timer for the program: it holds the spin kernel's events and a flush buffer (2x L2), freed
// before main() returns (before_exit).
inline std::unique_ptr<cascade_bench::timer>& hot_timer_holder() {
  static std::unique_ptr<cascade_bench::timer> t;
  return t;
}
inline cascade_bench::timer& hot_timer() {
  auto& t = hot_timer_holder();
  if (!t) {
    t = std::make_unique<cascade_bench::timer>();
    before_exit().push_back([] { hot_timer_holder().reset(); });
  }
  return *t;
}

// Records cascade's hot samples of a state's call (microseconds) as the state's summaries.
inline void add_hot_samples(nvbench::state& state, std::vector<double> us) {
  std::sort(us.begin(), us.end());
  auto const put = [&state](char const* tag, char const* name, char const* description, double seconds) {
    auto& s = state.add_summary(tag);
    s.set_string("name", name);
    s.set_string("hint", "duration");
    s.set_string("description", description);
    s.set_float64("value", seconds);
  };
  put("cascade/hot/time/gpu/median", "Hot GPU",
      "cascade's hot time: the median GPU time of one call, input in L2, launch excluded", us[us.size() / 2] * 1e-6);
  put("cascade/hot/time/gpu/min", "Hot Min", "the fastest of cascade's hot runs", us.front() * 1e-6);
  put("cascade/hot/time/gpu/max", "Hot Max", "the slowest of cascade's hot runs", us.back() * 1e-6);
  auto& n = state.add_summary("cascade/hot/sample_size");
  n.set_string("name", "Hot Samples");
  n.set_string("hint", "sample_size");
  n.set_string("description", "runs in cascade's hot measurement");
  n.set_int64("value", static_cast<std::int64_t>(us.size()));
}

// `call()` enqueues the state's work on the legacy default stream. Up to 51 runs, fewer for a long
// call (src/measure/timer.cuh's budget), after a warm-up run that fills L2.
template <class Call>
void add_hot(nvbench::state& state, Call&& call) {
  add_hot_samples(state, hot_timer().samples_us_budget(call, cascade_bench::mode::hot));
}

// The hot samples of several calls in alternating runs (c0, c1, ..., c0, c1, ...), as cascade's
// timer takes rivals' times: a program takes them once, at the first of the calls' states, and
// records each call's at its own state (add_hot_samples), since NVBench runs one state at a time.
template <class Call>
std::vector<std::vector<double>> hot_group_samples(std::vector<Call> const& calls) {
  return hot_timer().group_samples_us_budget(calls, cascade_bench::mode::hot);
}

}  // namespace cascade_nvbench
