// cascade/cascade.cuh: everything cascade offers, in one include.
//
//   #include <cascade/cascade.cuh>
//   using policy = cascade::policy<256, 8, cascade::tree::sequential, cascade::finish::recursive>;
//   int total = cascade::reduce(policy{}, d_values, d_values + n, 0);
#pragma once

#include "arg_reduce.cuh"
#include "cross_check.cuh"
#include "default_policy.cuh"
#include "error.cuh"
#include "finish/atomic.cuh"
#include "finish/cluster.cuh"
#include "finish/cooperative.cuh"
#include "finish/flagged.cuh"
#include "finish/host.cuh"
#include "finish/last_block.cuh"
#include "finish/recursive.cuh"
#include "finish/two_pass.cuh"
#include "identity.cuh"
#include "indexed.cuh"
#include "monoid.cuh"
#include "non_commutative.cuh"
#include "ops.cuh"
#include "policy.cuh"
#include "prepare.cuh"
#include "presets.cuh"
#include "reduce.cuh"
#include "transform_reduce.cuh"
#include "tree/by_commutativity.cuh"
#include "tree/cub_block.cuh"
#include "tree/interleaved.cuh"
#include "tree/interleaved_strided.cuh"
#include "tree/none.cuh"
#include "tree/redux.cuh"
#include "tree/sequential.cuh"
#include "tree/shuffle.cuh"
#include "tree/unrolled.cuh"
#include "tree/unrolled_warp.cuh"
