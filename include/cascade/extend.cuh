// cascade/extend.cuh: what a strategy or accumulator written outside cascade needs, in one include.
// cascade's own strategies are written with the same pieces.
//
// A tree (how a block combines its threads' values): a tag deriving from cascade::tree::tag (its name
// and properties: tree/tag.cuh) and a specialization of cascade::detail::block_reduce<Tag, BlockSize, T>
// with `storage` (its shared memory; detail::shared_array<T, N> is raw storage for any trivially
// copyable T) and `T operator()(storage&, T value, int num_valid, Op op) const`, the result in thread 0.
// Warp steps to build on: detail::shuffle_down (any T) and detail::shuffle_warp_reduce.
//
// A finish (how the blocks' results become one): a tag deriving from cascade::finish::tag and a
// specialization of cascade::detail::finish_dispatch<Tag> with run(launch_context const&, ...)
// (finish/tag.cuh states it). To build on: the call's context (detail/runtime/launch_context.cuh: its
// stream, device, scratch(bytes, name) and whether it launches or is being sized),
// detail::launch_reduce_tiles (the tile loop and the policy's tree over a grid, each block's result to
// a sink), the sinks detail::store_partial (one value a block, for a later pass) and
// detail::store_result (op(init, result) to the output) and detail::resident_grid (as many blocks as
// the device holds at once). A finish of the earlier shape, run(first, n, d_out, init, op, stream)
// with scratch_bytes(n), still compiles for this release (detail/dispatch.cuh's adapter).
//
// An accumulator (an op that folds into a state of its own, as exact_plus does): a specialization of
// cascade::detail::accumulator<Op> (detail/meta/accumulator.cuh says what it names).
//
// A segment owner (who reduces a segment): a tag deriving from cascade::segment::tag and a
// specialization of cascade::detail::segment_owner<Tag> with run() (segment/tag.cuh states it), reading
// segment s as segments(s) (detail/kernel/segments.cuh).
//
// Adding one to cascade itself also takes one line in its family's registry (tree/all.cuh,
// finish/all.cuh, segment/all.cuh), which the tests, the bench and the tuner iterate.
// docs/design.md ("Extending cascade") shows a tree and a finish, each in one screen.
#pragma once

#include "detail/block/shared_array.cuh"
#include "detail/block/shuffle.cuh"
#include "detail/block/warp_reduce.cuh"
#include "detail/kernel/grid.cuh"
#include "detail/kernel/kernels.cuh"
#include "detail/kernel/segments.cuh"
#include "detail/kernel/sinks.cuh"
#include "detail/meta/accumulator.cuh"
#include "detail/runtime/launch_context.cuh"
#include "finish/tag.cuh"
#include "policy/policy.cuh"
#include "segment/tag.cuh"
#include "tree/tag.cuh"
