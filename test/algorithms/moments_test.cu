// cascade::moments: reduce_moments(_into), segmented_reduce_moments and reduce_axes_moments_into
// against a host fold in long double (count exact; mean and variance within a stated bound; min and
// max exact), under several policies, at sizes 0, 1, 2^k - 1, 2^k, 2^k + 1 and primes; the variance
// of float items with mean 1e6 and spread 1 (where E[x^2] - E[x]^2 loses every digit); and the edges
// (no items, infinities, NaN, signed zeros), the same under every policy. And cascade::fused: several
// ops over one read give what each op gives alone (bitwise for min, max and integer sums).
#include <doctest/doctest.h>

#include <cascade/cascade.cuh>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <cuda/std/tuple>

#include <algorithm>
#include <climits>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "support/seed.hpp"

namespace {

using namespace cascade_test;

struct expected {
  long double mean = 0, variance = 0;
  float lo = INFINITY, hi = -INFINITY;
};

template <class X>
expected host_moments(std::vector<X> const& h, std::size_t b, std::size_t e) {
  expected r;
  long double s = 0;
  for (std::size_t i = b; i < e; ++i) s += static_cast<long double>(h[i]);
  r.mean = s / static_cast<long double>(e - b);
  long double q = 0;
  for (std::size_t i = b; i < e; ++i) {
    long double const d = static_cast<long double>(h[i]) - r.mean;
    q += d * d;
    r.lo = std::min(r.lo, static_cast<float>(h[i]));
    r.hi = std::max(r.hi, static_cast<float>(h[i]));
  }
  r.variance = q / static_cast<long double>(e - b);
  return r;
}

template <class T>
void check_close(cascade::moments<T> const& got, expected const& want, std::size_t n, double scale,
                 std::string const& what) {
  INFO(what);
  CHECK(got.count == n);
  // double sums of n items: a few n u of the magnitudes
  double const bound = 8 * static_cast<double>(n + 1) * std::ldexp(1.0, -53) * scale;
  CHECK(std::fabs(got.mean() - static_cast<double>(want.mean)) <= bound);
  CHECK(std::fabs(got.variance() - static_cast<double>(want.variance)) <=
        bound * (static_cast<double>(want.variance) + scale) + 1e-300);
  CHECK(static_cast<float>(got.min()) == want.lo);
  CHECK(static_cast<float>(got.max()) == want.hi);
}

template <class F>
void for_each_policy(F f) {
  f(cascade::default_policy{}, "default_policy");
#ifdef CASCADE_MOMENTS_FEW  // a compile check (test/meson.build): the default alone
  return;
#endif
  f(cascade::policy<128, 8, cascade::tree::shuffle, cascade::finish::two_pass>{}, "<128, 8, shuffle, two_pass>");
  f(cascade::policy<256, 4, cascade::tree::shuffle, cascade::finish::last_block>{}, "<256, 4, shuffle, last_block>");
  f(cascade::policy<64, 1, cascade::tree::shuffle, cascade::finish::recursive>{}, "<64, 1, shuffle, recursive>");
}

template <class T>
std::uint64_t bits(T x) {
  std::uint64_t b = 0;
  std::memcpy(&b, &x, sizeof x);
  return b;
}

}  // namespace

