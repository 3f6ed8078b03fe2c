// cascade/segment/blocks.cuh: several blocks own a segment, for segments too long for one block when
// there are too few of them to fill the GPU (64 segments of 2^20 items: 64 blocks on 132 SMs). Each
// segment gets as many blocks as fill the device a few times over (at most its tile count); each
// block folds its share of the segment's tiles with the policy's tree and writes a partial to scratch;
// a second kernel folds each segment's partials in order, init on the left. Two launches and one
// scratch array (segments x parts values): for long segments only.
#pragma once

#include "../detail/device.cuh"
#include "../detail/kernels.cuh"
#include "../detail/scratch.cuh"
#include "../detail/segment_kernels.cuh"
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

  // Blocks a segment: enough for num_segments x parts to fill the device four times, at most the
  // longest segment's tiles (longest < 0: unknown, no bound).
  static int parts_for(long long num_segments, long long longest, long long tile, device_info const& device,
                       int block_size) {
    long long const resident = static_cast<long long>(device.sm_count) * (device.max_threads_per_sm / block_size);
    long long parts = (4 * resident + num_segments - 1) / num_segments;
    if (longest >= 0) {
      long long const tiles = (longest + tile - 1) / tile;
      parts = parts < tiles ? parts : tiles;
    }
    parts = parts > max_parts ? max_parts : parts;
    return static_cast<int>(parts < 1 ? 1 : parts);
  }

  template <class Policy, class T, class It, class Segments, class OutIt, class Op>
  static void run(It first, Segments segments, long long num_segments, long long longest, OutIt d_out, T init,
                  Op op, cudaStream_t stream) {
    constexpr int block = Policy::block_size;
    device_info const& device = current_device();
    int const parts = parts_for(num_segments, longest, Policy::tile_size, device, block);
    if (parts == 1) {
      segment_owner<segment::block>::template run<Policy>(first, segments, num_segments, longest, d_out, init, op,
                                                          stream);
      return;
    }
    scratch_buffer partials(sizeof(T) * static_cast<std::size_t>(num_segments) * parts, stream,
                            "cascade::segmented_reduce (segment::blocks' partials)");
    unsigned const grid = segment_grid(num_segments * parts, 1, device, block);
    launch(&segment_block_kernel<block, Policy::coarse_factor, resolve_tree_t<typename Policy::tree_type, Op>, T, It, Segments, OutIt, Op>,
           grid, block, stream, "segment_block_kernel<<<...>>> (launch)", first, segments, num_segments, parts, d_out,
           partials.as<T>(), init, op);
    constexpr int finish_block = 256;
    launch(&segment_parts_kernel<finish_block, T, Segments, OutIt, Op>,
           segment_grid(num_segments, finish_block, device, finish_block), finish_block, stream,
           "segment_parts_kernel<<<...>>> (launch)", segments, num_segments, parts, Policy::tile_size,
           static_cast<T const*>(partials.as<T>()), d_out, init, op);
  }
};

}  // namespace cascade::detail
