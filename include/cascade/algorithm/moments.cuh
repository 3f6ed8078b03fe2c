// cascade/algorithm/moments.cuh: count, mean, variance, min and max of items from one read.
//
//   cascade::moments<float> m = cascade::reduce_moments(policy{}, d, d + n);
//   double mean = m.mean(), var = m.variance(), sample_var = m.variance(1);  float lo = m.min(), hi = m.max();
//   cascade::reduce_moments_into(policy{}.on(s), d, d + n, d_m);                     // into device memory
//   cascade::segmented_reduce_moments(policy{}, d, begin, end, num_segments, d_ms);  // a moments a segment
//   cascade::reduce_axes_moments_into(policy{}, cascade::view(d, {rows, cols}), cascade::axes{0},
//                                     cascade::view(d_ms, {cols}));               // every column's
//
// A moments<T> is the state of a reduction (merge_moments is its op, a moments<T>{} the identity,
// moments<T>(x) one item's), and also the result: mean(), variance(ddof) (the sum of squared deviations over count - ddof),
// min(), max() read it, on the host or the device. The sums are kept in double, from a shift (one of
// the group's items) so that the items' common part cancels before it is squared: a thread adds each
// item as d = x - shift, sum += d, squares += d^2 (no division an item), and groups merge by Chan,
// Golub and LeVeque's pairwise formula, the merged shift moved to the merged mean. So the variance of
// float items with a mean of 1e6 and a spread of 1 keeps its digits, where the naive
// E[x^2] - E[x]^2 (in float or double) loses them all.
//
// Edges, the same under every policy: no items, mean and variance NaN, min and max the identities of
// minimum and maximum; an infinity or NaN among the items makes the mean the sum of those (inf, -inf
// or NaN: the sums carry them) and the variance NaN (as numpy's var); min and max follow
// cascade::minimum and cascade::maximum (NaN if any item is NaN, -0 below +0). count - ddof <= 0
// gives a NaN variance.
#pragma once

#include <cmath>
#include <cuda/std/cstdint>
#include <cuda/std/limits>

#include <cstddef>
#include <type_traits>

#include "../array/axes.cuh"
#include "../detail/kernel/arguments.cuh"
#include "../detail/meta/float_order.cuh"
#include "../ops.cuh"
#include "../ops/identity.cuh"
#include "../policy/policy.cuh"
#include "../reduce_axes.cuh"
#include "../reduce.cuh"
#include "../segmented_reduce.cuh"

namespace cascade {

namespace detail {

template <class X>
__host__ __device__ double moments_double(X const& x) {
  if constexpr (std::is_arithmetic_v<X>) return static_cast<double>(x);
  else return static_cast<double>(static_cast<float>(x));  // __half, __nv_bfloat16
}

}  // namespace detail

template <class T>
struct moments {
  using value_type = T;
  cuda::std::uint64_t count = 0;  // the items
  double shift = 0;               // one finite item of the group (or 0): the sums are taken from it
  double sum = 0;                 // sum of (x - shift): infinite or NaN where an item is
  double squares = 0;             // sum of (x - shift)^2
  T lo = identity<minimum, T>::value();
  T hi = identity<maximum, T>::value();

  moments() = default;
  // One item's moments.
  template <class X>
    requires std::is_convertible_v<X, T>
  __host__ __device__ explicit moments(X const& x) : count(1) {
    T const v = static_cast<T>(x);
    double const d = detail::moments_double(v);
    if (d - d == 0) {
      shift = d;
    } else {  // infinite or NaN: carried by the sums (sum: the item; squares: inf or NaN)
      sum = d;
      squares = d * d;
    }
    lo = detail::is_nan(v) ? detail::canonical_nan<T>() : v;
    hi = lo;
  }

