// cascade/detail/block/atomics.cuh: combine a value into device memory atomically, *target = op(*target, v).
// Native instructions where type and op allow (add for 32/64-bit integers, float and double; min and
// max for 32/64-bit integers; CCCL's ops of those names too), a compare-and-swap loop for any other op on
// types of 2, 4 or 8 bytes, and for 1-byte types (bool, int8) one on the aligned 4-byte word that
// holds the byte (the other three bytes are written back as they were read).
#pragma once

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include "../../ops.cuh"
#include "../meta/known_op.cuh"

namespace cascade::detail {

template <class T>
inline constexpr bool atomic_size_ok = sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8;

// The type CUDA's atomics take for an integer T of the same size and signedness (int64_t is `long`
// on Linux, CUDA's overloads take `long long`).
template <class T>
using atomic_int_t = cuda::std::conditional_t<
    sizeof(T) == 4, cuda::std::conditional_t<cuda::std::is_signed_v<T>, int, unsigned>,
    cuda::std::conditional_t<cuda::std::is_signed_v<T>, long long, unsigned long long>>;

template <class T>
inline constexpr bool is_atomic_integer =
    cuda::std::is_integral_v<T> && !cuda::std::is_same_v<T, bool> && (sizeof(T) == 4 || sizeof(T) == 8);

template <class T, class Op>
inline constexpr bool has_native_atomic =
    (is_known_op_v<Op, T, plus> &&
     (is_atomic_integer<T> || cuda::std::is_same_v<T, float> || cuda::std::is_same_v<T, double>)) ||
    ((is_known_op_v<Op, T, minimum> || is_known_op_v<Op, T, maximum>) && is_atomic_integer<T>);

template <class T, class Op>
__device__ void atomic_combine(T* target, T const& value, Op op) {
  if constexpr (requires { op.atomic_merge(target, value); }) {
    op.atomic_merge(target, value);  // an op with its own atomic form (exact_plus's spill)
  } else if constexpr (has_native_atomic<T, Op>) {
    if constexpr (cuda::std::is_floating_point_v<T>) {
      atomicAdd(target, value);
    } else {
      using word = atomic_int_t<T>;
      // Signed addition wraps like unsigned in two's complement: add 64-bit signed as unsigned.
      using add_word = cuda::std::conditional_t<sizeof(T) == 8, unsigned long long, word>;
      if constexpr (is_known_op_v<Op, T, plus>)
        atomicAdd(reinterpret_cast<add_word*>(target), static_cast<add_word>(value));
      else if constexpr (is_known_op_v<Op, T, minimum>)
        atomicMin(reinterpret_cast<word*>(target), static_cast<word>(value));
      else
        atomicMax(reinterpret_cast<word*>(target), static_cast<word>(value));
    }
  } else if constexpr (sizeof(T) == 1) {
    // The byte's aligned word: a compare-and-swap that changes only this byte.
    auto const at = reinterpret_cast<cuda::std::uintptr_t>(target);
    unsigned* const address = reinterpret_cast<unsigned*>(at & ~cuda::std::uintptr_t(3));
    unsigned const shift = 8u * static_cast<unsigned>(at & 3u);
    unsigned observed = *reinterpret_cast<unsigned volatile*>(address);
    unsigned assumed;
    do {
      assumed = observed;
      T current;
      unsigned char const byte = static_cast<unsigned char>(assumed >> shift);
      __builtin_memcpy(&current, &byte, 1);
      T const next = static_cast<T>(op(current, value));
      unsigned char out;
      __builtin_memcpy(&out, &next, 1);
      unsigned const desired = (assumed & ~(0xffu << shift)) | (static_cast<unsigned>(out) << shift);
      observed = atomicCAS(address, assumed, desired);
    } while (observed != assumed);
  } else {
    static_assert(atomic_size_ok<T>, "cascade: atomic_combine needs a type of 1, 2, 4 or 8 bytes");
    using word = cuda::std::conditional_t<sizeof(T) == 8, unsigned long long,
                                          cuda::std::conditional_t<sizeof(T) == 4, unsigned, unsigned short>>;
    word* address = reinterpret_cast<word*>(target);
    word observed = *reinterpret_cast<word volatile*>(address);
    word assumed;
    do {
      assumed = observed;
      T current;
      __builtin_memcpy(&current, &assumed, sizeof(T));
      T const next = static_cast<T>(op(current, value));
      word desired;
      __builtin_memcpy(&desired, &next, sizeof(T));
      observed = atomicCAS(address, assumed, desired);
    } while (observed != assumed);
  }
}

}  // namespace cascade::detail
