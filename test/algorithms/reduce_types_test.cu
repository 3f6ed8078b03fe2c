// cascade::reduce for one element type (chosen at build time: this file is compiled once per type so
// that Ninja builds the heavy instantiations in parallel) over every block size 32..1024 and coarse
// factor 1, 2, 8, against cub::DeviceReduce::Reduce, thrust::reduce and a host fold.
//   integers: exact. floating point: exact on integer-valued data (every partial sum representable),
//   and within sum_error_bound (see support/references.cuh) of a long-double fold on data in [-1, 1).
#include <doctest/doctest.h>

#include <cascade/cascade.cuh>
#include <thrust/device_vector.h>

#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "support/policies.cuh"
#include "support/references.cuh"
#include "support/seed.hpp"

namespace {

using namespace cascade_test;

#if defined(CASCADE_TEST_INT32)
using input_t = std::int32_t;
using accum_t = std::int32_t;
constexpr char const* type_name = "int32";
#elif defined(CASCADE_TEST_INT64)
using input_t = std::int64_t;
using accum_t = std::int64_t;
constexpr char const* type_name = "int64";
#elif defined(CASCADE_TEST_UINT8)
using input_t = std::uint8_t;
using accum_t = std::int32_t;  // uint8 input, int32 init: the accumulator is init's type
constexpr char const* type_name = "uint8 -> int32";
#elif defined(CASCADE_TEST_FLOAT)
using input_t = float;
using accum_t = float;
constexpr char const* type_name = "float";
#elif defined(CASCADE_TEST_DOUBLE)
using input_t = double;
using accum_t = double;
constexpr char const* type_name = "double";
#else
#error "define one of CASCADE_TEST_INT32, _INT64, _UINT8, _FLOAT, _DOUBLE"
#endif

constexpr bool is_float = std::is_floating_point_v<input_t>;

std::vector<long long> test_sizes(std::mt19937_64& rng) {
  std::vector<long long> sizes = {0, 1, 2, 31, 32, 33, 1023, 1024, 1025, 2047, 4099, (1 << 20) + 7};
  for (int i = 0; i < 3; ++i) sizes.push_back(std::uniform_int_distribution<long long>(3, 1 << 18)(rng));
  sizes.push_back(std::uniform_int_distribution<long long>(1 << 20, 1 << 21)(rng));
  // CASCADE_TEST_MAX_N trims the sweep for slow runs (scripts/gpu-check.sh --sanitize).
  if (char const* cap = std::getenv("CASCADE_TEST_MAX_N")) {
    long long const max_n = std::atoll(cap);
    std::erase_if(sizes, [&](long long n) { return n > max_n; });
  }
  return sizes;
}

// Values whose sums stay exact: integers in a range that cannot overflow the accumulator at 2^21
// items, and for floating point small integers whose every partial sum is representable.
std::vector<input_t> exact_data(long long n, std::mt19937_64& rng) {
  std::vector<input_t> xs(n);
  if constexpr (std::is_same_v<input_t, std::uint8_t>) {
    std::uniform_int_distribution<int> d(0, 255);
    for (auto& x : xs) x = static_cast<input_t>(d(rng));
  } else if constexpr (std::is_same_v<input_t, std::int32_t>) {
    std::uniform_int_distribution<std::int32_t> d(-1000, 1000);
    for (auto& x : xs) x = d(rng);
  } else if constexpr (std::is_same_v<input_t, std::int64_t>) {
    std::uniform_int_distribution<std::int64_t> d(-(1ll << 40), 1ll << 40);
    for (auto& x : xs) x = d(rng);
  } else {
    std::uniform_int_distribution<int> d(-8, 8);  // |partial sums| <= 2^24: exact in float
    for (auto& x : xs) x = static_cast<input_t>(d(rng));
  }
  return xs;
}

std::vector<input_t> real_data(long long n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> d(-1, 1);
  std::vector<input_t> xs(n);
  for (auto& x : xs) x = static_cast<input_t>(d(rng));
  return xs;
}

// Runs every policy of the sweep on one input and op, checking each result with `check`.
template <class Op, class Check>
void sweep_policies(thrust::device_vector<input_t> const& d, accum_t init, Op op, Check check) {
  input_t const* first = thrust::raw_pointer_cast(d.data());
  input_t const* last = first + d.size();
  for_each_policy<cascade::tree::sequential, cascade::finish::recursive>([&](auto policy) {
    using P = decltype(policy);
    CAPTURE(P::block_size);
    CAPTURE(P::coarse_factor);
    check(P{}, cascade::reduce(policy, first, last, init, op));
  });
}

template <class Op>
void check_exact(long long n, std::vector<input_t> const& xs, accum_t init, Op op) {
  thrust::device_vector<input_t> d(xs.begin(), xs.end());
  input_t const* p = thrust::raw_pointer_cast(d.data());
  auto const expected = static_cast<accum_t>(host_fold(xs, init, op));
  REQUIRE(cub_reduce(p, n, init, op) == expected);
  REQUIRE(thrust_reduce(p, n, init, op) == expected);
  sweep_policies(d, init, op, [&](auto, accum_t got) { CHECK(got == expected); });
  // The input is never written.
  std::vector<input_t> after(n);
  thrust::copy(d.begin(), d.end(), after.begin());
  CHECK(after == xs);
}

}  // namespace

