// cascade/finish/last_block.cuh: single pass. Each block writes its partial and takes a ticket (an
// acquire-release atomic, so the partial is visible before the ticket says so); the block that takes
// the last ticket folds every partial (with its first warp when there are few) and writes
// op(init, result), then resets the ticket (CUDA's threadFenceReduction sample; CUB's single-pass
// designs use the same fence-then-flag idea).
//
// Launches: 1 kernel, and nothing else is enqueued: the ticket and the room for partials are the
// stream's own (detail/runtime/stream_state.cuh), and the last block zeroes the ticket again for the next call
// on that stream. A call made while its stream is being captured into a graph uses scratch the graph
// owns instead, since a graph may be replayed on several streams at once: its ticket is zeroed once,
// as it is allocated, and each replay leaves it zeroed for the next (detail/runtime/scratch.cuh). A
// grid whose partials outgrow the stream's room zeroes a ticket in scratch with a memset first. Grid: sized to fill the device once,
// blocks looping over tiles. Deterministic: the partials are folded in block order, whichever block
// is last.
#pragma once

#include <cuda/atomic>

#include <cstddef>

#include "../detail/kernel/grid.cuh"
#include "../detail/block/l2_reader.cuh"
#include "../detail/kernel/fold_partials.cuh"
#include "../detail/kernel/kernels.cuh"
#include "../detail/runtime/launch_context.cuh"
#include "tag.cuh"

namespace cascade::finish {

struct last_block : tag {
  static constexpr char const* name = "finish::last_block";
  static constexpr bool preserves_order = true;
  static constexpr bool uses_stream_state = true;  // the ticket and room for partials
};

}  // namespace cascade::finish

namespace cascade::detail {

template <int BlockSize, int CoarseFactor, class Tree, class T, class It, class Offset, class Op, class OutIt>
__global__ void __launch_bounds__(BlockSize)
    last_block_kernel(It first, Offset n, Op op, T* partials, unsigned* ticket, OutIt d_out, T init) {
  __shared__ typename block_reduce<Tree, BlockSize, T>::storage storage;
  __shared__ bool is_last;
  T const partial = block_fold<BlockSize, CoarseFactor, Tree, T>(storage, first, n, op, blockIdx.x, gridDim.x);
  if (threadIdx.x == 0) {
    store_value(partials + blockIdx.x, partial);
    // release: the partial is visible device-wide before the ticket counts it; acquire: the last
    // block sees every partial the other tickets released
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> count(*ticket);
    is_last = count.fetch_add(1u, cuda::memory_order_acq_rel) == gridDim.x - 1;
  }
  __syncthreads();
  // No fence here: thread 0's acquire, then the barrier, order the other threads' reads after every
  // released partial (causality is transitive through bar.sync), and l2_reader skips L1.
  if (!is_last) return;
  T total;
  if (gridDim.x <= warp_fold_max_partials) {  // one warp, no barrier
    if (threadIdx.x >= 32) return;
    total = warp_fold_partials(static_cast<T const*>(partials), gridDim.x, op);
  } else {  // the whole block: more loads in flight at once
    total = block_fold<BlockSize, CoarseFactor, Tree, T>(storage, l2_reader<T>{partials}, gridDim.x, op, 0, 1);
  }
  if (threadIdx.x == 0) {
    store_value(d_out, static_cast<T>(op(init, total)));
    *ticket = 0;  // for the next call on this stream
  }
}

template <>
struct finish_dispatch<finish::last_block> {
  template <class Policy, class It, class Offset, class OutIt, class T, class Op>
  static constexpr auto kernel_of() {
    return &last_block_kernel<Policy::block_size, Policy::coarse_factor, typename Policy::tree_type, T, It, Offset, Op,
                              OutIt>;
  }

  // Scratch, when the stream's own state is not used: [ticket | padding to T's alignment | partials].
  template <class T>
  static constexpr std::size_t partials_offset = alignof(T) > sizeof(unsigned) ? alignof(T) : sizeof(unsigned);

  template <class Policy, class It, class Offset, class OutIt, class T, class Op>
  static void run(launch_context const& call, It first, Offset n, OutIt d_out, T init, Op op) {
    constexpr auto kernel = kernel_of<Policy, It, Offset, OutIt, T, Op>();
    unsigned const grid = filled_grid<kernel, Policy>(call.device(), n);
    cudaStream_t const stream = call.stream();

    stream_state const own = call.state();
    std::size_t const partials_bytes = sizeof(T) * std::size_t(grid);
    if (own.ticket != nullptr && partials_bytes <= stream_state::partials_bytes && alignof(T) <= 256) {
      launch(kernel, grid, Policy::block_size, stream, "last_block_kernel<<<...>>> (launch)", first, n, op,
             static_cast<T*>(own.partials), own.ticket, d_out, init);
      return;
    }
    // [zeroed ticket | partials]
    scratch_buffer const scratch =
        call.scratch(partials_offset<T> + partials_bytes, finish::last_block::name, sizeof(unsigned));
    if (!call.launches()) return;
    auto* ticket = scratch.as<unsigned>();
    auto* partials = reinterpret_cast<T*>(scratch.as<unsigned char>() + partials_offset<T>);
    launch(kernel, grid, Policy::block_size, stream, "last_block_kernel<<<...>>> (launch)", first, n, op, partials,
           ticket, d_out, init);
  }
};

}  // namespace cascade::detail
