// cascade/ops/idempotent.cuh: whether an operator absorbs an operand it was just given:
// op(op(a, x), x) == op(a, x) for every a and x.
//
//   struct my_max {
//     static constexpr bool idempotent = true;  // a selection (it returns one of its operands)
//     __host__ __device__ int operator()(int a, int b) const { return a < b ? b : a; }
//   };
//   static_assert(cascade::is_idempotent_v<my_max>);
//
// cascade's minimum, maximum, minimum_number, maximum_number, logical_and, logical_or, bit_and,
// bit_or and the ops of argmin, argmax and minmax say so; an op that selects one of its operands can.
// It lets a thread read the items of a tile the input does not fill all at once, the missing ones
// replaced by the thread's last item (folded twice, which changes nothing), instead of one load and
// its fold after the other (detail/kernel/tile_loop.cuh). It is only a speed hint: without it every
// op gives the same result.
#pragma once

#include <cuda/std/type_traits>

namespace cascade {

template <class Op>
inline constexpr bool is_idempotent_v = requires { requires cuda::std::remove_cvref_t<Op>::idempotent; };

}  // namespace cascade
