// src/measure/ceiling.cuh: the read-bandwidth ceiling: a plain streaming kernel that reads every
// byte once with 16-byte loads and keeps one word per block, the least any reduction must do.
#pragma once

#include <cstddef>
#include <utility>

#include "timer.cuh"

namespace cascade_measure {

// One read of `bytes` (a multiple of 16) from `d` with blocks_per_sm x SMs blocks of 512: its grid
// worked out once, each call a launch on the legacy default stream (for a harness that times it
// itself, as cascade-rivals does).
struct read_launch {
  void const* d = nullptr;
  std::size_t bytes = 0;
  int blocks_per_sm = 0;
  unsigned grid = 0;
  read_launch() = default;
  read_launch(void const* d, std::size_t bytes, int blocks_per_sm);
  void operator()() const;
};

// Median time (us) to read `bytes` (a multiple of 16) from `d` with blocks_per_sm x SMs blocks of 512.
double read_ceiling_us(cascade_bench::timer& t, void const* d, std::size_t bytes, cascade_bench::mode m,
                       int blocks_per_sm);

// The best of several grid sizes (2, 4, 8 and 16 blocks of 512 per SM), as the reference timings
// measure it: its launch and its median time.
std::pair<read_launch, double> best_read(cascade_bench::timer& t, void const* d, std::size_t bytes,
                                         cascade_bench::mode m);
double best_read_ceiling_us(cascade_bench::timer& t, void const* d, std::size_t bytes, cascade_bench::mode m);

}  // namespace cascade_measure
