// count, count_if, inner_product, min/max/minmax_element, any_of/all_of/none_of and the calls whose
// count or init the device holds, against Thrust, CUB and host references, under a policy of every
// finish and default_policy: sizes 0, 1, 2^k - 1, 2^k, 2^k + 1, primes, beyond 2^32 through counting
// iterators; early exit at every position of the first hit; graphs captured once and replayed on new
// sizes and initial values.
#include <doctest/doctest.h>

#include <cascade/cascade.cuh>
#include <cub/device/device_reduce.cuh>
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/inner_product.h>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "support/capture.cuh"
#include "support/noncommutative_ops.cuh"
#include "support/references.cuh"
#include "support/seed.hpp"

#ifndef CASCADE_FAMILY_FEW
#define CASCADE_FAMILY_FEW 0
#endif
// CASCADE_FAMILY_PART: 0 counts and inner products, 1 the _element forms, 2 the predicates, 3 the
// device-held count and init, -1 all (test/meson.build builds a program a part, so they compile in
// parallel).
#ifndef CASCADE_FAMILY_PART
#define CASCADE_FAMILY_PART -1
#endif
#define CASCADE_FAMILY_HAS(k) (CASCADE_FAMILY_PART < 0 || CASCADE_FAMILY_PART == (k))

#pragma nv_diag_suppress 177  // a part (CASCADE_FAMILY_PART) leaves some functors unused

namespace {

using namespace cascade_test;

// One policy of each finish, and default_policy. The arg ops' 16-byte pairs leave out finish::atomic.
using p_atomic = cascade::policy<256, 8, cascade::tree::shuffle, cascade::finish::atomic>;
using p_cluster = cascade::policy<256, 16, cascade::tree::shuffle, cascade::finish::cluster>;
using p_cooperative = cascade::policy<512, 2, cascade::tree::sequential, cascade::finish::cooperative>;
using p_flagged = cascade::policy<512, 32, cascade::tree::shuffle, cascade::finish::flagged>;
using p_host = cascade::policy<128, 4, cascade::tree::unrolled, cascade::finish::host>;
using p_last_block = cascade::policy<128, 4, cascade::tree::shuffle, cascade::finish::last_block>;
using p_recursive = cascade::policy<64, 1, cascade::tree::interleaved, cascade::finish::recursive>;
using p_two_pass = cascade::policy<1024, 16, cascade::tree::shuffle, cascade::finish::two_pass>;

std::string policy_name;  // the policy for_each_policy runs, for the failure's message

template <bool WithAtomic = true, class F>
[[maybe_unused]] void for_each_policy(F f) {
  auto const run = [&](auto policy, char const* name) {
    policy_name = name;
    f(policy);
  };
  run(cascade::default_policy{}, "default_policy");
  run(p_last_block{}, "<128, 4, shuffle, last_block>");
#if !CASCADE_FAMILY_FEW  // (a build without a GPU only compile-checks: fewer instantiations)
  if constexpr (WithAtomic) run(p_atomic{}, "<256, 8, shuffle, atomic>");
  run(p_cluster{}, "<256, 16, shuffle, cluster>");
  run(p_cooperative{}, "<512, 2, sequential, cooperative>");
  run(p_flagged{}, "<512, 32, shuffle, flagged>");
  run(p_host{}, "<128, 4, unrolled, host>");
  run(p_recursive{}, "<64, 1, interleaved, recursive>");
  run(p_two_pass{}, "<1024, 16, shuffle, two_pass>");
#endif
}

[[maybe_unused]] std::vector<long long> sizes(std::mt19937_64& rng) {
  std::vector<long long> s = {0, 1, 2, 31, 1023, 1024, 1025, 4093, 65536, 262143, 262144, 262147, (1 << 21) + 1};
  s.push_back(std::uniform_int_distribution<long long>(2, 1 << 22)(rng));
  if (char const* cap = std::getenv("CASCADE_TEST_MAX_N")) {
    long long const max_n = std::atoll(cap);
    std::erase_if(s, [&](long long n) { return n > max_n; });
  }
  return s;
}

struct is_odd {
  __host__ __device__ bool operator()(int x) const { return (x & 1) != 0; }
};
struct below {
  float bound;
  __host__ __device__ bool operator()(float x) const { return x < bound; }
};
struct is_nan {
  __host__ __device__ bool operator()(float x) const { return x != x; }
};
struct counted_nan {  // is_nan that counts its calls (a test may break the "pred must not write" rule)
  unsigned long long* calls;
  __device__ bool operator()(float x) const {
    atomicAdd(calls, 1ull);
    return x != x;
  }
};
struct by_magnitude {
  __host__ __device__ bool operator()(int a, int b) const { return (a < 0 ? -a : a) < (b < 0 ? -b : b); }
};
struct cascade_greater {
  __host__ __device__ bool operator()(int a, int b) const { return a > b; }
};
struct multiple_of_3 {
  __host__ __device__ bool operator()(long long x) const { return x % 3 == 0; }
};
struct product_ll {
  __host__ __device__ long long operator()(int a, int b) const { return static_cast<long long>(a) * b; }
};
struct same {
  __host__ __device__ int operator()(int a, int b) const { return a == b ? 1 : 0; }
};
struct negate {
  __host__ __device__ long long operator()(int x) const { return -static_cast<long long>(x); }
};

}  // namespace

