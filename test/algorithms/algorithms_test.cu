// argmin / argmax / minmax, transform_reduce, cross_check, custom functors and extended __device__
// lambdas, against CUB, Thrust and host references; every iterator kind the API promises; the
// vectorized and scalar load paths; sizes 0, 1 and beyond 2^32.
#include <doctest/doctest.h>

#include <cascade/cascade.cuh>
#include <cascade/cross_check.cuh>
#include <cuda/std/span>
#include <cub/device/device_reduce.cuh>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/reverse_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/transform_reduce.h>
#include <thrust/tuple.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

#include "support/noncommutative_ops.cuh"
#include "support/references.cuh"
#include "support/seed.hpp"

namespace {

using namespace cascade_test;

using policy_a = cascade::policy<128, 4, cascade::tree::shuffle, cascade::finish::last_block>;
using policy_b = cascade::policy<512, 2, cascade::tree::sequential, cascade::finish::cooperative>;

std::vector<long long> sizes(std::mt19937_64& rng) {
  std::vector<long long> s = {1, 2, 31, 32, 33, 1023, 1024, 1025, 65537, (1 << 20) + 1};
  s.push_back(std::uniform_int_distribution<long long>(2, 1 << 21)(rng));
  if (char const* cap = std::getenv("CASCADE_TEST_MAX_N")) {
    long long const max_n = std::atoll(cap);
    std::erase_if(s, [&](long long n) { return n > max_n; });
  }
  return s;
}

template <class T>
cascade::indexed<T> host_argmin(std::vector<T> const& xs) {
  cascade::indexed<T> best{0, xs[0]};
  for (std::size_t i = 1; i < xs.size(); ++i)
    if (xs[i] < best.value) best = {static_cast<std::int64_t>(i), xs[i]};
  return best;
}

template <class T>
cascade::indexed<T> host_argmax(std::vector<T> const& xs) {
  cascade::indexed<T> best{0, xs[0]};
  for (std::size_t i = 1; i < xs.size(); ++i)
    if (best.value < xs[i]) best = {static_cast<std::int64_t>(i), xs[i]};
  return best;
}

struct square {
  __host__ __device__ double operator()(float x) const { return static_cast<double>(x) * x; }
};

struct dot_term {
  __host__ __device__ long long operator()(thrust::tuple<int, int> const& t) const {
    return static_cast<long long>(thrust::get<0>(t)) * thrust::get<1>(t);
  }
};

struct pair_plus {
  __host__ __device__ thrust::tuple<long long, long long> operator()(thrust::tuple<long long, long long> const& a,
                                                                    thrust::tuple<long long, long long> const& b) const {
    return {thrust::get<0>(a) + thrust::get<0>(b), thrust::get<1>(a) + thrust::get<1>(b)};
  }
};

// i % 100, but -1 at `at`: one smallest item, where a test puts it.
struct dip_at {
  std::int64_t at;
  __host__ __device__ int operator()(std::int64_t i) const { return i == at ? -1 : static_cast<int>(i % 100); }
};

struct minus_op {  // neither associative nor commutative: cross_check must be able to say "no"
  __host__ __device__ long long operator()(long long a, long long b) const { return a - b; }
};

}  // namespace

