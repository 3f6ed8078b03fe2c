// The binned sum's arithmetic (exact/binned_sum.cuh, reproducible_plus) on the host, where it runs
// the same code as on the device but for the atomics: items deposited into states in runs of random
// length (some longer than the count's bound, so that levels normalize into their carries), the states
// merged in random orders or added to finish::atomic's bins, and the result against what the docs
// promise, computed directly (support/binned_reference.hpp), bitwise; and within the documented bound
// of the exact sum. Runs in CI (no GPU).
#include <doctest/doctest.h>

#include <cascade/exact/binned_small_sum.cuh>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "support/binned_reference.hpp"
#include "support/exact_reference.hpp"
#include "support/seed.hpp"

namespace {

using namespace cascade::detail;
using cascade_test::exact_sum;
using cascade_test::reproducible_sum;

template <class T>
bool same_bits(T a, T b) {
  return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof a) == 0;
}

// The state reproducible_plus keeps for items of type T, and how it takes one.
template <class T>
using state_for = std::conditional_t<(sizeof(T) > 4), binned::state<3>,
                                     std::conditional_t<std::is_integral_v<T>, binned::state<2>, binned::small_state>>;
template <class T, class S>
void deposit_one(S& s, double x) {
  if constexpr (std::is_same_v<S, binned::small_state>) binned::deposit(s, static_cast<float>(x), binned::drop_below{});
  else binned::deposit(s, x);
}

// xs (values of T) folded as the device would: runs of random length (up to max_run) into states, by
// deposit or deposit_all (8 at a time), the states merged in a random order; with `atomic`, some of
// them added to finish::atomic's bins instead. Then rounded.
template <class R, class T>
R grouped_sum(std::vector<double> const& xs, double init, std::mt19937_64& rng, int max_run = 300,
              bool atomic = false) {
  using S = state_for<T>;
  std::vector<S> states;
  std::uniform_int_distribution<int> run(1, max_run);
  for (std::size_t i = 0; i < xs.size();) {
    S s{};
    int k = run(rng);
    bool const batches = rng() & 1;
    while (k > 0 && i < xs.size()) {
      if (batches && k >= 8 && i + 8 <= xs.size()) {
        if constexpr (std::is_same_v<S, binned::small_state>) {
          float batch[8];
          for (int j = 0; j < 8; ++j) batch[j] = static_cast<float>(xs[i + j]);
          binned::deposit_all(s, batch, binned::drop_below{});
        } else {
          double batch[8];
          std::copy(xs.begin() + i, xs.begin() + i + 8, batch);
          binned::deposit_all(s, batch);
        }
        i += 8;
        k -= 8;
      } else {
        deposit_one<T>(s, xs[i]);
        ++i;
        --k;
      }
    }
    states.push_back(s);
  }
  binned::atomic_area area{};
  if (atomic) {  // half of the states, in a random order, to the bins
    std::shuffle(states.begin(), states.end(), rng);
    std::size_t const half = states.size() / 2;
    for (std::size_t i = 0; i < half; ++i) binned::add_to_area(&area, states[i]);
    states.erase(states.begin(), states.begin() + half);
  }
  while (states.size() > 1) {
    std::uniform_int_distribution<std::size_t> pick(0, states.size() - 1);
    std::size_t const a = pick(rng);
    S const x = states[a];
    states.erase(states.begin() + a);
    std::size_t const b = std::uniform_int_distribution<std::size_t>(0, states.size() - 1)(rng);
    if constexpr (std::is_same_v<S, binned::small_state>) states[b] = binned::merge(states[b], x, binned::drop_below{});
    else states[b] = binned::merge(states[b], x);
  }
  S const last = states.empty() ? S{} : states[0];
  R const r = binned::finalize<R>(area, last, init);
  binned::atomic_area const zero{};
  CHECK(std::memcmp(&area, &zero, sizeof area) == 0);  // left zeroed for the stream's next call
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
  add("growing magnitudes (the window moves)", [&, i = 0]() mutable { return std::ldexp(normal(rng), i++ / 200); }, 20000);
  add("whole exponent range", [&] {
    double const v = std::ldexp(1.0 + unit(rng), e(rng));
    return std::isinf(static_cast<T>(v)) ? 0.0 : (rng() & 1 ? -v : v);
  }, 20000);
  add("denormals", [&] { return (int(rng() % 2001) - 1000) * double(std::numeric_limits<T>::denorm_min()); }, 5000);
  add("cancellation", [&] {
    int const k = int(rng() % 3);
    return k == 0 ? 1e30 : k == 1 ? -1e30 : unit(rng);
  }, 9000);
  add("halves of the lowest level's unit (no ties)", [&] { return (rng() & 1 ? 1.5 : -2.5) * std::ldexp(1.0, -40); }, 3001);
  add("exact halves of the levels' units (ties)", [&] {
    static double const v[] = {0x1p20, 16, 48, -16, -80, 0x1p-18, -0x3p-18, 8192, 24576, -8192, 0x1p-19, -0x3p-19};
    return v[rng() % 12];
  }, 5000);
  add("all equal", [] { return 0.1; }, 30000);
  add("largest", [&] { return (rng() & 1 ? -1.0 : 1.0) * double(std::numeric_limits<T>::max()); }, 1001);
  return out;
}