TEST_SUITE("gpu") {

#if CASCADE_FAMILY_HAS(0)
TEST_CASE("count and count_if: exact, against Thrust and the host, under every finish") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0xc0);
  thrust::device_vector<long long> d_out(1);
  for (long long n : sizes(rng)) {
    CAPTURE(n);
    std::vector<int> xs(n);
    for (auto& x : xs) x = static_cast<int>(rng() % 10);
    std::vector<float> fs(n);
    for (auto& f : fs) f = (rng() % 50 == 0) ? std::numeric_limits<float>::quiet_NaN() : static_cast<float>(rng() % 100) - 50;
    thrust::device_vector<int> d(xs.begin(), xs.end());
    thrust::device_vector<float> df(fs.begin(), fs.end());
    int const* p = thrust::raw_pointer_cast(d.data());
    float const* pf = thrust::raw_pointer_cast(df.data());
    long long const sevens = std::count(xs.begin(), xs.end(), 7);
    long long const odd = std::count_if(xs.begin(), xs.end(), is_odd{});
    long long const low = std::count_if(fs.begin(), fs.end(), below{-10.0f});
    REQUIRE(thrust::count(d.begin(), d.end(), 7) == sevens);
    REQUIRE(thrust::count_if(df.begin(), df.end(), below{-10.0f}) == low);
    for_each_policy([&](auto policy) {
      CAPTURE(policy_name);
      CHECK(cascade::count(policy, p, p + n, 7) == sevens);
      CHECK(cascade::count_if(policy, p, p + n, is_odd{}) == odd);
      CHECK(cascade::count_if(policy, pf, pf + n, below{-10.0f}) == low);
      CHECK(cascade::count(policy, pf, pf + n, std::numeric_limits<float>::quiet_NaN()) == 0);  // NaN equals nothing
      if (n > 1) CHECK(cascade::count(policy, p + 1, p + n, 7) == std::count(xs.begin() + 1, xs.end(), 7));  // unaligned
      cascade::count_if_into(policy, p, p + n, thrust::raw_pointer_cast(d_out.data()), is_odd{});
      CHECK(d_out[0] == odd);
    });
  }
}

TEST_CASE("count_if beyond 2^32 items through a counting iterator: 64-bit counters") {
  long long const n = (1ll << 32) + 5;
  thrust::counting_iterator<long long> first(0);
  long long const expected = (n + 2) / 3;  // 0, 3, 6, ... < n
  CHECK(cascade::count_if(cascade::default_policy{}, first, first + n, multiple_of_3{}) == expected);
  CHECK(cascade::count_if(p_flagged{}, first, first + n, multiple_of_3{}) == expected);
}

