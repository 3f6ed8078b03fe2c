// The host side of the axis reductions: cascade::axes' checks, fast_divmod against the division it
// replaces, and the plans (detail/axes_plan.cuh) that merge, drop and order axes: what each shape
// becomes, that every plan walks the same items as the shape it came from, and the shape errors.
#include <doctest/doctest.h>

#include <cascade/reduce_axes.cuh>
#include <cuda/std/mdspan>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <stdexcept>
#include <vector>

#include "support/seed.hpp"

namespace {

using cascade::detail::axes_plan;
using cascade::detail::make_axes_plan;

template <class It>
cascade::array_view<It> shaped(It p, std::vector<long long> const& e, std::vector<long long> const& s) {
  cascade::array_view<It> v{p, static_cast<int>(e.size())};
  for (std::size_t a = 0; a < e.size(); ++a) v.extents[a] = e[a], v.strides[a] = s[a];
  return v;
}

// Every (output place, input offset) pair the plan reads, in the plan's order.
std::vector<std::pair<long long, long long>> walk(axes_plan const& p) {
  std::vector<std::pair<long long, long long>> r;
  for (long long o = 0; o < p.outputs; ++o)
    for (long long j = 0; j < p.reduced; ++j)
      r.push_back({p.kept.out_offset(o), p.kept.in.offset(o) + p.red.offset(j)});
  return r;
}

}  // namespace

TEST_CASE("cascade::axes: negative axes, repeats and range") {
  CHECK((cascade::axes{0, 2}.mask(3, "t")) == 5u);
  CHECK(cascade::axes{-1}.mask(3, "t") == 4u);
  CHECK(cascade::axes::all().mask(4, "t") == 15u);
  CHECK(cascade::axes{}.mask(2, "t") == 0u);
  CHECK((static_cast<cascade::axes>(cascade::axes_of<1, -1>{}).mask(3, "t")) == 6u);
  CHECK_THROWS_AS(cascade::axes{3}.mask(3, "t"), std::invalid_argument);
  CHECK_THROWS_AS(cascade::axes{-4}.mask(3, "t"), std::invalid_argument);
  CHECK_THROWS_AS((cascade::axes{2, -1}.mask(3, "t")), std::invalid_argument);
  CHECK_THROWS_AS((cascade::axes{0, 1, 2, 3, 4, 5, 6, 7, 0}), std::invalid_argument);
}

TEST_CASE("cascade::view of an mdspan: its extents and strides, in items, for each strided layout") {
  static_assert(!cascade::detail::mdspan_like<int*> && !cascade::detail::mdspan_like<cascade::array_view<int*>>);
  static int items[2 * 3 * 4];
  using ext = cuda::std::dextents<long long, 3>;
  auto const check = [](auto const& v, std::vector<long long> e, std::vector<long long> s) {
    REQUIRE(v.rank == 3);
    CHECK(v.data == items);
    for (int a = 0; a < 3; ++a) {
      CHECK(v.extents[a] == e[a]);
      CHECK(v.strides[a] == s[a]);
    }
  };
  check(cascade::view(cuda::std::mdspan<int, ext>(items, 2, 3, 4)), {2, 3, 4}, {12, 4, 1});
  check(cascade::view(cuda::std::mdspan<int, ext, cuda::std::layout_left>(items, 2, 3, 4)), {2, 3, 4}, {1, 2, 6});
  cuda::std::layout_stride::mapping<ext> const strided(ext(2, 3, 4), cuda::std::array<long long, 3>{1, 8, 2});
  check(cascade::view(cuda::std::mdspan<int, ext, cuda::std::layout_stride>(items, strided)), {2, 3, 4}, {1, 8, 2});
  // a static extent, and a const element type: the data handle is a pointer to const
  cuda::std::mdspan<int const, cuda::std::extents<int, 2, cuda::std::dynamic_extent>> const fixed(items, 5);
  auto const v = cascade::view(fixed);
  static_assert(cuda::std::is_same_v<decltype(v.data), int const*>);
  CHECK(v.rank == 2);
  CHECK(v.extents[1] == 5);
  CHECK(v.strides[0] == 5);
}

