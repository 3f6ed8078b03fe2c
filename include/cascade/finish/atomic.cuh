// cascade/finish/atomic.cuh: block results (or, with tree::none, every thread's value) combined into
// the output with atomics: PMPP Fig 10.13/10.15 (one atomicAdd per block), the PMPP lecture notes' atomics, the blog
// ladder's naive one-atomicAdd-per-element kernel.
//
// Launches: one to write init, one reduction. With a tree, the grid fills the device once (blocks
// loop over tiles), so there are a few thousand atomics whatever n is: one atomic per tile, as in the
// seeds, serializes on the one address (65536 of them cost ~80 us at 2^28 on an H200). With tree::none
// every thread of every tile sends its value: the seed's naive one-atomic-per-element kernel when the
// coarse factor is 1. Native atomics for
// plus on 32/64-bit integers, float and double and for min/max on 32/64-bit integers; a
// compare-and-swap loop for any other op on 1-, 2-, 4- or 8-byte types (1 byte: on the aligned word
// that holds it); other sizes do not compile (a static_assert names the finishes that take them).
// With an op that has no native atomic, tree::none combines each block's values with tree::shuffle
// first: a compare-and-swap per item on one address would take seconds per million items.
// NOT deterministic for floating point: blocks arrive in any order, and float addition is not
// associative, so repeated runs on the same input may differ in the last bits. Use any other finish
// for run-to-run identical float results.
#pragma once

#include <cuda/std/type_traits>

#include <cstring>

#include "../detail/block/atomics.cuh"
#include "../detail/kernel/grid.cuh"
#include "../detail/kernel/kernels.cuh"
#include "../detail/meta/math.cuh"
#include "../detail/runtime/launch_context.cuh"
#include "../policy/policy.cuh"
#include "../tree/shuffle.cuh"
#include "tag.cuh"

namespace cascade::finish {

struct atomic : tag {
  static constexpr char const* name = "finish::atomic";
  static constexpr bool accepts_per_thread_results = true;
  static constexpr bool preserves_order = false;
  static constexpr bool deterministic = false;  // blocks arrive in any order
};

}  // namespace cascade::finish

namespace cascade::detail {

template <class T, class Op>
struct atomic_sink {
  T* target;
  Op op;
  __device__ void operator()(T const& value) const { atomic_combine(target, value, op); }
};

template <>
struct finish_dispatch<finish::atomic> {
  static constexpr unsigned max_grid = 1u << 20;  // tree::none: beyond, blocks loop over tiles

  // Where the atomics go: the output itself when it is a T* of an accumulator the hardware updates in
  // place; else a word of scratch, copied out at the end (a fancy output iterator; a 1-byte
  // accumulator, whose compare-and-swap takes the aligned 4-byte word around it: in the caller's
  // array that word would hold other bytes, or lie past the allocation's end).
  template <class OutIt, class T>
  static constexpr bool in_place = cuda::std::is_same_v<OutIt, T*> && sizeof(T) != 1;

  template <class Policy, class It, class Offset, class OutIt, class T, class Op>
  static void run(launch_context const& call, It first, Offset n, OutIt d_out, T init, Op op) {
    static_assert(atomic_size_ok<T> || requires(T* t, T const& v) { op.atomic_merge(t, v); },
                  "cascade::finish::atomic: the accumulator type (init's type) must be 1, 2, 4 or 8 bytes for "
                  "hardware atomics or a compare-and-swap loop; use finish::last_block or finish::two_pass");
    if constexpr (Policy::tree_type::per_thread_results && !has_native_atomic<T, Op>) {
      // One compare-and-swap loop per thread on one address is quadratic in contention (25 s for
      // 10^6 items on an H200): the block's values are combined by tree::shuffle first, one atomic
      // per block.
      using combined = policy<Policy::block_size, Policy::coarse_factor, tree::shuffle, finish::atomic>;
      run<combined>(call, first, n, d_out, init, op);
      return;
    }
    auto const tiles = ceil_div(n, static_cast<Offset>(Policy::tile_size));
    unsigned limit = max_grid;
    if constexpr (!Policy::tree_type::per_thread_results)
      limit = resident_grid<&reduce_tiles_kernel<Policy::block_size, Policy::coarse_factor, typename Policy::tree_type, T,
                                                 It, Offset, Op, atomic_sink<T, Op>>,
                            Policy::block_size>(call.device());
    unsigned const grid = static_cast<unsigned>(tiles < limit ? tiles : limit);
    cudaStream_t const stream = call.stream();
    if constexpr (in_place<OutIt, T>) {
      if (!call.launches()) return;
      launch_write_value(d_out, init, stream);
      launch_reduce_tiles<Policy, T>(first, n, op, atomic_sink<T, Op>{d_out, op}, grid, stream);
    } else {  // accumulate in scratch, then copy
      scratch_buffer const scratch = call.scratch(sizeof(T) < 4 ? 4 : sizeof(T), finish::atomic::name);
      if (!call.launches()) return;
      T* accumulator = scratch.as<T>();
      if constexpr (sizeof(T) == 1) {  // the whole word the compare-and-swap reads: init in its first byte
        unsigned word = 0;
        std::memcpy(&word, &init, 1);
        launch_write_value(scratch.as<unsigned>(), word, stream);
      } else {
        launch_write_value(accumulator, init, stream);
      }
      launch_reduce_tiles<Policy, T>(first, n, op, atomic_sink<T, Op>{accumulator, op}, grid, stream);
      launch_copy_value(d_out, static_cast<T const*>(accumulator), stream);
    }
  }
};

}  // namespace cascade::detail
