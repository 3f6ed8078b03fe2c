// exact_plus and reproducible_plus on the device: the correctly rounded sum (against
// support/exact_reference.cpp, exact by construction) on adversarial inputs, the same bits under every
// tree, every finish, several shapes, default_policy, finish::atomic run after run and shuffled input,
// IEEE's special values, 2^32+ items with closed-form sums, half and bfloat16 items, transform_reduce,
// the two-phase and memory-resource forms, cross_check, and CUB's sum beside it; reproducible_plus
// likewise against what its docs promise, computed directly (support/binned_reference.hpp), and within
// its bound of the exact sum. Built in five parts (CASCADE_EXACT_PART 0: exact_plus of floats under
// every policy, 1: of doubles, 3 and 4: reproducible_plus of floats and of doubles, 2: the rest),
// which compile in parallel.
#include <doctest/doctest.h>

#include <cascade/cascade.cuh>
#include <cascade/tree/cub_block.cuh>
#include <cascade/cross_check.cuh>
#include <cub/device/device_reduce.cuh>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <thrust/device_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "support/binned_reference.hpp"
#include "support/exact_reference.hpp"
#include "support/seed.hpp"

namespace {

using namespace cascade_test;

template <class T>
bool same_bits(T a, T b) {
  if (std::isnan(a) && std::isnan(b)) return true;
  return std::memcmp(&a, &b, sizeof a) == 0;
}

template <class T>
std::vector<double> as_doubles(std::vector<T> const& xs) {
  return std::vector<double>(xs.begin(), xs.end());
}

// The inputs: name and items (as T).
template <class T>
std::vector<std::pair<std::string, std::vector<T>>> inputs(std::mt19937_64& rng) {
  std::vector<std::pair<std::string, std::vector<T>>> out;
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (long long n : {1ll, 2ll, 1023ll, 1024ll, 1025ll, 65537ll, 999983ll, (1ll << 20) + 3}) {
    std::vector<T> xs(n);
    for (auto& x : xs) x = static_cast<T>(normal(rng) * 1000);
    out.push_back({"normal n=" + std::to_string(n), xs});
  }
  {  // huge cancellation: 1e30, 1, -1e30 patterns (float: 1e30 holds), interleaved with noise
    std::vector<T> xs;
    for (int i = 0; i < 100000; ++i) {
      xs.push_back(T(1e30));
      xs.push_back(T(1));
      xs.push_back(T(-1e30));
      xs.push_back(static_cast<T>(unit(rng) * 1e-20));
    }
    std::shuffle(xs.begin(), xs.end(), rng);
    out.push_back({"cancellation 1e30, 1, -1e30", xs});
  }
  {  // every exponent: random sign, exponent uniform over T's whole range, denormals included
    int const lo = std::numeric_limits<T>::min_exponent - std::numeric_limits<T>::digits - 1;
    int const hi = std::numeric_limits<T>::max_exponent - 1;
    std::uniform_int_distribution<int> e(lo, hi);
    std::vector<T> xs(300000);
    for (auto& x : xs) {
      T const v = static_cast<T>(std::ldexp(1.0 + unit(rng), e(rng)));
      x = rng() & 1 ? -v : v;
      if (std::isinf(x)) x = 0;
    }
    out.push_back({"whole exponent range", xs});
  }
  {  // denormals only
    std::vector<T> xs(200001);
    T const tiny = std::numeric_limits<T>::denorm_min();
    std::uniform_int_distribution<int> k(-1000000, 1000000);
    for (auto& x : xs) x = static_cast<T>(k(rng)) * tiny;
    out.push_back({"denormals", xs});
  }
  {  // all equal: 0.1 many times (every plain sum rounds)
    out.push_back({"all equal 0.1", std::vector<T>(3000017, T(0.1))});
  }
  {  // the largest values: no intermediate overflow in an exact sum
    T const m = std::numeric_limits<T>::max();
    std::vector<T> xs = {m, m, -m, T(1)};
    out.push_back({"max, max, -max, 1", xs});
  }
  return out;
}

template <class P>
std::string name_of(P) {
  std::ostringstream o;
  if constexpr (requires { P::block_size; })
    o << "<" << P::block_size << ", " << P::coarse_factor << ", " << P::tree_type::name << ", " << P::finish_type::name
      << ">";
  else
    o << "default_policy";
  return o.str();
}

using flagged_256_16 = cascade::policy<256, 16, cascade::tree::shuffle, cascade::finish::flagged>;

template <class T, class Policy, class Op>
T run(Policy p, thrust::device_vector<T> const& d, Op op) {
  T const* ptr = thrust::raw_pointer_cast(d.data());
  return cascade::reduce(p, ptr, ptr + d.size(), T(0), op);
}

// f(policy) for every tree (with finish::flagged), every finish but host (with tree::shuffle) and a
// few shapes.
template <class F>
void for_each_exact_policy(F&& f) {
  using namespace cascade;
  f(policy<256, 8, tree::interleaved, finish::flagged>{});
  f(policy<256, 8, tree::interleaved_strided, finish::flagged>{});
  f(policy<256, 8, tree::sequential, finish::flagged>{});
  f(policy<256, 8, tree::unrolled, finish::flagged>{});
  f(policy<256, 8, tree::unrolled_warp, finish::flagged>{});
  f(policy<256, 8, tree::shuffle, finish::flagged>{});
  f(policy<256, 8, tree::redux, finish::flagged>{});
  f(policy<256, 8, tree::cub_block, finish::flagged>{});
  f(policy<256, 8, tree::none, finish::atomic>{});
  f(policy<256, 8, tree::shuffle, finish::atomic>{});
  f(policy<256, 8, tree::shuffle, finish::last_block>{});
  f(policy<256, 8, tree::shuffle, finish::two_pass>{});
  f(policy<256, 8, tree::shuffle, finish::recursive>{});
  f(policy<256, 8, tree::shuffle, finish::cooperative>{});
  f(policy<256, 8, tree::shuffle, finish::cluster>{});
  f(policy<32, 1, tree::shuffle, finish::flagged>{});
  f(policy<1024, 2, tree::shuffle, finish::flagged>{});
  f(policy<512, 32, tree::shuffle, finish::flagged>{});
  f(default_policy{});
}

// What Op promises for xs + init: the exact sum rounded once (exact_plus), or the binned sum
// (reproducible_plus, with the levels cascade documents for T's items).
template <class R, class Op, class T>
R reference_of(std::vector<T> const& xs, double init) {
  if constexpr (std::is_same_v<Op, cascade::reproducible_plus>)
    return reproducible_sum<R, T>(as_doubles(xs), init);
  else
    return exact_sum<R>(as_doubles(xs), init);
}

template <class T, class Op>
void check_against_reference() {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ (0xE7AC7 + sizeof(T)));
  for (auto const& [name, xs] : inputs<T>(rng)) {
    INFO(name, ", ", sizeof(T) == 4 ? "float" : "double");
    thrust::device_vector<T> d(xs.begin(), xs.end());
    T const expected = reference_of<T, Op>(xs, 0.0);
    CHECK(same_bits(run(cascade::default_policy{}, d, Op{}), expected));
    for_each_exact_policy([&](auto p) {
      INFO(name_of(p));
      CHECK(same_bits(run(p, d, Op{}), expected));
    });
    // Another order: the same bits.
    std::vector<T> shuffled = xs;
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    thrust::device_vector<T> ds(shuffled.begin(), shuffled.end());
    CHECK(same_bits(run(flagged_256_16{}, ds, Op{}), expected));
    if constexpr (std::is_same_v<Op, cascade::reproducible_plus>) {
      // Within the documented bound of the exact sum: half an ulp + n * max|x| * 2^-43 (2^-63 doubles).
      T const exact = exact_sum<T>(as_doubles(xs), 0.0);
      double max_abs = 0;
      for (T x : xs) max_abs = std::max(max_abs, std::fabs(double(x)));
      if (std::isfinite(exact) && std::isfinite(expected)) {
        double const ulp = std::nextafter(std::fabs(exact), T(INFINITY)) - std::fabs(exact);
        int const dropped_below = sizeof(T) > 4 ? 63 : 43;  // 3 levels of 32 or of 22 bits
        double const bound = ulp + double(xs.size()) * max_abs * std::ldexp(1.0, -dropped_below);
        CHECK(std::fabs(double(expected) - double(exact)) <= bound);
      }
    }
  }
}

}  // namespace

