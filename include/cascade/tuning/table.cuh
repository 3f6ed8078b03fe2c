// cascade/tuning/table.cuh: what a tuning table is, and how default_policy looks a call up in one.
//
// A table maps (architecture, item size, op kind) to a list of size ranges, each with the policy that
// ran fastest there on the GPU it was measured on. cascade-tune (src/tune.cu) measures and writes the
// tables (cascade/tuning/sm90.cuh); this header holds only the machinery.
//
//   item size: sizeof the input's value type, as 1, 2, 4 or 8 (larger types use 8);
//   op kind:   sum for cascade::plus, min_max for cascade::minimum and cascade::maximum, and any other
//              op (non_commutative ones too) uses the sum ranges.
//
// Every policy in a table preserves operand order (order-preserving finishes, and trees that reorder
// only through tree::by_commutativity), so one table serves commutative and non-commutative ops.
#pragma once

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include "../indexed.cuh"
#include "../ops.cuh"
#include "../policy.cuh"

namespace cascade::tuning {

enum class op_kind { sum, min_max };

// Inputs of at most MaxN items use Policy (MaxN = -1: no bound).
template <long long MaxN, class Policy>
struct range {
  static_assert(is_policy_v<Policy>, "cascade::tuning::range: the second argument must be a cascade::policy");
  static_assert(!Policy::finish_type::waits_for_other_streams,
                "cascade::tuning::range: default_policy must not wait for other streams' kernels; name a finish "
                "other than finish::cooperative (e.g. finish::flagged)");
  static constexpr long long max_n = MaxN;
  using policy = Policy;
};

template <class... Ranges>
struct ranges {
  static_assert(sizeof...(Ranges) >= 1, "cascade::tuning::ranges: a table entry needs at least one range");
};

// table<Arch, ItemBytes, Kind>::type is a ranges<...>; the generated headers specialize it.
template <int Arch, int ItemBytes, op_kind Kind>
struct table;

// argmin's, argmax's and minmax's ops compare, as minimum does (the table is keyed on the type they
// read: detail::table_item).
template <class Op>
inline constexpr op_kind op_kind_of =
    cuda::std::is_same_v<Op, minimum> || cuda::std::is_same_v<Op, maximum> || cuda::std::is_same_v<Op, arg_min> ||
            cuda::std::is_same_v<Op, arg_max> || cuda::std::is_same_v<Op, arg_min_max>
        ? op_kind::min_max
        : op_kind::sum;

template <class V>
inline constexpr int item_bytes_of = sizeof(V) <= 1 ? 1 : sizeof(V) <= 2 ? 2 : sizeof(V) <= 4 ? 4 : 8;

}  // namespace cascade::tuning

namespace cascade::detail {

// Calls f(Range{}) with the first range whose bound holds n (the last range otherwise).
template <class F, class First, class... Rest>
void visit_range(tuning::ranges<First, Rest...>, cuda::std::int64_t n, F&& f) {
  if constexpr (sizeof...(Rest) == 0) {
    f(First{});
  } else {
    if (First::max_n < 0 || n <= First::max_n) f(First{});
    else visit_range(tuning::ranges<Rest...>{}, n, static_cast<F&&>(f));
  }
}

}  // namespace cascade::detail
