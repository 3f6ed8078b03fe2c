// cascade/policy/presets.cuh: every kernel of the seed documents as a named policy, so that each can be
// picked, compared and learned from. `policy<...>` spells out what each one is.
//
//   float s = cascade::reduce(cascade::presets::harris_reduce4{}, d, d + n, 0.0f);
//
// Where a seed kernel leaves the grid's results to the host or to a relaunch, the preset uses the
// recursive finish (the slides' "decompose into multiple kernels"); where it uses atomicAdd, the
// atomic finish.
// Every seed kernel that wrote its input in place (PMPP Fig 10.6/10.9) becomes a shared-memory tree
// here: cascade never writes the input.
#pragma once

#include "../finish/atomic.cuh"
#include "../finish/recursive.cuh"
#include "policy.cuh"
#include "../tree/interleaved.cuh"
#include "../tree/interleaved_strided.cuh"
#include "../tree/none.cuh"
#include "../tree/sequential.cuh"
#include "../tree/shuffle.cuh"
#include "../tree/unrolled.cuh"
#include "../tree/unrolled_warp.cuh"

namespace cascade::presets {

// --- PMPP chapter 10 (seeds 000, 001, 003) ---

// Fig 10.6 SimpleSumReductionKernel: owner-computes, stride doubling, thread k starts from input[2k]
// and input[2k+1], one block of up to 1024 threads (2048 items). Here the two items a thread starts
// from are k and k + 1024 (coarse factor 2), and the recursive finish lifts the 2048-item limit.
using pmpp_simple = policy<1024, 2, tree::interleaved, finish::recursive>;

// Fig 10.9 ConvergentSumReductionKernel: stride halving from blockDim.x, thread i adds input[i] and
// input[i + stride]: the first step is exactly a coarse factor of 2 in cascade's tile layout.
using pmpp_convergent = policy<1024, 2, tree::sequential, finish::recursive>;

// Fig 10.11 SharedMemorySumReductionKernel: the convergent kernel with the first add done on load
// and the tree in shared memory (N + 1 global accesses). cascade's trees are always in shared memory
// and never write the input, so this is the same policy as pmpp_convergent under its own name.
using pmpp_shared = policy<1024, 2, tree::sequential, finish::recursive>;

// Fig 10.13 SegmentedSumReductionKernel: each block reduces a segment of 2 * blockDim.x items with the
// shared-memory kernel, then thread 0 atomicAdds the block's sum into the output.
using pmpp_segmented_atomic = policy<1024, 2, tree::sequential, finish::atomic>;

// Fig 10.15 CoarsenedSumReductionKernel: BLOCK_DIM 1024, COARSE_FACTOR 4 over segments of
// 2 * COARSE_FACTOR * blockDim.x items (the PMPP lecture notes): 8 items per thread, then the tree and one atomicAdd.
using pmpp_coarsened = policy<1024, 8, tree::sequential, finish::atomic>;

// --- "Optimizing Parallel Reduction" slides, block size 128 as in the slides' table ---

// Kernel 1: interleaved addressing, divergent branch (tid % (2 * s) == 0).
using harris_reduce1 = policy<128, 1, tree::interleaved, finish::recursive>;
// Kernel 2: interleaved addressing, strided index (index = 2 * s * tid): bank conflicts.
using harris_reduce2 = policy<128, 1, tree::interleaved_strided, finish::recursive>;
// Kernel 3: sequential addressing.
using harris_reduce3 = policy<128, 1, tree::sequential, finish::recursive>;
// Kernel 4: first add during global load (each thread loads two items): coarse factor 2.
using harris_reduce4 = policy<128, 2, tree::sequential, finish::recursive>;
// Kernel 5: unroll the last warp (with __syncwarp: the slides' version races since Volta).
using harris_reduce5 = policy<128, 2, tree::unrolled_warp, finish::recursive>;
// Kernel 6: completely unrolled for the compile-time block size.
using harris_reduce6 = policy<128, 2, tree::unrolled, finish::recursive>;
// Kernel 7: multiple elements per thread (algorithm cascading: O(log n) items per thread, Brent's
// theorem); 32 items per thread is log2 of the slides' 2^22 rounded up to a power of two.
using harris_reduce7 = policy<128, 32, tree::unrolled, finish::recursive>;

// --- The blog ladder (naive atomics up to several items a thread), BLOCK_SIZE 256 ---

// reduce1: one atomicAdd per element, no tree (correct, and as slow as contention makes it).
using blog_naive_atomic = policy<256, 1, tree::none, finish::atomic>;
// reduce2: shared memory, halving (sequential addressing), per-block results relaunched.
using blog_shared = policy<256, 1, tree::sequential, finish::recursive>;
// reduce3: unroll the last warp (warpReduce, made correct with __syncwarp).
using blog_warp_unroll = policy<256, 1, tree::unrolled_warp, finish::recursive>;
// reduce4: warp shuffles, per-warp sums in shared memory, a final warp.
using blog_shuffle = policy<256, 1, tree::shuffle, finish::recursive>;
// reduce5<numPerThread>: several items per thread before the shuffles (numPerThread = 8).
using blog_multi_element = policy<256, 8, tree::shuffle, finish::recursive>;

}  // namespace cascade::presets
