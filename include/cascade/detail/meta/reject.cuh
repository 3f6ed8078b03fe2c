// cascade/detail/meta/reject.cuh: the one template behind the compile-time checks that reject a
// strategy and name the registry's alternatives (a tree that reorders under a non-commutative op, a
// finish that does, a finish that cannot take per-thread results, by_commutativity's second tree).
//
// require_strategy<Ok, Reason, Rejected, RegistryOf, Keep>::value is true when Ok holds; otherwise it
// instantiates Reason<Rejected, the registry's strategies that Keep holds for>, whose static_assert
// carries the message. C++20's static_assert takes only a literal, so the alternatives appear in the
// compiler's "[with Rejected=..., Alternatives=<...>]" line right below the message. RegistryOf is
// looked up only when the check fails: a file that includes one strategy does not pull in every one.
// A reason is declared as
//   template <class Rejected, class Alternatives> struct reason;
//   template <class Rejected, class... Alternatives> struct reason<Rejected, type_list<Alternatives...>> {
//     static_assert(sizeof...(Alternatives) < 0, "cascade: ... (Rejected, below) ...; use one of ... Alternatives");
//     static constexpr bool value = true;  // reported above; no second error
//   };
#pragma once

#include <cuda/std/type_traits>

#include "type_list.cuh"

namespace cascade::detail {

template <bool Ok, template <class, class> class Reason, class Rejected, template <class> class RegistryOf,
          template <class> class Keep>
struct require_strategy : cuda::std::true_type {};
template <template <class, class> class Reason, class Rejected, template <class> class RegistryOf,
          template <class> class Keep>
struct require_strategy<false, Reason, Rejected, RegistryOf, Keep>
    : Reason<Rejected, filter_t<typename RegistryOf<Rejected>::type, Keep>> {};

}  // namespace cascade::detail
