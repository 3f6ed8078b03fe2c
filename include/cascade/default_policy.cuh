// cascade/default_policy.cuh: the policy reduce(first, last, init[, op]) uses.
//
// Provisional: 256 threads, 16 items per thread, recursive finish; the sequential tree for
// commutative ops and the order-preserving shuffle tree for ops marked cascade::non_commutative.
// The tuning issue replaces it with a per-architecture table measured by bench/ and cascade-tune.
#pragma once

#include "finish/recursive.cuh"
#include "policy.cuh"
#include "tree/by_commutativity.cuh"
#include "tree/sequential.cuh"
#include "tree/shuffle.cuh"

namespace cascade {

using default_policy = policy<256, 16, tree::by_commutativity<tree::sequential, tree::shuffle>, finish::recursive>;

}  // namespace cascade
