// cascade/finish/two_pass.cuh: CUB's design. Pass 1 runs a grid sized to fill the device once
// (SMs x resident blocks per SM), each block looping over tiles and writing one partial; pass 2 is
// one block folding the partials and writing op(init, result).
//
// Launches: 2 (1 when the input fits one tile). Memory traffic: n items read once, a few thousand
// partials written and read once. Deterministic: the grid depends only on the device and policy.
#pragma once

#include <cstddef>

#include "../detail/kernel/grid.cuh"
#include "../detail/kernel/kernels.cuh"
#include "../detail/runtime/launch_context.cuh"
#include "tag.cuh"

namespace cascade::finish {

struct two_pass : tag {
  static constexpr char const* name = "finish::two_pass";
  static constexpr bool preserves_order = true;
};

}  // namespace cascade::finish

namespace cascade::detail {

template <>
struct finish_dispatch<finish::two_pass> {
  template <class Policy, class It, class Offset, class OutIt, class T, class Op>
  static void run(launch_context const& call, It first, Offset n, OutIt d_out, T init, Op op) {
    unsigned const grid = partials_grid<Policy, T, It, Offset, Op>(call.device(), n);
    scratch_buffer const scratch = call.scratch(sizeof(T) * std::size_t(grid), finish::two_pass::name);
    if (!call.launches()) return;
    T* partials = scratch.as<T>();
    launch_reduce_tiles<Policy, T>(first, n, op, store_partial<T>{partials}, grid, call.stream());
    launch_reduce_tiles<Policy, T>(static_cast<T const*>(partials), grid, op,
                                   store_result<OutIt, T, Op>{d_out, init, op}, 1, call.stream());
  }
};

}  // namespace cascade::detail