TEST_SUITE("gpu") {

TEST_CASE_TEMPLATE("argmin, argmax and minmax: first occurrence, against CUB and the host", T, int, float, double,
                   std::uint8_t, std::int8_t, __half) {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ (0x8001 + sizeof(T)));
  for (long long n : sizes(rng)) {
    CAPTURE(n);
    std::vector<T> xs(n);
    for (auto& x : xs) x = static_cast<T>(rng() % 1000);  // many ties: the first occurrence must win
    thrust::device_vector<T> d(xs.begin(), xs.end());
    T const* p = thrust::raw_pointer_cast(d.data());
    auto const lo = host_argmin(xs), hi = host_argmax(xs);
    REQUIRE(cub_argmin(p, n, false) == lo);
    REQUIRE(cub_argmin(p, n, true) == hi);
    CHECK(cascade::argmin(cascade::default_policy{}, p, p + n) == lo);
    CHECK(cascade::argmax(cascade::default_policy{}, p, p + n) == hi);
    CHECK(cascade::argmin(policy_a{}, p, p + n) == lo);
    CHECK(cascade::argmax(policy_b{}, p, p + n) == hi);
    auto const both = cascade::minmax(policy_a{}, p, p + n);
    CHECK(both.min == lo);
    CHECK(both.max == hi);
    // The _into forms write the same results to device memory (poisoned first, so a write is seen).
    thrust::device_vector<cascade::indexed<T>> d_arg(2);
    thrust::device_vector<cascade::minmax_result<T>> d_both(1);
    cudaMemset(thrust::raw_pointer_cast(d_arg.data()), 0xA5, 2 * sizeof(cascade::indexed<T>));
    cudaMemset(thrust::raw_pointer_cast(d_both.data()), 0xA5, sizeof(cascade::minmax_result<T>));
    cascade::argmin_into(cascade::default_policy{}, p, p + n, d_arg.data());
    cascade::argmax_into(policy_b{}, p, p + n, thrust::raw_pointer_cast(d_arg.data()) + 1);
    cascade::minmax_into(cascade::default_policy{}, p, p + n, thrust::raw_pointer_cast(d_both.data()));
    CHECK(cascade::indexed<T>(d_arg[0]) == lo);
    CHECK(cascade::indexed<T>(d_arg[1]) == hi);
    CHECK(cascade::minmax_result<T>(d_both[0]) == cascade::minmax_result<T>{lo, hi});
  }
}

TEST_CASE("argmin over bytes: 16 at a time, the first occurrence when every vector holds a new extremum") {
  // Descending (ascending) runs: each 16-byte vector improves on the thread's minimum (maximum), so the
  // position inside the vector is looked up every time; values repeat, so the first must win.
  for (long long n : {16ll, 4096ll, 100000ll, (1ll << 20) + 7}) {
    CAPTURE(n);
    std::vector<std::int8_t> down(n), up(n);
    for (long long i = 0; i < n; ++i) {
      down[i] = static_cast<std::int8_t>(127 - (i / 3) % 256);
      up[i] = static_cast<std::int8_t>(-128 + (i / 3) % 256);
    }
    for (auto const* xs : {&down, &up}) {
      thrust::device_vector<std::int8_t> d(xs->begin(), xs->end());
      std::int8_t const* p = thrust::raw_pointer_cast(d.data());
      auto const lo = host_argmin(*xs), hi = host_argmax(*xs);
      CHECK(cascade::argmin(cascade::default_policy{}, p, p + n) == lo);
      CHECK(cascade::argmax(cascade::default_policy{}, p, p + n) == hi);
      auto const both = cascade::minmax(cascade::policy<256, 32, cascade::tree::shuffle, cascade::finish::last_block>{},
                                        p, p + n);
      CHECK(both.min == lo);
      CHECK(both.max == hi);
      std::vector<std::int8_t> const tail(xs->begin() + 1, xs->end());  // misaligned: the scalar path
      if (!tail.empty()) CHECK(cascade::argmin(policy_a{}, p + 1, p + n) == host_argmin(tail));
    }
  }
}

