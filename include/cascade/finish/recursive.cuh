// cascade/finish/recursive.cuh: block results become one value by relaunching the same kernel on
// the per-block partials until one block remains (the slides' "decompose into multiple kernels",
// the PMPP lecture notes' recursive kernel launch).
//
//   pass 1: n items       -> g1 = ceil(n / tile) partials
//   pass 2: g1 partials   -> g2 = ceil(g1 / tile) partials        (tile = BlockSize * CoarseFactor)
//   ...
//   last:   one block folds what is left and writes op(init, result) to the output.
//
// Launches: 1 + ceil(log_tile(n)) - 1 kernels; no host synchronization; deterministic (the same
// input and policy give bitwise the same result). Scratch: g1 + g2 partials, ping-ponged.
#pragma once

#include <cuda/std/cstdint>

#include <cstddef>
#include <utility>

#include "../detail/kernel/kernels.cuh"
#include "../detail/meta/math.cuh"
#include "../detail/runtime/launch_context.cuh"
#include "tag.cuh"

namespace cascade::finish {

struct recursive : tag {
  static constexpr char const* name = "finish::recursive";
  static constexpr bool preserves_order = true;
};

}  // namespace cascade::finish

namespace cascade::detail {

template <>
struct finish_dispatch<finish::recursive> {
  // Grids beyond this loop over tiles instead (the kernel's block-stride tile loop); it caps the
  // first pass's partials at 2^20 values.
  static constexpr unsigned max_grid = 1u << 20;

  // The blocks of a pass over `count` items.
  template <class Policy, class Count>
  static unsigned grid_for(Count count) {
    auto const tiles = ceil_div(count, static_cast<Count>(Policy::tile_size));
    return static_cast<unsigned>(tiles < max_grid ? tiles : max_grid);
  }

  // The first pass's partials and the second's, ping-ponged.
  template <class Policy, class T, class Offset>
  static std::size_t partials_bytes(Offset n) {
    unsigned const grid = grid_for<Policy>(n);
    return sizeof(T) * (std::size_t(grid) + ceil_div(grid, Policy::tile_size));
  }

  template <class Policy, class It, class Offset, class OutIt, class T, class Op>
  static void run(launch_context const& call, It first, Offset n, OutIt d_out, T init, Op op) {
    store_result<OutIt, T, Op> const result{d_out, init, op};
    unsigned const grid = grid_for<Policy>(n);
    scratch_buffer const scratch = call.scratch(partials_bytes<Policy, T>(n), finish::recursive::name);
    if (!call.launches()) return;
    cudaStream_t const stream = call.stream();
    T* src = scratch.as<T>();
    T* dst = src + grid;  // keeps T's alignment: the pool aligns to 256 bytes
    launch_reduce_tiles<Policy, T>(first, n, op, store_partial<T>{src}, grid, stream);

    for (cuda::std::uint32_t count = grid;;) {
      unsigned const next = grid_for<Policy>(count);
      if (next == 1) {
        launch_reduce_tiles<Policy, T>(static_cast<T const*>(src), count, op, result, 1, stream);
        return;
      }
      launch_reduce_tiles<Policy, T>(static_cast<T const*>(src), count, op, store_partial<T>{dst}, next, stream);
      std::swap(src, dst);
      count = next;
    }
  }
};

}  // namespace cascade::detail