TEST_SUITE("gpu") {

TEST_CASE("reduce_moments: count, mean, variance, min, max against a long double fold, every size") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x303E);
  std::uniform_real_distribution<float> u(-3.0f, 5.0f);
  for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{31}, std::size_t{32},
                        std::size_t{33}, std::size_t{1009}, std::size_t{4095}, std::size_t{4096}, std::size_t{4097},
                        std::size_t{65537}, std::size_t{1} << 20, (std::size_t{1} << 22) + 3}) {
    std::vector<float> h(n);
    for (auto& x : h) x = u(rng);
    thrust::device_vector<float> d(h.begin(), h.end());
    float const* p = thrust::raw_pointer_cast(d.data());
    expected const want = host_moments(h, 0, n);
    for_each_policy([&](auto policy, char const* name) {
      check_close(cascade::reduce_moments(policy, p, p + n), want, n, 5.0, std::string(name) + ", n " + std::to_string(n));
      thrust::device_vector<cascade::moments<float>> out(1);
      cascade::reduce_moments_into(policy, p, p + n, thrust::raw_pointer_cast(out.data()));
      check_close(static_cast<cascade::moments<float>>(out[0]), want, n, 5.0,
                  std::string(name) + ", _into, n " + std::to_string(n));
    });
  }
  // integers: the mean exact where the sum is
  std::vector<std::int32_t> hi(100003);
  for (auto& x : hi) x = static_cast<std::int32_t>(rng() % 2001) - 1000;
  thrust::device_vector<std::int32_t> di(hi.begin(), hi.end());
  auto const m = cascade::reduce_moments(cascade::default_policy{}, di.begin(), di.end());
  long long s = 0;
  for (auto x : hi) s += x;
  CHECK(m.count == hi.size());
  CHECK(m.mean() * static_cast<double>(hi.size()) == doctest::Approx(static_cast<double>(s)).epsilon(1e-12));
  CHECK(m.min() == *std::min_element(hi.begin(), hi.end()));
  CHECK(m.max() == *std::max_element(hi.begin(), hi.end()));
}

TEST_CASE("reduce_moments: float items with mean 1e6 and spread 1 keep the variance's digits") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x1E6);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::size_t const n = std::size_t{1} << 22;
  std::vector<float> h(n);
  for (auto& x : h) x = static_cast<float>(1e6 + u(rng));
  thrust::device_vector<float> d(h.begin(), h.end());
  float const* p = thrust::raw_pointer_cast(d.data());
  expected const want = host_moments(h, 0, n);  // of the float items as stored
  for_each_policy([&](auto policy, char const* name) {
    INFO(name);
    auto const m = cascade::reduce_moments(policy, p, p + n);
    double const rel = std::fabs(m.variance() - static_cast<double>(want.variance)) / static_cast<double>(want.variance);
    CHECK(rel <= 1e-5);
    CHECK(std::fabs(m.mean() - static_cast<double>(want.mean)) <= 1e-9 * 1e6);
  });
  // The naive formula over the same items, in float sums (as a float E[x^2] - E[x]^2 computes it):
  // nothing of the variance (about 1/3) is left.
  float const s = cascade::reduce(cascade::default_policy{}, p, p + n, 0.0f, cascade::plus{});
  float const q = cascade::transform_reduce(cascade::default_policy{}, p, p + n, 0.0f, cascade::plus{},
                                            [] __device__(float x) { return x * x; });
  float const naive = q / static_cast<float>(n) - (s / static_cast<float>(n)) * (s / static_cast<float>(n));
  CHECK(std::fabs(naive - static_cast<float>(want.variance)) / static_cast<float>(want.variance) > 0.5f);
}

TEST_CASE("reduce_moments: no items, infinities, NaN and signed zeros, the same under every policy") {
  using lim = std::numeric_limits<float>;
  struct edge {
    std::vector<float> items;
    double mean;  // NaN: a NaN
    bool variance_nan;
    float lo, hi;
  };
  float const inf = lim::infinity(), nan = lim::quiet_NaN();
  std::vector<edge> const edges = {
      {{}, nan, true, inf, -inf},
      {{1.0f, inf, 2.0f}, inf, true, 1.0f, inf},
      {{inf, 1.0f, 2.0f, 3.0f, 4.0f}, inf, true, 1.0f, inf},
      {{1.0f, -inf, inf, 2.0f}, nan, true, -inf, inf},
      {{1.0f, 2.0f, nan, 3.0f}, nan, true, nan, nan},
      {{0.0f, -0.0f, 0.0f}, 0.0, false, -0.0f, 0.0f},
      {{-0.0f, -0.0f}, 0.0, false, -0.0f, -0.0f},
      {{7.0f}, 7.0, false, 7.0f, 7.0f},
  };
  for (auto const& e : edges) {
    std::vector<float> h = e.items;
    for (int k = 0; k < 3 && !h.empty(); ++k) h.insert(h.end(), e.items.begin(), e.items.end());  // every policy's paths
    thrust::device_vector<float> d(h.begin(), h.end());
    float const* p = thrust::raw_pointer_cast(d.data());
    for_each_policy([&](auto policy, char const* name) {
      INFO(name, ", ", h.size(), " items");
      auto const m = cascade::reduce_moments(policy, p, p + h.size());
      CHECK(m.count == h.size());
      if (std::isnan(e.mean)) CHECK(std::isnan(m.mean()));
      else CHECK(m.mean() == e.mean);
      CHECK(std::isnan(m.variance()) == e.variance_nan);
      if (std::isnan(e.lo)) {
        CHECK(bits(m.min()) == bits(cascade::detail::canonical_nan<float>()));
        CHECK(bits(m.max()) == bits(cascade::detail::canonical_nan<float>()));
      } else {
        CHECK(bits(m.min()) == bits(e.lo));
        CHECK(bits(m.max()) == bits(e.hi));
      }
    });
  }
}

