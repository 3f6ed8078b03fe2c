// cascade/algorithm/reduce_by_key.cuh: each run of equal consecutive keys reduced to one value.
//
//   auto [keys_end, sums_end] = cascade::reduce_by_key(policy{}, k, k + n, v, unique_keys, sums);
//   cascade::reduce_by_key_into(policy{}.on(s), k, k + n, v, unique_keys, sums, d_num_runs);  // no host wait
//
// As thrust::reduce_by_key and cub::DeviceReduce::ReduceByKey: for each maximal run of consecutive
// keys with eq(previous, key) (equal_to: ==), the run's first key goes to unique_keys[r] and the left
// fold of its values under op (plus) to values_out[r], r counting runs from 0; the number of runs
// goes to *d_num_runs (the _into form) or is where the returned iterators end. The values accumulate
// in their input's value type; op may be non-commutative (the fold within a run is exactly the left
// fold). Small calls take one kernel, a single pass with decoupled look-back (detail/kernel/
// run_scan.cuh), after a kernel zeroing a word a tile; large ones (from 2^22 pairs) count the keys
// first, and then no tile waits for another (detail/kernel/run_count.cuh: five kernels, the pairs'
// pass reading the keys' head bits and each run's first key). The policy gives the block size and
// the pairs a thread reads (its tree and finish are not used; default_policy: 256 threads of 16
// pairs).
#pragma once

#include <cuda_runtime_api.h>

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <utility>

#include "../detail/host_result.cuh"
#include "../detail/kernel/kernels.cuh"
#include "../detail/kernel/run_count.cuh"
#include "../detail/kernel/run_scan.cuh"
#include "../detail/runtime/device.cuh"
#include "../detail/runtime/launch_context.cuh"
#include "../detail/runtime/memory_check.cuh"
#include "../detail/runtime/temp_storage.cuh"
#include "../memory/resource.cuh"
#include "../ops.cuh"
#include "../policy/policy.cuh"

namespace cascade {

// Key equality: a == b.
struct equal_to {
  template <class A, class B>
  __host__ __device__ constexpr bool operator()(A const& a, B const& b) const {
    return a == b;
  }
};

}  // namespace cascade

