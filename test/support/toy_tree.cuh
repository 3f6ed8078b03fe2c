// A toy tree strategy that lives in the test tree, not in cascade: thread 0 folds the block's values
// from shared memory one after another, in order. It shows what adding a tree takes (this file and
// one line in strategies.cuh) and runs through the generic tests (trees_test, finishes_test,
// non_commutative_test) like cascade's own.
#pragma once

#include <cascade/extend.cuh>

// [toy_tree]
namespace cascade_test {

struct toy_serial_tree : cascade::tree::tag {
  static constexpr char const* name = "test::toy_serial_tree";
  static constexpr bool preserves_order = true;  // thread 0 folds left to right
};

}  // namespace cascade_test

template <int BlockSize, class T>
struct cascade::detail::block_reduce<cascade_test::toy_serial_tree, BlockSize, T> {
  using storage = shared_array<T, BlockSize>;

  template <class Op>
  __device__ T operator()(storage& s, T value, int num_valid, Op op) const {
    T* data = s.data();
    if (static_cast<int>(threadIdx.x) < num_valid) data[threadIdx.x] = value;
    __syncthreads();
    if (threadIdx.x == 0)
      for (int i = 1; i < num_valid; ++i) value = static_cast<T>(op(value, data[i]));
    __syncthreads();  // the storage may be reused right after (a second pass of a block's loop)
    return value;
  }
};
// [/toy_tree]
