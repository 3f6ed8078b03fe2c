// cascade/detail/meta/accumulator.cuh: the hook through which an op brings its own accumulator.
//
// A call under Op folds its items into init's type T with Op itself: accumulator<Op> is plain. An op
// that needs another accumulator specializes accumulator<Op> with
//   is_plain = false;
//   template <class T> using transformed_as = ...;   // what transform_reduce's results are read as
//   template <class T, class Item> struct call { ... };
// where call names the state the trees and finishes combine, the op that combines it (and takes items
// through deposit), the zeroed device area the op works in (area), a writer that turns the final state
// into the result (writer<OutIt>, make_writer), the most items one call takes (max_items, -1: any) and
// its name for messages. The dispatch (detail/dispatch.cuh) runs such a call generically: it provides
// the area, zeroed, and passes state, op and writer to the policy's finish as T, Op and the output.
// The tile loop and the block primitives serve such an op through members a plain op lacks: deposit
// (acc, item) and deposit_all (acc, batch) take items as read, max_batch_bytes caps a batch,
// zero_items_add_nothing lets a partial tile go as full batches (detail/kernel/tile_loop.cuh), and
// atomic_merge gives finish::atomic its own atomic form (detail/block/atomics.cuh).
// exact/accumulator.cuh specializes it for exact_plus and reproducible_plus; nothing below the entry
// points names them.
#pragma once

#include <cuda/std/type_traits>

namespace cascade::detail {

template <class Op>
struct accumulator {
  static constexpr bool is_plain = true;
  template <class T>
  using transformed_as = T;
};

template <class Op>
inline constexpr bool is_plain_accumulator_v = accumulator<Op>::is_plain;

}  // namespace cascade::detail