namespace cascade::detail {

// The block size and pairs a thread of reduce_by_key under Policy, and from how many pairs on it
// counts the keys first (run_count.cuh). On an H200 (graph replays), 256 x 16 counted, in five
// kernels, took 0.99-1.00x the single pass's time at 2^22-2^23 pairs of mean run length 1, 0.79-0.87x
// at mean length 64 and 1024, and 1.05-1.10x at 2^21; below, its kernels cost more than the waits
// they save.
template <class Policy>
struct by_key_shape {
  static constexpr int block_size = Policy::block_size;
  static constexpr int items = Policy::coarse_factor;
  static constexpr cuda::std::int64_t counted_from = cuda::std::int64_t(1) << 22;
};
// The fastest of cascade-family --cases by_key_shapes and probes on an H200. In the single pass a
// tile's life is mostly fixed waits, so bigger tiles move more pairs a second where there are
// enough of them to fill the device many times, and fewer where there are not (256 x 20 at 2^20:
// 0.8x 256 x 16). Counted, 256 x 16 took 0.93-1.00x 256 x 20's time at 2^26-2^28 pairs from mean
// run length 8 and 0.98-1.00x at mean length 1, once the stage's slots stopped falling in one bank.
template <>
struct by_key_shape<default_policy> {
  static constexpr int block_size = 256;
  static constexpr int items = 16;
  static constexpr cuda::std::int64_t counted_from = cuda::std::int64_t(1) << 22;
};

// bytes (a multiple of 4) at p zeroed by zero_words_kernel, which lets the stream's next kernel start
// at once where it is launched with launch_dependent(..., overlaps_previous<Next>(device), ...): that
// kernel runs wait_for_previous_grid() before it touches the words (and before it ends). A memset
// before reduce_by_key's single pass cost about 1 us more at 2^20 pairs.
inline void launch_zero_words(void* p, std::size_t bytes, cudaStream_t stream) {
  auto const words = static_cast<cuda::std::int64_t>(bytes / sizeof(unsigned));
  launch(&zero_words_kernel<256>, static_cast<unsigned>(words < 256 * 1024 ? (words + 255) / 256 : 1024), 256, stream,
         "zero_words_kernel<<<...>>> (launch)", static_cast<unsigned*>(p), words);
}
// Whether Next may be launched as a dependent of the stream's kernel before it (both run as 9.0 code
// or newer: the zeroing kernel's arch stands for every kernel of the program). The counted design's
// later kernels too, each waiting at its start: its kernels' launches overlap (about 1 us a call at
// 2^20-2^23 pairs on an H200, graph replays).
template <auto Next>
bool overlaps_previous(device_info const& device) {
  return once_per_device(device, [&] {
           return static_cast<unsigned>(device.cc_major >= 9 && kernel_arch(&zero_words_kernel<256>) >= 90 &&
                                        kernel_arch(Next) >= 90);
         }) != 0;
}

template <class Policy, class KeyIt, class ValIt, class KeyOut, class ValOut, class CountOut, class Op, class Eq>
void dispatch_reduce_by_key(launch_context const& call, KeyIt keys, ValIt values, cuda::std::int64_t n,
                            KeyOut keys_out, ValOut values_out, CountOut count_out, Op op, Eq eq) {
  using T = input_value_t<ValIt>;
  using shape = by_key_shape<Policy>;
  static_assert(shape::block_size % 32 == 0 && shape::block_size <= 1024,
                "cascade::reduce_by_key: the policy's block size must be a multiple of 32, at most 1024");
  cudaStream_t const stream = call.stream();
  if (n == 0) {
    if (call.launches()) launch_write_value(count_out, cuda::std::int64_t(0), stream);
    return;
  }
  constexpr int Items = shape::items;
  constexpr cuda::std::int64_t tile = cuda::std::int64_t(shape::block_size) * Items;
  cuda::std::int64_t const tiles = (n + tile - 1) / tile;
  if (tiles > 0x7fffffffll)
    throw std::invalid_argument("cascade::reduce_by_key: more than 2^31 tiles; use a policy with larger tiles");
  unsigned const grid = static_cast<unsigned>(tiles);
  if (n >= shape::counted_from) {
    using layout = counted_tiles<T>;
    cuda::std::int64_t const mask_words =
        masks_heads<KeyIt, T, shape::block_size, Items> ? tiles * shape::block_size : 0;
    scratch_buffer const scratch =
        call.scratch(layout::bytes(tiles, mask_words), "cascade::reduce_by_key's tile counts, carries and head bits");
    if (!call.launches()) return;
    counted_tiles<T> const counted = layout::in(scratch.as<void>(), tiles, mask_words);
    constexpr int scan_block = scan_carries_block, scan_items = scan_carries_items;
    static_assert(scan_block * scan_items == layout::scan_items);
    constexpr auto count = &count_run_heads_kernel<shape::block_size, Items, KeyIt, Eq>;
    launch_zero_words(scratch.as<void>(), layout::zeroed_bytes(tiles), stream);  // flags, sums, parts
    launch_dependent(count, grid, shape::block_size, stream, overlaps_previous<count>(call.device()),
                     "count_run_heads_kernel (launch_dependent)", keys, n, eq, counted.counts, counted.sums,
                     counted.first_heads, counted.masks);
    constexpr auto before = &runs_before_kernel<run_stretch_tiles>;
    constexpr auto pass = &reduce_by_key_kernel<shape::block_size, Items, T, KeyIt, ValIt, KeyOut, ValOut, CountOut,
                                                Eq, Op, counted_tiles<T>>;
    constexpr auto scan = &scan_carries_kernel<scan_block, scan_items, T, ValOut, Op>;
    launch_dependent(before, static_cast<unsigned>(layout::stretches(tiles)), run_stretch_tiles, stream,
                     overlaps_previous<before>(call.device()), "runs_before_kernel (launch_dependent)", counted.counts,
                     counted.sums, tiles, counted.before);
    launch_dependent(pass, grid, shape::block_size, stream, overlaps_previous<pass>(call.device()),
                     "reduce_by_key_kernel (launch_dependent)", keys, values, n, keys_out, values_out, count_out, eq,
                     op, counted);
    launch_dependent(scan, static_cast<unsigned>(layout::scan_blocks(tiles)), scan_block, stream,
                     overlaps_previous<scan>(call.device()), "scan_carries_kernel (launch_dependent)", counted, tiles,
                     values_out, op);
    return;
  }
  using layout = tile_carries<T>;
  scratch_buffer const scratch = call.scratch(layout::bytes(tiles), "cascade::reduce_by_key's tile carries");
  if (!call.launches()) return;
  tile_carries<T> const carries = layout::in(scratch.as<void>(), tiles);
  // The pass reads its pairs and scans them while the tiles' words are zeroed, and waits only
  // before its look-back.
  constexpr auto pass = &reduce_by_key_kernel<shape::block_size, Items, T, KeyIt, ValIt, KeyOut, ValOut, CountOut,
                                              Eq, Op, tile_carries<T>>;
  launch_zero_words(scratch.as<void>(), layout::zeroed_bytes(tiles), stream);
  launch_dependent(pass, grid, shape::block_size, stream, overlaps_previous<pass>(call.device()),
                   "reduce_by_key_kernel (launch_dependent)", keys, values, n, keys_out, values_out, count_out, eq,
                   op, carries);
}

template <class KeyIt, class ValIt, class... Outs>
void check_by_key_pointers(KeyIt keys, ValIt values, cuda::std::int64_t n, Outs const&... outs) {
  if (n == 0) return;
  check_device_accessible(keys, "the keys");
  check_device_accessible(values, "the values");
  (check_device_accessible(outs, "an output"), ...);
}

}  // namespace cascade::detail

