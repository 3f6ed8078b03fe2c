// cascade/detail/kernel/device_held.cuh: calls whose item count or init the device holds
// (cascade::device_count, cascade::device_value: device_values.cuh), read by the kernel when it runs,
// so that a graph captured once replays on new sizes and initial values. One kernel, finish::last_block's
// single pass under the policy's block size, coarse factor and tree: the grid is sized for the largest
// count the call allows, the blocks beyond the count's tiles leave at once, and the last of the others
// folds their partials in block order and writes op(init, result) (init alone when the count is 0).
#pragma once

#include <cuda/atomic>
#include <cuda/std/cstdint>

#include <cstddef>

#include "../runtime/launch_context.cuh"
#include "fold_partials.cuh"
#include "grid.cuh"
#include "kernels.cuh"
#include "sinks.cuh"

namespace cascade::detail {

// The caller's output with what the device holds: the count (N const*, nullptr: the host's) and init
// (T const*, nullptr: the host's). dispatch_policy (detail/dispatch.cuh) sends a call with this output
// here, whatever the policy's finish.
template <class OutIt, class T, class N>
struct held_output {
  OutIt out;
  N const* count;
  T const* init;

  // The count the kernel folds: *count within [0, max_n], or max_n.
  template <class Offset>
  __device__ Offset count_or(Offset max_n) const {
    if (count == nullptr) return max_n;
    N const raw = *count;
    if (raw <= N(0)) return Offset(0);
    return static_cast<cuda::std::uint64_t>(raw) < static_cast<cuda::std::uint64_t>(max_n) ? static_cast<Offset>(raw)
                                                                                          : max_n;
  }
  __device__ T init_or(T const& host_init) const { return init == nullptr ? host_init : *init; }
};

template <class X>
inline constexpr bool is_held_output_v = false;
template <class OutIt, class T, class N>
inline constexpr bool is_held_output_v<held_output<OutIt, T, N>> = true;

template <int BlockSize, int CoarseFactor, class Tree, class T, class It, class Offset, class Op, class OutIt, class N>
__global__ void __launch_bounds__(BlockSize) held_kernel(It first, Offset max_n, Op op, T* partials, unsigned* ticket,
                                                         held_output<OutIt, T, N> out, T init) {
  __shared__ typename block_reduce<Tree, BlockSize, T>::storage storage;
  __shared__ bool is_last;
  Offset const n = out.count_or(max_n);
  Offset const tiles = ceil_div(n, static_cast<Offset>(BlockSize * CoarseFactor));
  unsigned const blocks = tiles < Offset(gridDim.x) ? static_cast<unsigned>(tiles) : gridDim.x;
  if (blocks == 0) {  // no items: init, from block 0
    if (blockIdx.x == 0 && threadIdx.x == 0) store_value(out.out, out.init_or(init));
    return;
  }
  if (blockIdx.x >= blocks) return;  // (uniform across the block: before any barrier)
  T const partial = block_fold<BlockSize, CoarseFactor, Tree, T>(storage, first, n, op, blockIdx.x, blocks);
  if (blocks == 1) {  // the count fits one block: its partial is the result, no ticket, no second read
    if (threadIdx.x == 0) store_value(out.out, static_cast<T>(op(out.init_or(init), partial)));
    return;
  }
  if (threadIdx.x == 0) {
    store_value(partials + blockIdx.x, partial);
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> count(*ticket);
    is_last = count.fetch_add(1u, cuda::memory_order_acq_rel) == blocks - 1;
  }
  __syncthreads();
  if (!is_last) return;
  T total;
  if (blocks <= warp_fold_max_partials) {
    if (threadIdx.x >= 32) return;
    total = warp_fold_partials(static_cast<T const*>(partials), blocks, op);
  } else {
    total = block_fold<BlockSize, CoarseFactor, Tree, T>(storage, l2_reader<T>{partials}, blocks, op, 0, 1);
  }
  if (threadIdx.x == 0) {
    store_value(out.out, static_cast<T>(op(out.init_or(init), total)));
    *ticket = 0;  // for the next call on this stream
  }
}

// Runs the call under Resolved (a policy whose tree is resolved for Op) over up to max_n items.
template <class Resolved, class It, class Offset, class OutIt, class T, class N, class Op>
void run_held(launch_context const& call, It first, Offset max_n, held_output<OutIt, T, N> out, T init, Op op) {
  static_assert(!Resolved::tree_type::per_thread_results,
                "cascade::device_count / device_value: the policy's tree must combine a block's values (tree::none "
                "does not); name another tree, e.g. tree::shuffle");
  constexpr auto kernel = &held_kernel<Resolved::block_size, Resolved::coarse_factor, typename Resolved::tree_type, T, It,
                                       Offset, Op, OutIt, N>;
  unsigned const grid = filled_grid<kernel, Resolved>(call.device(), max_n > Offset(0) ? max_n : Offset(1));
  cudaStream_t const stream = call.stream();
  constexpr std::size_t partials_offset = alignof(T) > sizeof(unsigned) ? alignof(T) : sizeof(unsigned);
  std::size_t const partials_bytes = sizeof(T) * std::size_t(grid);
  stream_state const own = call.state();
  if (own.ticket != nullptr && partials_bytes <= stream_state::partials_bytes && alignof(T) <= 256) {
    launch(kernel, grid, Resolved::block_size, stream, "held_kernel<<<...>>> (launch)", first, max_n, op,
           static_cast<T*>(own.partials), own.ticket, out, init);
    return;
  }
  // [zeroed ticket | partials]: a captured call's ticket is zeroed with the graph's block, not in the
  // graph (the kernel leaves it zero), which would cost a node of about 2 us in every replay
  scratch_buffer const scratch =
      call.scratch(partials_offset + partials_bytes, "cascade's device-held call", sizeof(unsigned));
  if (!call.launches()) return;
  auto* ticket = scratch.as<unsigned>();
  auto* partials = reinterpret_cast<T*>(scratch.as<unsigned char>() + partials_offset);
  launch(kernel, grid, Resolved::block_size, stream, "held_kernel<<<...>>> (launch)", first, max_n, op, partials, ticket,
         out, init);
}

}  // namespace cascade::detail
