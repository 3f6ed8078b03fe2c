// cascade/tuning/portable.cuh: the table default_policy uses where no measured table fits: a device of
// an architecture without one (an A100, an L4, an RTX card, a Blackwell), or code compiled for an older
// architecture than the device's (a build for sm_80 running on a Hopper through PTX), whose kernels are
// not the ones a measured table timed.
//
// Its choices follow from what every GPU reports rather than from one GPU's timings:
//   - the block's items: C items a thread, 32 to 64 bytes of them (the measured tables' large-input
//     choice on both Hopper GPUs, where one thread's loads in flight cover the memory latency);
//   - the block size: 256 threads while the input has fewer tiles of 256 x C items than the device holds
//     256-thread blocks at once (SMs x max threads per SM / 256), so every SM gets work; 512 beyond
//     (fewer blocks, each combining more: the measured tables' choice at large sizes);
//   - the finish: finish::flagged, a single pass that every architecture runs (never finish::cluster,
//     which needs 9.0), and the tree tree::shuffle, which needs nothing newer than warp shuffles.
// Every policy keeps operand order, so it serves non-commutative ops too. The L2 size plays no part:
// the measured tables switch policies at sizes unrelated to it (docs/performance.md, "Other
// architectures": measured at ba14c3a).
#pragma once

#include <cuda/std/cstdint>

#include "../finish/flagged.cuh"
#include "../tree/shuffle.cuh"
#include "table.cuh"

namespace cascade::tuning {

// default_policy's class for devices without a measured table (tuned_policy<portable> runs it anywhere).
struct portable {
  static constexpr int arch = 0;
  static constexpr int min_gbs = 0;
};

// Items a thread folds before the tree, by item size and op kind.
constexpr int portable_coarse(int item_bytes, op_kind kind) {
  if (kind == op_kind::arg && item_bytes <= 2) return 64;  // {index, value} pairs: fewer loads in flight
  if (kind == op_kind::exact) return 8;                    // its accumulator takes registers (tuning/sm90_h200.cuh)
  if (kind == op_kind::binned) return 16;                  // lighter: as the H200's entry
  if (item_bytes == 1) return 32;
  if (item_bytes == 2) return kind == op_kind::sum ? 32 : 16;
  if (item_bytes == 4) return 16;
  return kind == op_kind::sum ? 8 : 16;
}

// Inputs with at most as many 256 x C tiles as the device holds 256-thread blocks at once. Bounded on
// any device (1024 SMs of 2048 threads: far below 2^31 items), so its calls compile no 64-bit kernels.
template <class Policy>
struct filling_range : range<-1, Policy> {
  static constexpr bool sized_by_device = true;
  static constexpr long long most = 1024ll * 2048 * Policy::coarse_factor;
  static long long bound(detail::device_info const& device) {
    long long const filling = static_cast<long long>(device.sm_count) * device.max_threads_per_sm * Policy::coarse_factor;
    return filling < most ? filling : most;
  }
};

template <int ItemBytes, op_kind Kind>
struct table<portable, ItemBytes, Kind> {
  static constexpr int coarse = portable_coarse(ItemBytes, Kind);
  using type = ranges<filling_range<policy<256, coarse, tree::shuffle, finish::flagged>>,
                      range<-1, policy<Kind == op_kind::exact ? 256 : 512, coarse, tree::shuffle, finish::flagged>>>;
};

}  // namespace cascade::tuning
