// cascade/detail/kernel/fold_partials.cuh: the last block's fold of the blocks' partials, in block
// order, by one warp when they are few (finish::last_block, and the kernel of calls whose size or init
// the device holds: device_held.cuh).
#pragma once

#include "../block/l2_reader.cuh"
#include "../block/warp_reduce.cuh"
#include "../../ops/non_commutative.cuh"
#include "tile_loop.cuh"

namespace cascade::detail {

// Up to this many partials (4 per lane) the last block folds them with one warp; beyond, with every
// thread, since a warp's serial loads would cost more than the block's barriers.
inline constexpr unsigned warp_fold_max_partials = 128;

// Loads of partials a lane has in flight: 4 of up to 8 bytes, fewer of larger ones (the register
// count is the kernel's largest path's, and bounds the blocks resident on the fast path).
template <class T>
inline constexpr int partial_unroll = sizeof(T) <= 8 ? 4 : sizeof(T) <= 16 ? 2 : 1;

// The fold of count partials in block order, by one warp: a round of L2 loads and a shuffle tree,
// no block barrier. Every lane of the warp calls it; the result is valid in lane 0.

template <class T, class Op>
__device__ T warp_fold_partials(T const* partials, unsigned count, Op op) {
  unsigned const lane = threadIdx.x % 32;
  l2_reader<T> const in{partials};
  T acc{};
  bool fresh = true;
  int valid;
  if constexpr (is_commutative_v<Op>) {  // lane l takes l, l + 32, ...: coalesced
#pragma unroll(partial_unroll<T>)
    for (unsigned i = lane; i < count; i += 32) {
      fold_one(acc, fresh, in[i], op);
      fresh = false;
    }
    valid = count < 32 ? static_cast<int>(count) : 32;
  } else {  // lane l takes a contiguous run, so the shuffle tree sees the runs in order
    unsigned const run = (count + 31) / 32, begin = lane * run, end = begin + run < count ? begin + run : count;
#pragma unroll(partial_unroll<T>)
    for (unsigned i = begin; i < end; ++i) {
      fold_one(acc, fresh, in[i], op);
      fresh = false;
    }
    valid = static_cast<int>((count + run - 1) / run);
  }
  if constexpr (requires(T& v) { op.align_warp(v, true); }) op.align_warp(acc, static_cast<int>(lane) < valid);
  return shuffle_warp_reduce{}(acc, static_cast<int>(lane), valid, op);
}

}  // namespace cascade::detail