TEST_CASE("argmin_into, argmax_into, minmax_into: an empty range throws and writes nothing; a stream orders them") {
  thrust::device_vector<float> xs(4, 1.0f);
  xs[2] = -3.0f;
  float const* p = thrust::raw_pointer_cast(xs.data());
  thrust::device_vector<cascade::indexed<float>> out(1, cascade::indexed<float>{42, 7.0f});
  CHECK_THROWS_AS(cascade::argmin_into(cascade::default_policy{}, p, p, out.data()), std::invalid_argument);
  CHECK_THROWS_AS(cascade::argmax_into(cascade::default_policy{}, p + 1, p, out.data()), std::invalid_argument);
  thrust::device_vector<cascade::minmax_result<float>> both(1);
  CHECK_THROWS_AS(cascade::minmax_into(policy_a{}, p, p, both.data()), std::invalid_argument);
  CHECK(cascade::indexed<float>(out[0]) == cascade::indexed<float>{42, 7.0f});
  cudaStream_t s;
  REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
  cascade::argmin_into(cascade::default_policy{}.on(s), p, p + 4, out.data());
  REQUIRE(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(cascade::indexed<float>(out[0]) == cascade::indexed<float>{2, -3.0f});
  cudaStreamDestroy(s);
}

TEST_CASE("argmin of all +inf is index 0, argmax of all -inf is index 0; empty ranges throw") {
  float const inf = std::numeric_limits<float>::infinity();
  thrust::device_vector<float> pos(1000, inf), neg(1000, -inf);
  float const* pp = thrust::raw_pointer_cast(pos.data());
  float const* pn = thrust::raw_pointer_cast(neg.data());
  CHECK(cascade::argmin(cascade::default_policy{}, pp, pp + 1000) == cascade::indexed<float>{0, inf});
  CHECK(cascade::argmax(cascade::default_policy{}, pn, pn + 1000) == cascade::indexed<float>{0, -inf});
  CHECK(cascade::minmax(policy_a{}, pp, pp + 1000).max == cascade::indexed<float>{0, inf});
  CHECK_THROWS_AS(cascade::argmin(cascade::default_policy{}, pp, pp), std::invalid_argument);
  CHECK_THROWS_AS(cascade::argmax(cascade::default_policy{}, pp, pp), std::invalid_argument);
  CHECK_THROWS_AS(cascade::minmax(cascade::default_policy{}, pp, pp), std::invalid_argument);
  CHECK_THROWS_AS(cascade::argmin(cascade::default_policy{}, pp + 1, pp), std::invalid_argument);
  CHECK(cascade::argmin(cascade::default_policy{}, pp + 3, pp + 4) == cascade::indexed<float>{0, inf});  // n = 1
}

TEST_CASE("argmax over a counting iterator beyond 2^32 returns a 64-bit index") {
  std::uint64_t const n = (std::uint64_t(1) << 32) + 9;
  thrust::counting_iterator<std::uint64_t> count(0);
  auto const hi = cascade::argmax(cascade::default_policy{}, count, count + n);
  CHECK(hi.index == static_cast<std::int64_t>(n - 1));
  CHECK(hi.value == n - 1);
  auto const lo = cascade::argmin(policy_a{}, count + 5, count + n);
  CHECK(lo == cascade::indexed<std::uint64_t>{0, 5});
}

// The pairs carry an int32 index (arg_reduce.cuh), and from 2^31 - 1 items a call runs in chunks of
// 2^30: both sides of the switch, to the host and to device memory, with and without a comparator.
TEST_CASE("argmin/argmax/minmax from 2^31 - 1 items run in chunks: 2^31 - 2, 2^31 - 1, 2^31, 2^31 + 5 items") {
  thrust::device_vector<cascade::indexed<std::int64_t>> out(2);
  thrust::device_vector<cascade::minmax_result<std::int64_t>> both(1);
  thrust::device_vector<std::int64_t> positions(2);
  auto* d_out = thrust::raw_pointer_cast(out.data());
  auto* d_both = thrust::raw_pointer_cast(both.data());
  auto* d_positions = thrust::raw_pointer_cast(positions.data());
  for (std::int64_t n : {(std::int64_t(1) << 31) - 2, (std::int64_t(1) << 31) - 1, std::int64_t(1) << 31}) {
    CAPTURE(n);
    thrust::counting_iterator<std::int64_t> count(0);
    CHECK(cascade::argmax(cascade::default_policy{}, count, count + n) == cascade::indexed<std::int64_t>{n - 1, n - 1});
    CHECK(cascade::argmin(policy_a{}, count + 3, count + n) == cascade::indexed<std::int64_t>{0, 3});
    CHECK(cascade::argmax(cascade::default_policy{}, count, count + n, thrust::greater<std::int64_t>{}) ==
          cascade::indexed<std::int64_t>{0, 0});
    cascade::argmax_into(policy_a{}, count, count + n, d_out);
    cascade::argmin_into(cascade::default_policy{}, count + 1, count + n, d_out + 1, thrust::greater<std::int64_t>{});
    cascade::minmax_into(cascade::default_policy{}, count, count + n, d_both);
    cascade::max_element_into(cascade::default_policy{}, count, count + n, d_positions);
    cascade::min_element_into(policy_a{}, count + 2, count + n, d_positions + 1);
    CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
    cascade::indexed<std::int64_t> const hi = out[0], lo = out[1];
    cascade::minmax_result<std::int64_t> const lo_hi = both[0];
    CHECK(hi == cascade::indexed<std::int64_t>{n - 1, n - 1});
    CHECK(lo == cascade::indexed<std::int64_t>{n - 2, n - 1});
    CHECK(lo_hi == cascade::minmax_result<std::int64_t>{{0, 0}, {n - 1, n - 1}});
    CHECK(positions[0] == n - 1);
    CHECK(positions[1] == 0);
  }
  // 2^31 + 5 items run as three chunks (2^30 each, 5 left): ties resolved across them, the smallest
  // just past a chunk's start found at its place
  std::int64_t const n = (std::int64_t(1) << 31) + 5;
  thrust::constant_iterator<int> const same(7);
  CHECK(cascade::argmin(cascade::default_policy{}, same, same + n) == cascade::indexed<int>{0, 7});
  auto const [lo, hi] = cascade::minmax_element(cascade::default_policy{}, same, same + n, cascade::last_max);
  CHECK(lo - same == 0);
  CHECK(hi - same == n - 1);
  for (std::int64_t at : {std::int64_t(1) << 30, (std::int64_t(1) << 30) + 3, n - 1}) {
    CAPTURE(at);
    auto const dips = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), dip_at{at});
    CHECK(cascade::argmin(cascade::default_policy{}, dips, dips + n) == cascade::indexed<int>{at, -1});
    CHECK(cascade::minmax(policy_a{}, dips, dips + n) == cascade::minmax_result<int>{{at, -1}, {99, 99}});
  }
}

