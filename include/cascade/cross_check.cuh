// cascade/cross_check.cuh: run cascade and cub::DeviceReduce on the same input and compare.
//
//   auto r = cascade::cross_check(my_policy{}, d, d + n, 0.0f, cascade::plus{});
//   if (!r.agree) std::printf("cascade %g, CUB %g, allowed %g\n", r.cascade, r.cub, r.tolerance);
//
// For trying a policy on your data before adopting it. The results agree when:
//  - integers, bool and any op: they are equal;
//  - floating point (float, double, __half, __nv_bfloat16 accumulators):
//      plus:        |cascade - cub| <= 2 gamma(k) S, where S = sum |x_i| (computed in double by a third
//                   pass), gamma(k) = k u / (1 - k u), u = epsilon / 2 and k = ceil(n / 4096) +
//                   2 ceil(log2 n) + 64 bounds how many additions any item goes through in either
//                   algorithm (Higham, Accuracy and Stability of Numerical Algorithms, 4.2). k holds
//                   whenever each grid has at least 4096 threads, true of cascade's policies and of CUB
//                   on any GPU with 16 or more SMs; tree::none with finish::atomic (one float atomic
//                   per thread) breaks it, and cross_check reports the damage. The bound is infinite
//                   (agree) once k u >= 1, e.g. float sums beyond 2^36 items.
//      multiplies:  |cascade - cub| <= 2 gamma(n - 1) max(|cascade|, |cub|)  (n - 1 roundings, any order);
//      minimum, maximum, minimum_number, maximum_number: bitwise equal (IEEE's operations are
//                   associative on every value, NaN and signed zeros included, so CUB's grouping gives
//                   cascade's bits; CCCL's cuda::minimum / maximum run as cascade's, in both);
//      any other op: equal, or both NaN;
//      exact_plus, reproducible_plus: bitwise equal to the same sum under a reference policy
//                   (<256, 1, interleaved, two_pass>), tolerance 0; `cub` then holds CUB's plain sum;
//  - other types: equal by operator== where the type has one, bytewise otherwise.
// CUB assumes commutative ops, so an op wrapped in cascade::non_commutative does not compile here:
// check those against a host fold. Synchronizes the policy's stream; CUB's temporary storage comes
// from cascade's scratch pool.
#pragma once

#include <cub/device/device_reduce.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/cstring>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>

#include "policy/default_policy.cuh"
#include "error.cuh"
#include "ops/identity.cuh"
#include "ops/monoid.cuh"
#include "ops/non_commutative.cuh"
#include "ops.cuh"
#include "policy/policy.cuh"
#include "reduce.cuh"
#include "finish/two_pass.cuh"
#include "transform_reduce.cuh"
#include "tree/interleaved.cuh"

