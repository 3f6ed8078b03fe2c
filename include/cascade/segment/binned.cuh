// cascade/segment/binned.cuh: each segment goes to the owner its length wants, decided on the device:
// a warp reads 32 neighbouring segments and folds those of up to 32 items itself (a thread each, or
// 4 lanes each for those of 9-32 where most of the 32 have 16-32), and, 8 lanes each, those of 33-128
// where at least 24 of the 32 have that many; it lists the other 33-256-item ones for 8 lanes each,
// 257-2048 for 16, and longer ones for blocks, in parts of 8 tiles (the policy's block
// size, coarse factor and tree); one more kernel folds all that was listed. Skewed lengths (a power
// law: millions of tiny segments and a few of a million items) keep the whole GPU busy, and the host
// neither reads the offsets nor waits. A memset and two kernels; the segmented default for offsets
// the host cannot read.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "../detail/runtime/launch_context.cuh"
#include "../detail/kernel/kernels.cuh"
#include "binned_kernels.cuh"
#include "kernels.cuh"
#include "tag.cuh"

namespace cascade::segment {

struct binned : tag {
  static constexpr char const* name = "segment::binned";
};

}  // namespace cascade::segment

namespace cascade::detail {

template <>
struct segment_owner<segment::binned> {
  static constexpr long long window = 1ll << 28;  // segments a run at most (32-bit numbers; lists of 1 GiB)
  static constexpr unsigned max_part_slots = 1u << 16;

  // Whether the tail kernel may start as the pass drains (programmatic dependent launch): only where
  // both run as 9.0 code or newer, which has griddepcontrol (an 8.0 image on an H100 has not, and its
  // tail would not wait for the lists). Found once per device.
  template <auto Pass, auto Tail>
  static bool tail_overlaps(device_info const& device) {
    return once_per_device(device, [&] {
             return static_cast<unsigned>(device.cc_major >= 9 && kernel_arch(Pass) >= 90 && kernel_arch(Tail) >= 90);
           }) != 0;
  }

  template <class Policy, class T, class It, class Segments, class OutIt, class Op>
  static void run(launch_context const& call, It first, Segments segments, long long num_segments, long long longest,
                  OutIt d_out, T init, Op op) {
    for (long long base = 0; base < num_segments; base += window) {
      long long const n = num_segments - base < window ? num_segments - base : window;
      run_window<Policy>(call, first, window_segments<Segments>{segments, base}, n, longest, d_out + base, init, op);
    }
  }

  template <class Policy, class T, class It, class Segments, class OutIt, class Op>
  static void run_window(launch_context const& call, It first, Segments segments, long long n, long long longest,
                         OutIt d_out, T init, Op op) {
    constexpr int block = Policy::block_size;
    using bins = binned_bins;
    cudaStream_t const stream = call.stream();
    device_info const& device = call.device();
    long long const resident = static_cast<long long>(device.sm_count) * (device.max_threads_per_sm / block);
    unsigned const part_capacity = static_cast<unsigned>(
        n * bins::max_parts < static_cast<long long>(max_part_slots) ? n * bins::max_parts : max_part_slots);

    // One scratch: counts, the three lists (two of them in shards), entries, part owners, partials.
    auto const up = [](std::size_t x) { return (x + 255) / 256 * 256; };
    constexpr int shards = binned_lists::shards;
    unsigned const shard_capacity = static_cast<unsigned>(((n + 31) / 32 + shards - 1) / shards * 32);
    constexpr std::size_t counters_bytes = 128;  // the three counters; then the shards', a line each
    std::size_t const counts_bytes = up(counters_bytes + sizeof(unsigned) * 2 * shards * binned_lists::shard_stride);
    std::size_t const list_bytes =
        up(sizeof(unsigned) * static_cast<std::size_t>(shard_capacity) * static_cast<std::size_t>(shards));
    std::size_t const entries_bytes = up(sizeof(binned_entry) * part_capacity);
    std::size_t const owners_bytes = up(sizeof(unsigned) * part_capacity);
    std::size_t const partials_bytes = up(sizeof(T) * part_capacity);
    scratch_buffer const scratch = call.scratch(counts_bytes + 3 * list_bytes + entries_bytes + owners_bytes +
                                                    partials_bytes,
                                                "cascade::segmented_reduce (segment::binned's lists)");
    if (!call.launches()) return;
    char* at = scratch.as<char>();
    binned_lists lists{};
    lists.counts = reinterpret_cast<unsigned long long*>(at);
    lists.listed[0] = reinterpret_cast<unsigned*>(at += counts_bytes);
    lists.listed[1] = reinterpret_cast<unsigned*>(at += list_bytes);
    lists.whole = reinterpret_cast<unsigned*>(at += list_bytes);
    lists.entries = reinterpret_cast<binned_entry*>(at += list_bytes);
    lists.part_entry = reinterpret_cast<unsigned*>(at += entries_bytes);
    T* const partials = reinterpret_cast<T*>(at += owners_bytes);
    lists.part_capacity = part_capacity;
    lists.shard_counts = reinterpret_cast<unsigned*>(scratch.as<char>() + counters_bytes);
    lists.shard_capacity = shard_capacity;

    lists.part_items = 8 * Policy::tile_size;

    check_cuda(cudaMemsetAsync(lists.counts, 0, counts_bytes, stream), "cudaMemsetAsync (segment::binned's counts)");
    // The binning pass: a warp a group of 32 segments, at most 4 waves of blocks that loop (more
    // moved nothing measurable; H200, 2026-11-26).
    long long const groups = (n + 31) / 32;
    long long const wanted = (groups + block / 32 - 1) / (block / 32);
    long long const most = 4 * (resident > 0 ? resident : 1);
    constexpr auto pass = &segment_binned_kernel<block, T, It, Segments, OutIt, Op>;
    constexpr auto tail = &segment_binned_tail_kernel<block, Policy::coarse_factor,
                                                      resolve_tree_t<typename Policy::tree_type, Op>, T, It, Segments,
                                                      OutIt, Op>;
    launch(pass, static_cast<unsigned>(wanted < most ? wanted : most), block, stream,
           "segment_binned_kernel<<<...>>> (launch)", first, segments, n, d_out, init, op, lists);
    // The lists' kernel is left out where the host knows they are empty (longest known).
    if (longest < 0 || longest > bins::lanes_max) {
      long long const cap = 2 * (resident > 0 ? resident : 1);
      long long const tasks = static_cast<long long>(part_capacity) + 2 * n;  // at most
      launch_dependent(tail, static_cast<unsigned>(tasks < cap ? tasks : cap), block, stream,
                       tail_overlaps<pass, tail>(device), "segment_binned_tail_kernel (launch_dependent)", first,
                       segments, d_out, partials, init, op, lists);
    }
  }
};

}  // namespace cascade::detail
