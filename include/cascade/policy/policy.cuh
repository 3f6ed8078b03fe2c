// cascade/policy/policy.cuh: a policy names block size, coarse factor, tree, and how the blocks'
// results become the answer: a finishing strategy for reduce and the algorithms on it, or a segment
// owner for the segmented calls (who reduces one segment: a thread, some lanes, a block, tiles).
//
//   using my_policy = cascade::policy<256, 8, cascade::tree::sequential, cascade::finish::recursive>;
//   float s = cascade::reduce(my_policy{}.on(stream), d, d + n, 0.0f);
//   using rows = cascade::policy<256, 4, cascade::tree::shuffle, cascade::segment::warp<8>>;
//   cascade::batched_reduce_into(rows{}.on(stream), d, row_length, num_rows, d_sums, 0.0f, cascade::plus{});
//
// The object carries nothing but an optional stream; invalid parameters fail to compile with a
// message that says what to change.
#pragma once

#include <cuda_runtime_api.h>

#include <cuda/std/type_traits>
#include <cuda/stream_ref>

#include "../detail/meta/arch.cuh"
#include "../axis/tag.cuh"
#include "../finish/tag.cuh"
#include "../segment/tag.cuh"
#include "../tree/tag.cuh"
#include "../version.cuh"

namespace cascade {

namespace detail {
constexpr bool is_power_of_two(long long x) { return x > 0 && (x & (x - 1)) == 0; }

// What every policy carries (policy, default_policy, tuned_policy): the stream its work is ordered
// on, and `on(s)`, a copy of the policy on another stream, given as a cudaStream_t or as CCCL's
// cuda::stream_ref (what cuda::mr resources and CUB's environment calls take).
template <class Policy>
struct on_stream {
  constexpr Policy on(cudaStream_t s) const {
    Policy p = static_cast<Policy const&>(*this);
    static_cast<on_stream&>(p).stream_ = s;
    return p;
  }
  constexpr Policy on(cuda::stream_ref s) const { return on(s.get()); }
  constexpr cudaStream_t stream() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;  // the legacy default stream
};
}  // namespace detail

template <int BlockSize, int CoarseFactor, class Tree, class Finish>
struct policy : detail::on_stream<policy<BlockSize, CoarseFactor, Tree, Finish>> {
  static_assert(detail::is_power_of_two(BlockSize) && BlockSize >= 32 && BlockSize <= 1024,
                "cascade::policy: BlockSize must be a power of two in [32, 1024], e.g. 256");
  static_assert(CoarseFactor >= 1,
                "cascade::policy: CoarseFactor (items each thread folds before the tree) must be >= 1, e.g. 8");
  static_assert(tree::is_tree_v<Tree>,
                "cascade::policy: Tree must be a tag from cascade::tree, e.g. cascade::tree::sequential");
  static_assert(finish::is_finish_v<Finish> || segment::is_owner_v<Finish> || axis::is_owner_v<Finish>,
                "cascade::policy: Finish must be a tag from cascade::finish, e.g. cascade::finish::recursive (or, "
                "for segmented_reduce and batched_reduce, a segment owner from cascade::segment, e.g. "
                "cascade::segment::warp<8>; for reduce_axes_into, also an axis owner, e.g. cascade::axis::columns)");
  static_assert(!segment::is_owner_v<Finish> || !Tree::per_thread_results,
                "cascade::policy: tree::none hands every thread's value to a finish, and a segment owner has none; "
                "name a tree that combines the block, e.g. cascade::tree::shuffle");

  static constexpr int block_size = BlockSize;
  static constexpr int coarse_factor = CoarseFactor;
  static constexpr long long tile_size = static_cast<long long>(BlockSize) * CoarseFactor;  // items per block pass
  using tree_type = Tree;
  using finish_type = Finish;  // a finish, or a segment or axis owner (then also owner_type)
  using owner_type = Finish;
};

template <class P>
inline constexpr bool is_policy_v = false;
template <int B, int C, class Tree, class Finish>
inline constexpr bool is_policy_v<policy<B, C, Tree, Finish>> = true;

// A policy for the segmented calls: a segment owner where reduce's policies name a finish.
template <class P>
inline constexpr bool is_segmented_policy_v = false;
template <int B, int C, class Tree, class Owner>
inline constexpr bool is_segmented_policy_v<policy<B, C, Tree, Owner>> = segment::is_owner_v<Owner>;

// The policy that picks one for each call: for reduce and the algorithms on it, the tuning table of
// the device's GPU class (its dispatch is in policy/default_policy.cuh, with the tables); for the segmented
// calls, the owner the segments' lengths want (segmented_reduce.cuh). Declared here, so that naming it
// costs no table.
struct default_policy : detail::on_stream<default_policy> {};
template <>
inline constexpr bool is_policy_v<default_policy> = true;

// Strategy where it has its own code in some target this file is compiled for (every strategy but
// finish::cluster, 9.0, and tree::redux, 8.0, has it everywhere), Fallback otherwise: for a policy of
// a program built for several architectures, or for older ones, e.g.
//   cascade::policy<512, 8, cascade::tree::shuffle, cascade::compiled_or_t<cascade::finish::cluster, cascade::finish::last_block>>
// (a policy naming a strategy no target has does not compile).
template <class Strategy, class Fallback>
using compiled_or_t = cuda::std::conditional_t<detail::is_compiled_v<Strategy>, Strategy, Fallback>;

}  // namespace cascade
