// cascade/tree/redux.cuh: the hardware warp reduction where it applies, shuffles elsewhere.
//
// sm_80 and later reduce a warp's 32-bit integers in one instruction (redux.sync, exposed as
// __reduce_add_sync / __reduce_min_sync / __reduce_max_sync). This tree uses it for int32/uint32 with
// cascade::plus, minimum and maximum (and CCCL's ops of those names); lanes past the valid ones contribute the op's identity. Any
// other type or op, or an older target, takes `shuffle`'s path, which preserves order, so this tree
// does too (the hardware path only serves commutative ops).
#pragma once

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include "../detail/block/warp_reduce.cuh"
#include "../ops.cuh"
#include "tag.cuh"

namespace cascade::tree {

struct redux : tag {
  static constexpr char const* name = "tree::redux";
  static constexpr bool preserves_order = true;
  static constexpr int native_arch = 80;  // redux.sync
};

}  // namespace cascade::tree

namespace cascade::detail {

template <class T, class Op>
inline constexpr bool has_hardware_warp_reduce =
    (cuda::std::is_same_v<T, cuda::std::int32_t> || cuda::std::is_same_v<T, cuda::std::uint32_t>) &&
    (is_known_op_v<Op, T, plus> || is_known_op_v<Op, T, minimum> || is_known_op_v<Op, T, maximum>);

struct redux_warp_reduce {
  template <int Lanes = 32, class T, class Op>
  __device__ T operator()(T value, int lane, int valid, Op op) const {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if constexpr (has_hardware_warp_reduce<T, Op>) {
      T const x = lane < valid ? value : identity<known_op_t<Op, T>, T>::value();
      if constexpr (is_known_op_v<Op, T, plus>) return __reduce_add_sync(full_warp_mask, x);
      else if constexpr (is_known_op_v<Op, T, minimum>) return __reduce_min_sync(full_warp_mask, x);
      else return __reduce_max_sync(full_warp_mask, x);
    }
#endif
    return shuffle_warp_reduce{}.template operator()<Lanes>(value, lane, valid, op);
  }
};

template <int BlockSize, class T>
struct block_reduce<tree::redux, BlockSize, T> : warp_block_reduce<BlockSize, T, redux_warp_reduce> {};

}  // namespace cascade::detail
