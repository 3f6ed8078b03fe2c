// A toy finishing strategy that lives in the test tree, not in cascade: one block loops over every
// tile and writes op(init, result), so nothing is left to combine. It shows what adding a finish
// takes (this file and one line in strategies.cuh) and runs through the generic tests
// (finishes_test, non_commutative_test, fuzz_test) like cascade's own.
#pragma once

#include <cstddef>

#include <cascade/extend.cuh>

// [toy_finish]
namespace cascade_test {

struct toy_one_block_finish : cascade::finish::tag {
  static constexpr char const* name = "test::toy_one_block_finish";
  static constexpr bool preserves_order = true;  // one block walks the tiles in order
};

}  // namespace cascade_test

template <>
struct cascade::detail::finish_dispatch<cascade_test::toy_one_block_finish> {
  template <class Policy, class It, class Offset, class OutIt, class T, class Op>
  static void run(launch_context const& call, It first, Offset n, OutIt d_out, T init, Op op) {
    if (!call.launches()) return;  // being sized: no scratch to ask for
    launch_reduce_tiles<Policy, T>(first, n, op, store_result<OutIt, T, Op>{d_out, init, op}, 1, call.stream());
  }
};
// [/toy_finish]
