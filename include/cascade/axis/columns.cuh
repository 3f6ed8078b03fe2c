// cascade/axis/columns.cuh: a thread an output, neighbouring threads on neighbouring outputs. For a
// reduced axis that steps through memory slower than a kept one (the column sums of a row-major
// matrix, dim 0 of any C-ordered tensor): a warp's loads are one contiguous row piece, and a thread
// walks its output's items a row apart, CoarseFactor loads in flight. Where the outputs are too few to
// fill the device, each output's items are split into parts (up to 4 threads a resident slot), each
// part folded by a thread of its own, and a second kernel folds the parts in order (fold_parts). The tree is unused
// (a thread folds alone).
#pragma once

#include "../detail/runtime/launch_context.cuh"
#include "../detail/kernel/kernels.cuh"
#include "kernels.cuh"
#include "tag.cuh"

namespace cascade::axis {

struct columns : tag {
  static constexpr char const* name = "axis::columns";
};

}  // namespace cascade::axis

namespace cascade::detail {

template <>
struct axis_owner<axis::columns> {
  static constexpr long long max_parts = 65536;

  // Parts an output: enough (outputs x parts) threads to fill the device four times over, each part
  // at least 4 loads of CoarseFactor items.
  static long long parts_for(long long outputs, long long reduced, int coarse, device_info const& device) {
    long long const resident = static_cast<long long>(device.sm_count) * device.max_threads_per_sm;
    long long const wanted = (4 * (resident > 0 ? resident : 1) + outputs - 1) / outputs;
    long long const most = reduced / (4ll * coarse);
    long long parts = wanted < most ? wanted : most;
    parts = parts > max_parts ? max_parts : parts < 1 ? 1 : parts;
    return parts;
  }

  template <class Policy, class T, class It, class OutIt, class Op>
  static void run(launch_context const& call, It first, axes_plan const& plan, OutIt d_out, T init, Op op) {
    constexpr int block = Policy::block_size;
    device_info const& device = call.device();
    long long parts = parts_for(plan.outputs, plan.reduced, Policy::coarse_factor, device);
    long long const chunk = plan.reduced > 0 ? (plan.reduced + parts - 1) / parts : 0;
    parts = chunk > 0 ? (plan.reduced + chunk - 1) / chunk : 1;  // every part holds an item
    scratch_buffer const partials =
        parts > 1 ? call.scratch(sizeof(T) * static_cast<std::size_t>(plan.outputs * parts),
                                 "cascade::reduce_axes (axis::columns' partials)")
                  : scratch_buffer{};
    if (!call.launches()) return;
    unsigned const grid = segment_grid(plan.outputs * parts, block, device, block);
    launch(&axis_columns_kernel<block, Policy::coarse_factor, T, It, OutIt, Op>, grid, block, call.stream(),
           "axis_columns_kernel<<<...>>> (launch)", first, plan.kept, plan.red, plan.outputs, plan.reduced, chunk, parts,
           d_out, parts > 1 ? partials.as<T>() : static_cast<T*>(nullptr), init, op);
    if (parts > 1) fold_parts(call, static_cast<T const*>(partials.as<T>()), plan.outputs, parts, plan.kept, d_out, init, op);
  }
};

}  // namespace cascade::detail
