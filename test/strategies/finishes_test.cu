// One finishing strategy (chosen at build time, CASCADE_TEST_FINISH; one executable per finish)
// with every tree, several block sizes and coarse factors, types and iterator kinds, sizes from one
// tile to beyond 2^32; init applied exactly once; bitwise determinism over repeated runs (every
// finish but atomic); 4 streams x 2 host threads at once.
#include <doctest/doctest.h>

#include <cascade/cascade.cuh>
#include <thrust/device_vector.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string_view>
#include <thread>
#include <type_traits>
#include <vector>

#include "support/policies.cuh"
#include "support/references.cuh"
#include "support/seed.hpp"
#include "support/strategies.cuh"

#if !defined(CASCADE_TEST_FINISH_INDEX) || !defined(CASCADE_TEST_FINISH)
#error "define CASCADE_TEST_FINISH_INDEX and CASCADE_TEST_FINISH, e.g. -DCASCADE_TEST_FINISH_INDEX=4 -DCASCADE_TEST_FINISH=last_block"
#endif

namespace {

using namespace cascade_test;
using finish = cascade::detail::at_t<CASCADE_TEST_FINISH_INDEX, finishes>;
static_assert(std::string_view(finish::name).ends_with(CASCADE_TEST_STR(CASCADE_TEST_FINISH)),
              "test/meson.build's finish names and support/strategies.cuh's lists disagree");
constexpr char const* finish_name = finish::name;

template <class Tree, int B, int C>
using pol = cascade::policy<B, C, Tree, finish>;

// Three shapes per tree: the smallest tile, a middle one, the largest block (the middle one alone
// where the build only compile-checks: CASCADE_TEST_FEW_POLICIES, support/policies.cuh).
template <class Tree, class F>
void for_tree_shapes(F& f) {
#ifndef CASCADE_TEST_FEW_POLICIES
  f(pol<Tree, 32, 1>{});
#endif
  f(pol<Tree, 256, 8>{});
#ifndef CASCADE_TEST_FEW_POLICIES
  f(pol<Tree, 1024, 2>{});
#endif
}

// Every tree of the registry that can feed this finish. Per-thread trees (tree::none: one atomic per
// thread into a single address) are checked up to n = 2^17: beyond, the contention of its
// compare-and-swap path costs minutes and proves nothing new.
template <class F>
void for_each_tree_policy(F f, long long n) {
  cascade::detail::for_each_type(trees_for<finish>{}, [&](auto tree) {
    using Tree = decltype(tree);
    if (!Tree::per_thread_results || n <= (1 << 17)) for_tree_shapes<Tree>(f);
  });
}

// 8 bytes, no native atomic: finish::atomic takes its compare-and-swap path.
struct min_count {
  int lo;
  int count;
  bool operator==(min_count const&) const = default;
};
struct min_count_op {
  __host__ __device__ min_count operator()(min_count const& a, min_count const& b) const {
    return {a.lo < b.lo ? a.lo : b.lo, a.count + b.count};
  }
};

template <class T, class Op>
void check_exact(std::vector<T> const& xs, T init, Op op) {
  check_policies_exact(xs, init, op, [n = static_cast<long long>(xs.size())](auto f) { for_each_tree_policy(f, n); });
}

std::vector<long long> sizes(std::mt19937_64& rng) {
  std::vector<long long> s = {1, 31, 32, 33, 1025, 2048, 2049, 8193, 100003, (1 << 20) + 7};
  s.push_back(std::uniform_int_distribution<long long>(2, 1 << 21)(rng));
  if (char const* cap = std::getenv("CASCADE_TEST_MAX_N")) {
    long long const max_n = std::atoll(cap);
    std::erase_if(s, [&](long long n) { return n > max_n; });
  }
  return s;
}

struct plus_one {
  __host__ __device__ long long operator()(long long x) const { return x + 1; }
};

}  // namespace

TEST_SUITE("gpu") {

TEST_CASE("finish with every tree: int32, integer-valued float, an 8-byte struct") {
  CASCADE_SEED_INFO();
  INFO("finish ", finish_name);
  std::mt19937_64 rng(base_seed() ^ 0x5001);
  for (long long n : sizes(rng)) {
    CAPTURE(n);
    std::uniform_int_distribution<int> ints(-1000, 1000), small(-8, 8);
    std::vector<int> i32(n);
    for (auto& x : i32) x = ints(rng);
    check_exact(i32, 42, cascade::plus{});  // init exactly once: 42 + sum
    check_exact(i32, INT_MAX, cascade::minimum{});
    check_exact(i32, -5, cascade::maximum{});
    std::vector<float> f32(n);  // every partial sum exact in float, so any order matches
    for (auto& x : f32) x = static_cast<float>(small(rng));
    check_exact(f32, 42.0f, cascade::plus{});
    std::vector<min_count> mc(n);
    for (auto& x : mc) x = {ints(rng), 1};
    check_exact(mc, min_count{INT_MAX, 0}, min_count_op{});
  }
}

TEST_CASE("init is applied exactly once: 42 for plus, 3 for multiplies") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x5002);
  for (long long n : {1ll, 5000ll, 1ll << 20}) {
    CAPTURE(n);
    std::vector<std::uint32_t> xs(n);  // odd factors, unsigned: the product is exact modulo 2^32
    for (auto& x : xs) x = static_cast<std::uint32_t>(rng()) | 1u;
    thrust::device_vector<std::uint32_t> d(xs.begin(), xs.end());
    auto const* p = thrust::raw_pointer_cast(d.data());
    std::uint32_t product = 3, sum = 42;
    for (auto x : xs) product *= x, sum += x;
    using P = pol<cascade::tree::shuffle, 256, 4>;
    CHECK(cascade::reduce(P{}, p, p + n, std::uint32_t(3), cascade::multiplies{}) == product);
    CHECK(cascade::reduce(P{}, p, p + n, std::uint32_t(42), cascade::plus{}) == sum);
  }
}

