// cascade/finish/last_block.cuh: single pass. Each block writes its partial, fences, and takes a
// ticket; the block that takes the last ticket folds every partial and writes op(init, result), then
// resets the ticket (CUDA's threadFenceReduction sample; CUB's single-pass designs use the same
// fence-then-flag idea).
//
// Launches: 1 kernel. The ticket is the stream's own (detail/stream_tickets.cuh): the last block
// zeroes it again, so calls on one stream reuse it without a memset; a call made while its stream is
// being captured into a graph zeroes a ticket in its own scratch instead (a memset, then the kernel),
// since a graph may be replayed on several streams at once. Partials are the call's own scratch.
// Grid: sized to fill the device once, blocks looping over tiles. Deterministic: the last block folds
// the partials in index order, whichever block it is.
#pragma once

#include <cstddef>

#include "../detail/finish_common.cuh"
#include "../detail/kernels.cuh"
#include "../detail/math.cuh"
#include "../detail/scratch.cuh"
#include "../detail/stream_tickets.cuh"
#include "tag.cuh"

namespace cascade::finish {

struct last_block : tag {
  static constexpr bool preserves_order = true;
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
    __threadfence();  // the partial is visible device-wide before the ticket says so
    is_last = atomicAdd(ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!is_last) return;
  __threadfence();
  T const total = block_fold<BlockSize, CoarseFactor, Tree, T>(storage, l2_reader<T>{partials}, gridDim.x, op, 0, 1);
  if (threadIdx.x == 0) {
    store_value(d_out, static_cast<T>(op(init, total)));
    *ticket = 0;
  }
}

template <>
struct finish_dispatch<finish::last_block> {
  template <class Policy, class It, class Offset, class OutIt, class T, class Op>
  static void run(It first, Offset n, OutIt d_out, T init, Op op, cudaStream_t stream) {
    if (reduce_single_tile<Policy, T>(first, n, d_out, init, op, stream)) return;
    constexpr auto kernel = &last_block_kernel<Policy::block_size, Policy::coarse_factor, typename Policy::tree_type,
                                               T, It, Offset, Op, OutIt>;
    unsigned const resident = resident_grid<kernel, Policy::block_size>();
    auto const tiles = ceil_div(n, static_cast<Offset>(Policy::tile_size));
    unsigned const grid = static_cast<unsigned>(tiles < resident ? tiles : resident);

    unsigned* ticket = stream_ticket(stream);
    // [own ticket, when captured | padding to T's alignment | partials]
    constexpr std::size_t partials_offset = alignof(T) > sizeof(unsigned) ? alignof(T) : sizeof(unsigned);
    std::size_t const own_ticket_bytes = ticket == nullptr ? partials_offset : 0;
    scratch_buffer scratch(own_ticket_bytes + sizeof(T) * std::size_t(grid), stream);
    auto* partials = reinterpret_cast<T*>(scratch.as<unsigned char>() + own_ticket_bytes);
    if (ticket == nullptr) {
      ticket = scratch.as<unsigned>();
      check_cuda(cudaMemsetAsync(ticket, 0, sizeof(unsigned), stream), "cudaMemsetAsync (last_block ticket)");
    }
    kernel<<<grid, Policy::block_size, 0, stream>>>(first, n, op, partials, ticket, d_out, init);
    check_cuda(cudaGetLastError(), "last_block_kernel<<<...>>> (launch)");
  }
};

}  // namespace cascade::detail
