// cascade/tuning/sm90_h200.cuh: the tuning table for GPUs of compute capability 9.0 with at least 4400
// GB/s of memory bandwidth (an H200: 4.8 TB/s), written by cascade-tune (src/tune.cu). Each entry says
// which GPU and results file it came from; keys with no entry of their own use the fallback below. The
// entries were measured by `cascade-tune --all --step 1` on an H200 and chosen (at most 3 policies
// each, within 3%) by `cascade-tune --all --from` over bench/results/rivals-2026-11-24/tune-h200.json.xz,
// and measured against the table they replaced in alternating runs (cascade-rivals at b176e0d, c1f3233
// and 2bb4b7f; the last: bench/results/tables-2026-11-24/rivals-h200-2bb4b7f-cccl3.5.0.json.xz); the
// arg entries are written by hand (they say why).
#pragma once

#include "../finish/cluster.cuh"
#include "../finish/flagged.cuh"
#include "../finish/last_block.cuh"
#include "../finish/recursive.cuh"
#include "../finish/two_pass.cuh"
#include "../tree/by_commutativity.cuh"
#include "../tree/redux.cuh"
#include "../tree/sequential.cuh"
#include "../tree/shuffle.cuh"
#include "../tree/unrolled.cuh"
#include "table.cuh"

