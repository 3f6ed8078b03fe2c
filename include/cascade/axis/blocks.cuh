// cascade/axis/blocks.cuh: a block an output, or several where the outputs are too few to fill the
// GPU. For outputs whose items are rows of a contiguous innermost axis but not one run (dims (0, 2)
// of a C-ordered tensor: each output reads a row of the last axis for every index of the first): a
// commutative op's threads stripe each row, so a warp's loads are contiguous, and the rows are stepped
// without a division an item; another op's threads each fold a consecutive range, combined in order.
// With parts, each output's items are split into ranges of whole tiles (a block each) and a second
// kernel folds the parts in order (fold_parts). The tree is unused: the block combines through warp
// shuffles and one shared word a warp.
#pragma once

#include "../detail/runtime/launch_context.cuh"
#include "../detail/kernel/kernels.cuh"
#include "kernels.cuh"
#include "tag.cuh"

namespace cascade::axis {

struct blocks : tag {
  static constexpr char const* name = "axis::blocks";
};

}  // namespace cascade::axis

namespace cascade::detail {

template <>
struct axis_owner<axis::blocks> {
  static constexpr long long max_parts = 4096;

  // Parts an output: enough blocks to fill the device four times over, each part at least a tile.
  static long long parts_for(long long outputs, long long reduced, long long tile, int block_size,
                             device_info const& device) {
    long long resident = static_cast<long long>(device.sm_count) * (device.max_threads_per_sm / block_size);
    resident = resident > 0 ? resident : 1;
    long long const wanted = (4 * resident + outputs - 1) / outputs;
    long long const most = reduced / tile;
    long long parts = wanted < most ? wanted : most;
    return parts > max_parts ? max_parts : parts < 1 ? 1 : parts;
  }

  template <class Policy, class T, class It, class OutIt, class Op>
  static void run(launch_context const& call, It first, axes_plan const& plan, OutIt d_out, T init, Op op) {
    constexpr int block = Policy::block_size;
    device_info const& device = call.device();
    long long parts = parts_for(plan.outputs, plan.reduced, Policy::tile_size, block, device);
    long long const chunk = plan.reduced > 0 ? (plan.reduced + parts - 1) / parts : 0;
    parts = chunk > 0 ? (plan.reduced + chunk - 1) / chunk : 1;  // every part holds an item
    scratch_buffer const partials =
        parts > 1 ? call.scratch(sizeof(T) * static_cast<std::size_t>(plan.outputs * parts),
                                 "cascade::reduce_axes (axis::blocks' partials)")
                  : scratch_buffer{};
    if (!call.launches()) return;
    unsigned const grid = segment_grid(plan.outputs * parts, 1, device, block);
    launch(&axis_blocks_kernel<block, Policy::coarse_factor, T, It, OutIt, Op>, grid, block, call.stream(),
           "axis_blocks_kernel<<<...>>> (launch)", first, plan.kept, plan.red, plan.outputs, plan.reduced, chunk, parts,
           d_out, parts > 1 ? partials.as<T>() : static_cast<T*>(nullptr), init, op);
    if (parts > 1) fold_parts(call, static_cast<T const*>(partials.as<T>()), plan.outputs, parts, plan.kept, d_out, init, op);
  }
};

}  // namespace cascade::detail
