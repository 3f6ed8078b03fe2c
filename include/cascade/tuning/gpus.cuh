// cascade/tuning/gpus.cuh: every tuning table, one per GPU class (tuning/table.cuh), and the list
// default_policy picks from at run time: of the classes of the device's own architecture, the fastest
// whose bandwidth the device has; devices of other architectures (and code compiled for an older one
// than the device's) use tuning::portable (tuning/portable.cuh).
//
//   sm90_h100: compute capability 9.0, any bandwidth (measured on an H100 80GB HBM3, 3352 GB/s)
//   sm90_h200: compute capability 9.0, at least 4400 GB/s (measured on an H200, 4.8 TB/s)
//
// The two sm_90 GPUs have the same 132 SMs; with 43% more bandwidth and a larger L2 (60 against 50
// MiB) the H200's best policies change at other sizes: the tuner saw the H200's table lose up to 21%
// on the H100 at single sizes; in alternating runs the two are within 1-2% there over the sweep, and
// sm90_h100 keeps the entries that won (docs/rivals.md, "One table or one per GPU").
#pragma once

#include "portable.cuh"
#include "sm90_h100.cuh"
#include "sm90_h200.cuh"
#include "table.cuh"

namespace cascade::tuning {

using tuned_gpus = gpu_list<sm90_h100, sm90_h200>;

}  // namespace cascade::tuning