TEST_SUITE("gpu") {

#if CASCADE_EXACT_PART == 0
TEST_CASE("exact_plus: float, the correctly rounded sum under every policy") {
  check_against_reference<float, cascade::exact_plus>();
}
#elif CASCADE_EXACT_PART == 1
TEST_CASE("exact_plus: double, the correctly rounded sum under every policy") {
  check_against_reference<double, cascade::exact_plus>();
}
#elif CASCADE_EXACT_PART == 3
TEST_CASE("reproducible_plus: float, the documented binned sum under every policy") {
  check_against_reference<float, cascade::reproducible_plus>();
}
#elif CASCADE_EXACT_PART == 4
TEST_CASE("reproducible_plus: double, the documented binned sum under every policy") {
  check_against_reference<double, cascade::reproducible_plus>();
}
#else

TEST_CASE("exact_plus and reproducible_plus: finish::atomic gives the same bits run after run") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0xA70);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> xs(1 << 24);
  for (auto& x : xs) x = normal(rng);
  thrust::device_vector<float> d(xs.begin(), xs.end());
  using atomic = cascade::policy<256, 16, cascade::tree::shuffle, cascade::finish::atomic>;
  float const expected = exact_sum<float>(as_doubles(xs), 0.0);
  for (int run_index = 0; run_index < 20; ++run_index) CHECK(same_bits(run(atomic{}, d, cascade::exact_plus{}), expected));
  float const binned = reproducible_sum<float, float>(as_doubles(xs), 0.0);
  for (int run_index = 0; run_index < 20; ++run_index)
    CHECK(same_bits(run(atomic{}, d, cascade::reproducible_plus{}), binned));
  // Doubles spread over many bins: blocks of different windows, whose lower levels the bins drop.
  std::vector<double> ws(1 << 22);
  for (std::size_t i = 0; i < ws.size(); ++i) ws[i] = std::ldexp(double(normal(rng)), int(i >> 16));
  thrust::device_vector<double> dw(ws.begin(), ws.end());
  double const wide = reproducible_sum<double, double>(ws, 0.0);
  for (int run_index = 0; run_index < 10; ++run_index)
    CHECK(same_bits(run(atomic{}, dw, cascade::reproducible_plus{}), wide));
  CHECK(same_bits(run(flagged_256_16{}, dw, cascade::reproducible_plus{}), wide));
  // The plain float sum under the same policy differs from the exact one on this input (the test
  // could fail), and CUB's sum is within its usual bound of it.
  float const* p = thrust::raw_pointer_cast(d.data());
  thrust::device_vector<float> out(1);
  std::size_t bytes = 0;
  cub::DeviceReduce::Sum(nullptr, bytes, p, thrust::raw_pointer_cast(out.data()), d.size());
  thrust::device_vector<unsigned char> temp(bytes);
  cub::DeviceReduce::Sum(thrust::raw_pointer_cast(temp.data()), bytes, p, thrust::raw_pointer_cast(out.data()),
                         d.size());
  float const cub_sum = out[0];
  MESSAGE("2^24 normal floats: exact ", expected, ", CUB ", cub_sum, ", difference ",
          double(cub_sum) - double(expected));
  CHECK(std::fabs(double(cub_sum) - double(expected)) <= 1e-3 * double(xs.size()) * 1e-4 + 1e-2);
}

