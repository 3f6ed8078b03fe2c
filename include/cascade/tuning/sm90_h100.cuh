// cascade/tuning/sm90_h100.cuh: the tuning table for GPUs of compute capability 9.0 with less memory
// bandwidth than tuning/sm90_h200.cuh's class (an H100 SXM: 3.35 TB/s), written by cascade-tune
// (src/tune.cu). Each entry says which GPU and results file it came from; keys with no entry of their
// own use the fallback below. The sum entries of 1-, 2- and 4-byte items were measured by
// `cascade-tune --all --step 1` on an H100 80GB HBM3 and chosen (at most 3 policies each, within 3%)
// by `cascade-tune --all --from` over bench/results/rivals-2026-11-24/tune-h100.json.xz; the others are
// sm90_h200.cuh's, which matched or beat the H100-tuned ones in alternating runs on the H100
// (cascade-rivals at c1f3233, bench/results/tables-2026-11-24/rivals-h100-c1f3233-cccl3.5.0.json.xz;
// docs/rivals.md), and share their kernels.
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
#include "sm90_h200.cuh"
#include "table.cuh"

namespace cascade::tuning {

using sm90_h100 = gpu_class<90, 0>;

// Fallback for keys without an entry (none at present: every item size has sum and min_max entries,
// and arg uses min_max where it has none, below).
template <int ItemBytes, op_kind Kind>
struct table<sm90_h100, ItemBytes, Kind> {
  using type =
      ranges<range<-1, policy<256, 16, tree::by_commutativity<tree::sequential, tree::shuffle>, finish::last_block>>>;
};

// argmin's, argmax's and minmax's ops: the min_max entry, where there is no arg entry.
template <int ItemBytes>
struct table<sm90_h100, ItemBytes, op_kind::arg> : table<sm90_h100, ItemBytes, op_kind::min_max> {};

// exact_plus and reproducible_plus: the H200's entries (not measured on an H100).
template <int ItemBytes>
struct table<sm90_h100, ItemBytes, op_kind::exact> : table<sm90_h200, ItemBytes, op_kind::exact> {};
template <int ItemBytes>
struct table<sm90_h100, ItemBytes, op_kind::binned> : table<sm90_h200, ItemBytes, op_kind::binned> {};

// [entry 1 sum] tuned with int8-plus (int8 items, int32 accumulator)
// NVIDIA H100 80GB HBM3 (driver 580.159.04), 2026-11-24, cascade f13fcf1: bench/results/rivals-2026-11-24/tune-h100.json.xz
template <>
struct table<sm90_h100, 1, op_kind::sum> {
  using type = ranges<range<5792, policy<256, 16, tree::redux, finish::recursive>>,
                      range<11585, policy<256, 32, tree::shuffle, finish::flagged>>,
                      range<23170, policy<512, 32, tree::shuffle, finish::flagged>>,
                      range<1482910, policy<256, 32, tree::shuffle, finish::flagged>>,
                      range<-1, policy<512, 32, tree::shuffle, finish::flagged>>>;
};
// [/entry]

// [entry 1 min_max] sm90_h200's: in alternating runs on an H100 (cascade-rivals at
// c1f3233, above) it matched or beat the H100-tuned entry.
template <>
struct table<sm90_h100, 1, op_kind::min_max> : table<sm90_h200, 1, op_kind::min_max> {};
// [/entry]

// [entry 1 arg] sm90_h200's, as the 1 min_max entry is (written by hand there, not tuned).
template <>
struct table<sm90_h100, 1, op_kind::arg> : table<sm90_h200, 1, op_kind::arg> {};
// [/entry]

// [entry 2 sum] tuned with half-plus (half items, float accumulator)
// NVIDIA H100 80GB HBM3 (driver 580.159.04), 2026-11-24, cascade f13fcf1: bench/results/rivals-2026-11-24/tune-h100.json.xz
template <>
struct table<sm90_h100, 2, op_kind::sum> {
  using type = ranges<range<5792, policy<256, 16, tree::shuffle, finish::flagged>>,
                      range<11585, policy<512, 16, tree::shuffle, finish::flagged>>,
                      range<23170, policy<512, 32, tree::shuffle, finish::flagged>>,
                      range<2965820, policy<256, 16, tree::shuffle, finish::flagged>>,
                      range<-1, policy<512, 16, tree::shuffle, finish::flagged>>>;
};
// [/entry]

// [entry 2 min_max] sm90_h200's: in alternating runs on an H100 (cascade-rivals at
// c1f3233, above) it matched or beat the H100-tuned entry.
template <>
struct table<sm90_h100, 2, op_kind::min_max> : table<sm90_h200, 2, op_kind::min_max> {};
// [/entry]

// [entry 2 arg] sm90_h200's, as the 2 min_max entry is (written by hand there, not tuned).
template <>
struct table<sm90_h100, 2, op_kind::arg> : table<sm90_h200, 2, op_kind::arg> {};
// [/entry]

// [entry 4 sum] tuned with float-plus (float items, float accumulator)
// NVIDIA H100 80GB HBM3 (driver 580.159.04), 2026-11-24, cascade f13fcf1: bench/results/rivals-2026-11-24/tune-h100.json.xz
template <>
struct table<sm90_h100, 4, op_kind::sum> {
  using type = ranges<range<2896, policy<256, 8, tree::shuffle, finish::flagged>>,
                      range<5792, policy<256, 16, tree::shuffle, finish::flagged>>,
                      range<11585, policy<512, 16, tree::shuffle, finish::flagged>>,
                      range<2965820, policy<256, 16, tree::shuffle, finish::flagged>>,
                      range<-1, policy<512, 16, tree::shuffle, finish::flagged>>>;
};
// [/entry]

// [entry 4 min_max] sm90_h200's: in alternating runs on an H100 (cascade-rivals at
// c1f3233, above) it matched or beat the H100-tuned entry.
template <>
struct table<sm90_h100, 4, op_kind::min_max> : table<sm90_h200, 4, op_kind::min_max> {};
// [/entry]

// [entry 8 sum] sm90_h200's: in alternating runs on an H100 (cascade-rivals at
// c1f3233, above) it matched or beat the H100-tuned entry.
template <>
struct table<sm90_h100, 8, op_kind::sum> : table<sm90_h200, 8, op_kind::sum> {};
// [/entry]

// [entry 8 min_max] sm90_h200's: in alternating runs on an H100 (cascade-rivals at
// c1f3233, above) it matched or beat the H100-tuned entry. Its top range's <512, 32>, set by hand
// later from an H200 sweep, has not been timed on an H100.
template <>
struct table<sm90_h100, 8, op_kind::min_max> : table<sm90_h200, 8, op_kind::min_max> {};
// [/entry]

}  // namespace cascade::tuning
