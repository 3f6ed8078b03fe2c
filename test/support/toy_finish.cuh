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
  static std::size_t scratch_bytes(Offset) {
    return 0;  // no scratch
  }
  template <class Policy, class It, class Offset, class OutIt, class T, class Op>
  static void run(It first, Offset n, OutIt d_out, T init, Op op, cudaStream_t stream) {
    launch_reduce_tiles<Policy, T>(first, n, op, store_result<OutIt, T, Op>{d_out, init, op}, 1, stream);
  }
};
// [/toy_finish]