TEST_CASE("segmented_reduce_moments and reduce_axes_moments_into: a moments a segment, a column, dims (0, 2)") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x5E9);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  // segments of 0..2000 items
  std::vector<int> offsets{0};
  while (offsets.size() < 500) offsets.push_back(offsets.back() + static_cast<int>(rng() % 2001));
  std::vector<float> h(offsets.back());
  for (auto& x : h) x = u(rng);
  thrust::device_vector<float> d(h.begin(), h.end());
  thrust::device_vector<int> off(offsets.begin(), offsets.end());
  long long const segments = static_cast<long long>(offsets.size()) - 1;
  thrust::device_vector<cascade::moments<float>> out(segments);
  int const* o = thrust::raw_pointer_cast(off.data());
  cascade::segmented_reduce_moments(cascade::default_policy{}, thrust::raw_pointer_cast(d.data()), o, o + 1, segments,
                                    thrust::raw_pointer_cast(out.data()));
  thrust::host_vector<cascade::moments<float>> got = out;
  for (long long s = 0; s < segments; ++s) {
    std::size_t const b = offsets[s], e = offsets[s + 1];
    if (b == e) {
      CHECK(got[s].count == 0);
      continue;
    }
    check_close(got[s], host_moments(h, b, e), e - b, 1.0, "segment " + std::to_string(s));
  }
  // columns of row-major matrices (a thread an output, 4 a thread where 16-byte aligned) and dims (0, 2)
  for (auto [rows, cols] : {std::pair{1000ll, 37ll}, std::pair{4096ll, 256ll}, std::pair{3ll, 1000ll}}) {
    std::vector<float> m(rows * cols);
    for (auto& x : m) x = u(rng);
    thrust::device_vector<float> dm(m.begin(), m.end());
    thrust::device_vector<cascade::moments<float>> cm(cols);
    cascade::reduce_axes_moments_into(cascade::default_policy{}, cascade::view(thrust::raw_pointer_cast(dm.data()), {rows, cols}),
                                      cascade::axes{0}, cascade::view(thrust::raw_pointer_cast(cm.data()), {cols}));
    thrust::host_vector<cascade::moments<float>> g = cm;
    for (long long c = 0; c < cols; ++c) {
      std::vector<float> col(rows);
      for (long long r = 0; r < rows; ++r) col[r] = m[r * cols + c];
      check_close(g[c], host_moments(col, 0, rows), rows, 1.0,
                  "column " + std::to_string(c) + " of " + std::to_string(rows) + " x " + std::to_string(cols));
    }
  }
  long long const a = 5, b = 7, c = 300;
  std::vector<float> t(a * b * c);
  for (auto& x : t) x = u(rng);
  thrust::device_vector<float> dt(t.begin(), t.end());
  thrust::device_vector<cascade::moments<float>> ct(b);
  cascade::reduce_axes_moments_into(cascade::policy<128, 2, cascade::tree::shuffle, cascade::axis::blocks>{},
                                    cascade::view(thrust::raw_pointer_cast(dt.data()), {a, b, c}), cascade::axes{0, 2},
                                    cascade::view(thrust::raw_pointer_cast(ct.data()), {b}));
  thrust::host_vector<cascade::moments<float>> gt = ct;
  for (long long j = 0; j < b; ++j) {
    std::vector<float> items;
    for (long long i = 0; i < a; ++i)
      for (long long k = 0; k < c; ++k) items.push_back(t[(i * b + j) * c + k]);
    check_close(gt[j], host_moments(items, 0, items.size()), items.size(), 1.0, "dims (0, 2), output " + std::to_string(j));
  }
}