TEST_CASE("inner_product: exact for integers, within the bound for floats, both ops, aligned or not") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x1b);
  thrust::device_vector<long long> d_out(1);
  for (long long n : sizes(rng)) {
    CAPTURE(n);
    std::vector<int> a(n), b(n);
    for (auto& x : a) x = static_cast<int>(rng() % 2001) - 1000;
    for (auto& x : b) x = static_cast<int>(rng() % 5);
    std::vector<float> x(n), y(n);
    for (auto& v : x) v = std::uniform_real_distribution<float>(-1, 1)(rng);
    for (auto& v : y) v = std::uniform_real_distribution<float>(-1, 1)(rng);
    thrust::device_vector<int> da(a.begin(), a.end()), db(b.begin(), b.end());
    thrust::device_vector<float> dx(x.begin(), x.end()), dy(y.begin(), y.end());
    int const* pa = thrust::raw_pointer_cast(da.data());
    int const* pb = thrust::raw_pointer_cast(db.data());
    float const* px = thrust::raw_pointer_cast(dx.data());
    float const* py = thrust::raw_pointer_cast(dy.data());
    long long dot = 5;
    int equal = 0;
    long double fdot = 0, fabs_sum = 0;
    for (long long i = 0; i < n; ++i) {
      dot += static_cast<long long>(a[i]) * b[i];
      equal += a[i] == b[i];
      fdot += static_cast<long double>(x[i] * y[i]);
      fabs_sum += std::fabs(static_cast<long double>(x[i] * y[i]));
    }
    REQUIRE(thrust::inner_product(da.begin(), da.end(), db.begin(), 5ll, thrust::plus<long long>{}, product_ll{}) == dot);
    long double const bound = sum_error_bound<float>(fabs_sum, 64) + fabs_sum * std::numeric_limits<float>::epsilon();
    for_each_policy([&](auto policy) {
      CAPTURE(policy_name);
      CHECK(cascade::inner_product(policy, pa, pa + n, pb, 5ll, cascade::plus{}, product_ll{}) == dot);
      CHECK(cascade::inner_product(policy, pa, pa + n, pb, 0, cascade::plus{}, same{}) == equal);
      CHECK(std::fabs(static_cast<long double>(cascade::inner_product(policy, px, px + n, py, 0.0f)) - fdot) <= bound);
      if (n > 1) {  // one pointer off 16 bytes: the scalar path
        long long off = 0;
        for (long long i = 1; i < n; ++i) off += static_cast<long long>(a[i]) * b[i - 1];
        CHECK(cascade::inner_product(policy, pa + 1, pa + n, pb, 0ll, cascade::plus{}, product_ll{}) == off);
      }
      cascade::inner_product_into(policy, pa, pa + n, pb, thrust::raw_pointer_cast(d_out.data()), 5ll, cascade::plus{},
                                  product_ll{});
      CHECK(d_out[0] == dot);
    });
  }
}

#endif

#if CASCADE_FAMILY_HAS(1)
TEST_CASE_TEMPLATE("min/max/minmax_element: Thrust's iterators (the first on ties), std's with last_max", T, int,
                   float, std::uint8_t, double) {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ (0xe1 + sizeof(T)));
  thrust::device_vector<long long> d_pos(2);
  for (long long n : sizes(rng)) {
    CAPTURE(n);
    std::vector<T> xs(n);
    for (auto& x : xs) x = static_cast<T>(rng() % 100);  // many ties
    thrust::device_vector<T> d(xs.begin(), xs.end());
    T const* p = thrust::raw_pointer_cast(d.data());
    long long const lo = std::min_element(xs.begin(), xs.end()) - xs.begin();
    long long const hi = std::max_element(xs.begin(), xs.end()) - xs.begin();  // std: the first largest too
    long long const last_hi = std::minmax_element(xs.begin(), xs.end()).second - xs.begin();  // the last largest
    if (n > 0) {  // (CUB's, not Thrust's: Thrust's result's padding fails initcheck)
      REQUIRE(cub_argmin(p, n, false).index == lo);
      REQUIRE(cub_argmin(p, n, true).index == hi);
    }
    for_each_policy<false>([&](auto policy) {
      CAPTURE(policy_name);
      CHECK(cascade::min_element(policy, p, p + n) - p == lo);
      CHECK(cascade::max_element(policy, p, p + n) - p == hi);
      auto const [a, b] = cascade::minmax_element(policy, p, p + n);
      CHECK(a - p == lo);
      CHECK(b - p == hi);
      cascade::min_element_into(policy, p, p + n, thrust::raw_pointer_cast(d_pos.data()));
      CHECK(d_pos[0] == lo);
      cascade::minmax_element_into(policy, p, p + n, thrust::raw_pointer_cast(d_pos.data()) + 1,
                                   thrust::raw_pointer_cast(d_pos.data()));
      CHECK(d_pos[1] == lo);
      CHECK(d_pos[0] == hi);
      auto const [c, e] = cascade::minmax_element(policy, p, p + n, cascade::last_max);
      CHECK(c - p == lo);
      CHECK(e - p == last_hi);
      d_pos[0] = d_pos[1] = -1;
      cascade::minmax_element_into(policy, p, p + n, thrust::raw_pointer_cast(d_pos.data()) + 1,
                                   thrust::raw_pointer_cast(d_pos.data()), cascade::last_max);
      CHECK(d_pos[1] == lo);
      CHECK(d_pos[0] == last_hi);
    });
  }
}

