// Sweeps over policies at compile time: for_each_policy<Tree, Finish>(f) calls f(policy{}) for every
// block size 32..1024 and coarse factor 1, 2, 8; where the build only compile-checks the tests
// (CASCADE_TEST_FEW_POLICIES: test/meson.build's -Dmerge-units=true, no GPU) the smallest, a middle and
// the largest block size with coarse factors 1 and 8, a third of the instantiations.
#pragma once

#include <cascade/cascade.cuh>
#include <cascade/tree/cub_block.cuh>

#include <utility>

namespace cascade_test {

#ifdef CASCADE_TEST_FEW_POLICIES
inline constexpr int block_sizes[] = {32, 256, 1024};
inline constexpr int coarse_factors[] = {1, 8};
#else
inline constexpr int block_sizes[] = {32, 64, 128, 256, 512, 1024};
inline constexpr int coarse_factors[] = {1, 2, 8};
#endif

template <class Tree, class Finish, class F, std::size_t... I>
void for_each_policy_impl(F&& f, std::index_sequence<I...>) {
  constexpr std::size_t nc = std::size(coarse_factors);
  (f(cascade::policy<block_sizes[I / nc], coarse_factors[I % nc], Tree, Finish>{}), ...);
}

template <class Tree, class Finish, class F>
void for_each_policy(F&& f) {
  for_each_policy_impl<Tree, Finish>(std::forward<F>(f),
                                     std::make_index_sequence<std::size(block_sizes) * std::size(coarse_factors)>{});
}

// How many additions an input value can take part in under a policy with the recursive finish:
// the thread's fold, the tree, then the same again for every further pass, plus init.
// `tree_extra` adds to the log2(BlockSize) steps of a balanced tree for trees that fold some values
// serially (cub_block's thread 0 folds the warps' results one after another).
template <class Policy>
int recursive_depth(long long n, int tree_extra = 0) {
  if (n == 0) return 1;  // init alone
  constexpr long long tile = Policy::tile_size;
  constexpr long long max_grid = cascade::detail::finish_dispatch<cascade::finish::recursive>::max_grid;
  int log2_block = 0;
  while ((1 << log2_block) < Policy::block_size) ++log2_block;
  log2_block += tree_extra;
  long long tiles = (n + tile - 1) / tile;
  long long grid = tiles < max_grid ? tiles : max_grid;
  long long tiles_per_block = (tiles + grid - 1) / grid;
  int depth = static_cast<int>(tiles_per_block * Policy::coarse_factor) - 1 + log2_block;
  while (grid > 1) {
    long long next = (grid + tile - 1) / tile;
    depth += Policy::coarse_factor - 1 + log2_block;
    grid = next;
  }
  return depth + 1;
}

}  // namespace cascade_test
