// cascade/segment/blocks.cuh: several blocks own a segment, for segments too long for one block when
// there are too few of them to fill the GPU (64 segments of 2^20 items: 64 blocks on 132 SMs). Each
// segment gets as many blocks as fill the device a few times over (at most its tile count); each
// block folds its share of the segment's tiles with the policy's tree and writes a partial to scratch;
// a second kernel folds each segment's partials in order, init on the left. Two launches and one
// scratch array (segments x parts values): for long segments only.
#pragma once

#include "../detail/runtime/launch_context.cuh"
#include "../detail/kernel/kernels.cuh"
#include "kernels.cuh"
#include "tag.cuh"

namespace cascade::segment {

struct blocks : tag {
  static constexpr char const* name = "segment::blocks";
};

}  // namespace cascade::segment

namespace cascade::detail {

template <>
struct segment_owner<segment::blocks> {
  static constexpr int max_parts = 1024;

  // Blocks a segment: at most enough for num_segments x parts to fill the device four times, and at
  // most the longest segment's tiles (longest < 0: unknown, no bound); of those, the count with the
  // fewest waves of resident blocks for the work (a wave's blocks each fold a 1/parts share of a
  // segment), 5% added for the second kernel when parts > 1, the smaller count on a tie. 4096
  // segments of 16K floats on 132 SMs (1056 blocks resident): 1 part, 4 waves (2 parts, 8 half waves
  // and the second kernel, took 68.5 us against 64.0; H200, 2026-11-26).
  static int parts_for(long long num_segments, long long longest, long long tile, device_info const& device,
                       int block_size) {
    long long resident = static_cast<long long>(device.sm_count) * (device.max_threads_per_sm / block_size);
    resident = resident > 0 ? resident : 1;
    long long most = (4 * resident + num_segments - 1) / num_segments;
    if (longest >= 0) {
      long long const tiles = (longest + tile - 1) / tile;
      most = most < tiles ? most : tiles;
    }
    most = most > max_parts ? max_parts : most < 1 ? 1 : most;
    long long best = 1;
    double best_cost = 0;
    for (long long p = 1; p <= most; ++p) {
      double const waves = static_cast<double>((num_segments * p + resident - 1) / resident);
      double const cost = waves / static_cast<double>(p) * (p > 1 ? 1.05 : 1.0);
      if (p == 1 || cost < best_cost) best = p, best_cost = cost;
    }
    return static_cast<int>(best);
  }

  template <class Policy, class T, class It, class Segments, class OutIt, class Op>
  static void run(launch_context const& call, It first, Segments segments, long long num_segments, long long longest,
                  OutIt d_out, T init, Op op) {
    constexpr int block = Policy::block_size;
    device_info const& device = call.device();
    int const parts = parts_for(num_segments, longest, Policy::tile_size, device, block);
    if (parts == 1) {
      segment_owner<segment::block>::template run<Policy>(call, first, segments, num_segments, longest, d_out, init,
                                                          op);
      return;
    }
    cudaStream_t const stream = call.stream();
    constexpr int finish_block = 256;
    constexpr auto fold = &segment_block_kernel<block, Policy::coarse_factor, resolve_tree_t<typename Policy::tree_type, Op>, T,
                                                It, Segments, OutIt, Op>;
    constexpr auto join = &segment_parts_kernel<finish_block, T, Segments, OutIt, Op>;
    // The second kernel starts while the first's last blocks run (9.0 code on both sides): without
    // that, the gap between the two launches cost 2-4% of a call of 64 segments of 2^20 floats.
    bool const overlap = once_per_device(device, [&] {
                           return static_cast<unsigned>(device.cc_major >= 9 && kernel_arch(fold) >= 90 &&
                                                        kernel_arch(join) >= 90);
                         }) != 0;
    scratch_buffer const partials = call.scratch(sizeof(T) * static_cast<std::size_t>(num_segments) * parts,
                                                 "cascade::segmented_reduce (segment::blocks' partials)");
    if (!call.launches()) return;
    unsigned const grid = segment_grid(num_segments * parts, 1, device, block);
    launch(fold, grid, block, stream, "segment_block_kernel<<<...>>> (launch)", first, segments, num_segments, parts,
           d_out, partials.as<T>(), init, op);
    launch_dependent(join, segment_grid(num_segments, finish_block, device, finish_block), finish_block, stream, overlap,
                     "segment_parts_kernel (launch_dependent)", segments, num_segments, parts, Policy::tile_size,
                     static_cast<T const*>(partials.as<T>()), d_out, init, op);
  }
};

}  // namespace cascade::detail
