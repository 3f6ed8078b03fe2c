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
#include "finish/all.cuh"
#include "identity.cuh"
#include "indexed.cuh"
#include "memory.cuh"
#include "memory_resource.cuh"
#include "monoid.cuh"
#include "non_commutative.cuh"
#include "ops.cuh"
#include "policy.cuh"
#include "prepare.cuh"
#include "presets.cuh"
#include "reduce.cuh"
#include "segmented_arg_reduce.cuh"
#include "segmented_policy.cuh"
#include "segmented_reduce.cuh"
#include "segmented_transform_reduce.cuh"
#include "transform_reduce.cuh"
#include "tree/all.cuh"
#include "tuned_policy.cuh"
#include "version.cuh"