TEST_CASE("_element over NaN and signed zeros: argmin's and argmax's rules") {
  float const nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> xs = {3.0f, 0.0f, -0.0f, -1.0f, nan, -1.0f, nan, 0.0f};
  thrust::device_vector<float> d(xs.begin(), xs.end());
  float const* p = thrust::raw_pointer_cast(d.data());
  for_each_policy<false>([&](auto policy) {
    CHECK(cascade::min_element(policy, p, p + 8) - p == 4);  // the first NaN
    CHECK(cascade::max_element(policy, p, p + 8) - p == 4);
    CHECK(cascade::min_element(policy, p, p + 4) - p == 3);
    CHECK(cascade::min_element(policy, p + 1, p + 3) - p == 2);  // -0 before +0
    CHECK(cascade::max_element(policy, p + 1, p + 3) - p == 1);  // +0 before -0
    CHECK(cascade::argmin(policy, p, p + 8).index == cascade::min_element(policy, p, p + 8) - p);
    auto const [lo, hi] = cascade::minmax_element(policy, p, p + 8, cascade::last_max);
    CHECK(lo - p == 4);  // the first NaN
    CHECK(hi - p == 6);  // the last NaN
    auto const [lo0, hi0] = cascade::minmax_element(policy, p, p + 4, cascade::last_max);
    CHECK(lo0 - p == 3);
    CHECK(hi0 - p == 0);
    auto const [zlo, zhi] = cascade::minmax_element(policy, p + 1, p + 3, cascade::last_max);
    CHECK(zlo - p == 2);  // -0 before +0
    CHECK(zhi - p == 1);  // +0 before -0, however late the -0
    auto const [tlo, thi] = cascade::minmax_element(policy, p + 1, p + 8, cascade::last_max);
    CHECK(tlo - p == 4);
    CHECK(thi - p == 6);
  });
  // items equal to maximum's identity (what an empty part starts from): the last of them, not the identity's
  thrust::device_vector<float> low(5, -std::numeric_limits<float>::infinity());
  thrust::device_vector<int> lowest(5, std::numeric_limits<int>::min());
  float const* pl = thrust::raw_pointer_cast(low.data());
  int const* pi = thrust::raw_pointer_cast(lowest.data());
  for_each_policy<false>([&](auto policy) {
    CAPTURE(policy_name);
    auto const [a, b] = cascade::minmax_element(policy, pl, pl + 5, cascade::last_max);
    CHECK((a - pl == 0 && b - pl == 4));
    auto const [c, e] = cascade::minmax_element(policy, pi, pi + 5, cascade::last_max);
    CHECK((c - pi == 0 && e - pi == 4));
  });
}

TEST_CASE("under a comparator: std's positions (the first on ties), argmin with > is argmax") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0xe7);
  thrust::device_vector<long long> d_pos(3);
  for (long long n : sizes(rng)) {
    if (n == 0) continue;
    CAPTURE(n);
    std::vector<int> xs(n);
    for (auto& x : xs) x = static_cast<int>(rng() % 201) - 100;  // |x| ties between x and -x
    thrust::device_vector<int> d(xs.begin(), xs.end());
    int const* p = thrust::raw_pointer_cast(d.data());
    long long const lo = std::min_element(xs.begin(), xs.end(), by_magnitude{}) - xs.begin();
    long long const hi = std::max_element(xs.begin(), xs.end(), by_magnitude{}) - xs.begin();
    long long const top = std::max_element(xs.begin(), xs.end()) - xs.begin();
    for_each_policy<false>([&](auto policy) {
      CAPTURE(policy_name);
      CHECK(cascade::min_element(policy, p, p + n, by_magnitude{}) - p == lo);
      CHECK(cascade::max_element(policy, p, p + n, by_magnitude{}) - p == hi);
      auto const [a, b] = cascade::minmax_element(policy, p, p + n, by_magnitude{});
      CHECK(a - p == lo);
      CHECK(b - p == hi);
      CHECK(cascade::argmin(policy, p, p + n, cascade_greater{}).index == top);
      CHECK(cascade::argmax(policy, p, p + n, by_magnitude{}).value == xs[hi]);
      cascade::min_element_into(policy, p, p + n, thrust::raw_pointer_cast(d_pos.data()), by_magnitude{});
      cascade::minmax_element_into(policy, p, p + n, thrust::raw_pointer_cast(d_pos.data()) + 1,
                                   thrust::raw_pointer_cast(d_pos.data()) + 2, by_magnitude{});
      CHECK(d_pos[0] == lo);
      CHECK(d_pos[1] == lo);
      CHECK(d_pos[2] == hi);
    });
  }
}

