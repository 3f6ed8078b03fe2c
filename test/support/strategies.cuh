// The strategies the generic tests iterate: cascade's registries (tree/all.cuh, finish/all.cuh) and
// the test tree's toy strategies, one line each between the registry markers. test/meson.build reads
// the names between the markers (the first block trees, the second finishes, after cascade's own)
// and builds one program per tree or finish, which picks its strategy by index from these lists.
#pragma once

#include <cascade/detail/meta/type_list.cuh>
#include <cascade/finish/all.cuh>
#include <cascade/tree/all.cuh>
#include <cascade/tree/cub_block.cuh>  // (the registry names it; its code is here)

#include "toy_finish.cuh"
#include "toy_tree.cuh"

namespace cascade_test {

using trees = cascade::detail::concat_t<cascade::tree::all, cascade::detail::type_list<
    // registry:begin
    toy_serial_tree
    // registry:end
    >>;

using finishes = cascade::detail::concat_t<cascade::finish::all, cascade::detail::type_list<
    // registry:begin
    toy_one_block_finish
    // registry:end
    >>;

// The ones with their own code in some target of this program (a build for sm_80 only has no
// finish::cluster): what the tests iterate; the per-strategy programs index the whole lists.
using compiled_trees = cascade::detail::filter_t<trees, cascade::detail::is_compiled>;
using compiled_finishes = cascade::detail::filter_t<finishes, cascade::detail::is_compiled>;

// Whether Tree can feed Finish: per-thread trees (tree::none) only feed finishes that accept them.
template <class Tree, class Finish>
inline constexpr bool pairs_v = !Tree::per_thread_results || Finish::accepts_per_thread_results;

template <class Finish>
struct pairs_with {
  template <class Tree>
  struct tree : std::bool_constant<pairs_v<Tree, Finish>> {};
};

// The trees a finish can take, in registry order.
template <class Finish>
using trees_for = cascade::detail::filter_t<compiled_trees, pairs_with<Finish>::template tree>;

template <class Tree>
struct keeps_order : std::bool_constant<Tree::preserves_order> {};

}  // namespace cascade_test

// The strategy a per-strategy program tests: -DCASCADE_TEST_TREE_INDEX / -DCASCADE_TEST_FINISH_INDEX
// pick it from the lists above, and -DCASCADE_TEST_TREE / -DCASCADE_TEST_FINISH carry its bare name,
// which the program checks against the tag's name (the lists and test/meson.build must agree).
#define CASCADE_TEST_STR2(x) #x
#define CASCADE_TEST_STR(x) CASCADE_TEST_STR2(x)
