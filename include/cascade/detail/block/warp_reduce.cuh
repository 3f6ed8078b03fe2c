// cascade/detail/block/warp_reduce.cuh: warp-level reductions in registers, and the block structure built
// on them (each warp reduces, warp leaders leave one value each in shared memory, warp 0 reduces
// those).
#pragma once

#include "shared_array.cuh"
#include "shuffle.cuh"

namespace cascade::detail {

// Lanes [0, valid) hold values; returns their fold in lane 0. Offsets go up (1, 2, 4, ...): after the
// step with offset k every lane i holds the ordered fold of lanes [i, i + 2k), so operand order is
// preserved and non-commutative ops work. Every lane of the warp must call it. `Lanes` bounds
// `valid` at compile time: a block's 8 warp results need 3 steps, not 5.
struct shuffle_warp_reduce {
  template <int Lanes = 32, class T, class Op>
  __device__ T operator()(T value, int lane, int valid, Op op) const {
#pragma unroll
    for (int offset = 1; offset < Lanes; offset *= 2) {
      T const other = shuffle_down(value, offset);
      if (lane + offset < valid) value = static_cast<T>(op(value, other));
    }
    return value;
  }
};

// The block of warps: WarpReduce within each warp, then across the warps' results.
template <int BlockSize, class T, class WarpReduce>
struct warp_block_reduce {
  static constexpr int warps = BlockSize / 32;
  using storage = shared_array<T, warps>;

  template <class Op>
  __device__ T operator()(storage& s, T value, int num_valid, Op op) const {
    int const tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    int const warp_valid = min(max(num_valid - warp * 32, 0), 32);
    value = WarpReduce{}(value, lane, warp_valid, op);
    if constexpr (warps == 1) {
      return value;
    } else {
      T* data = s.data();
      if (lane == 0 && warp_valid > 0) data[warp] = value;
      __syncthreads();
      if (warp == 0) {
        int const valid_warps = (num_valid + 31) / 32;
        value = WarpReduce{}.template operator()<warps>(data[lane < valid_warps ? lane : 0], lane, valid_warps, op);
      }
      return value;
    }
  }
};

}  // namespace cascade::detail