TEST_CASE("fast_divmod: the quotient of the division it replaces") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(cascade_test::base_seed() ^ 0xFD);
  std::vector<long long> divisors = {1, 2, 3, 5, 7, 31, 32, 33, 1000, 65535, 65536, 65537, (1ll << 31) - 1, 1ll << 31,
                                     (1ll << 32) - 1, 1ll << 32, (1ll << 40) + 7};
  for (int i = 0; i < 200; ++i) divisors.push_back(1 + static_cast<long long>(rng() % (1ull << (1 + rng() % 40))));
  for (long long d : divisors) {
    cascade::detail::fast_divmod const f(d);
    std::vector<long long> ns = {0, 1, d - 1, d, d + 1, (1ll << 32) - 1, 1ll << 32, (1ll << 33) + 5, (1ll << 62) + 3};
    for (int i = 0; i < 200; ++i) ns.push_back(static_cast<long long>(rng() % (1ull << 32)));
    for (long long n : ns) {
      if (n < 0) continue;
      INFO("n = ", n, ", d = ", d);
      REQUIRE(f.div(n) == n / d);
    }
  }
}

TEST_CASE("axes plans: merged and ordered axes") {
  float* p = nullptr;
  // row sums of a row-major 100 x 37 matrix: one contiguous run an output
  axes_plan a = make_axes_plan(shaped(p, {100, 37}, {37, 1}), shaped(p, {100}, {1}), 2u, true, "t");
  CHECK(a.outputs == 100);
  CHECK(a.reduced == 37);
  CHECK(a.contiguous_rows());
  CHECK(a.reduced_inner());
  // column sums: a thread an output
  axes_plan b = make_axes_plan(shaped(p, {100, 37}, {37, 1}), shaped(p, {37}, {1}), 1u, true, "t");
  CHECK_FALSE(b.reduced_inner());
  CHECK(b.red.rank == 1);
  CHECK(b.red.stride[0] == 37);
  // dims (1, 2) of a C-ordered 4 x 5 x 6: one axis of 30
  axes_plan c = make_axes_plan(shaped(p, {4, 5, 6}, {30, 6, 1}), shaped(p, {4}, {1}), 6u, false, "t");
  CHECK(c.red.rank == 1);
  CHECK(c.red.extent[0].divisor == 30);
  CHECK(c.contiguous_rows());
  // dims (0, 1) of a column-major 4 x 5 x 6: in index order they do not merge (a non-commutative op
  // folds axis 1 fastest); sorted by stride they are one contiguous axis
  axes_plan d = make_axes_plan(shaped(p, {4, 5, 6}, {1, 4, 20}), shaped(p, {6}, {1}), 3u, false, "t");
  CHECK(d.red.rank == 2);
  CHECK_FALSE(d.contiguous_rows());
  axes_plan e = make_axes_plan(shaped(p, {4, 5, 6}, {1, 4, 20}), shaped(p, {6}, {1}), 3u, true, "t");
  CHECK(e.red.rank == 1);
  CHECK(e.contiguous_rows());
  // extent-1 axes vanish; a kept pair merges when input and output both step as one
  axes_plan f = make_axes_plan(shaped(p, {1, 8, 1, 9, 10}, {720, 90, 90, 10, 1}), shaped(p, {1, 8, 9}, {72, 9, 1}), 20u,
                               true, "t");
  CHECK(f.kept.in.rank == 1);
  CHECK(f.outputs == 72);
  CHECK(f.red.rank == 1);
  // an extent 0 among the reduced axes: outputs get init, nothing is read
  axes_plan g = make_axes_plan(shaped(p, {3, 0}, {0, 1}), shaped(p, {3}, {1}), 2u, true, "t");
  CHECK(g.outputs == 3);
  CHECK(g.reduced == 0);
  CHECK(g.span == 0);
}