  __host__ __device__ double mean() const {
    if (count == 0) return cuda::std::numeric_limits<double>::quiet_NaN();
    double const m = shift + sum / static_cast<double>(count);
    return m == m ? m : cuda::std::numeric_limits<double>::quiet_NaN();
  }
  // The sum of squared deviations from the mean (Welford's M2).
  __host__ __device__ double m2() const {
    if (count == 0 || !(sum - sum == 0)) return cuda::std::numeric_limits<double>::quiet_NaN();
    double const m = squares - sum * (sum / static_cast<double>(count));
    return m > 0 ? m : m == m ? 0 : cuda::std::numeric_limits<double>::quiet_NaN();  // (rounding may leave a hair below 0)
  }
  // m2() / (count - ddof): the population variance by default, the sample variance with ddof 1.
  __host__ __device__ double variance(long long ddof = 0) const {
    if (static_cast<long long>(count) - ddof <= 0) return cuda::std::numeric_limits<double>::quiet_NaN();
    return m2() / static_cast<double>(static_cast<long long>(count) - ddof);
  }
  __host__ __device__ T min() const { return lo; }
  __host__ __device__ T max() const { return hi; }
};

// The merge of two groups' moments (associative up to rounding, commutative). The reduce kernels also
// give it items as read (deposit_all: a batch of a thread's items from one shift, no division an item).
struct merge_moments {
  template <class T>
  __host__ __device__ moments<T> operator()(moments<T> a, moments<T> const& b) const {
    if (b.count == 0) return a;
    if (a.count == 0) return b;
    a.lo = minimum{}(a.lo, b.lo);
    a.hi = maximum{}(a.hi, b.hi);
    double const d = b.shift - a.shift;
    if (b.count == 1 || !(a.sum - a.sum == 0 && b.sum - b.sum == 0)) {
      // one item (b.sum and b.squares are 0 unless it is not finite), or an infinite or NaN item on
      // either side (then only the sum's inf, -inf or NaN matters): b's sums moved to a's shift
      double const nb = static_cast<double>(b.count);
      a.count += b.count;
      a.squares += b.squares + d * (2 * b.sum + nb * d);
      a.sum += b.sum + nb * d;
      return a;
    }
    // Chan et al.: the means' difference times the counts, then the shift moved to the merged mean.
    double const na = static_cast<double>(a.count), nb = static_cast<double>(b.count), n = na + nb;
    double const ma = a.sum / na, mb = b.sum / nb;  // each mean, from its shift
    double const delta = d + (mb - ma);
    double const m2 = (a.squares - a.sum * ma) + (b.squares - b.sum * mb) + delta * delta * (na / n) * nb;
    double const off = ma + delta * (nb / n);  // the merged mean, from a's shift
    double const shift = a.shift + off;
    double const rest = (a.shift - shift) + off;  // what the rounded shift misses of the mean
    a.count += b.count;
    a.shift = shift;
    a.sum = rest * n;
    a.squares = m2 + a.sum * rest;
    return a;
  }

  // Items as read, a batch at a time: the first item of an empty state is its shift (0 if it is not
  // finite), then each item adds d = x - shift and d^2.
  template <class T, class X, int N>
    requires std::is_convertible_v<X, T>
  __device__ void deposit_all(moments<T>& acc, X const (&items)[N]) const {
    if (acc.count == 0) {
      double const first = detail::moments_double(static_cast<T>(items[0]));
      acc.shift = first - first == 0 ? first : 0;
    }
    double sum = 0, squares = 0;
#pragma unroll
    for (int k = 0; k < N; ++k) {
      T const v = static_cast<T>(items[k]);
      double const d = detail::moments_double(v) - acc.shift;
      sum += d;
      squares = fma(d, d, squares);
      acc.lo = minimum{}(acc.lo, v);
      acc.hi = maximum{}(acc.hi, v);
    }
    acc.count += N;
    acc.sum += sum;
    acc.squares += squares;
  }
  template <class T, class X>
    requires std::is_convertible_v<X, T>
  __device__ void deposit(moments<T>& acc, X const& x) const {
    X const one[1] = {x};
    deposit_all(acc, one);
  }
};

template <class T>
struct identity<merge_moments, moments<T>> {
  __host__ __device__ static constexpr moments<T> value() { return moments<T>{}; }
};

template <class Policy, class It>
  requires is_policy_v<Policy>
moments<detail::input_value_t<It>> reduce_moments(Policy const& policy, It first, It last) {
  using T = detail::input_value_t<It>;
  return reduce(policy, first, last, moments<T>{}, merge_moments{});
}

// The same moments written to *d_out (device memory, a moments<T>), ordered on the policy's stream.
template <class Policy, class It, class OutIt>
  requires is_policy_v<Policy>
void reduce_moments_into(Policy const& policy, It first, It last, OutIt d_out) {
  using T = detail::input_value_t<It>;
  reduce_into(policy, first, last, d_out, moments<T>{}, merge_moments{});
}

// Segment s's moments to d_out[s], as segmented_reduce takes its segments.
template <class Policy, class It, class BeginIt, class EndIt, class OutIt>
  requires is_segmented_call_policy_v<Policy>
void segmented_reduce_moments(Policy const& policy, It first, BeginIt begin_offsets, EndIt end_offsets,
                              cuda::std::int64_t num_segments, OutIt d_out) {
  using T = detail::input_value_t<It>;
  segmented_reduce(policy, first, begin_offsets, end_offsets, num_segments, d_out, moments<T>{}, merge_moments{});
}

// The moments of each kept index over the reduced axes, as reduce_axes_into reduces them.
template <class Policy, class In, class Out>
  requires(is_axes_policy_v<Policy> || std::is_same_v<Policy, default_policy>)
void reduce_axes_moments_into(Policy const& policy, In const& in, axes const& which, Out const& out) {
  using T = detail::input_value_t<decltype(view(in).data)>;
  reduce_axes_into(policy, in, which, out, moments<T>{}, merge_moments{});
}

}  // namespace cascade
