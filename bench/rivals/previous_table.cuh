// bench/rivals/previous_table.cuh: the sm_90 table as it was before the per-GPU tables (commit c7f4f40,
// include/cascade/tuning/sm90.cuh, measured on an H200 on 2026-11-22), as GPU class sm90_previous, so
// that cascade-rivals measures it beside the committed tables (tuned_policy<Class>) on the same GPU in
// alternating runs: the evidence for replacing it.
#pragma once

#include <cascade/finish/cluster.cuh>
#include <cascade/finish/flagged.cuh>
#include <cascade/finish/last_block.cuh>
#include <cascade/finish/recursive.cuh>
#include <cascade/finish/two_pass.cuh>
#include <cascade/tree/by_commutativity.cuh>
#include <cascade/tree/cub_block.cuh>
#include <cascade/tree/redux.cuh>
#include <cascade/tree/sequential.cuh>
#include <cascade/tree/shuffle.cuh>
#include <cascade/tree/unrolled.cuh>
#include <cascade/tuning/table.cuh>

namespace cascade::tuning {

// Its own type (a class of the same architecture and bandwidth as sm90_h200), so that its table is another.
struct sm90_previous : gpu_class<90, 4400> {};

// Fallback for keys without an entry (none at present: every item size and op kind is tuned).
template <int ItemBytes, op_kind Kind>
struct table<sm90_previous, ItemBytes, Kind> {
  using type =
      ranges<range<-1, policy<256, 16, tree::by_commutativity<tree::sequential, tree::shuffle>, finish::last_block>>>;
};

// [entry 1 sum] tuned with int8-plus (int8 items, int32 accumulator)
// NVIDIA H200 (driver 580.159.04), 2026-11-22, cascade 16187cc (the tuner's results file of that commit)
template <>
struct table<sm90_previous, 1, op_kind::sum> {
  using type = ranges<range<5792, policy<512, 8, tree::shuffle, finish::flagged>>,
                      range<23170, policy<512, 16, tree::shuffle, finish::cluster>>,
                      range<46340, policy<1024, 32, tree::shuffle, finish::flagged>>,
                      range<370727, policy<512, 16, tree::shuffle, finish::cluster>>,
                      range<-1, policy<1024, 32, tree::shuffle, finish::flagged>>>;
};
// [/entry]

// [entry 1 min_max] tuned with int8-minimum (int8 items, int32 accumulator)
// NVIDIA H200 (driver 580.159.04), 2026-11-22, cascade 16187cc (the tuner's results file of that commit)
template <>
struct table<sm90_previous, 1, op_kind::min_max> {
  using type = ranges<range<2896, policy<512, 4, tree::shuffle, finish::last_block>>,
                      range<11585, policy<512, 16, tree::shuffle, finish::cluster>>,
                      range<23170, policy<512, 32, tree::shuffle, finish::flagged>>,
                      range<185363, policy<512, 16, tree::shuffle, finish::cluster>>,
                      range<-1, policy<512, 32, tree::shuffle, finish::flagged>>>;
};
// [/entry]

// [entry 2 sum] tuned with half-plus (half items, float accumulator)
// NVIDIA H200 (driver 580.159.04), 2026-11-22, cascade 16187cc (the tuner's results file of that commit)
template <>
struct table<sm90_previous, 2, op_kind::sum> {
  using type = ranges<range<5792, policy<512, 8, tree::shuffle, finish::flagged>>,
                      range<11585, policy<512, 16, tree::shuffle, finish::cluster>>,
                      range<23170, policy<512, 32, tree::shuffle, finish::flagged>>,
                      range<185363, policy<512, 16, tree::shuffle, finish::cluster>>,
                      range<-1, policy<512, 32, tree::shuffle, finish::flagged>>>;
};
// [/entry]

// [entry 2 min_max] tuned with half-minimum (half items, float accumulator)
// NVIDIA H200 (driver 580.159.04), 2026-11-22, cascade 16187cc (the tuner's results file of that commit)
template <>
struct table<sm90_previous, 2, op_kind::min_max> {
  using type = ranges<range<5792, policy<512, 8, tree::shuffle, finish::cluster>>,
                      range<11585, policy<512, 16, tree::shuffle, finish::flagged>>,
                      range<23170, policy<512, 32, tree::shuffle, finish::flagged>>,
                      range<185363, policy<512, 8, tree::shuffle, finish::cluster>>,
                      range<-1, policy<512, 32, tree::shuffle, finish::flagged>>>;
};
// [/entry]

// [entry 4 sum] tuned with float-plus (float items, float accumulator)
// NVIDIA H200 (driver 580.159.04), 2026-11-22, cascade 16187cc (the tuner's results file of that commit)
// Edited by hand: up to 5792 items <256, 16> where the tuner chose <512, 8>: one block of 256 threads
// reads 4096 items 0.15 us faster cold, and as fast hot (alternating runs on an H200, 2026-11-22).
template <>
struct table<sm90_previous, 4, op_kind::sum> {
  using type = ranges<range<2896, policy<256, 8, tree::shuffle, finish::cluster>>,
                      range<5792, policy<256, 16, tree::shuffle, finish::flagged>>,
                      range<11585, policy<256, 8, tree::shuffle, finish::cluster>>,
                      range<23170, policy<1024, 16, tree::shuffle, finish::flagged>>,
                      range<11863283, policy<512, 8, tree::shuffle, finish::flagged>>,
                      range<-1, policy<1024, 16, tree::shuffle, finish::flagged>>>;
};
// [/entry]

// [entry 4 min_max] tuned with float-minimum (float items, float accumulator)
// NVIDIA H200 (driver 580.159.04), 2026-11-22, cascade 16187cc (the tuner's results file of that commit)
// Edited by hand: up to 5792 items <256, 16> where the tuner chose <512, 8>, as for sums.
template <>
struct table<sm90_previous, 4, op_kind::min_max> {
  using type = ranges<range<2896, policy<512, 4, tree::shuffle, finish::flagged>>,
                      range<5792, policy<256, 16, tree::shuffle, finish::cluster>>,
                      range<11585, policy<512, 16, tree::shuffle, finish::flagged>>,
                      range<185363, policy<512, 8, tree::shuffle, finish::cluster>>,
                      range<-1, policy<512, 16, tree::shuffle, finish::flagged>>>;
};
// [/entry]

// [entry 8 sum] tuned with double-plus (double items, double accumulator)
// NVIDIA H200 (driver 580.159.04), 2026-11-22, cascade 16187cc (the tuner's results file of that commit)
template <>
struct table<sm90_previous, 8, op_kind::sum> {
  using type = ranges<range<5792, policy<512, 8, tree::shuffle, finish::cluster>>,
                      range<11585, policy<1024, 8, tree::shuffle, finish::last_block>>,
                      range<92681, policy<512, 8, tree::shuffle, finish::cluster>>,
                      range<5931641, policy<1024, 4, tree::shuffle, finish::flagged>>,
                      range<-1, policy<1024, 8, tree::shuffle, finish::last_block>>>;
};
// [/entry]

// [entry 8 min_max] tuned with double-minimum (double items, double accumulator)
// NVIDIA H200 (driver 580.159.04), 2026-11-22, cascade 16187cc (the tuner's results file of that commit)
template <>
struct table<sm90_previous, 8, op_kind::min_max> {
  using type = ranges<range<5792, policy<512, 8, tree::shuffle, finish::cluster>>,
                      range<11585, policy<512, 16, tree::shuffle, finish::flagged>>,
                      range<92681, policy<512, 8, tree::shuffle, finish::cluster>>,
                      range<370727, policy<256, 16, tree::cub_block, finish::last_block>>,
                      range<-1, policy<512, 16, tree::shuffle, finish::flagged>>>;
};
// [/entry]

}  // namespace cascade::tuning