TEST_CASE("_element of an empty range is last; its _into forms write n") {
  thrust::device_vector<int> d(4, 1);
  thrust::device_vector<long long> pos(2, -1);
  int const* p = thrust::raw_pointer_cast(d.data());
  CHECK(cascade::min_element(p_last_block{}, p, p) == p);
  CHECK(cascade::max_element(p_last_block{}, p + 2, p + 2) == p + 2);
  auto const [a, b] = cascade::minmax_element(p_last_block{}, p, p);
  CHECK((a == p && b == p));
  auto const [la, lb] = cascade::minmax_element(p_last_block{}, p + 1, p + 1, cascade::last_max);
  CHECK((la == p + 1 && lb == p + 1));
  auto const [oa, ob] = cascade::minmax_element(p_last_block{}, p, p + 4, cascade::last_max);  // all equal
  CHECK((oa == p && ob == p + 3));
  cascade::min_element_into(p_last_block{}, p, p, thrust::raw_pointer_cast(pos.data()));
  cascade::max_element_into(p_last_block{}, p, p, thrust::raw_pointer_cast(pos.data()) + 1);
  CHECK(pos[0] == 0);
  CHECK(pos[1] == 0);
}

TEST_CASE("max_element beyond 2^32 through a counting iterator") {
  long long const n = (1ll << 32) + 3;
  thrust::counting_iterator<long long> first(0);
  CHECK(cascade::max_element(cascade::default_policy{}, first, first + n) - first == n - 1);
  CHECK(cascade::min_element(p_flagged{}, first, first + n) - first == 0);
}

#endif

#if CASCADE_FAMILY_HAS(2)
TEST_CASE("any_of, all_of, none_of: the first hit anywhere, none, every finish, early exit on") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0xa0);
  thrust::device_vector<bool> d_out(1);
  for (long long n : {0ll, 1ll, 1000ll, 262144ll, 1000003ll, (1ll << 22) + 1}) {
    if (char const* cap = std::getenv("CASCADE_TEST_MAX_N"); cap && n > std::atoll(cap)) continue;
    CAPTURE(n);
    std::vector<float> xs(n);
    for (auto& x : xs) x = std::uniform_real_distribution<float>(0, 1)(rng);
    thrust::device_vector<float> d(xs.begin(), xs.end());
    float* p = thrust::raw_pointer_cast(d.data());
    std::vector<long long> hits = {-1};  // none
    if (n > 0) hits.insert(hits.end(), {0, n - 1, n / 2, static_cast<long long>(rng() % n)});
    for (long long hit : hits) {
      CAPTURE(hit);
      if (hit >= 0) d[hit] = std::numeric_limits<float>::quiet_NaN();
      bool const any = hit >= 0;
      for_each_policy([&](auto policy) {
        CAPTURE(policy_name);
        CHECK(cascade::any_of(policy, p, p + n, is_nan{}) == any);
        CHECK(cascade::none_of(policy, p, p + n, is_nan{}) == !any);
        CHECK(cascade::all_of(policy, p, p + n, below{2.0f}) == !any);  // NaN < 2 is false
        CHECK(cascade::all_of(policy, p, p + n, below{0.5f}) == (!any && std::all_of(xs.begin(), xs.end(), below{0.5f})));
        cascade::any_of_into(policy, p, p + n, thrust::raw_pointer_cast(d_out.data()), is_nan{});
        CHECK(d_out[0] == any);
        cascade::all_of_into(policy, p, p + n, thrust::raw_pointer_cast(d_out.data()), below{2.0f});
        CHECK(d_out[0] == !any);
        cascade::none_of_into(policy, p, p + n, thrust::raw_pointer_cast(d_out.data()), is_nan{});
        CHECK(d_out[0] == !any);
      });
      if (hit >= 0) d[hit] = xs[hit];
    }
  }
}

