// cascade/cascade.cuh: everything cascade offers, in one include, and nothing of CUB: the two parts
// that are CUB's own have their headers, cross_check.cuh (cub::DeviceReduce as a reference) and
// tree/cub_block.cuh (cub::BlockReduce as a tree); the distributed reduce, which needs NCCL, is in
// distributed.cuh.
//
//   #include <cascade/cascade.cuh>
//   using policy = cascade::policy<256, 8, cascade::tree::sequential, cascade::finish::recursive>;
//   int total = cascade::reduce(policy{}, d_values, d_values + n, 0);
#pragma once

#include "algorithm/arg_axis.cuh"
#include "algorithm/count.cuh"
#include "algorithm/element.cuh"
#include "algorithm/fused.cuh"
#include "algorithm/inner_product.cuh"
#include "algorithm/instantiate.cuh"
#include "algorithm/moments.cuh"
#include "algorithm/predicates.cuh"
#include "algorithm/reduce_by_key.cuh"
#include "arg_reduce.cuh"
#include "device_values.cuh"
#include "policy/default_policy.cuh"
#include "error.cuh"
#include "finish/all.cuh"
#include "ops/identity.cuh"
#include "ops/indexed.cuh"
#include "memory/scratch_pool.cuh"
#include "memory/resource.cuh"
#include "ops/fused.cuh"
#include "ops/monoid.cuh"
#include "ops/non_commutative.cuh"
#include "ops.cuh"
#include "policy/policy.cuh"
#include "memory/prepare.cuh"
#include "policy/presets.cuh"
#include "reduce.cuh"
#include "reduce_axes.cuh"
#include "segmented_arg_reduce.cuh"
#include "policy/segmented_policy.cuh"
#include "segmented_reduce.cuh"
#include "segmented_transform_reduce.cuh"
#include "transform_reduce.cuh"
#include "tree/all.cuh"
#include "policy/tuned_policy.cuh"
#include "version.cuh"
