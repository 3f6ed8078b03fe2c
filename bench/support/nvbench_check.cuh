// bench/support/nvbench_check.cuh: a state whose call gives a wrong result is not timed. disagree() skips it
// with the reason (NVBench prints and records skipped states with theirs) and counts it, so that the
// program exits with 1 (nvbench_program.cuh), as every bench program does when a result disagrees.
#pragma once

#include <nvbench/nvbench.cuh>

#include <atomic>
#include <cstdio>
#include <string>

namespace cascade_nvbench {

inline std::atomic<int>& disagreements() {
  static std::atomic<int> n{0};
  return n;
}

inline void disagree(nvbench::state& state, std::string const& why) {
  ++disagreements();
  std::fprintf(stderr, "DISAGREES: %s\n", why.c_str());
  state.skip("DISAGREES: " + why);
}

inline int exit_status() { return disagreements() == 0 ? 0 : 1; }

}  // namespace cascade_nvbench
