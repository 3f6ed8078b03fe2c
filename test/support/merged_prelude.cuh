// Included first by the merged test programs (meson option merge-units, which scripts/test.sh
// turns on where there is no GPU: there the programs are a compile check, and one translation unit a
// family instead of one a strategy, type or part saves the 15 s each pays to parse CUB, Thrust and
// doctest). Each member's test file is then included in a namespace of its own, with its macros: this
// prelude includes every header those files include, so that their own #includes there are no-ops,
// and prefixes every TEST_CASE name with the member (CASCADE_MERGED_PREFIX, set before each
// inclusion), so that doctest registers each inclusion's cases apart.
#pragma once

#include <doctest/doctest.h>

#include <cascade/cascade.cuh>
#include <cascade/tree/cub_block.cuh>
#include <cascade/cross_check.cuh>
#include <cub/device/device_reduce.cuh>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <thrust/device_vector.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <array>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "binned_reference.hpp"
#include "busy.cuh"
#include "exact_reference.hpp"
#include "ieee_reference.hpp"
#include "noncommutative_ops.cuh"
#include "policies.cuh"
#include "references.cuh"
#include "seed.hpp"
#include "strategies.cuh"

#undef TEST_CASE
#define TEST_CASE(name) DOCTEST_TEST_CASE(CASCADE_MERGED_PREFIX name)