TEST_CASE("iterator kinds and sizes beyond 2^32") {
  using P = pol<cascade::tree::sequential, 512, 8>;
  thrust::counting_iterator<long long> count(0);
  long long const n = 3000017;
  CHECK(cascade::reduce(P{}, count, count + n, 5ll) == 5 + n * (n - 1) / 2);
  auto shifted = thrust::make_transform_iterator(count, plus_one{});
  CHECK(cascade::reduce(P{}, shifted, shifted + n, 0ll) == n * (n + 1) / 2);
  thrust::device_vector<int> d(n, 2);
  CHECK(cascade::reduce(P{}, d.begin(), d.end(), 1) == 2 * n + 1);
  thrust::device_vector<int> out(1, -1);
  cascade::reduce_into(P{}, d.begin(), d.end(), out.begin(), 1, cascade::plus{});  // fancy output iterator
  CHECK(out[0] == 2 * n + 1);

  for (std::uint64_t big : {(1ull << 32) + 17, (1ull << 33) + 3}) {
    CAPTURE(big);
    thrust::counting_iterator<std::uint64_t> c(0);
    auto const expected = static_cast<std::uint64_t>(static_cast<unsigned __int128>(big) * (big - 1) / 2);
    CHECK(cascade::reduce(P{}, c, c + big, std::uint64_t(0)) == expected);
    thrust::constant_iterator<int> three(3);
    CHECK(cascade::reduce(P{}, three, three + big, std::int64_t(7)) == 7 + 3 * static_cast<std::int64_t>(big));
  }
}

TEST_CASE("float results are bitwise identical over 20 runs (every deterministic finish)") {
  if constexpr (finish::deterministic) {
    CASCADE_SEED_INFO();
    std::mt19937_64 rng(base_seed() ^ 0x5003);
    std::uniform_real_distribution<float> reals(-1, 1);
    for (long long n : {100003ll, (1ll << 22) + 5}) {
      CAPTURE(n);
      std::vector<float> xs(n);
      for (auto& x : xs) x = reals(rng);
      thrust::device_vector<float> d(xs.begin(), xs.end());
      float const* p = thrust::raw_pointer_cast(d.data());
      auto check = [&](auto policy) {
        float const first = cascade::reduce(policy, p, p + n, 0.0f);
        for (int run = 1; run < 20; ++run) {
          float const again = cascade::reduce(policy, p, p + n, 0.0f);
          REQUIRE(std::memcmp(&first, &again, sizeof(float)) == 0);
        }
      };
      check(pol<cascade::tree::sequential, 256, 8>{});
      check(pol<cascade::tree::shuffle, 128, 1>{});
    }
  }
}

TEST_CASE("4 streams x 2 host threads at once all get their own answer") {
  CASCADE_SEED_INFO();
  constexpr int threads = 2, streams_per_thread = 4, rounds = 10;
  std::mt19937_64 rng(base_seed() ^ 0x5004);
  std::uniform_int_distribution<int> ints(-1000, 1000);
  std::vector<std::vector<int>> inputs;
  std::vector<thrust::device_vector<int>> device_inputs;
  std::vector<long long> sums;
  for (int i = 0; i < threads * streams_per_thread; ++i) {
    inputs.emplace_back((1 << 20) + 777 * i);
    long long s = 0;
    for (auto& x : inputs.back()) s += (x = ints(rng));
    sums.push_back(s);
    device_inputs.emplace_back(inputs.back().begin(), inputs.back().end());
  }
  std::vector<int> wrong(threads, 0);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      std::vector<cudaStream_t> streams(streams_per_thread);
      for (auto& s : streams) CASCADE_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
      int* d_out = nullptr;
      CASCADE_CUDA_CHECK(cudaMalloc(&d_out, streams_per_thread * sizeof(int)));
      for (int r = 0; r < rounds; ++r) {
        for (int s = 0; s < streams_per_thread; ++s) {
          auto const& d = device_inputs[t * streams_per_thread + s];
          int const* p = thrust::raw_pointer_cast(d.data());
          // alternate trees so different kernels run side by side
          if (s % 2 == 0)
            cascade::reduce_into(pol<cascade::tree::sequential, 256, 8>{}.on(streams[s]), p, p + d.size(), d_out + s, r,
                                 cascade::plus{});
          else
            cascade::reduce_into(pol<cascade::tree::shuffle, 128, 2>{}.on(streams[s]), p, p + d.size(), d_out + s, r,
                                 cascade::plus{});
        }
        for (int s = 0; s < streams_per_thread; ++s) {
          CASCADE_CUDA_CHECK(cudaStreamSynchronize(streams[s]));
          int got = 0;
          CASCADE_CUDA_CHECK(cudaMemcpy(&got, d_out + s, sizeof(int), cudaMemcpyDeviceToHost));
          wrong[t] += got != static_cast<int>(sums[t * streams_per_thread + s] + r);
        }
      }
      CASCADE_CUDA_CHECK(cudaFree(d_out));
      for (auto& s : streams) CASCADE_CUDA_CHECK(cudaStreamDestroy(s));
    });
  }
  for (auto& th : pool) th.join();
  for (int t = 0; t < threads; ++t) CHECK(wrong[t] == 0);
}

}  // TEST_SUITE("gpu")
