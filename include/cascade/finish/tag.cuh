// cascade/finish/tag.cuh: what every finishing strategy (how block results become one value) shares.
//
// A strategy is a tag type deriving from cascade::finish::tag, with a `name` and the properties below,
// plus a specialization of cascade::detail::finish_dispatch<Tag> with the one function the dispatch
// layer calls:
//
//   template <class Policy, class It, class Offset, class OutIt, class T, class Op>
//   static void run(launch_context const& call, It first, Offset n, OutIt d_out, T init, Op op);
//
// run() is called with more items than one tile holds (the dispatch layer folds smaller inputs with
// one block itself), or with any n >= 1 when the tree hands over per-thread results (tree::none). It
// must write op(init, reduction of [first, first + n)) to *d_out, ordered on call.stream(), without
// synchronizing the host. It takes its temporary device storage from call.scratch(bytes, name), the
// stream's own state from call.state(), the device's properties from call.device()
// (detail/runtime/launch_context.cuh), and returns once it has its storage when !call.launches(): the
// same path then sizes the call for the caller's temporary storage (CUB's two-phase shape), so a
// finish has no second description of its needs. cascade's own finishes are listed once, in
// finish/all.cuh.
//
// A finish of the earlier shape, run(first, n, d_out, init, op, stream) with scratch_bytes<...>(n)
// beside it, still compiles for this release: the dispatch calls it through an adapter
// (detail/dispatch.cuh, run_finish) and sizes it with its scratch_bytes.
#pragma once

#include <cuda/std/type_traits>

#include "../detail/meta/reject.cuh"
#include "../detail/meta/type_list.cuh"
#include "../ops/non_commutative.cuh"

namespace cascade::finish {

struct tag {
  // Whether it can take one value per thread (tree::none) rather than one per block.
  static constexpr bool accepts_per_thread_results = false;
  // Whether block results are combined strictly in block order; non-commutative ops need it.
  static constexpr bool preserves_order = false;
  // Whether the same input and policy give bitwise the same result on every run (finish::atomic:
  // blocks arrive in any order).
  static constexpr bool deterministic = true;
  // Whether its launch waits for kernels on other streams (finish::cooperative: its whole grid must be
  // resident at once). default_policy never names such a finish (tuning/table.cuh checks).
  static constexpr bool waits_for_other_streams = false;
  // Whether it keeps state per stream between calls (detail/runtime/stream_state.cuh).
  static constexpr bool uses_stream_state = false;
  // The oldest compute capability (x 10) on which it runs its own code path; older devices take the
  // fallback its header names (finish::cluster: finish::last_block below 9.0).
  static constexpr int native_arch = 0;
  // Each finish also says `static constexpr char const* name = "finish::...";`.
};

template <class T>
inline constexpr bool is_finish_v = cuda::std::is_base_of_v<tag, T> && !cuda::std::is_same_v<tag, T>;

}  // namespace cascade::finish

namespace cascade::detail {

template <class Finish>
struct finish_dispatch {
  static_assert(sizeof(Finish) == 0,
                "cascade: no finish_dispatch for this finish tag; use a tag from cascade::finish "
                "(e.g. cascade::finish::recursive)");
};

// finish_registry<D>::type is finish::all (finish/all.cuh defines it); dependent, as tree_registry.
template <class Dependent>
struct finish_registry;

template <class Finish>
struct keeps_block_order : cuda::std::bool_constant<Finish::preserves_order> {};
template <class Finish>
struct accepts_per_thread : cuda::std::bool_constant<Finish::accepts_per_thread_results> {};

template <class Rejected, class Alternatives>
struct reject_reordering_finish;
template <class Rejected, class... Alternatives>
struct reject_reordering_finish<Rejected, type_list<Alternatives...>> {
  static_assert(sizeof...(Alternatives) < 0,
                "cascade: the policy's finish (Rejected, below) combines block results out of order, and the op is "
                "cascade::non_commutative; use one of the finishes listed below as Alternatives");
  static constexpr bool value = true;  // reported above; no second error
};

template <class Rejected, class Alternatives>
struct reject_per_thread_pairing;
template <class Rejected, class... Alternatives>
struct reject_per_thread_pairing<Rejected, type_list<Alternatives...>> {
  static_assert(sizeof...(Alternatives) < 0,
                "cascade: the policy's tree (tree::none) sends every thread's value straight to the finish, and the "
                "finish (Rejected, below) combines one value per block; pair it with one of the finishes listed "
                "below as Alternatives, or pick another tree (e.g. tree::shuffle)");
  static constexpr bool value = true;  // reported above; no second error
};

// Checked by the dispatch layer for every call, as tree_order_ok is for trees.
template <class Finish, class Op>
inline constexpr bool finish_order_ok =
    require_strategy<Finish::preserves_order || is_commutative_v<Op>, reject_reordering_finish, Finish, finish_registry,
                     keeps_block_order>::value;
template <class Tree, class Finish>
inline constexpr bool pairing_ok =
    require_strategy<!Tree::per_thread_results || Finish::accepts_per_thread_results, reject_per_thread_pairing, Finish,
                     finish_registry, accepts_per_thread>::value;

}  // namespace cascade::detail
