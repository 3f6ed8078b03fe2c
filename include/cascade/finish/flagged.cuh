// cascade/finish/flagged.cuh: single pass with flagged partials and no fence. Each block takes an
// arrival number as it starts, folds its tiles, and publishes its partial as 64-bit words, each a
// 4-byte piece of the partial with a flag in the other half, written with one relaxed store apiece
// (the value-and-status words of CUB's decoupled look-back). The block that arrived last polls every
// block's words until all are flagged, folds the partials in block order, writes op(init, result),
// and zeroes the flags and the arrival count for the next call.
//
// Why: finish::last_block's fence-then-ticket costs two round trips to L2 (the fence waits for the
// partial's store, then the atomic returns) before the last block even loads the partials; here the
// store needs no fence, since a word's flag and value arrive together, and the poller, which took its
// arrival number long before its tiles were done, sees each partial as it lands. About 0.5 us less
// than last_block per call on an H200 at 2^18..2^22 floats (docs/performance.md).
//
// Forward progress: only the block that arrived last waits, and only on blocks that arrived before
// it, so every block it waits on has started and finishes without it (as in decoupled look-back).
//
// Launches: 1 kernel; the arrival count and the flags are the stream's own (detail/runtime/stream_state.cuh).
// A call made while its stream is being captured into a graph, or whose grid's words outgrow the
// stream's room, uses zeroed scratch instead. Grid: sized to fill the device once, blocks looping
// over tiles. Deterministic: the partials are folded in block order, whichever block polls.
#pragma once

#include <cuda/atomic>

#include <cstddef>

#include "../detail/kernel/grid.cuh"
#include "../detail/kernel/kernels.cuh"
#include "../detail/runtime/launch_context.cuh"
#include "tag.cuh"

namespace cascade::finish {

struct flagged : tag {
  static constexpr char const* name = "finish::flagged";
  static constexpr bool preserves_order = true;
  static constexpr bool uses_stream_state = true;  // the arrival count and flags
};

}  // namespace cascade::finish