TEST_CASE("any_of stops early: a hit at item 0 of 2^26 reads under half the items; no hit reads each once") {
  long long const n = 1 << 26;
  thrust::device_vector<float> d(n, 0.25f);
  thrust::device_vector<unsigned long long> calls(1, 0);
  float const* p = thrust::raw_pointer_cast(d.data());
  counted_nan const pred{thrust::raw_pointer_cast(calls.data())};
  auto const run = [&](auto policy) {
    calls[0] = 0;
    bool const found = cascade::any_of(policy, p, p + n, pred);
    CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
    return std::pair<bool, unsigned long long>(found, calls[0]);
  };
  auto const none = run(p_last_block{});
  CHECK(!none.first);
  CHECK(none.second == static_cast<unsigned long long>(n));
  d[0] = std::numeric_limits<float>::quiet_NaN();
  for (auto const& [found, read] : {run(p_last_block{}), run(p_flagged{}), run(cascade::default_policy{})}) {
    CHECK(found);
    CHECK(read < static_cast<unsigned long long>(n / 2));
    MESSAGE("items read before stopping: ", read, " of ", n);
  }
}

TEST_CASE("any_of_into captured once, replayed as the data changes: the flag is zeroed in the graph") {
  long long const n = 1 << 22;
  thrust::device_vector<float> d(n, 0.25f);
  thrust::device_vector<bool> out(1);
  float* p = thrust::raw_pointer_cast(d.data());
  cudaStream_t s;
  CASCADE_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  std::string failure;
  cudaGraph_t graph = capture(s, [&] {
    cascade::any_of_into(cascade::default_policy{}.on(s), p, p + n, thrust::raw_pointer_cast(out.data()), is_nan{});
  }, failure);
  REQUIRE(failure.empty());
  cudaGraphExec_t exec;
  CASCADE_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (long long hit : {-1ll, 7ll, n - 1, -1ll, n / 3}) {
    CAPTURE(hit);
    thrust::fill(d.begin(), d.end(), 0.25f);
    if (hit >= 0) d[hit] = std::numeric_limits<float>::quiet_NaN();
    CASCADE_CUDA_CHECK(cudaGraphLaunch(exec, s));
    CASCADE_CUDA_CHECK(cudaStreamSynchronize(s));
    CHECK(out[0] == (hit >= 0));
  }
  CASCADE_CUDA_CHECK(cudaGraphExecDestroy(exec));
  CASCADE_CUDA_CHECK(cudaGraphDestroy(graph));
  CASCADE_CUDA_CHECK(cudaStreamDestroy(s));
}

#endif

