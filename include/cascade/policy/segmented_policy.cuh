// cascade/policy/segmented_policy.cuh: a policy for segmented and batched reductions names who owns a
// segment (cascade/segment/: a thread, Width lanes, a block, several blocks), the block size, the
// coarse factor (loads a thread keeps in flight) and, for block owners, the tree.
//
//   using rows = cascade::segmented_policy<cascade::segment::warp<8>, 256, 4>;
//   cascade::batched_reduce(rows{}.on(stream), d, row_length, num_rows, d_sums, 0.0f, cascade::plus{});
//
// Invalid parameters fail to compile with a message that says what to change.
#pragma once

#include <cuda/std/type_traits>

#include "policy.cuh"
#include "../segment/all.cuh"
#include "../tree/shuffle.cuh"
#include "../tree/tag.cuh"

namespace cascade {

template <class Owner, int BlockSize = 256, int CoarseFactor = 4, class Tree = tree::shuffle>
struct segmented_policy : detail::on_stream<segmented_policy<Owner, BlockSize, CoarseFactor, Tree>> {
  static_assert(segment::is_owner_v<Owner>,
                "cascade::segmented_policy: Owner must be a tag from cascade::segment, e.g. cascade::segment::warp<32>");
  static_assert(detail::is_power_of_two(BlockSize) && BlockSize >= 32 && BlockSize <= 1024,
                "cascade::segmented_policy: BlockSize must be a power of two in [32, 1024], e.g. 256");
  static_assert(CoarseFactor >= 1,
                "cascade::segmented_policy: CoarseFactor (loads each thread keeps in flight) must be >= 1, e.g. 4");
  static_assert(tree::is_tree_v<Tree>,
                "cascade::segmented_policy: Tree must be a tag from cascade::tree, e.g. cascade::tree::shuffle");
  static_assert(!Tree::per_thread_results,
                "cascade::segmented_policy: tree::none hands every thread's value to a finish, and a segment has "
                "none; name a tree that combines the block, e.g. cascade::tree::shuffle");

  using owner_type = Owner;
  static constexpr int block_size = BlockSize;
  static constexpr int coarse_factor = CoarseFactor;
  static constexpr long long tile_size = static_cast<long long>(BlockSize) * CoarseFactor;
  using tree_type = Tree;
};

template <class P>
inline constexpr bool is_segmented_policy_v = false;
template <class Owner, int B, int C, class Tree>
inline constexpr bool is_segmented_policy_v<segmented_policy<Owner, B, C, Tree>> = true;

}  // namespace cascade
