// cascade/axis/columns.cuh: neighbouring threads on neighbouring outputs. For a reduced axis that
// steps through memory slower than a kept one (the column sums of a row-major matrix, dim 0 of any
// C-ordered tensor): a warp's loads are one contiguous piece of a row, V outputs a thread where the
// outputs are contiguous and 16-byte aligned (one 16-byte load: 4 floats), each thread walking its
// outputs' items a row apart, CoarseFactor loads in flight. A block is at most a warp across the
// outputs; its other threads are row lanes, each folding a consecutive range of rows, combined in
// order in shared memory. Where the outputs are too few to fill the device, each output's items are
// split into parts (a block each), and the parts x outputs matrix of partial folds is reduced the
// same way (a column sum again) until one part is left. The tree is unused.
#pragma once

#include "../detail/runtime/launch_context.cuh"
#include "../detail/kernel/grid.cuh"
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
  // Threads across the outputs in a block, at most: a warp reads 512 contiguous bytes of a row with
  // 16-byte loads; the block's other threads take more rows, so it writes one value an output.
  static constexpr int max_cols = 32;
  // The coarse factor of the passes over partial folds (short columns: more loads in flight).
  static constexpr int partials_coarse = 8;

  // V > 1 where the V outputs of a thread are V neighbouring items of every row it reads, 16-byte
  // aligned, and V neighbours on the innermost kept axis: a pointer input (or a view of one) aligned to
  // 16 bytes, the outputs' innermost axis of stride 1 and an extent that V divides, every other stride a
  // multiple of V.
  template <class It>
  static int width(It first, axes_walk const& read, kept_walk const& kept, axes_walk const& red) {
    if constexpr (vector_input<It>::enabled) {
      constexpr int v = vector_input<It>::width;
      if (!is_vector_aligned(first) || read.rank == 0 || read.stride[0] != 1 || read.extent[0].divisor % v != 0 ||
          kept.in.rank == 0 || kept.in.extent[0].divisor % v != 0)  // (and the V outputs are neighbours in out)
        return 1;
      for (int a = 1; a < read.rank; ++a)
        if (read.stride[a] % v != 0) return 1;
      for (int a = 0; a < red.rank; ++a)
        if (red.stride[a] % v != 0) return 1;
      return v;
    }
    return 1;
  }

  template <int Block, int Coarse, class T, class It, class OutIt, class Op>
  static void pass(launch_context const& call, It first, axes_walk const& read, kept_walk const& kept,
                   axes_walk const& red, long long outputs, long long reduced, OutIt d_out, T init, Op op) {
    if constexpr (vector_input<It>::enabled) {
      if (width(first, read, kept, red) > 1) {
        constexpr int v = vector_input<It>::width;
        if (red.rank <= 1) pass_of<Block, Coarse, v, 1>(call, first, read, kept, red, outputs, reduced, d_out, init, op);
        else pass_of<Block, Coarse, v, max_rank>(call, first, read, kept, red, outputs, reduced, d_out, init, op);
        return;
      }
    }
    if (red.rank <= 1) pass_of<Block, Coarse, 1, 1>(call, first, read, kept, red, outputs, reduced, d_out, init, op);
    else pass_of<Block, Coarse, 1, max_rank>(call, first, read, kept, red, outputs, reduced, d_out, init, op);
  }

  template <int Block, int Coarse, int V, int RedRank, class T, class It, class OutIt, class Op>
  static void pass_of(launch_context const& call, It first, axes_walk const& read, kept_walk const& kept,
                      axes_walk const& red, long long outputs, long long reduced, OutIt d_out, T init, Op op) {
    device_info const& device = call.device();
    constexpr auto kernel = &axis_columns_kernel<Block, Coarse, V, RedRank, T, It, OutIt, Op>;
    long long const resident = resident_grid<kernel, Block>(device);  // blocks the device holds at once
    long long const threads = (outputs + V - 1) / V;                  // across the outputs
    // A warp across the outputs (fewer threads for fewer outputs), the block's other threads row
    // lanes; wider, up to the block (no combine), while the tiles still make four waves of blocks
    // (fewer waves leave the last one part empty: 1024 tiles on 792 resident blocks is 1.3 waves).
    int cols = 1;
    while (cols < threads && cols < max_cols && cols < Block) cols *= 2;
    while (cols * 2 <= Block && threads / (cols * 2) >= 4 * resident) cols *= 2;
    int const row_lanes = Block / cols;
    long long const tiles = (threads + cols - 1) / cols;
    // Parts: at most two waves of blocks, each row lane folding at least 2 loads of Coarse.
    long long const wanted = 2 * resident / tiles;
    long long const most = reduced / (static_cast<long long>(row_lanes) * 2 * Coarse);
    long long parts = wanted < most ? wanted : most;
    parts = parts > max_parts ? max_parts : parts < 1 ? 1 : parts;
    long long const chunk = reduced > 0 ? (reduced + parts - 1) / parts : 0;
    parts = chunk > 0 ? (reduced + chunk - 1) / chunk : 1;  // every part holds an item
    scratch_buffer const partials =
        parts > 1 ? call.scratch(sizeof(T) * static_cast<std::size_t>(outputs * parts),
                                 "cascade::reduce_axes (axis::columns' partials)")
                  : scratch_buffer{};
    T* const parts_out = parts > 1 ? partials.as<T>() : static_cast<T*>(nullptr);
    if (call.launches()) {
      column_grid const g{outputs, reduced, chunk, parts, fast_divmod(tiles), fast_divmod(row_lanes), cols};
      long long const units = tiles * parts;
      launch(kernel, static_cast<unsigned>(units < resident ? units : resident),
             Block, call.stream(), "axis_columns_kernel<<<...>>> (launch)", first, read, kept, red, g, d_out, parts_out,
             init, op);
    }
    if (parts > 1) {  // the parts x outputs matrix, row-major: its column sums, in part order
      axes_walk along, down;
      along.rank = 1;
      along.extent[0] = fast_divmod(outputs);
      along.stride[0] = 1;
      down.rank = 1;
      down.extent[0] = fast_divmod(parts);
      down.stride[0] = outputs;
      pass<Block, partials_coarse>(call, static_cast<T const*>(parts_out), along, kept, down, outputs, parts, d_out,
                                   init, op);
    }
  }

  template <class Policy, class T, class It, class OutIt, class Op>
  static void run(launch_context const& call, It first, axes_plan const& plan, OutIt d_out, T init, Op op) {
    pass<Policy::block_size, Policy::coarse_factor>(call, first, plan.kept.in, plan.kept, plan.red, plan.outputs,
                                                    plan.reduced, d_out, init, op);
  }
};

}  // namespace cascade::detail