TEST_CASE("axes plans: a plan reads every item of its output, once, as the shape does") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(cascade_test::base_seed() ^ 0xA9);
  float* p = nullptr;
  for (int round = 0; round < 300; ++round) {
    int const rank = 1 + static_cast<int>(rng() % 4);
    std::vector<long long> e(rank), s(rank);
    for (auto& x : e) x = 1 + static_cast<long long>(rng() % 5);
    std::vector<int> order(rank);
    for (int i = 0; i < rank; ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), rng);
    long long step = 1;
    for (int k = rank - 1; k >= 0; --k) {
      s[order[k]] = rng() % 6 == 0 ? 0 : step;
      step *= e[order[k]] + static_cast<long long>(rng() % 2);
    }
    unsigned const mask = static_cast<unsigned>(rng() % (1u << rank));
    std::vector<long long> oe, os;
    for (int a = 0; a < rank; ++a)
      if (!((mask >> a) & 1u)) oe.push_back(e[a]);
    os.resize(oe.size());
    long long ostep = 1;
    for (int a = static_cast<int>(oe.size()) - 1; a >= 0; --a) os[a] = ostep, ostep *= oe[a];
    for (bool commutative : {false, true}) {
      axes_plan const plan = make_axes_plan(shaped(p, e, s), shaped(p, oe, os), mask, commutative, "t");
      // the naive walk: kept row-major, reduced row-major in index order
      std::vector<std::pair<long long, long long>> want;
      long long outputs = 1, reduced = 1;
      for (int a = 0; a < rank; ++a) ((mask >> a) & 1u ? reduced : outputs) *= e[a];
      for (long long o = 0; o < outputs; ++o) {
        long long base = 0, rest = o, where = 0, k = static_cast<long long>(oe.size()) - 1;
        for (int a = rank - 1; a >= 0; --a)
          if (!((mask >> a) & 1u)) {
            base += (rest % e[a]) * s[a];
            where += (rest % e[a]) * os[k--];
            rest /= e[a];
          }
        for (long long j = 0; j < reduced; ++j) {
          long long off = 0, r = j;
          for (int a = rank - 1; a >= 0; --a)
            if ((mask >> a) & 1u) off += (r % e[a]) * s[a], r /= e[a];
          want.push_back({where, base + off});
        }
      }
      auto got = walk(plan);
      INFO("round ", round, ", mask ", mask, commutative ? ", commutative" : ", in order");
      REQUIRE(plan.outputs == outputs);
      REQUIRE(plan.reduced == reduced);
      // the same items for each output; for an op in order, in the same order too
      auto by_output = [](std::vector<std::pair<long long, long long>> v, bool sorted) {
        std::stable_sort(v.begin(), v.end(), [](auto const& x, auto const& y) { return x.first < y.first; });
        if (sorted) std::sort(v.begin(), v.end());
        return v;
      };
      REQUIRE(by_output(got, commutative) == by_output(want, commutative));
    }
  }
}

TEST_CASE("axes plans: shape errors") {
  float* p = nullptr;
  auto const in = shaped(p, {4, 5}, {5, 1});
  CHECK_THROWS_AS(make_axes_plan(in, shaped(p, {4, 5}, {5, 1}), 2u, true, "t"), std::invalid_argument);  // keepdim, 5 != 1
  CHECK_THROWS_AS(make_axes_plan(in, shaped(p, {5}, {1}), 2u, true, "t"), std::invalid_argument);
  CHECK_THROWS_AS(make_axes_plan(in, shaped(p, {4, 1, 1}, {1, 1, 1}), 2u, true, "t"), std::invalid_argument);
  CHECK_NOTHROW(make_axes_plan(in, shaped(p, {4, 1}, {1, 1}), 2u, true, "t"));
}