// Bits of each item kept below the largest item's binade (docs/reproducible.md).
template <class T>
constexpr int kept_bits = sizeof(T) > 4 ? 63 : std::is_integral_v<T> ? 31 : 43;

template <class T>
void check() {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(cascade_test::base_seed() ^ (0xB1 + sizeof(T)));
  for (auto const& [name, xs] : cases<T>(rng)) {
    INFO(name);
    T const expected = reproducible_sum<T, T>(xs, 0.0);
    for (int round = 0; round < 3; ++round) CHECK(same_bits(grouped_sum<T, T>(xs, 0.0, rng), expected));
    CHECK(same_bits(grouped_sum<T, T>(xs, 0.0, rng, 300, true), expected));
    CHECK(same_bits(grouped_sum<T, T>(xs, 0.75, rng), reproducible_sum<T, T>(xs, 0.75)));
    // Another order.
    std::vector<double> shuffled = xs;
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    CHECK(same_bits(grouped_sum<T, T>(shuffled, 0.0, rng), expected));
    // Within the bound of the exact sum: half an ulp plus n * max|x| * 2^-kept_bits.
    double max_abs = 0;
    for (double x : xs) max_abs = std::max(max_abs, std::fabs(x));
    T const exact = exact_sum<T>(xs, 0.0);
    if (std::isfinite(exact) && std::isfinite(expected)) {
      // One ulp of T (the two roundings, each within half of one) plus what was dropped.
      double const ulp = double(std::nextafter(std::fabs(exact), std::numeric_limits<T>::infinity())) - std::fabs(double(exact));
      double const bound = ulp + double(xs.size()) * max_abs * std::ldexp(1.0, -kept_bits<T>);
      CHECK(std::fabs(double(expected) - double(exact)) <= bound);
    }
  }
}

}  // namespace

TEST_SUITE("cpu") {

TEST_CASE("binned sum: float items (float grid, 3 levels of 22 bits) into float and double, any grouping or order") {
  check<float>();
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(cascade_test::base_seed() ^ 0xB10);
  for (auto const& [name, xs] : cases<float>(rng)) {
    INFO(name);
    CHECK(same_bits(grouped_sum<double, float>(xs, 0.0, rng), reproducible_sum<double, float>(xs, 0.0)));
  }
}

TEST_CASE("binned sum: double items (3 levels of 32 bits), any grouping or order, bitwise") { check<double>(); }

TEST_CASE("binned sum: 32-bit integer items (2 levels of 32 bits): exact") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(cascade_test::base_seed() ^ 0x132);
  std::vector<double> xs(50000);
  for (auto& x : xs) x = double(static_cast<int>(rng()));
  CHECK(same_bits(grouped_sum<double, int>(xs, 0.0, rng), exact_sum<double>(xs, 0.0)));
  CHECK(same_bits(grouped_sum<double, int>(xs, 0.0, rng, 300, true), exact_sum<double>(xs, 0.0)));
}

TEST_CASE("binned sum: long runs normalize into the carries") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(cascade_test::base_seed() ^ 0xCA);
  std::uniform_real_distribution<double> unit(0.5, 1.0);
  std::vector<double> xs(3 << 19);
  for (auto& x : xs) x = unit(rng) * 1024;  // every slice near 2^31 units of the top level
  double const expected = reproducible_sum<double, double>(xs, 0.0);
  CHECK(same_bits(grouped_sum<double, double>(xs, 0.0, rng, 1 << 21), expected));
  CHECK(same_bits(grouped_sum<double, double>(xs, 0.0, rng, 1 << 21, true), expected));
  CHECK(same_bits(grouped_sum<double, double>(xs, 0.0, rng, 70000), expected));
  std::vector<double> fs(xs.begin(), xs.end());
  for (auto& x : fs) x = float(x);
  CHECK(same_bits(grouped_sum<double, float>(fs, 0.0, rng, 1 << 21), reproducible_sum<double, float>(fs, 0.0)));
}

