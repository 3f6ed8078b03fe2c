// cascade/tuning/table.cuh: what a tuning table is, and how default_policy looks a call up in one.
//
// A table maps (GPU class, item size, op kind) to a list of size ranges, each with the policy that ran
// fastest there on the GPU it was measured on. cascade-tune (src/tune.cu) measures and writes the
// tables (cascade/tuning/sm90_h200.cuh, sm90_h100.cuh); tuning/gpus.cuh lists them; this header holds
// only the machinery.
//
//   GPU class: an architecture (compute capability) and a least peak memory bandwidth, both of which
//              the runtime reports, so that GPUs of one architecture whose best policies differ (an
//              H100 and an H200: the same 132 SMs, 3.35 and 4.8 TB/s) each get their own table;
//   item size: sizeof the input's value type, as 1, 2, 4 or 8 (larger types use 8);
//   op kind:   sum for cascade::plus, min_max for cascade::minimum and cascade::maximum (and for
//              CCCL's ops of those names: policy/tuned_policy.cuh looks them up as detail::known_op_t), arg for
//              argmin's, argmax's and minmax's ops (their {index, value} accumulators take more
//              registers, and 1- and 2-byte items want more of them a thread), exact for
//              exact_plus (whose accumulator, exact/exact_sum.cuh, is a few doubles and costs
//              arithmetic per item: other shapes win), binned for reproducible_plus (its accumulator,
//              exact/binned_sum.cuh, is lighter again); any other op
//              (non_commutative ones too) uses the sum ranges. A table without an arg entry for an
//              item size uses its min_max entry (each table's partial specialization says so).
//
// Every policy in a table preserves operand order (order-preserving finishes, and trees that reorder
// only through tree::by_commutativity), so one table serves commutative and non-commutative ops.
#pragma once

#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include "../detail/runtime/device.cuh"
#include "../detail/meta/known_op.cuh"
#include "../ops/indexed.cuh"
#include "../ops.cuh"
#include "../policy/policy.cuh"

namespace cascade::tuning {

enum class op_kind { sum, min_max, arg, exact, binned };

// Inputs of at most MaxN items use Policy (MaxN = -1: no bound).
template <long long MaxN, class Policy>
struct range {
  static_assert(is_policy_v<Policy>, "cascade::tuning::range: the second argument must be a cascade::policy");
  static_assert(!Policy::finish_type::waits_for_other_streams,
                "cascade::tuning::range: default_policy must not wait for other streams' kernels; name a finish "
                "other than finish::cooperative (e.g. finish::flagged)");
  static constexpr long long max_n = MaxN;
  static constexpr long long most = MaxN;  // the most items it ever takes, on any device (-1: no bound)
  static constexpr bool sized_by_device = false;  // true: bound(device) says, at run time (tuning/portable.cuh)
  using policy = Policy;
};

template <class... Ranges>
struct ranges {
  static_assert(sizeof...(Ranges) >= 1, "cascade::tuning::ranges: a table entry needs at least one range");
};

// The GPUs of compute capability Arch (x 10: 90 for 9.0) with at least MinGBs GB/s of peak memory
// bandwidth (clock x bus width, as cudaDevAttrMemoryClockRate and cudaDevAttrGlobalMemoryBusWidth say).
template <int Arch, int MinGBs>
struct gpu_class {
  static_assert(Arch >= 10 && MinGBs >= 0,
                "cascade::tuning::gpu_class<Arch, MinGBs>: Arch is the compute capability x 10 (90 for 9.0), MinGBs "
                "a bandwidth in GB/s (0: any)");
  static constexpr int arch = Arch;
  static constexpr int min_gbs = MinGBs;
};

// The classes with tables (tuning/gpus.cuh), oldest architecture first and, within one, slowest first.
template <class... Classes>
struct gpu_list {
  static constexpr bool ordered() {
    constexpr int archs[] = {Classes::arch...}, min_gbs[] = {Classes::min_gbs...};
    for (int i = 1; i < static_cast<int>(sizeof...(Classes)); ++i)
      if (archs[i] < archs[i - 1] || (archs[i] == archs[i - 1] && min_gbs[i] <= min_gbs[i - 1])) return false;
    return true;
  }
  static_assert(sizeof...(Classes) >= 1 && ordered(),
                "cascade::tuning::gpu_list: list the classes oldest architecture first and, within one "
                "architecture, by increasing bandwidth, each (architecture, bandwidth) once");
};

// table<Class, ItemBytes, Kind>::type is a ranges<...>; the generated headers specialize it.
template <class Class, int ItemBytes, op_kind Kind>
struct table;

// argmin's, argmax's and minmax's ops: arg (the table is keyed on the type they read:
// detail::table_item); the exact sum's op (what exact_plus runs as): exact; the binned sum's
// (reproducible_plus): binned; cascade's minimum, maximum, minimum_number and maximum_number, and
// CCCL's ops that stand for them (as detail::known_op_t maps them over T: by default whatever type
// a typed one names, so op_kind_of<thrust::maximum<float>> is min_max): min_max; any other: sum.
namespace detail_kind {
template <class Op>
inline constexpr op_kind of_known =
    requires { Op::is_exact_sum; }    ? op_kind::exact
    : requires { Op::is_binned_sum; } ? op_kind::binned
    : cuda::std::is_same_v<Op, arg_min> || cuda::std::is_same_v<Op, arg_max> || cuda::std::is_same_v<Op, arg_min_max> ||
            requires { Op::is_arg_reduction; }
        ? op_kind::arg
    : cuda::std::is_same_v<Op, minimum> || cuda::std::is_same_v<Op, maximum> ||
            cuda::std::is_same_v<Op, minimum_number> || cuda::std::is_same_v<Op, maximum_number>
        ? op_kind::min_max
        : op_kind::sum;
}  // namespace detail_kind

template <class Op, class T = detail::own_type>
inline constexpr op_kind op_kind_of = detail_kind::of_known<detail::known_op_t<Op, T>>;

template <class V>
inline constexpr int item_bytes_of = sizeof(V) <= 1 ? 1 : sizeof(V) <= 2 ? 2 : sizeof(V) <= 4 ? 4 : 8;

}  // namespace cascade::tuning

