// cascade/segment/tiles.cuh: every block a tile of BlockSize x CoarseFactor items, whatever the segments'
// lengths: the segments that begin in a tile are marked in shared memory, each thread folds its items in
// order and a scan by segment joins the threads; segments that span tiles are joined by a fix-up kernel.
// Every item is read once and no block waits for another, so power-law lengths read as evenly as one
// long range (docs/notes/segmented-tiles.md, "Item tiles"). For CSR offsets (end_offsets == begin_offsets + 1, or
// batched_reduce); other offsets go to segment::binned. Offsets that decrease (overlapping segments)
// are found on the device and every segment is then folded by a warp of its own.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <type_traits>

#include "../detail/runtime/launch_context.cuh"
#include "../detail/kernel/kernels.cuh"
#include "tiles_kernels.cuh"
#include "../detail/kernel/segments.cuh"
#include "binned.cuh"
#include "tag.cuh"

namespace cascade::segment {

struct tiles : tag {
  static constexpr char const* name = "segment::tiles";
};

}  // namespace cascade::segment

namespace cascade::detail {

// The CSR form of a call's segments, where they have one: offsets where end_offsets is
// begin_offsets + 1 (pointers), and fixed sizes.
template <class Segments>
struct csr_of {
  static constexpr bool possible = false;
};
template <class P>
struct csr_of<offset_segments<P, P>> {
  static constexpr bool possible = std::is_pointer_v<P>;
  static bool is(offset_segments<P, P> const& s) { return s.ends == s.begins + 1; }
  static csr_offsets<P> at(offset_segments<P, P> const& s, long long first_segment) {
    return {s.begins + first_segment};
  }
};
template <>
struct csr_of<fixed_segments> {
  static constexpr bool possible = true;
  static bool is(fixed_segments const&) { return true; }
  static fixed_csr at(fixed_segments const& s, long long first_segment) { return {s.size, first_segment}; }
};

// Tests only: a capacity in chunks below the device's (0: the device's), so that small inputs take
// chunks of several tiles.
inline long long tiles_test_capacity = 0;

template <>
struct segment_owner<segment::tiles> {
  static constexpr long long window = 1ll << 30;  // segments a run at most (a tile's numbers are 32-bit)

  template <class Policy, class T, class It, class Segments, class OutIt, class Op>
  static void run(launch_context const& call, It first, Segments segments, long long num_segments, long long longest,
                  OutIt d_out, T init, Op op) {
    if constexpr (csr_of<Segments>::possible) {
      if (csr_of<Segments>::is(segments)) {
        for (long long base = 0; base < num_segments; base += window) {
          long long const n = num_segments - base < window ? num_segments - base : window;
          run_csr<Policy>(call, first, csr_of<Segments>::at(segments, base), n, d_out + base, init, op);
        }
        return;
      }
    }
    segment_owner<segment::binned>::template run<Policy>(call, first, segments, num_segments, longest, d_out, init,
                                                         op);
  }

  template <class Policy, class T, class It, class Csr, class OutIt, class Op>
  static void run_csr(launch_context const& call, It first, Csr csr, long long n, OutIt d_out, T init, Op op) {
    cudaStream_t const stream = call.stream();
    constexpr int block = Policy::block_size;
    constexpr int items = Policy::coarse_factor;
    constexpr long long tile = static_cast<long long>(block) * items;
    constexpr auto search = &segment_tiles_search_kernel<tile, Csr, T>;
    constexpr auto tiles = &segment_tiles_kernel<block, items, T, It, Csr, OutIt, Op>;
    constexpr auto fixup = &segment_tiles_fixup_kernel<256, T, It, Csr, OutIt, Op>;
    device_info const& device = call.device();
    // Resident blocks of the tile kernel, and whether the kernels may overlap (9.0 code on every side).
    unsigned const resident = once_per_device(device, [&] {
      int per_sm = 0;
      check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, tiles, block, 0),
                 "cudaOccupancyMaxActiveBlocksPerMultiprocessor (segment::tiles)");
      return static_cast<unsigned>((per_sm > 0 ? per_sm : 1) * device.sm_count);
    });
    bool const overlap = once_per_device(device, [&] {
                           return static_cast<unsigned>(device.cc_major >= 9 && kernel_arch(search) >= 90 &&
                                                        kernel_arch(tiles) >= 90 && kernel_arch(fixup) >= 90);
                         }) != 0;
    // Chunks, a block each: 16 waves of resident blocks at most (at least 2^14 chunks, so that a chunk
    // holds fewer than 2^31 items up to 2^44); past that, chunks of several tiles.
    long long const capacity = tiles_test_capacity > 0 ? tiles_test_capacity
                               : 16ll * resident > (1ll << 14) ? 16ll * resident
                                                                : (1ll << 14);
    auto const up = [](std::size_t x) { return (x + 255) / 256 * 256; };
    std::size_t const cap = static_cast<std::size_t>(capacity);
    std::size_t const lo_bytes = up(sizeof(int) * (cap + 1));
    std::size_t const part_bytes = up(sizeof(T) * cap);
    std::size_t const seg_bytes = up(sizeof(int) * cap);
    scratch_buffer const scratch = call.scratch(256 + 256 + lo_bytes + 2 * part_bytes + 2 * seg_bytes,
                                                "cascade::segmented_reduce (segment::tiles's chunks)");
    if (!call.launches()) return;
    char* at = scratch.as<char>();
    tiles_scratch<T> s{};
    s.overlapping = reinterpret_cast<unsigned*>(at);
    s.geometry = reinterpret_cast<tiles_geometry*>(at += 256);
    s.chunk_lo = reinterpret_cast<int*>(at += 256);
    s.head_part = reinterpret_cast<T*>(at += lo_bytes);
    s.tail_part = reinterpret_cast<T*>(at += part_bytes);
    s.tail_seg = reinterpret_cast<int*>(at += part_bytes);
    s.tail_last = reinterpret_cast<int*>(at += seg_bytes);
    s.capacity = capacity;
    launch(&segment_tiles_geometry_kernel<tile, Csr, T>, 1, 1, stream,
           "segment_tiles_geometry_kernel<<<...>>> (launch)", csr, n, s);
    launch_dependent(search, static_cast<unsigned>((capacity + 255) / 256), 256, stream, overlap,
                     "segment_tiles_search_kernel (launch_dependent)", csr, n, s);
    launch_dependent(tiles, static_cast<unsigned>(capacity), block, stream, overlap,
                     "segment_tiles_kernel (launch_dependent)", first, csr, n, d_out, init, op, s);
    launch_dependent(fixup, static_cast<unsigned>((capacity + 7) / 8), 256, stream, overlap,
                     "segment_tiles_fixup_kernel (launch_dependent)", first, csr, n, d_out, init, op, s);
  }
};

}  // namespace cascade::detail