TEST_SUITE("gpu") {

TEST_CASE("reduce over block sizes and coarse factors: plus, exact") {
  CASCADE_SEED_INFO();
  INFO("type ", type_name);
  std::mt19937_64 rng(base_seed() ^ 0x1001);
  for (long long n : test_sizes(rng)) {
    CAPTURE(n);
    auto xs = exact_data(n, rng);
    check_exact(n, xs, accum_t(42), cascade::plus{});  // init applied once: 42, not 0 or 42 * k
  }
}

TEST_CASE("reduce over block sizes and coarse factors: minimum and maximum") {
  CASCADE_SEED_INFO();
  INFO("type ", type_name);
  std::mt19937_64 rng(base_seed() ^ 0x1002);
  for (long long n : test_sizes(rng)) {
    CAPTURE(n);
    auto xs = exact_data(n, rng);
    // One init that the data decides against and one that wins, so init takes part exactly once.
    check_exact(n, xs, std::numeric_limits<accum_t>::max(), cascade::minimum{});
    check_exact(n, xs, std::numeric_limits<accum_t>::lowest(), cascade::maximum{});
    check_exact(n, xs, accum_t(-3), cascade::minimum{});
    check_exact(n, xs, accum_t(3), cascade::maximum{});
  }
}

TEST_CASE("reduce of real-valued floating-point data stays within the stated bound") {
  if constexpr (is_float) {
    CASCADE_SEED_INFO();
    INFO("type ", type_name);
    std::mt19937_64 rng(base_seed() ^ 0x1003);
    for (long long n : test_sizes(rng)) {
      CAPTURE(n);
      auto xs = real_data(n, rng);
      thrust::device_vector<input_t> d(xs.begin(), xs.end());
      accum_t const init = accum_t(0.5);
      long double const exact = host_fold(xs, init, cascade::plus{});
      long double sum_abs = std::abs(static_cast<long double>(init));
      for (auto x : xs) sum_abs += std::abs(static_cast<long double>(x));
      sweep_policies(d, init, cascade::plus{}, [&](auto policy, accum_t got) {
        int const depth = recursive_depth<decltype(policy)>(n);
        // + half an ulp of the result for the final rounding to accum_t
        long double const bound = sum_error_bound<accum_t>(sum_abs, depth) +
                                  std::abs(exact) * std::numeric_limits<accum_t>::epsilon();
        CAPTURE(depth);
        CAPTURE(bound);
        CHECK(std::abs(static_cast<long double>(got) - exact) <= bound);
      });
    }
  }
}

}  // TEST_SUITE("gpu")