TEST_CASE("reduce_fused: several ops over one read give what each gives alone, NaN rules included") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0xF05E);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (std::size_t n : {std::size_t{1}, std::size_t{1000}, std::size_t{1} << 20}) {
    for (bool with_nan : {false, true}) {
      std::vector<float> h(n);
      for (auto& x : h) x = u(rng);
      if (with_nan) h[rng() % n] = std::numeric_limits<float>::quiet_NaN();
      thrust::device_vector<float> d(h.begin(), h.end());
      float const* p = thrust::raw_pointer_cast(d.data());
      for_each_policy([&](auto policy, char const* name) {
        INFO(name, ", n ", n, with_nan ? ", a NaN" : "");
        auto const [sum, lo, hi_number] = cascade::reduce_fused(policy, p, p + n, cascade::plus{}, cascade::minimum{},
                                                                cascade::maximum_number{});
        float const lo1 = cascade::reduce(policy, p, p + n, cascade::minimum{});
        float const hi1 = cascade::reduce(policy, p, p + n, cascade::maximum_number{});
        CHECK(bits(lo) == bits(lo1));
        CHECK(bits(hi_number) == bits(hi1));
        if (with_nan) {
          CHECK(std::isnan(sum));
        } else {
          long double s = 0, m = 0;
          for (float x : h) s += x, m += std::fabs(x);
          CHECK(std::fabs(static_cast<long double>(sum) - s) <= static_cast<long double>(n + 1) * std::ldexp(1.0, -24) * m);
        }
      });
    }
  }
  // integers, exact; and along an axis: column sums and maxima of a row-major matrix in one read
  long long const rows = 1000, cols = 37;
  std::vector<std::int32_t> h(rows * cols);
  for (auto& x : h) x = static_cast<std::int32_t>(rng() % 2001) - 1000;
  thrust::device_vector<std::int32_t> d(h.begin(), h.end());
  std::int32_t const* p = thrust::raw_pointer_cast(d.data());
  auto const [s, x, b] = cascade::reduce_fused(cascade::default_policy{}, p, p + h.size(), cascade::plus{},
                                               cascade::maximum{}, cascade::bit_xor{});
  std::int32_t s1 = 0, x1 = INT32_MIN, b1 = 0;
  for (auto v : h) s1 += v, x1 = std::max(x1, v), b1 ^= v;
  CHECK(s == s1);
  CHECK(x == x1);
  CHECK(b == b1);
  using pair = cuda::std::tuple<std::int32_t, std::int32_t>;
  thrust::device_vector<pair> out(cols);
  cascade::transform_reduce_axes_into(cascade::default_policy{}, cascade::view(p, {rows, cols}), cascade::axes{0},
                                      cascade::view(thrust::raw_pointer_cast(out.data()), {cols}), pair{5, INT32_MIN},
                                      cascade::fused(cascade::plus{}, cascade::maximum{}), cascade::fan_out<2>{});
  thrust::host_vector<pair> const got = out;
  for (long long c = 0; c < cols; ++c) {
    std::int32_t cs = 5, cm = INT32_MIN;
    for (long long r = 0; r < rows; ++r) cs += h[r * cols + c], cm = std::max(cm, h[r * cols + c]);
    CHECK(cuda::std::get<0>(got[c]) == cs);
    CHECK(cuda::std::get<1>(got[c]) == cm);
  }
}

}  // TEST_SUITE
