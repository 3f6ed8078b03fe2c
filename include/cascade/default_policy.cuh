// cascade/default_policy.cuh: the policy reduce(first, last, init[, op]) uses.
//
// Provisional: 256 threads, 16 items per thread, sequential tree, recursive finish. The tuning issue
// replaces it with a per-architecture table measured by bench/ and cascade-tune.
#pragma once

#include "finish/recursive.cuh"
#include "policy.cuh"
#include "tree/sequential.cuh"

namespace cascade {

using default_policy = policy<256, 16, tree::sequential, finish::recursive>;

}  // namespace cascade
