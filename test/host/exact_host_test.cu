// The exact sum's arithmetic on the host, where it runs the same code paths as on the device but for
// the truncation (fmod) and the spill (plain additions): the double-level accumulator
// (exact/exact_sum.cuh: double and int32 items) and the float grid's (exact/binned_small_sum.cuh
// with its spill: float, half, bfloat16 items). Items deposited into states in random groups (one by
// one or in batches, as the tile loop does), the states merged in random orders or added to the spill
// as finish::atomic does, and the result against the independent reference
// (support/exact_reference.cpp), bitwise. Runs in CI (no GPU).
#include <doctest/doctest.h>

#include <cascade/exact/binned_small_sum.cuh>

#include <algorithm>
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

// The same over the float grid's exact accumulator (exact_plus of float items): runs by deposit or
// deposit_all (8 at a time), merged in a random order; with `atomic`, half of the states added to the
// spill (finish::atomic) instead.
template <class R>
R grouped_float_sum(std::vector<double> const& xs, double init, std::mt19937_64& rng, bool atomic = false) {
  exact::spill_area spill{};
  binned::spill_below const sink{&spill};
  std::vector<binned::small_state> states;
  std::uniform_int_distribution<int> run(1, 300);
  for (std::size_t i = 0; i < xs.size();) {
    binned::small_state s{};
    bool const batches = rng() & 1;
    for (int k = run(rng); k > 0 && i < xs.size();) {
      if (batches && k >= 8 && i + 8 <= xs.size()) {
        float batch[8];
        for (int j = 0; j < 8; ++j) batch[j] = static_cast<float>(xs[i + j]);
        binned::deposit_all(s, batch, sink);
        i += 8;
        k -= 8;
      } else {
        binned::deposit(s, static_cast<float>(xs[i]), sink);
        ++i;
        --k;
      }
    }
    states.push_back(s);
  }
  if (atomic) {
    std::shuffle(states.begin(), states.end(), rng);
    std::size_t const half = states.size() / 2;
    for (std::size_t i = 0; i < half; ++i) binned::add_to_area(&spill, states[i]);
    states.erase(states.begin(), states.begin() + half);
  }
  while (states.size() > 1) {
    std::uniform_int_distribution<std::size_t> pick(0, states.size() - 1);
    std::size_t const a = pick(rng);
    binned::small_state const x = states[a];
    states.erase(states.begin() + a);
    std::size_t const b = std::uniform_int_distribution<std::size_t>(0, states.size() - 1)(rng);
    states[b] = binned::merge(states[b], x, sink);
  }
  binned::small_state const last = states.empty() ? binned::small_state{} : states[0];
  R const r = binned::finalize<R>(spill, last, init);
  exact::spill_area const zero{};
  CHECK(std::memcmp(&spill, &zero, sizeof spill) == 0);  // left zeroed for the stream's next call
  return r;
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
  add("growing magnitudes (the window moves)", [&, i = 0]() mutable { return std::ldexp(normal(rng), i++ / 200 - 40); }, 20000);
  add("huge and tiny (scaled windows)", [&] {
    int const k = int(rng() % 4);
    double const v = k == 0 ? std::ldexp(1.0 + unit(rng), 100 + int(rng() % 27)) : k == 1 ? std::ldexp(unit(rng), -140) : normal(rng);
    return std::isinf(static_cast<T>(v)) ? 0.0 : (rng() & 1 ? -v : v);
  }, 20000);
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

TEST_CASE("exact sum: float items on the float grid (spilling what falls below) into float and double, any grouping, bitwise") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(cascade_test::base_seed() ^ 0xF16);
  for (auto const& [name, xs] : cases<float>(rng)) {
    INFO(name);
    float const expected = exact_sum<float>(xs, 0.0);
    for (int round = 0; round < 3; ++round) CHECK(same_bits(grouped_float_sum<float>(xs, 0.0, rng), expected));
    CHECK(same_bits(grouped_float_sum<float>(xs, 0.0, rng, true), expected));
    CHECK(same_bits(grouped_float_sum<float>(xs, 0.75, rng), exact_sum<float>(xs, 0.75)));
    CHECK(same_bits(grouped_float_sum<double>(xs, 0.0, rng), exact_sum<double>(xs, 0.0)));
    CHECK(same_bits(grouped_float_sum<double>(xs, -1e300, rng, true), exact_sum<double>(xs, -1e300)));
  }
  auto sum = [&](std::vector<double> xs) { return grouped_float_sum<float>(xs, 0.0, rng); };
  CHECK(sum({INFINITY, 1.0}) == INFINITY);
  CHECK(std::isnan(sum({INFINITY, -INFINITY})));
  CHECK(std::isnan(sum({NAN, 1.0})));
  CHECK(sum({double(FLT_MAX), double(FLT_MAX)}) == INFINITY);
  CHECK(sum({double(FLT_MAX), double(FLT_MAX), -double(FLT_MAX)}) == FLT_MAX);
  CHECK(sum({1e30, 1.0, -1e30}) == 1.0f);
  CHECK(sum({0x1p120, 0x1p-149, -0x1p120}) == 0x1p-149f);  // a scaled window keeps the least denormal
  CHECK(sum({16777216.0, 1.0}) == 16777216.0f);            // tie to even
  CHECK(sum({16777216.0, 1.0, 0x1p-149}) == 16777218.0f);  // just above the tie
  CHECK(!std::signbit(sum({1.0, -1.0})));                 // an exact zero is +0
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