namespace cascade::detail {

using flag_word = unsigned long long;

// A partial of type T takes this many words: one per 4 bytes.
template <class T>
inline constexpr unsigned words_per_partial = (sizeof(T) + 3) / 4;

// A flagged word: the piece in the low half, 1 in the high half (0 there means "not yet written").
__device__ inline void store_flagged(flag_word* word, unsigned piece) {
  cuda::atomic_ref<flag_word, cuda::thread_scope_device>(*word).store((flag_word{1} << 32) | piece,
                                                                        cuda::memory_order_relaxed);
}

__device__ inline flag_word load_word(flag_word* word) {
  return cuda::atomic_ref<flag_word, cuda::thread_scope_device>(*word).load(cuda::memory_order_relaxed);
}

template <class T>
__device__ void publish(flag_word* words, T const& value) {
  constexpr unsigned count = words_per_partial<T>;
  unsigned pieces[count] = {};
  __builtin_memcpy(pieces, &value, sizeof(T));
#pragma unroll
  for (unsigned w = 0; w < count; ++w) store_flagged(words + w, pieces[w]);
}

// The fold, in block order, of `count` published partials, by the whole block: thread t takes a
// contiguous run of them, loads a batch of its words at once, waits on those not yet flagged, and
// zeroes each word it read; the policy's tree then combines the runs in thread order. Result valid
// in thread 0.
template <int BlockSize, class Tree, class T, class Op>
__device__ T fold_flagged(typename block_reduce<Tree, BlockSize, T>::storage& storage, flag_word* words,
                          unsigned count, Op op) {
  constexpr unsigned per = words_per_partial<T>;
  // Partials whose loads are in flight together: 4 words' worth (one partial when larger). More hold
  // more registers than the tile loop does, and a kernel's register count is its largest path's: 4
  // of minmax's 32-byte partials took its kernels to 110-124 registers, one block of 512 resident.
  constexpr unsigned batch = per >= 4 ? 1 : 4 / per;
  unsigned const run = (count + BlockSize - 1) / BlockSize;
  unsigned const begin = threadIdx.x * run, end = begin + run < count ? begin + run : count;
  T acc{};
  bool fresh = true;
  for (unsigned i = begin; i < end; i += batch) {
    flag_word w[batch][per];
#pragma unroll
    for (unsigned k = 0; k < batch; ++k)
      if (i + k < end)
#pragma unroll
        for (unsigned j = 0; j < per; ++j) w[k][j] = load_word(words + (i + k) * per + j);
#pragma unroll
    for (unsigned k = 0; k < batch; ++k) {
      if (i + k < end) {
        unsigned pieces[per];
#pragma unroll
        for (unsigned j = 0; j < per; ++j) {
          flag_word* const word = words + (i + k) * per + j;
          while ((w[k][j] >> 32) == 0) w[k][j] = load_word(word);
          pieces[j] = static_cast<unsigned>(w[k][j]);
          cuda::atomic_ref<flag_word, cuda::thread_scope_device>(*word).store(0, cuda::memory_order_relaxed);
        }
        T value;
        __builtin_memcpy(&value, pieces, sizeof(T));
        fold_one(acc, fresh, value, op);
        fresh = false;
      }
    }
  }
  int const num_valid = static_cast<int>((count + run - 1) / run);
  if constexpr (requires(T& v) { op.align_block(v, true); })  // (detail/kernel/tile_loop.cuh's tile_loop says why)
    op.align_block(acc, static_cast<int>(threadIdx.x) < num_valid);
  return block_reduce<Tree, BlockSize, T>{}(storage, acc, num_valid, op);
}

template <int BlockSize, int CoarseFactor, class Tree, class T, class It, class Offset, class Op, class OutIt>
__global__ void __launch_bounds__(BlockSize)
    flagged_kernel(It first, Offset n, Op op, flag_word* words, unsigned* arrivals, OutIt d_out, T init) {
  __shared__ typename block_reduce<Tree, BlockSize, T>::storage storage;
  __shared__ bool polls;
  unsigned arrival = 0;
  // Taken first, its result needed only after the tiles: the round trip hides behind them.
  if (threadIdx.x == 0)
    arrival = cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*arrivals).fetch_add(1u, cuda::memory_order_relaxed);
  T const partial = block_fold<BlockSize, CoarseFactor, Tree, T>(storage, first, n, op, blockIdx.x, gridDim.x);
  if (threadIdx.x == 0) {
    publish(words + std::size_t(blockIdx.x) * words_per_partial<T>, partial);
    polls = arrival == gridDim.x - 1;
  }
  __syncthreads();
  if (!polls) return;
  T const total = fold_flagged<BlockSize, Tree, T>(storage, words, gridDim.x, op);
  if (threadIdx.x == 0) {
    store_value(d_out, static_cast<T>(op(init, total)));
    *arrivals = 0;  // every block has arrived: for the next call on this stream
  }
}

template <>
struct finish_dispatch<finish::flagged> {
  template <class Policy, class It, class Offset, class OutIt, class T, class Op>
  static constexpr auto kernel_of() {
    return &flagged_kernel<Policy::block_size, Policy::coarse_factor, typename Policy::tree_type, T, It, Offset, Op,
                           OutIt>;
  }

  template <class T>
  static std::size_t words_bytes_of(unsigned grid) {
    return sizeof(flag_word) * words_per_partial<T> * std::size_t(grid);
  }

  template <class Policy, class It, class Offset, class OutIt, class T, class Op>
  static void run(launch_context const& call, It first, Offset n, OutIt d_out, T init, Op op) {
    constexpr auto kernel = kernel_of<Policy, It, Offset, OutIt, T, Op>();
    unsigned const grid = filled_grid<kernel, Policy>(call.device(), n);
    cudaStream_t const stream = call.stream();

    std::size_t const words_bytes = words_bytes_of<T>(grid);
    stream_state const own = call.state();
    if (own.ticket != nullptr && words_bytes <= stream_state::flags_bytes) {
      launch(kernel, grid, Policy::block_size, stream, "flagged_kernel<<<...>>> (launch)", first, n, op, own.flags,
             own.ticket, d_out, init);
      return;
    }
    // [arrival count | padding to 8 | words], all zeroed
    scratch_buffer const scratch =
        call.scratch(sizeof(flag_word) + words_bytes, finish::flagged::name, sizeof(flag_word) + words_bytes);
    if (!call.launches()) return;
    launch(kernel, grid, Policy::block_size, stream, "flagged_kernel<<<...>>> (launch)", first, n, op,
           scratch.as<flag_word>() + 1, scratch.as<unsigned>(), d_out, init);
  }
};

}  // namespace cascade::detail
