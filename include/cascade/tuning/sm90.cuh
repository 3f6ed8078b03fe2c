// cascade/tuning/sm90.cuh: the tuning table for compute capability 9.0 (H100, H200), written by
// cascade-tune (src/tune.cu). Each entry says which GPU and results file it came from; keys with no
// entry of their own use the fallback below.
#pragma once

#include "../finish/cluster.cuh"
#include "../finish/last_block.cuh"
#include "../finish/recursive.cuh"
#include "../finish/two_pass.cuh"
#include "../tree/by_commutativity.cuh"
#include "../tree/cub_block.cuh"
#include "../tree/redux.cuh"
#include "../tree/sequential.cuh"
#include "../tree/shuffle.cuh"
#include "../tree/unrolled.cuh"
#include "table.cuh"

namespace cascade::tuning {

// Fallback, not measured as a table: one single-pass policy for every size.
template <int ItemBytes, op_kind Kind>
struct table<90, ItemBytes, Kind> {
  using type = ranges<range<-1, policy<256, 16, tree::by_commutativity<tree::sequential, tree::shuffle>, finish::last_block>>>;
};

}  // namespace cascade::tuning