TEST_CASE("transform_reduce: sum of squares, dot product through a zip iterator, against Thrust") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x8002);
  for (long long n : sizes(rng)) {
    CAPTURE(n);
    std::vector<float> xs(n);
    std::vector<int> as(n), bs(n);
    for (auto& x : xs) x = static_cast<float>(static_cast<int>(rng() % 64) - 32);  // squares sum exactly in double
    long long dot = 0;
    for (long long i = 0; i < n; ++i) dot += static_cast<long long>(as[i] = static_cast<int>(rng() % 2001) - 1000) *
                                           (bs[i] = static_cast<int>(rng() % 2001) - 1000);
    double sum_squares = 0;
    for (float x : xs) sum_squares += static_cast<double>(x) * x;
    thrust::device_vector<float> d(xs.begin(), xs.end());
    float const* p = thrust::raw_pointer_cast(d.data());
    REQUIRE(thrust::transform_reduce(d.begin(), d.end(), square{}, 0.0, thrust::plus<double>{}) == sum_squares);
    CHECK(cascade::transform_reduce(cascade::default_policy{}, p, p + n, 0.0, cascade::plus{}, square{}) == sum_squares);
    CHECK(cascade::transform_reduce(policy_b{}, p, p + n, 0.0, cascade::plus{},
                                    [] __device__(float x) { return static_cast<double>(x) * x; }) == sum_squares);
    thrust::device_vector<int> da(as.begin(), as.end()), db(bs.begin(), bs.end());
    auto zip = thrust::make_zip_iterator(thrust::make_tuple(da.begin(), db.begin()));
    CHECK(cascade::transform_reduce(policy_a{}, zip, zip + n, 0ll, cascade::plus{}, dot_term{}) == dot);
    thrust::device_vector<double> d_ss(1, -1.0);
    cascade::transform_reduce_into(cascade::default_policy{}, p, p + n, d_ss.data(), 0.0, cascade::plus{}, square{});
    CHECK(double(d_ss[0]) == sum_squares);
  }
  thrust::device_vector<float> none;
  CHECK(cascade::transform_reduce(cascade::default_policy{}, none.begin(), none.end(), 7.0, cascade::plus{}, square{}) ==
        7.0);
  thrust::device_vector<double> d_init(1, -1.0);
  cascade::transform_reduce_into(policy_a{}, none.begin(), none.end(), d_init.data(), 7.0, cascade::plus{}, square{});
  CHECK(double(d_init[0]) == 7.0);
}

TEST_CASE("transform_reduce over a counting iterator beyond 2^32") {
  thrust::counting_iterator<std::int64_t> count(0);
  std::int64_t const big = (std::int64_t(1) << 32) + 3;
  CHECK(cascade::transform_reduce(cascade::default_policy{}, count, count + big, std::int64_t(0), cascade::plus{},
                                  [] __device__(std::int64_t i) { return i % 2; }) == big / 2);
}