namespace cascade::tuning {

using sm90_h200 = gpu_class<90, 4400>;

// Fallback for keys without an entry (none at present: every item size has sum, min_max and arg
// entries).
template <int ItemBytes, op_kind Kind>
struct table<sm90_h200, ItemBytes, Kind> {
  using type =
      ranges<range<-1, policy<256, 16, tree::by_commutativity<tree::sequential, tree::shuffle>, finish::last_block>>>;
};

// argmin's, argmax's and minmax's ops: the min_max entry, where there is no arg entry (none at present).
template <int ItemBytes>
struct table<sm90_h200, ItemBytes, op_kind::arg> : table<sm90_h200, ItemBytes, op_kind::min_max> {};

// [entry 1 sum] tuned with int8-plus (int8 items, int32 accumulator)
// NVIDIA H200 (driver 580.159.04), 2026-11-24, cascade 947027d: bench/results/rivals-2026-11-24/tune-h200.json.xz
template <>
struct table<sm90_h200, 1, op_kind::sum> {
  using type = ranges<range<5792, policy<256, 16, tree::redux, finish::last_block>>,
                      range<11585, policy<512, 16, tree::shuffle, finish::cluster>>,
                      range<23170, policy<512, 32, tree::shuffle, finish::flagged>>,
                      range<185363, policy<512, 16, tree::shuffle, finish::cluster>>,
                      range<-1, policy<512, 32, tree::shuffle, finish::flagged>>>;
};
// [/entry]

// [entry 1 min_max] tuned with int8-minimum (int8 items, int32 accumulator)
// NVIDIA H200 (driver 580.159.04), 2026-11-24, cascade 947027d: bench/results/rivals-2026-11-24/tune-h200.json.xz
template <>
struct table<sm90_h200, 1, op_kind::min_max> {
  using type = ranges<range<5792, policy<256, 16, tree::redux, finish::recursive>>,
                      range<11585, policy<512, 16, tree::shuffle, finish::cluster>>,
                      range<23170, policy<512, 32, tree::shuffle, finish::flagged>>,
                      range<370727, policy<512, 16, tree::shuffle, finish::cluster>>,
                      range<-1, policy<512, 32, tree::shuffle, finish::flagged>>>;
};
// [/entry]

// [entry 1 arg] written by hand, not tuned (cascade-tune has no arg configurations): the 1 min_max entry,
// with twice the items a thread above 2^21: argmin of int8 and half items read 91-99% of the ceiling
// at 2^28-2^30 with <512, 64> against 88-95% with the min_max entry's policy, on an H200 and an H100
// (cascade-rivals --arg-shapes at c1f3233: bench/results/tables-2026-11-24/rivals-h200-c1f3233-cccl3.5.0.json.xz
// and bench/results/tables-2026-11-24/rivals-h100-c1f3233-cccl3.5.0.json.xz). Rewrite it when the min_max
// entry changes. Up to 5792 items by hand (int8 and uint8 argmin, argmax and minmax, 10 fixed shapes at
// 1024..8192 items: docs/notes/arg-pairs.md): one block's whole tile up to 2048 items, then two
// 4096-item tiles in a cluster (5792 items took 7.68 us hot as two tiles and the recursive finish,
// 4.90 in a cluster; CUB 6.85).
template <>
struct table<sm90_h200, 1, op_kind::arg> {
  using type = ranges<range<1024, policy<64, 16, tree::shuffle, finish::cluster>>,
                      range<2048, policy<128, 16, tree::shuffle, finish::cluster>>,
                      range<5792, policy<256, 16, tree::shuffle, finish::cluster>>,
                      range<11585, policy<512, 16, tree::shuffle, finish::cluster>>,
                      range<23170, policy<512, 32, tree::shuffle, finish::flagged>>,
                      range<370727, policy<512, 16, tree::shuffle, finish::cluster>>,
                      range<2097152, policy<512, 32, tree::shuffle, finish::flagged>>,
                      range<-1, policy<512, 64, tree::shuffle, finish::flagged>>>;
};
// [/entry]

// [entry 2 sum] tuned with half-plus (half items, float accumulator)
// NVIDIA H200 (driver 580.159.04), 2026-11-24, cascade 947027d: bench/results/rivals-2026-11-24/tune-h200.json.xz
template <>
struct table<sm90_h200, 2, op_kind::sum> {
  using type = ranges<range<5792, policy<512, 8, tree::shuffle, finish::cluster>>,
                      range<11585, policy<256, 32, tree::shuffle, finish::flagged>>,
                      range<23170, policy<512, 32, tree::shuffle, finish::flagged>>,
                      range<92681, policy<512, 8, tree::shuffle, finish::cluster>>,
                      range<2965820, policy<256, 32, tree::shuffle, finish::flagged>>,
                      range<-1, policy<512, 32, tree::shuffle, finish::flagged>>>;
};
// [/entry]

// [entry 2 min_max] tuned with half-minimum (half items, float accumulator)
// NVIDIA H200 (driver 580.159.04), 2026-11-24, cascade 947027d: bench/results/rivals-2026-11-24/tune-h200.json.xz
template <>
struct table<sm90_h200, 2, op_kind::min_max> {
  using type = ranges<range<2896, policy<256, 8, tree::shuffle, finish::flagged>>,
                      range<5792, policy<256, 16, tree::shuffle, finish::cluster>>,
                      range<11585, policy<512, 16, tree::shuffle, finish::flagged>>,
                      range<92681, policy<256, 16, tree::shuffle, finish::cluster>>,
                      range<-1, policy<512, 16, tree::shuffle, finish::flagged>>>;
};
// [/entry]

// [entry 2 arg] written by hand, not tuned (cascade-tune has no arg configurations): the 2 min_max entry,
// with twice the items a thread above 2^21: argmin of int8 and half items read 91-99% of the ceiling
// at 2^28-2^30 with <512, 64> against 88-95% with the min_max entry's policy, on an H200 and an H100
// (cascade-rivals --arg-shapes at c1f3233: bench/results/tables-2026-11-24/rivals-h200-c1f3233-cccl3.5.0.json.xz
// and bench/results/tables-2026-11-24/rivals-h100-c1f3233-cccl3.5.0.json.xz). Rewrite it when the min_max
// entry changes. Up to 5792 items by hand (half argmin, argmax and minmax over rank keys, 10 fixed
// shapes at 1024..8192 items: docs/notes/arg-pairs.md, "Rank keys through the tree"): one block's whole
// tile of 1024 or 2048 items, where a part-filled tile cost 0.4-0.5 us (1024 halves: <128, 8> 3.65 us,
// <256, 8> 4.16, CUB 4.16), then 4096-item tiles in clusters (2896 halves took 5.60 us as two tiles
// and a finish).
template <>
struct table<sm90_h200, 2, op_kind::arg> {
  using type = ranges<range<1024, policy<128, 8, tree::shuffle, finish::flagged>>,
                      range<2048, policy<256, 8, tree::shuffle, finish::flagged>>,
                      range<5792, policy<256, 16, tree::shuffle, finish::cluster>>,
                      range<11585, policy<512, 16, tree::shuffle, finish::flagged>>,
                      range<92681, policy<256, 16, tree::shuffle, finish::cluster>>,
                      range<2097152, policy<512, 16, tree::shuffle, finish::flagged>>,
                      range<-1, policy<512, 64, tree::shuffle, finish::flagged>>>;
};
// [/entry]

// [entry 4 sum] tuned with float-plus (float items, float accumulator)
// NVIDIA H200 (driver 580.159.04), 2026-11-24, cascade 947027d: bench/results/rivals-2026-11-24/tune-h200.json.xz
// Below 46341 items retuned by hand: float and int32 sums timed under 14 fixed shapes at 12 sizes from
// 1500 to 11585 (CUB in the same runs: docs/notes/tuning-tables.md, "One tile up to 8192 items"). One
// block's tile of 2048, 4096 or 8192 items holds the whole input up to that size, where the tuned
// bounds (2896, 5792, 11585) left two tiles and a finish past a power of two: 4097 to 5792 floats
// 4.5-4.8 us against 4.0. tree::redux (the same code as shuffle for floats) takes about 0.2 us off an
// int32 call's block reduction: int32 at 4096 3.55 -> 3.33 us hot. Three policies, as before.
template <>
struct table<sm90_h200, 4, op_kind::sum> {
  using type = ranges<range<2048, policy<256, 8, tree::redux, finish::cluster>>,
                      range<4096, policy<512, 8, tree::redux, finish::flagged>>,
                      range<8192, policy<512, 16, tree::shuffle, finish::flagged>>,
                      range<46340, policy<256, 8, tree::redux, finish::cluster>>,
                      range<-1, policy<512, 16, tree::shuffle, finish::flagged>>>;
};
// [/entry]

// [entry 4 min_max] tuned with float-minimum (float items, float accumulator)
// NVIDIA H200 (driver 580.159.04), 2026-11-24, cascade 947027d: bench/results/rivals-2026-11-24/tune-h200.json.xz
// Below 8193 items retuned by hand, as the sum entry above: float and int32 minima, one block's tile
// up to 8192 items (2100 to 2896 floats took 4.9 us, two tiles and a finish, where CUB took 4.0-4.2
// and <512, 8> takes 3.8), tree::redux for int32 from 2049 to 4096 (3.33 us at 4096, CUB 3.55).
template <>
struct table<sm90_h200, 4, op_kind::min_max> {
  using type = ranges<range<2048, policy<256, 8, tree::shuffle, finish::flagged>>,
                      range<4096, policy<512, 8, tree::redux, finish::flagged>>,
                      range<8192, policy<512, 16, tree::shuffle, finish::flagged>>,
                      range<92681, policy<256, 16, tree::shuffle, finish::cluster>>,
                      range<1482910, policy<256, 8, tree::shuffle, finish::flagged>>,
                      range<-1, policy<512, 16, tree::shuffle, finish::flagged>>>;
};
// [/entry]

// [entry 4 arg] written by hand, not tuned (cascade-tune has no arg configurations): float items,
// argmin and minmax each timed under 27 fixed shapes at 2^10..2^22 in half steps (hot and cold, CUB in
// the same runs: docs/notes/arg-pairs.md, "The arg entries of 4- and 8-byte items"), the three shapes
// closest to the best at every size. The min_max entry's shapes, which this replaces, were 0.5-1.4 us
// slower at 2^10..2^16 (one block's tile of 2048 or 4096 items where the input is 1024, clusters of
// 4096-item tiles from 2^16.5).
template <>
struct table<sm90_h200, 4, op_kind::arg> {
  using type = ranges<range<1218, policy<256, 4, tree::shuffle, finish::cluster>>,
                      range<2435, policy<256, 8, tree::shuffle, finish::flagged>>,
                      range<55109, policy<256, 4, tree::shuffle, finish::cluster>>,
                      range<311744, policy<256, 8, tree::shuffle, finish::flagged>>,
                      range<-1, policy<512, 16, tree::shuffle, finish::flagged>>>;
};
// [/entry]

// [entry 8 sum] tuned with double-plus (double items, double accumulator)
// NVIDIA H200 (driver 580.159.04), 2026-11-24, cascade 947027d: bench/results/rivals-2026-11-24/tune-h200.json.xz
template <>
struct table<sm90_h200, 8, op_kind::sum> {
  using type = ranges<range<2896, policy<256, 8, tree::shuffle, finish::cluster>>,
                      range<5792, policy<512, 8, tree::shuffle, finish::last_block>>,
                      range<92681, policy<256, 8, tree::shuffle, finish::cluster>>,
                      range<2965820, policy<512, 8, tree::shuffle, finish::flagged>>,
                      range<-1, policy<512, 8, tree::shuffle, finish::last_block>>>;
};
// [/entry]

// [entry 8 min_max] tuned with double-minimum (double items, double accumulator)
// NVIDIA H200 (driver 580.159.04), 2026-11-24, cascade 947027d: bench/results/rivals-2026-11-24/tune-h200.json.xz
// Above 1482910 items <512, 32> by hand, where the tuner chose <512, 16>: in the sweep of
// bench/results/bench-h200-2026-11-29, double and int64 minima at 2^22..2^30, it was faster cold at
// every size and hot at all but one (2^28 doubles, 0.1% slower); 2^22 doubles 9.50 us hot against
// 10.50, CUB 3.0.1 10.75.
template <>
struct table<sm90_h200, 8, op_kind::min_max> {
  using type = ranges<range<2896, policy<256, 8, tree::shuffle, finish::cluster>>,
                      range<5792, policy<512, 8, tree::shuffle, finish::flagged>>,
                      range<11585, policy<512, 16, tree::shuffle, finish::flagged>>,
                      range<46340, policy<256, 8, tree::shuffle, finish::cluster>>,
                      range<1482910, policy<512, 8, tree::shuffle, finish::flagged>>,
                      range<-1, policy<512, 32, tree::shuffle, finish::flagged>>>;
};
// [/entry]

// [entry 8 arg] written by hand, not tuned, as the 4 arg entry: double items (the same three shapes
// were the closest to the best; <256, 8, flagged> up to 2^19.25 here, where <512, 16> took over at
// 2^18.25 for floats). From 2^15.5 to 2^16.25 <512, 8, cluster>: 12 shapes at 2^15.5..2^18 against
// CUB 3.5.0 (docs/notes/arg-pairs.md), minmax of 2^16 doubles 6.46 us hot where <256, 8, flagged>
// took 7.30 and CUB 6.94; past 2^16.25 no shape was faster than <256, 8, flagged>.
template <>
struct table<sm90_h200, 8, op_kind::arg> {
  using type = ranges<range<1722, policy<256, 4, tree::shuffle, finish::cluster>>,
                      range<2435, policy<256, 8, tree::shuffle, finish::flagged>>,
                      range<46340, policy<256, 4, tree::shuffle, finish::cluster>>,
                      range<77935, policy<512, 8, tree::shuffle, finish::cluster>>,
                      range<623487, policy<256, 8, tree::shuffle, finish::flagged>>,
                      range<-1, policy<512, 16, tree::shuffle, finish::flagged>>>;
};
// [/entry]

// [entry 8 exact] written by hand, not tuned: double items. From 2^23 up <512, 8, flagged>, the fastest
// fixed shape since partial tiles go as batches (fd692a1:
// bench/results/exact-batch-2026-11-24/rivals-h200-2026-11-24-cccl3.5.0-fd692a1.json.xz): 1950 us at
// 2^30 (95% of the read ceiling, cold), 515 at 2^28, 160 at 2^26, against 2184, 579 and 177 with
// <256, 8> (before fd692a1 <512, 8> took 3008 us at 2^30: its kernel's registers); below, as measured
// at c254128.
template <>
struct table<sm90_h200, 8, op_kind::exact> {
  using type = ranges<range<2896, policy<256, 8, tree::shuffle, finish::flagged>>,
                      range<92681, policy<256, 8, tree::shuffle, finish::cluster>>,
                      range<2097152, policy<512, 16, tree::shuffle, finish::flagged>>,
                      range<8388608, policy<512, 8, tree::shuffle, finish::last_block>>,
                      range<-1, policy<512, 8, tree::shuffle, finish::flagged>>>;
};
// [/entry]

// [entry 4 binned] written by hand, not tuned: reproducible_plus of float items (the float-arithmetic
// binned sum, exact/binned_small_sum.cuh), from cascade-rivals --families exact --arg-shapes on an
// H200 (2026-11-24, the code of e164c0e): the fastest fixed shape at each size, the exact
// entry's cluster shape where it was faster (2^13..2^15). At 2^30: 948 us with <512, 16>, 97% of the
// read ceiling (cold), against 1042 us with <512, 8>. Below 2^11.5 <128, 16> and from 2^19 to 2^21
// <256, 32>, the fastest fixed shapes since partial tiles go as batches (measured at fd692a1):
// exact_plus at 2^10 5.7 us against <256, 8>'s 6.0, at 2^20 9.8 against <512, 8>'s 11.4.
template <>
struct table<sm90_h200, 4, op_kind::binned> {
  using type = ranges<range<2896, policy<128, 16, tree::shuffle, finish::flagged>>,
                      range<5792, policy<256, 16, tree::shuffle, finish::flagged>>,
                      range<46340, policy<256, 8, tree::shuffle, finish::cluster>>,
                      range<524288, policy<256, 8, tree::shuffle, finish::flagged>>,
                      range<2097152, policy<256, 32, tree::shuffle, finish::flagged>>,
                      range<8388608, policy<512, 32, tree::shuffle, finish::flagged>>,
                      range<-1, policy<512, 16, tree::shuffle, finish::flagged>>>;
};
// [/entry]

// [entry 4 exact] written by hand, not tuned: exact_plus of float items runs on the float grid's
// accumulator as reproducible_plus does (exact/binned_small_sum.cuh, spilling what that one drops),
// so it takes the 4 binned entry (above). Measured with them (at 7cae3e4): 943 us at 2^30 (97% of the
// read ceiling, cold), the fastest fixed shape within 1% at 2^22..2^30; since fd692a1 the binned entry
// has <256, 32> at 2^19..2^21 and <128, 16> below 2^11.5.
template <>
struct table<sm90_h200, 4, op_kind::exact> : table<sm90_h200, 4, op_kind::binned> {};
// [/entry]

// [entry 8 binned] written by hand, not tuned, as the 4 binned entry: double items. At 2^30: 1898 us
// with <512, 32> (97% of the ceiling) against 1973 us with the exact entry's <256, 8>.
template <>
struct table<sm90_h200, 8, op_kind::binned> {
  using type = ranges<range<2896, policy<256, 8, tree::shuffle, finish::flagged>>,
                      range<92681, policy<256, 8, tree::shuffle, finish::cluster>>,
                      range<2097152, policy<512, 8, tree::shuffle, finish::flagged>>,
                      range<8388608, policy<512, 8, tree::shuffle, finish::last_block>>,
                      range<33554432, policy<512, 16, tree::shuffle, finish::flagged>>,
                      range<-1, policy<512, 32, tree::shuffle, finish::flagged>>>;
};
// [/entry]

// exact_plus and reproducible_plus of items of 1 or 2 bytes (half, bfloat16, small integers): the
// float entries (the same accumulators; not measured). After the entries, which they would
// otherwise hide.
template <int ItemBytes>
struct table<sm90_h200, ItemBytes, op_kind::exact> : table<sm90_h200, 4, op_kind::exact> {};
template <int ItemBytes>
struct table<sm90_h200, ItemBytes, op_kind::binned> : table<sm90_h200, 4, op_kind::binned> {};

}  // namespace cascade::tuning
