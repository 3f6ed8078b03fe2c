// One tree strategy (chosen at build time from support/strategies.cuh's list: cascade's registry and
// the test tree's toy; one executable per tree so they build in parallel) over block sizes 32..1024 x coarse factors 1, 2, 8 x int32, float, double and a
// 16-byte struct with its own op, at sizes with partial last tiles, against CUB and a host fold.
// Finish: recursive; for tree::none, atomic (its only partner), without the 16-byte struct.
#include <doctest/doctest.h>

#include <cascade/cascade.cuh>
#include <thrust/device_vector.h>

#include <climits>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string_view>
#include <type_traits>
#include <vector>

#include "support/policies.cuh"
#include "support/references.cuh"
#include "support/seed.hpp"
#include "support/strategies.cuh"

#if !defined(CASCADE_TEST_TREE_INDEX) || !defined(CASCADE_TEST_TREE)
#error "define CASCADE_TEST_TREE_INDEX and CASCADE_TEST_TREE, e.g. -DCASCADE_TEST_TREE_INDEX=5 -DCASCADE_TEST_TREE=shuffle"
#endif

namespace cascade_test_trees {

// 16 bytes, not a power-of-two word: sum, minimum and count of the items at once.
struct stats {
  long long sum;
  int lo;
  int count;
  bool operator==(stats const&) const = default;
};
static_assert(sizeof(stats) == 16);

struct stats_op {
  __host__ __device__ stats operator()(stats const& a, stats const& b) const {
    return {a.sum + b.sum, a.lo < b.lo ? a.lo : b.lo, a.count + b.count};
  }
};

}  // namespace cascade_test_trees

namespace {

using namespace cascade_test;
using cascade_test_trees::stats;
using cascade_test_trees::stats_op;
using tree = cascade::detail::at_t<CASCADE_TEST_TREE_INDEX, trees>;
// tree::none hands per-thread values to the finish, which only finish::atomic accepts.
constexpr bool per_thread = tree::per_thread_results;
using finish = std::conditional_t<per_thread, cascade::finish::atomic, cascade::finish::recursive>;
constexpr char const* tree_name = tree::name;
static_assert(std::string_view(tree::name).ends_with(CASCADE_TEST_STR(CASCADE_TEST_TREE)),
              "test/meson.build's tree names and support/strategies.cuh's lists disagree");

std::vector<long long> sizes(std::mt19937_64& rng) {
  // partial last tiles for every tile size of the sweep (32 .. 8192), multi-pass sizes, random ones
  std::vector<long long> s = {1, 2, 31, 33, 100, 1023, 1025, 8191, 8193, 65537, 300007};
  for (int i = 0; i < 3; ++i) s.push_back(std::uniform_int_distribution<long long>(3, 1 << 20)(rng));
  if (char const* cap = std::getenv("CASCADE_TEST_MAX_N")) {  // slow runs (sanitizers) trim the sweep
    long long const max_n = std::atoll(cap);
    std::erase_if(s, [&](long long n) { return n > max_n; });
  }
  return s;
}

template <class T, class Op>
void check_exact(std::vector<T> const& xs, T init, Op op) {
  check_policies_exact(xs, init, op, [](auto f) { for_each_policy<tree, finish>(f); });
}

}  // namespace

TEST_SUITE("gpu") {

TEST_CASE("tree over block sizes, coarse factors and types") {
  CASCADE_SEED_INFO();
  INFO("tree ", tree_name);
  std::mt19937_64 rng(base_seed() ^ 0x3001);
  for (long long n : sizes(rng)) {
    CAPTURE(n);
    std::uniform_int_distribution<int> ints(-1000, 1000), small(-8, 8);
    std::vector<int> i32(n);
    for (auto& x : i32) x = ints(rng);
    check_exact(i32, 42, cascade::plus{});
    check_exact(i32, INT_MAX, cascade::minimum{});
    check_exact(i32, 3, cascade::maximum{});

    std::vector<float> f32(n);  // integer-valued: every partial sum exact in float
    for (auto& x : f32) x = static_cast<float>(small(rng));
    check_exact(f32, 42.0f, cascade::plus{});

    if constexpr (per_thread) {
      // atomics take 2-, 4- or 8-byte types: no 16-byte struct; and the order of the atomic adds is
      // arbitrary, so double is checked on integer-valued data, exactly.
      std::vector<double> f64(n);
      for (auto& x : f64) x = static_cast<double>(ints(rng));
      check_exact(f64, 0.25, cascade::plus{});
      continue;
    } else {
      std::vector<stats> st(n);
      for (auto& x : st) {
        int const v = ints(rng);
        x = {v, v, 1};
      }
      check_exact(st, stats{0, INT_MAX, 0}, stats_op{});
    }

    // double on real data: within the bound of support/references.cuh; the tree depth allowance
    // BlockSize / 32 covers trees that fold the warps' results serially.
    std::uniform_real_distribution<double> reals(-1, 1);
    std::vector<double> f64(n);
    for (auto& x : f64) x = reals(rng);
    thrust::device_vector<double> d(f64.begin(), f64.end());
    double const* p = thrust::raw_pointer_cast(d.data());
    long double const exact = host_fold(f64, 0.25, cascade::plus{});
    long double sum_abs = 0.25;
    for (double x : f64) sum_abs += std::abs(x);
    for_each_policy<tree, finish>([&](auto policy) {
      using P = decltype(policy);
      CAPTURE(P::block_size);
      CAPTURE(P::coarse_factor);
      int const depth = recursive_depth<P>(n, P::block_size / 32);
      long double const bound = sum_error_bound<double>(sum_abs, depth) + std::abs(exact) * 2.3e-16L;
      CHECK(std::abs(cascade::reduce(policy, p, p + n, 0.25) - exact) <= bound);
    });
  }
}

}  // TEST_SUITE("gpu")