TEST_CASE("extended __device__ lambdas and functors without an identity work as ops") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x8003);
  long long const n = 300007;
  std::vector<int> xs(n);
  for (auto& x : xs) x = static_cast<int>(rng() % 100000) - 50000;
  thrust::device_vector<int> d(xs.begin(), xs.end());
  int const* p = thrust::raw_pointer_cast(d.data());
  auto absmax = [] __device__(int a, int b) { return (a < 0 ? -a : a) < (b < 0 ? -b : b) ? b : a; };
  int expected = 0;
  for (int x : xs) expected = (expected < 0 ? -expected : expected) < (x < 0 ? -x : x) ? x : expected;
  int const got = cascade::reduce(policy_a{}, p, p + n, 0, absmax);
  CHECK(std::abs(got) == std::abs(expected));
  // Ties (x and -x) go to whichever operand the order puts first, and the order depends on the policy:
  // only |value| is the same.
  CHECK(std::abs(cascade::reduce(cascade::default_policy{}, p, p + n, 0, absmax)) == std::abs(got));
  auto const m = cascade::monoid([] __device__(int a, int b) { return a > b ? a : b; }, INT_MIN);
  CHECK(cascade::reduce(cascade::default_policy{}, p, p + n, m) == *std::max_element(xs.begin(), xs.end()));
  CHECK(cascade::reduce(cascade::default_policy{}, p, p, m) == INT_MIN);  // empty: the monoid's identity
}

TEST_CASE("cross_check: agreement for integers, floats within the bound, and disagreement it must report") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x8004);
  for (long long n : {0ll, 1ll, 1000ll, (1ll << 22) + 7}) {
    CAPTURE(n);
    std::vector<float> fs(n);
    std::vector<long long> is(n);
    std::uniform_real_distribution<float> reals(-1, 1);
    for (auto& x : fs) x = reals(rng);
    for (auto& x : is) x = static_cast<long long>(rng() % 2000001) - 1000000;
    thrust::device_vector<float> df(fs.begin(), fs.end());
    thrust::device_vector<long long> di(is.begin(), is.end());
    float const* pf = thrust::raw_pointer_cast(df.data());
    long long const* pi = thrust::raw_pointer_cast(di.data());

    auto const fsum = cascade::cross_check(policy_a{}, pf, pf + n, 0.0f, cascade::plus{});
    CHECK(fsum.agree);
    CHECK(fsum.cascade == cascade::reduce(policy_a{}, pf, pf + n, 0.0f));
    CHECK(fsum.cub == cub_reduce(pf, n, 0.0f, cascade::plus{}));
    if (n > 1) CHECK(fsum.tolerance > 0);
    if (n > 0) CHECK(fsum.tolerance < 1e-2 * n);  // |x| < 1 keeps sum |x| < n: the bound is a small fraction
    auto const fmin = cascade::cross_check(policy_b{}, pf, pf + n, 2.0f, cascade::minimum{});
    CHECK(fmin.agree);
    CHECK(fmin.tolerance == 0);
    auto const isum = cascade::cross_check(cascade::default_policy{}, pi, pi + n, 5ll, cascade::plus{});
    CHECK(isum.agree);
    CHECK(isum.tolerance == 0);
    CHECK(isum.cascade == isum.cub);
  }
  // a - b is neither associative nor commutative: cascade's and CUB's groupings give different answers.
  std::vector<long long> xs(1 << 20);
  for (auto& x : xs) x = static_cast<long long>(rng() % 1000) + 1;
  thrust::device_vector<long long> d(xs.begin(), xs.end());
  long long const* p = thrust::raw_pointer_cast(d.data());
  auto const bad = cascade::cross_check(policy_a{}, p, p + static_cast<long long>(xs.size()), 0ll, minus_op{});
  CHECK_FALSE(bad.agree);
  CHECK(bad.cascade != bad.cub);
}

