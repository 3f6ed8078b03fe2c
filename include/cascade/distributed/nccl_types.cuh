// cascade/distributed/nccl_types.cuh: which accumulator types and ops NCCL can reduce itself
// (collective::all_reduce), and their NCCL names.
//
// Types: 8-, 32- and 64-bit integers, __half, float, double, __nv_bfloat16 (by size and signedness for
// the integers, so long and long long both map to ncclInt64). Ops: cascade's plus and multiplies over
// all of them, minimum and maximum over the integers, and CCCL's functors of those names
// (detail/meta/known_op.cuh). NCCL's floating minimum and maximum drop NaN (as fminf / fmaxf) and may
// return either zero, where cascade's propagate NaN and order -0 below +0 (detail/meta/float_order.cuh):
// floating minimum and maximum meet through the all-gather, which folds with cascade's op.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <nccl.h>

#include <cuda/std/type_traits>

#include "../detail/meta/float_order.cuh"
#include "../detail/meta/known_op.cuh"

namespace cascade::detail {

// NCCL's type for T, or -1.
template <class T>
constexpr int nccl_type_code() {
  if constexpr (cuda::std::is_same_v<T, float>) return ncclFloat32;
  else if constexpr (cuda::std::is_same_v<T, double>) return ncclFloat64;
  else if constexpr (cuda::std::is_same_v<T, __half>) return ncclFloat16;
  else if constexpr (cuda::std::is_same_v<T, __nv_bfloat16>) return ncclBfloat16;
  else if constexpr (cuda::std::is_integral_v<T> && !cuda::std::is_same_v<T, bool>) {
    constexpr bool is_signed = cuda::std::is_signed_v<T>;
    if constexpr (sizeof(T) == 1) return is_signed ? ncclInt8 : ncclUint8;
    else if constexpr (sizeof(T) == 4) return is_signed ? ncclInt32 : ncclUint32;
    else if constexpr (sizeof(T) == 8) return is_signed ? ncclInt64 : ncclUint64;
    else return -1;  // 16-bit integers: NCCL has no such type
  } else {
    return -1;
  }
}

// NCCL's op for Op over T, or -1.
template <class Op, class T>
constexpr int nccl_op_code() {
  if constexpr (is_known_op_v<Op, T, plus>) return ncclSum;
  else if constexpr (is_known_op_v<Op, T, multiplies>) return ncclProd;
  else if constexpr (is_known_op_v<Op, T, minimum> && !is_ieee_v<T>) return ncclMin;
  else if constexpr (is_known_op_v<Op, T, maximum> && !is_ieee_v<T>) return ncclMax;
  else return -1;
}

// Whether NCCL reduces T with Op itself (collective::all_reduce).
template <class T, class Op>
inline constexpr bool is_nccl_builtin_v = nccl_type_code<T>() >= 0 && nccl_op_code<Op, T>() >= 0;

template <class T>
constexpr ncclDataType_t nccl_type() {
  static_assert(nccl_type_code<T>() >= 0, "cascade: NCCL has no type for this accumulator");
  return static_cast<ncclDataType_t>(nccl_type_code<T>());
}

template <class Op, class T>
constexpr ncclRedOp_t nccl_op() {
  static_assert(nccl_op_code<Op, T>() >= 0, "cascade: NCCL has no op for this one");
  return static_cast<ncclRedOp_t>(nccl_op_code<Op, T>());
}

}  // namespace cascade::detail
