// cascade/distributed.cuh: reductions over data spread across GPUs, through NCCL (docs/distributed.md).
// Optional: it needs NCCL's header and library (nccl.h, -lnccl); cascade.cuh does not include it.
//
//   #include <cascade/distributed.cuh>
//   cascade::communicator comm = cascade::communicator::init_rank(device, nranks, id, rank);
//   float total = cascade::reduce(comm, cascade::default_policy{}, d, d + n, 0.0f, cascade::plus{});
#pragma once

#include "policy/default_policy.cuh"
#include "distributed/arg_reduce.cuh"
#include "distributed/collective.cuh"
#include "distributed/communicator.cuh"
#include "distributed/nccl_error.cuh"
#include "distributed/reduce.cuh"
#include "distributed/segmented.cuh"
#include "distributed/shard.cuh"
#include "distributed/transform_reduce.cuh"
#include "ops/non_commutative.cuh"
#include "ops.cuh"
#include "policy/policy.cuh"