TEST_CASE("reproducible_plus: IEEE special values, overflow, init, what the window drops") {
  auto sum = [](std::vector<double> xs, double init = 0.0) {
    thrust::device_vector<double> d(xs.begin(), xs.end());
    double const* p = thrust::raw_pointer_cast(d.data());
    double const r = cascade::reduce(flagged_256_16{}, p, p + xs.size(), init, cascade::reproducible_plus{});
    CHECK(same_bits(r, reproducible_sum<double, double>(xs, init)));
    return r;
  };
  double const inf = INFINITY, big = DBL_MAX;
  CHECK(sum({1.0, inf, 2.0}) == inf);
  CHECK(sum({1.0, -inf}) == -inf);
  CHECK(std::isnan(sum({inf, 1.0, -inf})));
  CHECK(std::isnan(sum({1.0, NAN, 2.0})));
  CHECK(std::isnan(sum({1.0}, NAN)));
  CHECK(sum({big, big}) == inf);
  CHECK(sum({big, big, -big}) == big);  // no intermediate overflow
  CHECK(sum({0x1p-1074, 0x1p-1074, 0x1p-1074}) == 0x1.8p-1073);  // denormals exact
  CHECK(sum({1e300, 1.0, -1e300}) == 0.0);  // 1.0 is below the window's lowest level
  CHECK(sum({1e10, 1.0, -1e10}) == 1.0);
  CHECK(sum({}, 2.5) == 2.5);
  std::vector<float> fs = {1e30f, 1.0f, -1e30f, 0.5f};
  thrust::device_vector<float> df(fs.begin(), fs.end());
  float const* pf = thrust::raw_pointer_cast(df.data());
  CHECK(cascade::reduce(pf, pf + 4, 0.0f, cascade::reproducible_plus{}) == 0.0f);  // exact_plus: 1.5
  CHECK(cascade::reduce(pf, pf + 4, 0.0f, cascade::exact_plus{}) == 1.5f);
}

