// The exact sum's arithmetic (detail/exact_sum.cuh) on the host, where it runs the same code paths
// as on the device but for the truncation (fmod) and the spill (plain additions): items deposited
// into states in random groups, the states merged in random orders, and the result against the
// independent reference (support/exact_reference.cpp), bitwise. Runs in CI (no GPU).
#include <doctest/doctest.h>

#include <cascade/detail/exact_sum.cuh>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "support/exact_reference.hpp"
#include "support/seed.hpp"

namespace {

using namespace cascade::detail;
using cascade_test::exact_sum;

template <class T>
bool same_bits(T a, T b) {
  return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof a) == 0;
}

// xs folded as the device would: runs of random length into states (deposit), the states merged in a
// random order, then rounded.
template <class R, int K>
R grouped_sum(std::vector<double> const& xs, double init, std::mt19937_64& rng) {
  exact::spill_area spill{};
  std::vector<exact::state<K>> states;
  std::uniform_int_distribution<int> run(1, 300);
  for (std::size_t i = 0; i < xs.size();) {
    exact::state<K> s{};
    for (int k = run(rng); k > 0 && i < xs.size(); --k, ++i) exact::deposit(s, xs[i], &spill);
    states.push_back(s);
  }
  while (states.size() > 1) {
    std::uniform_int_distribution<std::size_t> pick(0, states.size() - 1);
    std::size_t const a = pick(rng);
    exact::state<K> const x = states[a];
    states.erase(states.begin() + a);
    std::size_t const b = std::uniform_int_distribution<std::size_t>(0, states.size() - 1)(rng);
    states[b] = exact::merge(states[b], x, &spill);
  }
  exact::state<K> const last = states.empty() ? exact::state<K>{} : states[0];
  return exact::finalize<R>(spill, last, init);
}

template <class T>
std::vector<std::pair<std::string, std::vector<double>>> cases(std::mt19937_64& rng) {
  std::vector<std::pair<std::string, std::vector<double>>> out;
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::normal_distribution<double> normal(0.0, 1.0);
  int const lo = std::numeric_limits<T>::min_exponent - std::numeric_limits<T>::digits - 1;
  int const hi = std::numeric_limits<T>::max_exponent - 1;
  std::uniform_int_distribution<int> e(lo, hi);
  auto add = [&](std::string name, auto gen, int n) {
    std::vector<double> xs(n);
    for (auto& x : xs) x = static_cast<double>(static_cast<T>(gen()));
    out.push_back({name, xs});
  };
  add("normal", [&] { return normal(rng) * 100; }, 20000);
  add("whole exponent range", [&] {
    double const v = std::ldexp(1.0 + unit(rng), e(rng));
    return std::isinf(static_cast<T>(v)) ? 0.0 : (rng() & 1 ? -v : v);
  }, 20000);
  add("denormals", [&] { return (int(rng() % 2001) - 1000) * double(std::numeric_limits<T>::denorm_min()); }, 5000);
  add("cancellation", [&] {
    int const k = int(rng() % 3);
    return k == 0 ? 1e30 : k == 1 ? -1e30 : unit(rng);
  }, 9000);
  add("all equal", [] { return 0.1; }, 30000);
  add("largest", [&] { return (rng() & 1 ? -1.0 : 1.0) * double(std::numeric_limits<T>::max()); }, 1001);
  return out;
}

template <class T, int K>
void check() {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(cascade_test::base_seed() ^ (0x4057 + K));
  for (auto const& [name, xs] : cases<T>(rng)) {
    INFO(name);
    T const expected = exact_sum<T>(xs, 0.0);
    for (int round = 0; round < 3; ++round) CHECK(same_bits(grouped_sum<T, K>(xs, 0.0, rng), expected));
    CHECK(same_bits(grouped_sum<T, K>(xs, 0.75, rng), exact_sum<T>(xs, 0.75)));
  }
}

}  // namespace

TEST_SUITE("cpu") {

TEST_CASE("exact sum: float items (2 levels) into float and double, any grouping, bitwise") {
  check<float, 2>();
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(cascade_test::base_seed() ^ 0xF10);
  for (auto const& [name, xs] : cases<float>(rng)) {
    INFO(name);
    CHECK(same_bits(grouped_sum<double, 2>(xs, 0.0, rng), exact_sum<double>(xs, 0.0)));
  }
}

TEST_CASE("exact sum: double items (3 levels), any grouping, bitwise") { check<double, 3>(); }

TEST_CASE("exact sum: special values and rounding at the edges") {
  std::mt19937_64 rng(1);
  auto sum = [&](std::vector<double> xs, double init = 0.0) { return grouped_sum<double, 3>(xs, init, rng); };
  CHECK(sum({INFINITY, 1.0}) == INFINITY);
  CHECK(std::isnan(sum({INFINITY, -INFINITY})));
  CHECK(std::isnan(sum({NAN, 1.0})));
  CHECK(sum({DBL_MAX, DBL_MAX}) == INFINITY);
  CHECK(sum({DBL_MAX, DBL_MAX, -DBL_MAX}) == DBL_MAX);
  CHECK(sum({0x1p-1074, 0x1p-1074}) == 0x1p-1073);
  CHECK(sum({1.0, 0x1p-53}) == 1.0);                   // tie, to even
  CHECK(sum({1.0, 0x1p-53, 0x1p-1074}) == 1.0 + 0x1p-52);  // just above the tie
  CHECK(sum({1.0, -1.0}) == 0.0);
  CHECK(!std::signbit(sum({1.0, -1.0})));              // an exact zero is +0
  CHECK(grouped_sum<float, 2>({16777216.0, 1.0}, 0.0, rng) == 16777216.0f);  // float tie to even
  CHECK(grouped_sum<float, 2>({16777216.0, 3.0}, 0.0, rng) == 16777220.0f);
  CHECK(grouped_sum<float, 2>({double(FLT_MAX), double(FLT_MAX) * 0x1p-24}, 0.0, rng) == INFINITY);
  CHECK(grouped_sum<float, 2>({0x1p-150}, 0.0, rng) == 0.0f);        // half the least float: to even, 0
  CHECK(grouped_sum<float, 2>({0x1.8p-150}, 0.0, rng) == 0x1p-149f);  // above half: up
}

}  // TEST_SUITE