namespace cascade::detail {

// The index in `gpus` of the class whose table a device of compute capability `cc` (x 10) and `gbs`
// GB/s uses: of the classes of its own architecture, the fastest whose least bandwidth the device has
// (else the slowest); -1 when the list has none of that architecture, or when the code that runs was
// compiled for another (`running`: detail::running_arch, e.g. 80 for a build for sm_80 on a Hopper):
// a measured table timed its own architecture's code on its own architecture, and any other device
// takes the portable table (tuning/portable.cuh).
template <class... Classes>
constexpr int gpu_class_index(tuning::gpu_list<Classes...>, int cc, int gbs, int running) {
  constexpr int archs[] = {Classes::arch...};
  constexpr int min_gbs[] = {Classes::min_gbs...};
  if (running != cc) return -1;
  int chosen = -1;
  for (int i = 0; i < static_cast<int>(sizeof...(Classes)); ++i)
    if (archs[i] == cc && (chosen < 0 || min_gbs[i] <= gbs)) chosen = i;
  return chosen;
}

// The most items a range takes (-1: no bound): its max_n, or what `device` (the current one, as the
// call read it) makes of it.
template <class Range>
long long range_bound(device_info const& device) {
  if constexpr (Range::sized_by_device) return Range::bound(device);
  else return Range::max_n;
}
template <class Range>
long long range_bound() {
  if constexpr (Range::sized_by_device) return Range::bound(current_device());
  else return Range::max_n;
}

// Calls f(Range{}) with the first range whose bound on `device` holds n (the last range otherwise).
template <class F, class First, class... Rest>
void visit_range(tuning::ranges<First, Rest...>, device_info const& device, cuda::std::int64_t n, F&& f) {
  if constexpr (sizeof...(Rest) == 0) {
    f(First{});
  } else {
    long long const bound = range_bound<First>(device);
    if (bound < 0 || n <= bound) f(First{});
    else visit_range(tuning::ranges<Rest...>{}, device, n, static_cast<F&&>(f));
  }
}

}  // namespace cascade::detail