TEST_CASE("exact_plus: IEEE special values, overflow, init") {
  auto sum = [](std::vector<double> xs, double init = 0.0) {
    thrust::device_vector<double> d(xs.begin(), xs.end());
    double const* p = thrust::raw_pointer_cast(d.data());
    return cascade::reduce(flagged_256_16{}, p, p + xs.size(), init, cascade::exact_plus{});
  };
  double const inf = INFINITY, big = DBL_MAX;
  CHECK(sum({1.0, inf, 2.0}) == inf);
  CHECK(sum({1.0, -inf}) == -inf);
  CHECK(std::isnan(sum({inf, 1.0, -inf})));
  CHECK(std::isnan(sum({1.0, NAN, 2.0})));
  CHECK(std::isnan(sum({1.0}, NAN)));
  CHECK(sum({big, big}) == inf);
  CHECK(sum({-big, -big}) == -inf);
  CHECK(sum({big, big, -big}) == big);  // no intermediate overflow
  CHECK(sum({0x1p-1074, 0x1p-1074, 0x1p-1074}) == 0x1.8p-1073);  // denormals exact
  CHECK(sum({1e300, 1.0, -1e300}) == 1.0);
  CHECK(sum({}, 2.5) == 2.5);  // an empty range gives init
  CHECK(sum({1.0, 2.0}, 0.25) == 3.25);
  std::vector<float> fs = {FLT_MAX, FLT_MAX, -FLT_MAX};
  thrust::device_vector<float> df(fs.begin(), fs.end());
  float const* pf = thrust::raw_pointer_cast(df.data());
  CHECK(cascade::reduce(pf, pf + 2, 0.0f, cascade::exact_plus{}) == INFINITY);  // rounds past FLT_MAX
  CHECK(cascade::reduce(pf, pf + 3, 0.0f, cascade::exact_plus{}) == FLT_MAX);
  CHECK(cascade::reduce(pf, pf + 3, 0.0, cascade::exact_plus{}) == double(FLT_MAX));  // into double
  // Ties round to even: 2^24 + 1 is halfway between two floats.
  std::vector<float> tie = {16777216.0f, 0.5f, 0.5f};
  thrust::device_vector<float> dt(tie.begin(), tie.end());
  float const* pt = thrust::raw_pointer_cast(dt.data());
  CHECK(cascade::reduce(pt, pt + 3, 0.0f, cascade::exact_plus{}) == 16777216.0f);
  CHECK(cascade::reduce(pt, pt + 3, 1.0f, cascade::exact_plus{}) == 16777218.0f);
}

struct tenth {  // item i: 0.1f, as a float
  __host__ __device__ float operator()(long long) const { return 0.1f; }
};
struct ramp {  // item i: (i mod 4096) / 1024 - 2
  __host__ __device__ double operator()(long long i) const { return double(i % 4096) / 1024.0 - 2.0; }
};