TEST_CASE("binned sum: special values, the top of the range, what is dropped") {
  std::mt19937_64 rng(1);
  auto sum = [&](std::vector<double> xs, double init = 0.0) {
    double const r = grouped_sum<double, double>(xs, init, rng);
    CHECK(same_bits(r, reproducible_sum<double, double>(xs, init)));
    return r;
  };
  CHECK(sum({INFINITY, 1.0}) == INFINITY);
  CHECK(sum({-INFINITY, 1.0}) == -INFINITY);
  CHECK(std::isnan(sum({INFINITY, -INFINITY})));
  CHECK(std::isnan(sum({NAN, 1.0})));
  CHECK(std::isnan(sum({1.0}, NAN)));
  CHECK(sum({DBL_MAX, DBL_MAX}) == INFINITY);
  CHECK(sum({DBL_MAX, DBL_MAX, -DBL_MAX}) == DBL_MAX);  // no intermediate overflow (scaled windows)
  CHECK(sum({DBL_MAX, 1e300, -DBL_MAX, 1.0}) == 1e300);  // 1.0 is far below the window: dropped
  CHECK(sum({0x1p-1074, 0x1p-1074}) == 0x1p-1073);      // denormals exact
  CHECK(sum({1.0, -1.0}) == 0.0);
  CHECK(!std::signbit(sum({1.0, -1.0})));
  CHECK(sum({}, 2.5) == 2.5);
  CHECK(sum({1e300, 1.0, -1e300}) == 0.0);  // 1.0 is below the lowest level of 1e300's window
  CHECK(sum({1.0, 0x1p-53}) == 1.0);        // a tie of the final rounding, to even
  // Float items: 1e30's window keeps bits down to 2^49; 1 is dropped (exact_plus keeps it).
  auto fsum = [&](std::vector<double> xs, double init = 0.0) {
    float const r = grouped_sum<float, float>(xs, init, rng);
    CHECK(same_bits(r, reproducible_sum<float, float>(xs, init)));
    return r;
  };
  CHECK(fsum({1e30, 1.0, -1e30, 0.5}) == 0.0f);
  CHECK(fsum({1e10, 1.0, -1e10, 0.5}) == 1.5f);
  CHECK(fsum({double(FLT_MAX), double(FLT_MAX), -double(FLT_MAX)}) == FLT_MAX);  // scaled windows
  CHECK(fsum({double(FLT_MAX), double(FLT_MAX)}) == INFINITY);
  CHECK(fsum({0x1p-149, 0x1p-149, 0x1p-148}) == 0x1p-147f);  // denormals exact
  CHECK(std::isnan(fsum({INFINITY, -INFINITY})));
  CHECK(fsum({1e20, -1e20, 3.0}, 0.5) == 0.5f);  // 3 rounds to 0 units of 1e20's lowest level (2^5)
  // The final rounding, ties to even, into float and double.
  CHECK(fsum({16777216.0, 1.0}) == 16777216.0f);
  CHECK(fsum({16777216.0, 3.0}) == 16777220.0f);
  CHECK(fsum({16777216.0, 1.0, 0x1p-20}) == 16777218.0f);  // just above the tie
  CHECK(fsum({-16777216.0, -1.0}) == -16777216.0f);
  CHECK(fsum({0x1p69, 0x1p45, 0x1p5}) == 0x1p69f + 0x1p46f);  // 65 bits: the tie broken 64 bits down
  CHECK(grouped_sum<double, float>({0x1p60, 0x1p7}, 0.0, rng) == 0x1p60);  // 2^7: half of 2^60's ulp
  CHECK(grouped_sum<double, float>({0x1p60, 0x3p7}, 0.0, rng) == 0x1p60 + 512);
  CHECK(grouped_sum<double, float>({0x1p60, 0x1p7, 0x1p5}, 0.0, rng) == 0x1p60 + 256);
  CHECK(grouped_sum<double, float>({0x1p60, 0x1p4}, 0.0, rng) == 0x1p60);  // 2^4: below the lowest level
  CHECK(fsum({0x1p-149}) == 0x1p-149f);        // the least denormal
  CHECK(fsum({0x1p-149, -0x1p-149}) == 0.0f);
}

}  // TEST_SUITE
