// cascade/policy/segmented_policy.cuh: policies for segmented and batched reductions, and every segment
// owner (cascade/segment/: a thread, Width lanes, a block, several blocks, tiles, bins). A segmented
// policy is a cascade::policy whose fourth parameter is an owner where reduce's names a finish:
//
//   using rows = cascade::policy<256, 4, cascade::tree::shuffle, cascade::segment::warp<8>>;
//   cascade::batched_reduce_into(rows{}.on(stream), d, row_length, num_rows, d_sums, 0.0f, cascade::plus{});
//
// segmented_policy<Owner, BlockSize, CoarseFactor, Tree> is the same policy with the owner first and
// defaults for the rest (256, 4, tree::shuffle): the name and order of cascade 0.1's first segmented
// calls. Invalid parameters fail to compile with a message that says what to change.
#pragma once

#include "policy.cuh"
#include "../segment/all.cuh"
#include "../tree/shuffle.cuh"

namespace cascade {

template <class Owner, int BlockSize = 256, int CoarseFactor = 4, class Tree = tree::shuffle>
using segmented_policy = policy<BlockSize, CoarseFactor, Tree, Owner>;

}  // namespace cascade