TEST_CASE("exact_plus and reproducible_plus: beyond 2^32 items, closed-form sums") {
  long long const n = (1ll << 32) + 12345;
  auto tenths = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), tenth{});
  // 0.1f = 13421773 * 2^-27 exactly; n of them: n * 13421773 * 2^-27, rounded once.
  double const exact = std::ldexp(double(n) * 13421773.0, -27);  // n * 13421773 < 2^53: exact
  CHECK(cascade::reduce(tenths, tenths + n, 0.0, cascade::exact_plus{}) == exact);
  CHECK(cascade::reduce(tenths, tenths + n, 0.0f, cascade::exact_plus{}) == static_cast<float>(exact));
  auto ramps = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), ramp{});
  // Whole periods sum to sum_{k<4096} (k/1024 - 2) = -2 (4095*4096/2/1024 = 8190 - 8192); then the rest.
  long long const periods = n / 4096, rest = n % 4096;
  double tail = 0;
  for (long long k = 0; k < rest; ++k) tail += double(k) / 1024.0 - 2.0;  // exact: small multiples of 2^-10
  double const expected = double(periods) * -2.0 + tail;
  CHECK(cascade::reduce(ramps, ramps + n, 0.0, cascade::exact_plus{}) == expected);
  // reproducible_plus keeps every bit of these items (within 2^-31 of the largest): the same sums.
  CHECK(cascade::reduce(tenths, tenths + n, 0.0, cascade::reproducible_plus{}) == exact);
  CHECK(cascade::reduce(ramps, ramps + n, 0.0, cascade::reproducible_plus{}) == expected);
}