TEST_CASE("iterator kinds: pointers, device_ptr, device_vector, counting, constant, transform, zip, reverse, span") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x8005);
  long long const n = 100003;
  std::vector<int> xs(n);
  long long sum = 0;
  for (auto& x : xs) sum += (x = static_cast<int>(rng() % 2001) - 1000);
  thrust::device_vector<int> d(xs.begin(), xs.end());
  int* raw = thrust::raw_pointer_cast(d.data());
  int const* craw = raw;
  using P = policy_a;
  CHECK(cascade::reduce(P{}, raw, raw + n, 0ll) == sum);
  CHECK(cascade::reduce(P{}, craw, craw + n, 0ll) == sum);
  thrust::device_ptr<int> dp(raw);
  CHECK(cascade::reduce(P{}, dp, dp + n, 0ll) == sum);
  CHECK(cascade::reduce(P{}, d.begin(), d.end(), 0ll) == sum);
  CHECK(cascade::reduce(P{}, d.cbegin(), d.cend(), 0ll) == sum);
  thrust::counting_iterator<long long> count(1);
  CHECK(cascade::reduce(P{}, count, count + n, 0ll) == n * (n + 1) / 2);
  thrust::constant_iterator<int> seven(7);
  CHECK(cascade::reduce(P{}, seven, seven + n, 1ll) == 7 * n + 1);
  auto doubled = thrust::make_transform_iterator(d.begin(), [] __host__ __device__(int x) { return 2 * x; });
  CHECK(cascade::reduce(P{}, doubled, doubled + n, 0ll) == 2 * sum);
  auto zip = thrust::make_zip_iterator(thrust::make_tuple(thrust::counting_iterator<long long>(0), d.begin()));
  auto const zipped = cascade::reduce(P{}, zip, zip + n, thrust::tuple<long long, long long>(0, 0), pair_plus{});
  CHECK(thrust::get<0>(zipped) == n * (n - 1) / 2);
  CHECK(thrust::get<1>(zipped) == sum);
  cuda::std::span<int const> s(craw, static_cast<std::size_t>(n));
  CHECK(cascade::reduce(P{}, s.data(), s.data() + s.size(), 0ll) == sum);
  CHECK(cascade::reduce(P{}, s.begin(), s.end(), 0ll) == sum);

  // A reverse iterator under a non-commutative op: the fold runs from the back.
  std::vector<mat2> ms(5003);
  for (auto& m : ms) m = mat2::random_invertible(rng);
  mat2 backward = mat2::unit();
  for (auto it = ms.rbegin(); it != ms.rend(); ++it) backward = mat2_product{}(backward, *it);
  thrust::device_vector<mat2> dm(ms.begin(), ms.end());
  CHECK(cascade::reduce(cascade::default_policy{}, dm.rbegin(), dm.rend(), mat2::unit(),
                        cascade::non_commutative(mat2_product{})) == backward);
}

TEST_CASE("vector loads: aligned and misaligned pointers of every width give the same exact sums") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x8006);
  auto check = [&](auto tag) {
    using T = decltype(tag);
    for (long long n : {1ll, 15ll, 16ll, 17ll, 4095ll, 65536ll, 1000003ll}) {
      CAPTURE(n);
      CAPTURE(sizeof(T));
      std::vector<T> xs(n + 3);
      for (auto& x : xs) x = static_cast<T>(rng() % 7);
      thrust::device_vector<T> d(xs.begin(), xs.end());
      T const* p = thrust::raw_pointer_cast(d.data());  // 256-byte aligned
      for (int shift = 0; shift < 3; ++shift) {  // p + 1, p + 2: not 16-byte aligned, the scalar path
        CAPTURE(shift);
        long long expected = 0;
        for (long long i = 0; i < n; ++i) expected += static_cast<long long>(xs[shift + i]);
        auto const q = p + shift;
        CHECK(cascade::reduce(cascade::default_policy{}, q, q + n, 0ll) == expected);
        CHECK(cascade::reduce(policy_a{}, q, q + n, 0ll) == expected);
        CHECK(cascade::reduce(cascade::policy<64, 32, cascade::tree::shuffle, cascade::finish::recursive>{}, q, q + n,
                              0ll) == expected);
        // The order-preserving layout reads contiguous runs, vectorized when aligned.
        auto const keep_sum = cascade::non_commutative(cascade::plus{});
        CHECK(cascade::reduce(cascade::default_policy{}, q, q + n, 0ll, keep_sum) == expected);
      }
    }
  };
  check(std::int8_t{});
  check(std::int16_t{});
  check(float{});
  check(double{});
}

}  // TEST_SUITE
