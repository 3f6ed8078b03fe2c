// Operand order: ops marked cascade::non_commutative under every order-preserving tree with one
// finishing strategy (chosen at build time from support/strategies.cuh's list; one executable per
// finish; a finish that reorders runs only the default_policy checks), several
// block sizes and coarse factors, and default_policy, must give exactly the left-to-right fold:
// 2x2 matrix product mod 2^32 and (hash, length) concatenation on random data against a host fold,
// "keep the right operand" on counting iterators beyond 2^32. Reordering trees and finish::atomic
// are rejected at compile time (test/checks/compile_fail).
#include <doctest/doctest.h>

#include <cascade/cascade.cuh>
#include <thrust/device_vector.h>
#include <thrust/iterator/counting_iterator.h>

#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "support/noncommutative_ops.cuh"
#include "support/seed.hpp"
#include "support/strategies.cuh"

#if !defined(CASCADE_TEST_FINISH_INDEX) || !defined(CASCADE_TEST_FINISH)
#error "define CASCADE_TEST_FINISH_INDEX and CASCADE_TEST_FINISH, e.g. -DCASCADE_TEST_FINISH_INDEX=0 -DCASCADE_TEST_FINISH=recursive"
#endif

namespace {

using namespace cascade_test;
using finish = cascade::detail::at_t<CASCADE_TEST_FINISH_INDEX, finishes>;
static_assert(std::string_view(finish::name).ends_with(CASCADE_TEST_STR(CASCADE_TEST_FINISH)),
              "test/meson.build's finish names and support/strategies.cuh's lists disagree");

template <class Tree, int B, int C>
using pol = cascade::policy<B, C, Tree, finish>;

template <class Tree, class F>
void for_shapes(F& f) {
  f(pol<Tree, 32, 1>{});
  f(pol<Tree, 128, 4>{});
  f(pol<Tree, 1024, 3>{});
}

// Every order-preserving tree of the registry (and the test tree's toy) in three shapes, and
// default_policy's shape; nothing when the finish reorders (compile_fail checks that it is refused).
template <class F>
void for_each_ordered_policy(F f) {
  if constexpr (finish::preserves_order) {
    namespace t = cascade::tree;
    cascade::detail::for_each_type(cascade::detail::filter_t<compiled_trees, keeps_order>{},
                                   [&](auto tree) { for_shapes<decltype(tree)>(f); });
    f(cascade::policy<256, 16, t::by_commutativity<t::sequential, t::shuffle>, finish>{});  // default_policy's shape
  }
}

std::vector<long long> sizes(std::mt19937_64& rng) {
  std::vector<long long> s = {0, 1, 2, 31, 32, 33, 127, 128, 129, 1023, 1024, 1025, 4099, 65537, 393241,
                              (1 << 20) - 1, (1 << 20) + 7, (1 << 22) + 3};
  for (int i = 0; i < 2; ++i) s.push_back(std::uniform_int_distribution<long long>(2, 1 << 21)(rng));
  if (char const* cap = std::getenv("CASCADE_TEST_MAX_N")) {
    long long const max_n = std::atoll(cap);
    std::erase_if(s, [&](long long n) { return n > max_n; });
  }
  return s;
}

template <class T, class Op>
T host_fold(std::vector<T> const& xs, T init, Op op) {
  for (T const& x : xs) init = op(init, x);
  return init;
}

template <class T, class Op>
void check_in_order(std::vector<T> const& xs, T init, Op op, T unit) {
  thrust::device_vector<T> d(xs.begin(), xs.end());
  T const* p = thrust::raw_pointer_cast(d.data());
  long long const n = static_cast<long long>(xs.size());
  T const expected = host_fold(xs, init, op);
  auto const marked = cascade::non_commutative(op);
  for_each_ordered_policy([&](auto policy) {
    using P = decltype(policy);
    CAPTURE(P::block_size);
    CAPTURE(P::coarse_factor);
    CAPTURE(std::string(P::tree_type::name));
    CHECK(cascade::reduce(policy, p, p + n, init, marked) == expected);
  });
  CHECK(cascade::reduce(cascade::default_policy{}, p, p + n, init, marked) == expected);
  // With the identity carried by a monoid, and the 3-argument form that starts from it.
  CHECK(cascade::reduce(cascade::default_policy{}, p, p + n, cascade::non_commutative(cascade::monoid(op, unit))) ==
        host_fold(xs, unit, op));
}

}  // namespace

TEST_SUITE("gpu") {

TEST_CASE("2x2 matrix product mod 2^32 keeps operand order") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x6001);
  for (long long n : sizes(rng)) {
    CAPTURE(n);
    std::vector<mat2> xs(n);
    for (auto& m : xs) m = mat2::random_invertible(rng);
    mat2 const init{3, 1, 4, 1};  // not the unit: init is applied once, on the left
    check_in_order(xs, init, mat2_product{}, mat2::unit());
    check_in_order(xs, mat2::unit(), mat2_product{}, mat2::unit());
  }
}

TEST_CASE("(hash, length) concatenation keeps operand order") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x6002);
  for (long long n : sizes(rng)) {
    CAPTURE(n);
    std::vector<hashed> xs(n);
    // Strings of 1..3 random characters, each already hashed.
    for (auto& s : xs) {
      s = {0, 0};
      for (int k = 1 + static_cast<int>(rng() % 3); k > 0; --k) s = hash_concat{}(s, hashed{rng() % 256, 1});
    }
    check_in_order(xs, hashed{12345, 2}, hash_concat{}, hashed{0, 0});
  }
}

TEST_CASE("the matrix product is really order-sensitive: a reversed fold differs") {
  // Guards the two tests above against data that would make order invisible.
  std::mt19937_64 rng(base_seed() ^ 0x6003);
  // At the largest size of the sweep, swapping one adjacent pair in the middle changes the product.
  std::vector<mat2> xs((1 << 22) + 3);
  for (auto& m : xs) m = mat2::random_invertible(rng);
  auto product = [&] {
    mat2 p = mat2::unit();
    for (auto const& m : xs) p = mat2_product{}(p, m);
    return p;
  };
  mat2 const forward = product();
  std::swap(xs[xs.size() / 2], xs[xs.size() / 2 + 1]);
  CHECK_FALSE(forward == product());
}

TEST_CASE("keep-right over counting iterators: the last item, beyond 2^32") {
  for (std::uint64_t n : {std::uint64_t(1), std::uint64_t(5000011), (std::uint64_t(1) << 32) + 15}) {
    CAPTURE(n);
    thrust::counting_iterator<std::uint64_t> count(0);
    auto const op = cascade::non_commutative(keep_right{});
    CHECK(cascade::reduce(cascade::default_policy{}, count, count + n, std::uint64_t(7), op) == n - 1);
    [&](auto f) {  // generic, so that a finish that reorders never instantiates the call
      if constexpr (decltype(f)::preserves_order)
        CHECK(cascade::reduce(cascade::policy<256, 8, cascade::tree::interleaved, decltype(f)>{}, count, count + n,
                              std::uint64_t(7), op) == n - 1);
    }(finish{});
  }
}

}  // TEST_SUITE