TEST_CASE("exact_plus and reproducible_plus: half and bfloat16 items, transform_reduce, the two-phase and resource forms") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x4A1F);
  std::normal_distribution<float> normal(0.0f, 10.0f);
  long long const n = 1000003;
  std::vector<__half> hs(n);
  std::vector<__nv_bfloat16> bs(n);
  std::vector<double> hd(n), bd(n);
  std::vector<float> a(n), b(n);
  std::vector<double> products(n);
  for (long long i = 0; i < n; ++i) {
    hs[i] = __float2half(normal(rng));
    bs[i] = __float2bfloat16(normal(rng) * 1e20f);
    hd[i] = __half2float(hs[i]);
    bd[i] = __bfloat162float(bs[i]);
    a[i] = normal(rng);
    b[i] = normal(rng);
    products[i] = double(a[i]) * double(b[i]);  // exact in double
  }
  thrust::device_vector<__half> dh(hs.begin(), hs.end());
  thrust::device_vector<__nv_bfloat16> db(bs.begin(), bs.end());
  __half const* ph = thrust::raw_pointer_cast(dh.data());
  __nv_bfloat16 const* pb = thrust::raw_pointer_cast(db.data());
  CHECK(same_bits(cascade::reduce(ph, ph + n, 0.0f, cascade::exact_plus{}), exact_sum<float>(hd, 0.0)));
  CHECK(same_bits(cascade::reduce(pb, pb + n, 0.0f, cascade::exact_plus{}), exact_sum<float>(bd, 0.0)));
  CHECK(same_bits(cascade::reduce(pb, pb + n, 0.0, cascade::exact_plus{}), exact_sum<double>(bd, 0.0)));
  CHECK(same_bits(cascade::reduce(ph, ph + n, 0.0f, cascade::reproducible_plus{}), reproducible_sum<float, __half>(hd, 0.0)));
  CHECK(same_bits(cascade::reduce(pb, pb + n, 0.0, cascade::reproducible_plus{}),
                  reproducible_sum<double, __nv_bfloat16>(bd, 0.0)));

  // A dot product of floats, exact: the products formed in double (exact), summed exactly, rounded once.
  thrust::device_vector<float> da(a.begin(), a.end()), dbv(b.begin(), b.end());
  float const* pa = thrust::raw_pointer_cast(da.data());
  float const* pbv = thrust::raw_pointer_cast(dbv.data());
  auto index = thrust::counting_iterator<long long>(0);
  auto product = [pa, pbv] __device__(long long i) { return double(pa[i]) * double(pbv[i]); };
  float const dot = cascade::transform_reduce(cascade::default_policy{}, index, index + n, 0.0f,
                                              cascade::exact_plus{}, product);
  CHECK(same_bits(dot, exact_sum<float>(products, 0.0)));
  double const rdot = cascade::transform_reduce(cascade::default_policy{}, index, index + n, 0.0,
                                                cascade::reproducible_plus{}, product);
  CHECK(same_bits(rdot, reproducible_sum<double, double>(products, 0.0)));  // the products are doubles

  // reduce_into: CUB's two phases, and a memory resource; the same bits.
  float const expected = exact_sum<float>(as_doubles(a), 0.0);
  thrust::device_vector<float> out(1);
  float* d_out = thrust::raw_pointer_cast(out.data());
  std::size_t bytes = 0;
  cascade::reduce_into(nullptr, bytes, flagged_256_16{}, pa, pa + n, d_out, 0.0f, cascade::exact_plus{});
  REQUIRE(bytes > cascade::detail::exact::spill_bytes);
  thrust::device_vector<unsigned char> temp(bytes);
  cascade::reduce_into(thrust::raw_pointer_cast(temp.data()), bytes, flagged_256_16{}, pa, pa + n, d_out, 0.0f,
                       cascade::exact_plus{});
  CHECK(same_bits(float(out[0]), expected));
  cudaMemPool_t pool;
  REQUIRE(cudaDeviceGetDefaultMemPool(&pool, 0) == cudaSuccess);
  cascade::reduce_into(flagged_256_16{}, pa, pa + n, d_out, 0.0f, cascade::exact_plus{},
                       cascade::memory_pool_resource{pool});
  CHECK(same_bits(float(out[0]), expected));
  cascade::reduce_into(nullptr, bytes, flagged_256_16{}, pa, pa + n, d_out, 0.0f, cascade::reproducible_plus{});
  REQUIRE(bytes > sizeof(cascade::detail::binned::atomic_area));
  // More than 2^41 items of 4 bytes or fewer: refused, with nothing launched.
  auto many = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), tenth{});
  CHECK_THROWS_AS(cascade::reduce(many, many + (1ll << 41) + 1, 0.0f, cascade::reproducible_plus{}),
                  std::invalid_argument);
  temp.resize(bytes);
  cascade::reduce_into(thrust::raw_pointer_cast(temp.data()), bytes, flagged_256_16{}, pa, pa + n, d_out, 0.0f,
                       cascade::reproducible_plus{});
  CHECK(same_bits(float(out[0]), reproducible_sum<float, float>(as_doubles(a), 0.0)));
  cascade::reduce_into(flagged_256_16{}, pa, pa + n, d_out, 0.0f, cascade::reproducible_plus{},
                       cascade::memory_pool_resource{pool});
  CHECK(same_bits(float(out[0]), reproducible_sum<float, float>(as_doubles(a), 0.0)));
}

TEST_CASE("exact_plus and reproducible_plus: cross_check compares bitwise") {
  std::vector<float> xs(100003);
  for (std::size_t i = 0; i < xs.size(); ++i) xs[i] = std::sin(float(i)) * 1e3f;
  thrust::device_vector<float> d(xs.begin(), xs.end());
  float const* p = thrust::raw_pointer_cast(d.data());
  auto const r = cascade::cross_check(flagged_256_16{}, p, p + xs.size(), 0.0f, cascade::exact_plus{});
  CHECK(r.agree);
  CHECK(r.tolerance == 0);
  CHECK(same_bits(r.cascade, exact_sum<float>(as_doubles(xs), 0.0)));
  MESSAGE("cross_check: cascade ", r.cascade, ", CUB's plain sum ", r.cub);
  auto const b = cascade::cross_check(flagged_256_16{}, p, p + xs.size(), 0.0f, cascade::reproducible_plus{});
  CHECK(b.agree);
  CHECK(b.tolerance == 0);
  CHECK(same_bits(b.cascade, reproducible_sum<float, float>(as_doubles(xs), 0.0)));
}

#endif  // CASCADE_EXACT_PART

}  // TEST_SUITE
