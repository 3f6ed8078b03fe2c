// Exact and binned sums made apart and added as integers (exact/exact_partial.cuh: what the ranks of
// a distributed exact_plus / reproducible_plus exchange), on the host, where the accumulators run the
// same code as on the device but for the atomics. Items split into "ranks" of random sizes (some
// empty), each rank's items folded as a device call would (runs into states, merged in a random
// order), its final state added to its area (add_state); the areas added (area_sum) in rank order and in
// a random order, and the total rounded once with init (round_area): bitwise the independent
// references' (support/exact_reference.cpp for exact_plus, support/binned_reference.hpp for
// reproducible_plus), which is what one call over all the items gives. Runs in CI (no GPU).
#include <doctest/doctest.h>

#include <cascade/exact/exact_partial.cuh>

#include <algorithm>
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

template <class T>
bool same_bits(T a, T b) {
  return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof a) == 0;
}

// The four accumulators: the item type they take, their state and area, a deposit and a merge.
struct exact_double {
  using item = double;
  using state = exact::state<3>;
  using area = exact::spill_area;
  static void deposit(state& s, double x, area& a) { exact::deposit(s, x, &a); }
  static state merge(state const& x, state const& y, area& a) { return exact::merge(x, y, &a); }
  template <class R>
  static R reference(std::vector<double> const& xs, double init) { return cascade_test::exact_sum<R>(xs, init); }
};
struct exact_float {
  using item = float;
  using state = binned::small_state;
  using area = exact::spill_area;
  static void deposit(state& s, double x, area& a) { binned::deposit(s, static_cast<float>(x), binned::spill_below{&a}); }
  static state merge(state const& x, state const& y, area& a) { return binned::merge(x, y, binned::spill_below{&a}); }
  template <class R>
  static R reference(std::vector<double> const& xs, double init) { return cascade_test::exact_sum<R>(xs, init); }
};
struct binned_double {
  using item = double;
  using state = binned::state<3>;
  using area = binned::atomic_area;
  static void deposit(state& s, double x, area&) { binned::deposit(s, x); }
  static state merge(state const& x, state const& y, area&) { return binned::merge(x, y); }
  template <class R>
  static R reference(std::vector<double> const& xs, double init) { return cascade_test::reproducible_sum<R, double>(xs, init); }
};
struct binned_float {
  using item = float;
  using state = binned::small_state;
  using area = binned::atomic_area;
  static void deposit(state& s, double x, area&) { binned::deposit(s, static_cast<float>(x), binned::drop_below{}); }
  static state merge(state const& x, state const& y, area&) { return binned::merge(x, y, binned::drop_below{}); }
  template <class R>
  static R reference(std::vector<double> const& xs, double init) { return cascade_test::reproducible_sum<R, float>(xs, init); }
};

// One rank's part, as its call leaves it: runs of random length into states, merged in a random order
// (spilling into the area where the accumulator does), and the final state added to the area.
template <class A>
typename A::area rank_area(std::vector<double> const& xs, std::mt19937_64& rng) {
  typename A::area area{};
  std::vector<typename A::state> states;
  std::uniform_int_distribution<int> run(1, 300);
  for (std::size_t i = 0; i < xs.size();) {
    typename A::state s{};
    for (int k = run(rng); k > 0 && i < xs.size(); --k, ++i) A::deposit(s, xs[i], area);
    states.push_back(s);
  }
  while (states.size() > 1) {
    std::size_t const a = std::uniform_int_distribution<std::size_t>(0, states.size() - 1)(rng);
    typename A::state const x = states[a];
    states.erase(states.begin() + a);
    std::size_t const b = std::uniform_int_distribution<std::size_t>(0, states.size() - 1)(rng);
    states[b] = A::merge(states[b], x, area);
  }
  add_state(&area, states.empty() ? typename A::state{} : states[0]);
  return area;
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
  add("normal", [&] { return normal(rng) * 100; }, 6000);
  add("growing magnitudes (windows differ between ranks)", [&, i = 0]() mutable { return std::ldexp(normal(rng), i++ / 60); }, 6000);
  add("whole exponent range", [&] {
    double const v = std::ldexp(1.0 + unit(rng), e(rng));
    return std::isinf(static_cast<T>(v)) ? 0.0 : (rng() & 1 ? -v : v);
  }, 6000);
  add("cancellation", [&] {
    int const k = int(rng() % 3);
    return k == 0 ? 1e30 : k == 1 ? -1e30 : unit(rng);
  }, 3000);
  add("denormals", [&] { return (int(rng() % 2001) - 1000) * double(std::numeric_limits<T>::denorm_min()); }, 2000);
  add("an infinity among them", [&, i = 0]() mutable { return i++ == 1234 ? double(INFINITY) : normal(rng); }, 3000);
  return out;
}

template <class A, class R>
void check_ranks() {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(cascade_test::base_seed());
  for (auto const& [name, xs] : cases<typename A::item>(rng)) {
    CAPTURE(name);
    for (int ranks : {1, 2, 3, 5, 8}) {
      CAPTURE(ranks);
      // Cut points at random; some ranks get nothing.
      std::vector<std::size_t> cuts{0, xs.size()};
      for (int r = 1; r < ranks; ++r) cuts.push_back(rng() % 4 == 0 ? cuts[r % 2] : rng() % (xs.size() + 1));
      std::sort(cuts.begin(), cuts.end());
      std::vector<typename A::area> areas;
      for (int r = 0; r < ranks; ++r)
        areas.push_back(rank_area<A>(std::vector<double>(xs.begin() + cuts[r], xs.begin() + cuts[r + 1]), rng));
      double const init = rng() & 1 ? 0.0 : static_cast<float>(std::normal_distribution<double>(0.0, 10.0)(rng));
      R const expected = A::template reference<R>(xs, init);
      typename A::area in_order = areas[0];
      for (int r = 1; r < ranks; ++r) in_order = area_sum{}(in_order, areas[r]);
      CHECK(same_bits(round_area<R, typename A::state>{init}(in_order), expected));
      std::shuffle(areas.begin(), areas.end(), rng);
      typename A::area shuffled = areas[0];
      for (int r = 1; r < ranks; ++r) shuffled = area_sum{}(shuffled, areas[r]);
      CHECK(same_bits(round_area<R, typename A::state>{init}(shuffled), expected));
    }
  }
}

}  // namespace

TEST_SUITE("cpu") {

TEST_CASE("exact_plus across ranks: the areas' integer sum, rounded once, is the exact sum") {
  check_ranks<exact_double, double>();
  check_ranks<exact_double, float>();
  check_ranks<exact_float, float>();
  check_ranks<exact_float, double>();
}

TEST_CASE("reproducible_plus across ranks: bitwise the binned sum of all the items") {
  check_ranks<binned_double, double>();
  check_ranks<binned_float, float>();
}

TEST_CASE("an empty rank's area is all zeros, and adds nothing") {
  exact::spill_area spill{};
  add_state(&spill, exact::state<3>{});
  add_state(&spill, binned::small_state{});
  exact::spill_area const zero{};
  CHECK(std::memcmp(&spill, &zero, sizeof spill) == 0);
  binned::atomic_area area{};
  add_state(&area, binned::state<3>{});
  add_state(&area, binned::small_state{});
  binned::atomic_area const none{};
  CHECK(std::memcmp(&area, &none, sizeof area) == 0);
  CHECK(round_area<double, exact::state<3>>{2.5}(spill) == 2.5);
  CHECK(round_area<float, binned::state<3>>{-1.0}(area) == -1.0f);
}

}  // TEST_SUITE("cpu")
