// cascade/detail/kernel/kernels.cuh: the kernels. Thin on purpose: the tile loop (tile_loop.cuh), the tree
// (cascade/tree/) and the sink (sinks.cuh) do the work.
#pragma once

#include <cuda_runtime_api.h>

#include <cuda/std/cstdint>

#include "../../error.cuh"
#include "../../tree/tag.cuh"
#include "sinks.cuh"
#include "tile_loop.cuh"

namespace cascade::detail {

// The block's reduction of the tiles it owns (block `block` of `grid`), valid in thread 0.
template <int BlockSize, int CoarseFactor, class Tree, class T, class It, class Offset, class Op>
__device__ T block_fold(typename block_reduce<Tree, BlockSize, T>::storage& storage, It first, Offset n, Op op,
                        unsigned block, unsigned grid) {
  auto const [partial, num_valid] = tile_loop<BlockSize, CoarseFactor, T, It, Offset, Op>{first, n, op}.run(block, grid);
  return block_reduce<Tree, BlockSize, T>{}(storage, partial, num_valid, op);
}

template <int BlockSize, int CoarseFactor, class Tree, class T, class It, class Offset, class Op, class Sink>
__global__ void __launch_bounds__(BlockSize) reduce_tiles_kernel(It first, Offset n, Op op, Sink sink) {
  __shared__ typename block_reduce<Tree, BlockSize, T>::storage storage;
  if constexpr (Tree::per_thread_results) {
    // tree::none: every thread that holds items hands its value to the sink.
    auto const [partial, num_valid] =
        tile_loop<BlockSize, CoarseFactor, T, It, Offset, Op>{first, n, op}.run(blockIdx.x, gridDim.x);
    if (static_cast<int>(threadIdx.x) < num_valid) sink(partial);
  } else {
    T const result = block_fold<BlockSize, CoarseFactor, Tree, T>(storage, first, n, op, blockIdx.x, gridDim.x);
    if (threadIdx.x == 0) sink(result);
  }
}

template <class OutIt, class T>
__global__ void write_value_kernel(OutIt d_out, T value) {
  store_value(d_out, value);
}

// *d_out = *src, for a value the device holds (an accumulator in scratch) and a fancy output iterator.
template <class OutIt, class T>
__global__ void copy_value_kernel(OutIt d_out, T const* src) {
  store_value(d_out, *src);
}

// kernel<<<grid, block, 0, stream>>>(args...), a launch error raised as cuda_error naming `what`: every
// triple-chevron launch of cascade goes through here.
template <class... Params, class... Args>
void launch(void (*kernel)(Params...), unsigned grid, int block, cudaStream_t stream, char const* what,
            Args const&... args) {
  kernel<<<grid, block, 0, stream>>>(args...);
  check_cuda(cudaGetLastError(), what);
}

// As launch, for a kernel that may start before the stream's previous kernel ends (programmatic
// dependent launch) where `overlap`, and an ordinary launch elsewhere. The caller passes overlap only
// where both kernels run as 9.0 code or newer (kernel_arch), since the kernel must run
// griddepcontrol.wait (wait_for_previous_grid) before it reads what the previous one wrote, and that
// one lets it start with griddepcontrol.launch_dependents (let_next_grid_start).
template <class... Params, class... Args>
void launch_dependent(void (*kernel)(Params...), unsigned grid, int block, cudaStream_t stream, bool overlap,
                      char const* what, Args const&... args) {
  cudaLaunchAttribute attribute[1];
  attribute[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute[0].val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(grid);
  config.blockDim = dim3(static_cast<unsigned>(block));
  config.stream = stream;
  config.attrs = attribute;
  config.numAttrs = overlap ? 1 : 0;
  check_cuda(cudaLaunchKernelEx(&config, kernel, static_cast<Params>(args)...), what);
}

// The device side of launch_dependent: no-ops below compute capability 9.0.
__device__ __forceinline__ void let_next_grid_start() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;");
#endif
}
__device__ __forceinline__ void wait_for_previous_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// words[0..count) zeroed, letting the stream's next kernel start at once where it was launched as a
// dependent (launch_dependent): that kernel waits for this one (wait_for_previous_grid) only before it
// touches the words, and reads its input meanwhile.
// (A template, so that the header defines it in every program once.)
template <int BlockSize = 256>
__global__ void __launch_bounds__(BlockSize) zero_words_kernel(unsigned* words, cuda::std::int64_t count) {
  let_next_grid_start();
  for (cuda::std::int64_t i = cuda::std::int64_t(blockIdx.x) * BlockSize + threadIdx.x; i < count;
       i += cuda::std::int64_t(gridDim.x) * BlockSize)
    words[i] = 0;
}

// Launches one pass of `Policy`'s kernel over [first, first + n) with `grid` blocks.
template <class Policy, class T, class It, class Offset, class Op, class Sink>
void launch_reduce_tiles(It first, Offset n, Op op, Sink sink, unsigned grid, cudaStream_t stream) {
  launch(&reduce_tiles_kernel<Policy::block_size, Policy::coarse_factor, typename Policy::tree_type, T, It, Offset, Op, Sink>,
         grid, Policy::block_size, stream, "reduce_tiles_kernel<<<...>>> (launch)", first, n, op, sink);
}

template <class OutIt, class T>
void launch_write_value(OutIt d_out, T const& value, cudaStream_t stream) {
  launch(&write_value_kernel<OutIt, T>, 1, 1, stream, "write_value_kernel<<<...>>> (launch)", d_out, value);
}

template <class OutIt, class T>
void launch_copy_value(OutIt d_out, T const* src, cudaStream_t stream) {
  launch(&copy_value_kernel<OutIt, T>, 1, 1, stream, "copy_value_kernel<<<...>>> (launch)", d_out, src);
}

}  // namespace cascade::detail