namespace cascade {

template <class T>
struct cross_check_result {
  T cascade;         // cascade::reduce under the given policy
  T cub;             // cub::DeviceReduce::Reduce
  bool agree;        // within `tolerance` (see above)
  double tolerance;  // the largest |cascade - cub| accepted; 0 means exact
};

namespace detail {

template <class T>
struct abs_as_double {
  template <class X>
  __device__ double operator()(X const& x) const {
    double const d = to_double(static_cast<T>(x));
    return d < 0 ? -d : d;
  }
};

template <class Op, class T, class Base>
inline constexpr bool is_op_v = is_known_op_v<Op, T, Base>;
template <class Op, class E, class T, class Base>
inline constexpr bool is_op_v<monoid_op<Op, E>, T, Base> = is_known_op_v<Op, T, Base>;

// gamma(k) = k u / (1 - k u) for T's unit roundoff u; infinite once k u >= 1.
template <class T>
double rounding_gamma(double k) {
  double const u = to_double(cuda::std::numeric_limits<T>::epsilon()) / 2;
  return k * u >= 1 ? std::numeric_limits<double>::infinity() : k * u / (1 - k * u);
}

inline double sum_depth_bound(cuda::std::int64_t n) {
  double const log2n = n > 1 ? std::ceil(std::log2(static_cast<double>(n))) : 0;
  return std::ceil(static_cast<double>(n) / 4096) + 2 * log2n + 64;
}

template <class T, class = void>
inline constexpr bool has_equality = false;
template <class T>
inline constexpr bool has_equality<T, cuda::std::void_t<decltype(cuda::std::declval<T const&>() == cuda::std::declval<T const&>())>> = true;

template <class T>
bool same_value(T const& a, T const& b) {
  if constexpr (has_equality<T>) return static_cast<bool>(a == b);
  else return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class T, class It>
T cub_reduce_value(It first, cuda::std::int64_t n, T init, auto op, cudaStream_t stream) {
  scratch_buffer out(sizeof(T), stream);
  std::size_t bytes = 0;
  check_cuda(cub::DeviceReduce::Reduce(nullptr, bytes, first, out.as<T>(), n, op, init, stream),
             "cub::DeviceReduce::Reduce (size query)");
  scratch_buffer temp(bytes > 0 ? bytes : 1, stream);
  check_cuda(cub::DeviceReduce::Reduce(temp.as<unsigned char>(), bytes, first, out.as<T>(), n, op, init, stream),
             "cub::DeviceReduce::Reduce");
  T result;
  check_cuda(cudaMemcpyAsync(&result, out.as<T>(), sizeof(T), cudaMemcpyDeviceToHost, stream),
             "cudaMemcpyAsync (cross_check CUB result)");
  check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize (cross_check)");
  return result;
}

}  // namespace detail

template <class Policy, class It, class T, class Op>
  requires is_policy_v<Policy>
cross_check_result<T> cross_check(Policy const& policy, It first, It last, T init, Op op) {
  static_assert(is_commutative_v<Op>,
                "cascade::cross_check: cub::DeviceReduce assumes a commutative op, so it cannot check one "
                "marked cascade::non_commutative; compare with a host fold instead");
  auto const n = detail::checked_size(first, last, "cascade::cross_check");
  cross_check_result<T> r{};
  if constexpr (detail::is_exact_op_v<Op>) {
    // The exact sums promise the same bits under every policy: the policy's result against the same
    // sum under the simplest one (interleaved tree, two passes), bitwise; `cub` is CUB's plain sum.
    using reference = cascade::policy<256, 1, tree::interleaved, finish::two_pass>;
    r.cascade = reduce(policy, first, last, init, op);
    T const expected = reduce(reference{}.on(policy.stream()), first, last, init, op);
    r.cub = detail::cub_reduce_value<T>(first, n, init, cuda::std::plus<T>{}, policy.stream());
    r.tolerance = 0;
    r.agree = std::memcmp(&r.cascade, &expected, sizeof(T)) == 0 || (std::isnan(r.cascade) && std::isnan(expected));
  } else {
    r.cascade = reduce(policy, first, last, init, op);
    // CUB runs the op cascade runs: CCCL's functors as the cascade op they name (cuda::minimum's own
    // result with NaN depends on CUB's grouping; cascade::minimum's does not)
    if constexpr (detail::is_cccl_op_v<Op, T>)
      r.cub = detail::cub_reduce_value<T>(first, n, init, detail::known_op_t<Op, T>{}, policy.stream());
    else
      r.cub = detail::cub_reduce_value<T>(first, n, init, op, policy.stream());
    if constexpr (detail::is_floating_v<T>) {
      double const a = detail::to_double(r.cascade), b = detail::to_double(r.cub);
      if constexpr (detail::is_op_v<Op, T, plus>) {
        double const sum_abs = transform_reduce(default_policy{}.on(policy.stream()), first, last, 0.0, plus{},
                                                detail::abs_as_double<T>{});
        r.tolerance = 2 * detail::rounding_gamma<T>(detail::sum_depth_bound(n)) * sum_abs;
      } else if constexpr (detail::is_op_v<Op, T, multiplies>) {
        r.tolerance = 2 * detail::rounding_gamma<T>(static_cast<double>(n > 1 ? n - 1 : 0)) *
                      (std::fabs(a) > std::fabs(b) ? std::fabs(a) : std::fabs(b));
      }
      if constexpr (detail::is_op_v<Op, T, plus> || detail::is_op_v<Op, T, multiplies>)
        r.agree = a == b || (std::isnan(a) && std::isnan(b)) || std::fabs(a - b) <= r.tolerance;
      else if constexpr (detail::is_op_v<Op, T, minimum> || detail::is_op_v<Op, T, maximum> ||
                         detail::is_op_v<Op, T, minimum_number> || detail::is_op_v<Op, T, maximum_number>)
        r.agree = std::memcmp(&r.cascade, &r.cub, sizeof(T)) == 0;  // associative on every value: bitwise
      else
        r.agree = a == b || (std::isnan(a) && std::isnan(b));
    } else {
      r.agree = detail::same_value(r.cascade, r.cub);
    }
  }
  return r;
}

}  // namespace cascade