namespace cascade {

// The runs' first keys and folds to keys_out and values_out, their number to *d_num_runs (device
// memory, any integer type), ordered on the policy's stream; the host does not wait.
template <class Policy, class KeyIt, class ValIt, class KeyOut, class ValOut, class CountOut, class Op = plus,
          class Eq = equal_to>
  requires(is_policy_v<Policy> && !stream_ordered_resource<Op> && !stream_ordered_resource<Eq>)
void reduce_by_key_into(Policy const& policy, KeyIt keys_first, KeyIt keys_last, ValIt values_first, KeyOut keys_out,
                        ValOut values_out, CountOut d_num_runs, Op op = {}, Eq eq = {}) {
  auto const n = detail::checked_size(keys_first, keys_last, "cascade::reduce_by_key_into");
  detail::check_by_key_pointers(keys_first, values_first, n, keys_out, values_out);
  detail::check_device_accessible(d_num_runs, "the output (d_num_runs)");
  detail::launch_context const call(policy.stream(), detail::current_device());
  detail::dispatch_reduce_by_key<Policy>(call, keys_first, values_first, n, keys_out, values_out, d_num_runs, op, eq);
}

// As Thrust's: the ends of the two outputs, once the device has counted the runs.
template <class Policy, class KeyIt, class ValIt, class KeyOut, class ValOut, class Op = plus, class Eq = equal_to>
  requires is_policy_v<Policy>
std::pair<KeyOut, ValOut> reduce_by_key(Policy const& policy, KeyIt keys_first, KeyIt keys_last, ValIt values_first,
                                        KeyOut keys_out, ValOut values_out, Op op = {}, Eq eq = {}) {
  auto const n = detail::checked_size(keys_first, keys_last, "cascade::reduce_by_key");
  if (n == 0) return {keys_out, values_out};
  detail::check_by_key_pointers(keys_first, values_first, n, keys_out, values_out);
  auto const runs = detail::run_to_host<cuda::std::int64_t>(
      policy.stream(), "cascade::reduce_by_key", [&](detail::launch_context const& call, auto out) {
        detail::dispatch_reduce_by_key<Policy>(call, keys_first, values_first, n, keys_out, values_out, out, op, eq);
      });
  return {keys_out + runs, values_out + runs};
}

// As reduce_by_key_into, every byte of temporary device storage (the tiles' carries) taken from
// `resource` (memory/resource.cuh), last: after d_num_runs, after op, or after op and eq.
template <class Policy, class KeyIt, class ValIt, class KeyOut, class ValOut, class CountOut, class Resource>
  requires(is_policy_v<Policy> && stream_ordered_resource<std::remove_reference_t<Resource>>)
void reduce_by_key_into(Policy const& policy, KeyIt keys_first, KeyIt keys_last, ValIt values_first, KeyOut keys_out,
                        ValOut values_out, CountOut d_num_runs, Resource&& resource) {
  detail::with_resource(resource, [&] {
    reduce_by_key_into(policy, keys_first, keys_last, values_first, keys_out, values_out, d_num_runs);
  });
}

template <class Policy, class KeyIt, class ValIt, class KeyOut, class ValOut, class CountOut, class Op, class Resource>
  requires(is_policy_v<Policy> && stream_ordered_resource<std::remove_reference_t<Resource>>)
void reduce_by_key_into(Policy const& policy, KeyIt keys_first, KeyIt keys_last, ValIt values_first, KeyOut keys_out,
                        ValOut values_out, CountOut d_num_runs, Op op, Resource&& resource) {
  detail::with_resource(resource, [&] {
    reduce_by_key_into(policy, keys_first, keys_last, values_first, keys_out, values_out, d_num_runs, op);
  });
}

template <class Policy, class KeyIt, class ValIt, class KeyOut, class ValOut, class CountOut, class Op, class Eq,
          class Resource>
  requires(is_policy_v<Policy> && stream_ordered_resource<std::remove_reference_t<Resource>>)
void reduce_by_key_into(Policy const& policy, KeyIt keys_first, KeyIt keys_last, ValIt values_first, KeyOut keys_out,
                        ValOut values_out, CountOut d_num_runs, Op op, Eq eq, Resource&& resource) {
  detail::with_resource(resource, [&] {
    reduce_by_key_into(policy, keys_first, keys_last, values_first, keys_out, values_out, d_num_runs, op, eq);
  });
}

// With CUB's temporary storage first, as cub::DeviceReduce::ReduceByKey: any form above with
// (d_temp_storage, temp_storage_bytes) before its policy (reduce_into's two-phase form says how).
template <class Policy, class... Args>
  requires(is_policy_v<Policy> && requires(Policy const& p, Args&... a) { reduce_by_key_into(p, a...); })
void reduce_by_key_into(void* d_temp_storage, std::size_t& temp_storage_bytes, Policy const& policy, Args&&... args) {
  detail::with_temp_storage(d_temp_storage, temp_storage_bytes, "cascade::reduce_by_key_into",
                            [&] { reduce_by_key_into(policy, args...); });
}

}  // namespace cascade