#if CASCADE_FAMILY_HAS(3)
TEST_CASE("device_count and device_value: a graph captured once, replayed on 100 sizes and new inits") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0xdc);
  long long max_n = 1 << 23;
  if (char const* cap = std::getenv("CASCADE_TEST_MAX_N")) max_n = std::min(max_n, std::atoll(cap));
  std::vector<int> xs(max_n);
  for (auto& x : xs) x = static_cast<int>(rng() % 2001) - 1000;
  thrust::device_vector<int> d(xs.begin(), xs.end());
  int const* p = thrust::raw_pointer_cast(d.data());
  std::vector<long long> prefix(max_n + 1, 0);
  for (long long i = 0; i < max_n; ++i) prefix[i + 1] = prefix[i] + xs[i];
  thrust::device_vector<long long> d_n(1), d_init(1), out(8);
  long long* pn = thrust::raw_pointer_cast(d_n.data());
  long long* pinit = thrust::raw_pointer_cast(d_init.data());
  long long* po = thrust::raw_pointer_cast(out.data());
  cudaStream_t s;
  CASCADE_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  std::string failure;
  cudaGraph_t graph = capture(s, [&] {
    auto const count = cascade::device_count(pn, max_n);
    cascade::reduce_into(cascade::default_policy{}.on(s), p, count, po, 0ll, cascade::plus{});
    cascade::reduce_into(p_flagged{}.on(s), p, count, po + 1, cascade::device_value(pinit), cascade::plus{});
    cascade::reduce_into(p_last_block{}.on(s), p, p + max_n, po + 2, cascade::device_value(pinit), cascade::plus{});
    cascade::reduce_into(p_two_pass{}.on(s), p, count, po + 3, cascade::device_value(pinit), cascade::minimum{});
    cascade::transform_reduce_into(p_recursive{}.on(s), p, count, po + 4, cascade::device_value(pinit), cascade::plus{},
                                   negate{});
  }, failure);
  REQUIRE(failure.empty());
  cudaGraphExec_t exec;
  CASCADE_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  std::vector<long long> ns = {0, 1, 2, max_n, max_n + 5, -3, 1023, 1024, 1025};
  while (ns.size() < 100) ns.push_back(static_cast<long long>(rng() % (max_n + 1)));
  for (long long n : ns) {
    CAPTURE(n);
    long long const init = static_cast<long long>(rng() % 1000) - 500;
    long long const m = std::clamp(n, 0ll, max_n);  // what the kernel reads
    d_n[0] = n;
    d_init[0] = init;
    CASCADE_CUDA_CHECK(cudaGraphLaunch(exec, s));
    CASCADE_CUDA_CHECK(cudaStreamSynchronize(s));
    long long lo = init;
    for (long long i = 0; i < m; ++i) lo = std::min<long long>(lo, xs[i]);
    CHECK(out[0] == prefix[m]);
    CHECK(out[1] == init + prefix[m]);
    CHECK(out[2] == init + prefix[max_n]);
    CHECK(out[3] == lo);
    CHECK(out[4] == init - prefix[m]);
  }
  CASCADE_CUDA_CHECK(cudaGraphExecDestroy(exec));
  CASCADE_CUDA_CHECK(cudaGraphDestroy(graph));
  CASCADE_CUDA_CHECK(cudaStreamDestroy(s));
}

TEST_CASE("device_count with a non-commutative op: the exact left fold of the first *d_n items") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x9c);
  int const max_n = 200000;
  std::vector<mat2> xs(max_n);
  for (auto& m : xs) m = mat2::random_invertible(rng);
  thrust::device_vector<mat2> d(xs.begin(), xs.end());
  thrust::device_vector<int> d_n(1);
  thrust::device_vector<mat2> out(1);
  for (int n : {0, 1, 777, 4096, 100001, 200000, 300000}) {
    CAPTURE(n);
    d_n[0] = n;
    mat2 expected = mat2::unit();
    for (int i = 0; i < std::min(n, 200000); ++i) expected = mat2_product{}(expected, xs[i]);
    auto const count = cascade::device_count(thrust::raw_pointer_cast(d_n.data()), max_n);
    auto const op = cascade::non_commutative(mat2_product{});
    cascade::reduce_into(p_last_block{}, thrust::raw_pointer_cast(d.data()), count, thrust::raw_pointer_cast(out.data()),
                         mat2::unit(), op);
    CHECK(mat2(out[0]) == expected);
    cascade::reduce_into(cascade::default_policy{}, thrust::raw_pointer_cast(d.data()), count,
                         thrust::raw_pointer_cast(out.data()), mat2::unit(), op);
    CHECK(mat2(out[0]) == expected);
  }
}

TEST_CASE("device_count over a counting iterator beyond 2^32; bad arguments throw and launch nothing") {
  long long const max_n = (1ll << 32) + 9;
  thrust::device_vector<long long> d_n(1, max_n - 2), out(1, -1);
  thrust::counting_iterator<long long> first(1);
  cascade::reduce_into(cascade::default_policy{}, first, cascade::device_count(thrust::raw_pointer_cast(d_n.data()), max_n),
                       thrust::raw_pointer_cast(out.data()), 0ll, cascade::maximum{});
  CHECK(out[0] == max_n - 2);
  long long const* null = nullptr;
  CHECK_THROWS_AS(cascade::device_count(null, 10), std::invalid_argument);
  CHECK_THROWS_AS(cascade::device_count(thrust::raw_pointer_cast(d_n.data()), -1), std::invalid_argument);
  CHECK_THROWS_AS(cascade::device_value(null), std::invalid_argument);
  long long host_n = 5;
  CHECK_THROWS_AS(cascade::reduce_into(p_last_block{}, thrust::raw_pointer_cast(d_n.data()),
                                       cascade::device_count(&host_n, 10), thrust::raw_pointer_cast(out.data()), 0ll,
                                       cascade::plus{}),
                  std::invalid_argument);
}

#endif

}  // TEST_SUITE
