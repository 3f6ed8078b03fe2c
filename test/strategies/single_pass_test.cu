// The single-pass machinery behind default_policy: the per-stream state of finish::last_block and
// finish::flagged (tickets and flags reset by the kernel, reused across calls, grids and the two
// finishes, never shared between streams, bypassed under graph capture and when a grid outgrows
// it), finish::cluster, and default_policy and tuned_policy of every GPU class at every range
// boundary of every tuning table (every item size and op kind, a non-commutative op too) against host
// folds and CUB; which class a device's architecture and bandwidth pick (no GPU needed).
#include <doctest/doctest.h>

#include <cascade/cascade.cuh>
#include <thrust/device_vector.h>

#include <climits>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "support/noncommutative_ops.cuh"
#include "support/references.cuh"
#include "support/seed.hpp"

namespace {

using namespace cascade_test;
namespace tuning = cascade::tuning;

using last_block = cascade::policy<256, 4, cascade::tree::shuffle, cascade::finish::last_block>;
// finish::cluster where this program has 9.0 code (a build for sm_80 only has none: last_block there)
using cluster = cascade::policy<256, 4, cascade::tree::shuffle,
                                cascade::compiled_or_t<cascade::finish::cluster, cascade::finish::last_block>>;
using flagged = cascade::policy<256, 4, cascade::tree::shuffle, cascade::finish::flagged>;
// 32-thread blocks: the largest grid (32 per SM), whose 8-byte partials outgrow the stream's flags
using flagged_wide = cascade::policy<32, 1, cascade::tree::shuffle, cascade::finish::flagged>;

long long max_n() {
  char const* cap = std::getenv("CASCADE_TEST_MAX_N");
  return cap ? std::atoll(cap) : (1ll << 23);
}

template <class Ranges>
struct bounds;
template <class... R>
struct bounds<tuning::ranges<R...>> {
  static std::vector<long long> get() { return {cascade::detail::range_bound<R>()...}; }  // this device's
};

// 1, 2, a few odd sizes, and both sides of every bound of the entry in every class's table and the
// portable one (up to 2^23).
template <int Bytes, tuning::op_kind Kind, class... Classes>
std::vector<long long> boundary_sizes_of(std::mt19937_64& rng, tuning::gpu_list<Classes...>) {
  std::vector<long long> sizes = {1, 2, 31, 1000, 4097, 65537};
  auto const add = [&](std::vector<long long> const& table_bounds) {
    for (long long b : table_bounds) {
      if (b < 0) continue;
      sizes.push_back(b);
      sizes.push_back(b + 1);
      sizes.push_back(std::uniform_int_distribution<long long>(b / 2 + 1, b)(rng));
    }
  };
  (add(bounds<typename tuning::table<Classes, Bytes, Kind>::type>::get()), ...);
  add(bounds<typename tuning::table<tuning::portable, Bytes, Kind>::type>::get());
  std::erase_if(sizes, [](long long n) { return n > max_n(); });
  return sizes;
}
template <int Bytes, tuning::op_kind Kind>
std::vector<long long> boundary_sizes(std::mt19937_64& rng) {
  return boundary_sizes_of<Bytes, Kind>(rng, tuning::tuned_gpus{});
}

// Every class's table and the portable one on this device, beside default_policy (which runs the
// device's class's).
template <class F, class... Classes>
void for_each_class(F&& f, tuning::gpu_list<Classes...>) {
  (f(cascade::tuned_policy<Classes>{}), ...);
  f(cascade::tuned_policy<tuning::portable>{});
}

template <class V, class T, class Op>
void check_default(std::vector<V> const& xs, T init, Op op) {
  T expected = init;
  for (V const& x : xs) expected = static_cast<T>(op(expected, static_cast<T>(x)));
  thrust::device_vector<V> d(xs.begin(), xs.end());
  V const* p = thrust::raw_pointer_cast(d.data());
  auto const n = static_cast<std::int64_t>(xs.size());
  // bool-valued checks: T need not print (mat2)
  if constexpr (cascade::is_commutative_v<Op>) REQUIRE((cub_reduce(p, n, init, op) == expected));
  CHECK((cascade::reduce(cascade::default_policy{}, p, p + n, init, op) == expected));
  thrust::device_vector<T> out(1);
  cascade::reduce_into(cascade::default_policy{}, p, p + n, thrust::raw_pointer_cast(out.data()), init, op);
  T const into = out[0];
  CHECK((into == expected));
  for_each_class(
      [&](auto tuned) {
    int const class_min_gbs = decltype(tuned)::gpu_class::min_gbs;  // which class's table
    CAPTURE(class_min_gbs);
        CHECK((cascade::reduce(tuned, p, p + n, init, op) == expected));
      },
      tuning::tuned_gpus{});
}

template <class V, class T, int Bytes>
void check_item_size(std::mt19937_64& rng, int lo, int hi) {
  static_assert(tuning::item_bytes_of<V> == Bytes);
  std::uniform_int_distribution<int> values(lo, hi);
  for (long long n : boundary_sizes<Bytes, tuning::op_kind::sum>(rng)) {
    CAPTURE(n);
    std::vector<V> xs(n);
    for (auto& x : xs) x = static_cast<V>(values(rng));
    check_default(xs, T(7), cascade::plus{});
  }
  for (long long n : boundary_sizes<Bytes, tuning::op_kind::min_max>(rng)) {
    CAPTURE(n);
    std::vector<V> xs(n);
    for (auto& x : xs) x = static_cast<V>(values(rng));
    check_default(xs, T(hi), cascade::minimum{});
    check_default(xs, T(lo), cascade::maximum{});
  }
}

}  // namespace

TEST_SUITE("gpu") {

TEST_CASE("default_policy and every tuned_policy on both sides of every range bound of every tuning table") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x5101);
  check_item_size<std::int8_t, int, 1>(rng, -100, 100);
  check_item_size<std::uint16_t, std::uint32_t, 2>(rng, 0, 60000);
  check_item_size<int, int, 4>(rng, -1000, 1000);
  check_item_size<float, float, 4>(rng, -8, 8);  // integer-valued: every order gives the exact sum
  check_item_size<double, double, 8>(rng, -1000, 1000);
  check_item_size<std::int64_t, std::int64_t, 8>(rng, INT_MIN, INT_MAX);
}

// argmin, argmax and minmax of xs (first occurrence) under default_policy and each class's table.
template <class V>
void check_arg(std::vector<V> const& xs) {
  cascade::indexed<V> lo{0, xs[0]}, hi{0, xs[0]};
  for (std::size_t i = 1; i < xs.size(); ++i) {
    if (xs[i] < lo.value) lo = {static_cast<std::int64_t>(i), xs[i]};
    if (hi.value < xs[i]) hi = {static_cast<std::int64_t>(i), xs[i]};
  }
  thrust::device_vector<V> d(xs.begin(), xs.end());
  V const* p = thrust::raw_pointer_cast(d.data());
  auto const n = static_cast<std::int64_t>(xs.size());
  CHECK((cascade::argmin(cascade::default_policy{}, p, p + n) == lo));
  CHECK((cascade::argmax(cascade::default_policy{}, p, p + n) == hi));
  for_each_class(
      [&](auto tuned) {
        int const class_min_gbs = decltype(tuned)::gpu_class::min_gbs;
        CAPTURE(class_min_gbs);
        CHECK((cascade::argmin(tuned, p, p + n) == lo));
        auto const both = cascade::minmax(tuned, p, p + n);
        CHECK((both.min == lo && both.max == hi));
      },
      tuning::tuned_gpus{});
}

TEST_CASE("argmin, argmax, minmax on both sides of every range bound of the arg entries") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x5106);
  static_assert(tuning::op_kind_of<cascade::arg_min> == tuning::op_kind::arg);
  for (long long n : boundary_sizes<1, tuning::op_kind::arg>(rng)) {
    CAPTURE(n);
    std::vector<std::int8_t> xs(n);
    for (auto& x : xs) x = static_cast<std::int8_t>(static_cast<int>(rng() % 256) - 128);  // many ties
    check_arg(xs);
  }
  for (long long n : boundary_sizes<2, tuning::op_kind::arg>(rng)) {
    CAPTURE(n);
    std::vector<std::uint16_t> xs(n);
    for (auto& x : xs) x = static_cast<std::uint16_t>(rng() % 60000);
    check_arg(xs);
  }
  for (long long n : boundary_sizes<4, tuning::op_kind::arg>(rng)) {
    CAPTURE(n);
    std::vector<float> xs(n);
    for (auto& x : xs) x = static_cast<float>(static_cast<int>(rng() % 2001) - 1000);  // ties
    check_arg(xs);
  }
  for (long long n : boundary_sizes<8, tuning::op_kind::arg>(rng)) {
    CAPTURE(n);
    std::vector<double> xs(n);
    for (auto& x : xs) x = static_cast<double>(static_cast<long long>(rng() % 200001) - 100000);
    check_arg(xs);
  }
}

TEST_CASE("default_policy keeps operand order at every range bound") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x5102);
  for (long long n : boundary_sizes<4, tuning::op_kind::sum>(rng)) {
    CAPTURE(n);
    std::vector<int> xs(n);
    for (auto& x : xs) x = static_cast<int>(rng() % 1000000);
    check_default(xs, -1, cascade::non_commutative(keep_right{}));  // the last item
  }
  for (long long n : boundary_sizes<8, tuning::op_kind::sum>(rng)) {
    CAPTURE(n);
    std::vector<mat2> ms(n);
    for (auto& m : ms) m = mat2::random_invertible(rng);
    check_default(ms, mat2::unit(), cascade::non_commutative(mat2_product{}));
  }
}

TEST_CASE("last_block and flagged reuse their stream's ticket and flags across calls with different grids") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x5103);
  std::uniform_int_distribution<int> ints(-1000, 1000);
  std::vector<int> xs(1 << 22);
  for (auto& x : xs) x = ints(rng);
  thrust::device_vector<int> d(xs.begin(), xs.end());
  int const* p = thrust::raw_pointer_cast(d.data());
  cudaStream_t s;
  CASCADE_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  thrust::device_vector<int> out(64);
  std::vector<long long> ns, sums;
  for (int call = 0; call < 64; ++call) {  // queued back to back, read once at the end
    long long const n = std::uniform_int_distribution<long long>(1, 1 << 22)(rng);
    long long sum = 0;
    for (long long i = 0; i < n; ++i) sum += xs[i];
    ns.push_back(n), sums.push_back(sum);
    int* const o = thrust::raw_pointer_cast(out.data()) + call;
    if (call % 3 == 0) cascade::reduce_into(last_block{}.on(s), p, p + n, o, 0, cascade::plus{});
    if (call % 3 == 1) cascade::reduce_into(flagged{}.on(s), p, p + n, o, 0, cascade::plus{});
    if (call % 3 == 2) cascade::reduce_into(flagged_wide{}.on(s), p, p + n, o, 0, cascade::plus{});
  }
  CASCADE_CUDA_CHECK(cudaStreamSynchronize(s));
  for (int call = 0; call < 64; ++call) {
    CAPTURE(ns[call]);
    CHECK(out[call] == static_cast<int>(sums[call]));
  }
  CASCADE_CUDA_CHECK(cudaStreamDestroy(s));
}

TEST_CASE("flagged with 8-byte partials, in the stream's room and in scratch, on one stream") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x5105);
  std::uniform_int_distribution<int> ints(-1000, 1000);
  std::vector<double> xs((1 << 21) + 17);  // integer-valued: every order gives the exact sum
  for (auto& x : xs) x = ints(rng);
  thrust::device_vector<double> d(xs.begin(), xs.end());
  double const* p = thrust::raw_pointer_cast(d.data());
  cudaStream_t s;
  CASCADE_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  thrust::device_vector<double> out(40);
  std::vector<long long> ns;
  std::vector<double> sums;
  for (int call = 0; call < 40; ++call) {
    long long const n = call < 4 ? static_cast<long long>(xs.size()) - call
                                 : std::uniform_int_distribution<long long>(1, static_cast<long long>(xs.size()))(rng);
    double sum = 0.5;
    for (long long i = 0; i < n; ++i) sum += xs[i];
    ns.push_back(n), sums.push_back(sum);
    double* const o = thrust::raw_pointer_cast(out.data()) + call;
    if (call % 2) cascade::reduce_into(flagged{}.on(s), p, p + n, o, 0.5, cascade::plus{});
    else cascade::reduce_into(flagged_wide{}.on(s), p, p + n, o, 0.5, cascade::plus{});
  }
  CASCADE_CUDA_CHECK(cudaStreamSynchronize(s));
  for (int call = 0; call < 40; ++call) {
    CAPTURE(ns[call]);
    CHECK(out[call] == sums[call]);
  }
  CASCADE_CUDA_CHECK(cudaStreamDestroy(s));
}

TEST_CASE("streams made and destroyed in turn never share a ticket") {
  std::vector<int> xs((1 << 20) + 3, 1);
  thrust::device_vector<int> d(xs.begin(), xs.end());
  int const* p = thrust::raw_pointer_cast(d.data());
  int wrong = 0;
  for (int round = 0; round < 50; ++round) {
    cudaStream_t a, b;
    CASCADE_CUDA_CHECK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
    CASCADE_CUDA_CHECK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
    wrong += cascade::reduce(last_block{}.on(a), p, p + xs.size(), round) != static_cast<int>(xs.size()) + round;
    wrong += cascade::reduce(cluster{}.on(b), p, p + xs.size(), round) != static_cast<int>(xs.size()) + round;
    wrong += cascade::reduce(flagged{}.on(b), p, p + xs.size(), round) != static_cast<int>(xs.size()) + round;
    CASCADE_CUDA_CHECK(cudaStreamDestroy(a));  // destroyed with nothing pending; the next round's may reuse handles
    CASCADE_CUDA_CHECK(cudaStreamDestroy(b));
  }
  CHECK(wrong == 0);
}

TEST_CASE("8 host threads on their own streams and the default stream, last_block, flagged and cluster at once") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x5104);
  std::uniform_int_distribution<int> ints(-1000, 1000);
  std::vector<int> xs((1 << 21) + 11);
  long long sum = 0;
  for (auto& x : xs) sum += (x = ints(rng));
  thrust::device_vector<int> d(xs.begin(), xs.end());
  int const* p = thrust::raw_pointer_cast(d.data());
  std::vector<int> wrong(8, 0);
  std::vector<std::thread> pool;
  for (int t = 0; t < 8; ++t) {
    pool.emplace_back([&, t] {
      cudaStream_t s = nullptr;
      if (t % 4 != 0) CASCADE_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
      for (int r = 0; r < 40; ++r) {
        long long const n = (r * 7919 + t * 104729) % xs.size() + 1;
        long long expected = r;
        for (long long i = 0; i < n; ++i) expected += xs[i];
        int const got = (r + t) % 3 == 0   ? cascade::reduce(last_block{}.on(s), p, p + n, r)
                        : (r + t) % 3 == 1 ? cascade::reduce(flagged{}.on(s), p, p + n, r)
                                           : cascade::reduce(cluster{}.on(s), p, p + n, r);
        wrong[t] += got != static_cast<int>(expected);
      }
      if (s) CASCADE_CUDA_CHECK(cudaStreamDestroy(s));
    });
  }
  for (auto& th : pool) th.join();
  for (int t = 0; t < 8; ++t) CHECK(wrong[t] == 0);
  CHECK(sum != 0);
}

TEST_CASE_TEMPLATE("captured into a graph, a single-pass finish zeroes a ticket of its own; replays are right", P,
                   last_block, flagged) {
  std::vector<int> xs((1 << 20) + 5);
  for (std::size_t i = 0; i < xs.size(); ++i) xs[i] = static_cast<int>(i % 1001) - 500;
  long long sum = 0;
  for (int x : xs) sum += x;
  thrust::device_vector<int> d(xs.begin(), xs.end());
  int const* p = thrust::raw_pointer_cast(d.data());
  thrust::device_vector<int> out(1, 0);
  int* o = thrust::raw_pointer_cast(out.data());
  cudaStream_t s;
  CASCADE_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaGraph_t graph;
  CASCADE_CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  std::string failure;
  try {
    cascade::reduce_into(P{}.on(s), p, p + xs.size(), o, 3, cascade::plus{});
  } catch (cascade::cuda_error const& e) {
    failure = e.what();  // end the capture first: other CUDA calls fail while it lasts
  }
  cudaError_t const ended = cudaStreamEndCapture(s, &graph);
  REQUIRE_MESSAGE(failure.empty(), failure);
  CASCADE_CUDA_CHECK(ended);
  cudaGraphExec_t exec;
  CASCADE_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int replay = 0; replay < 5; ++replay) {
    CASCADE_CUDA_CHECK(cudaMemsetAsync(o, 0xFF, sizeof(int), s));
    CASCADE_CUDA_CHECK(cudaGraphLaunch(exec, s));
    CASCADE_CUDA_CHECK(cudaStreamSynchronize(s));
    CHECK(out[0] == static_cast<int>(sum) + 3);
  }
  // and the stream's own state still works after the capture
  CHECK(cascade::reduce(P{}.on(s), p, p + xs.size(), 4) == static_cast<int>(sum) + 4);
  CASCADE_CUDA_CHECK(cudaGraphExecDestroy(exec));
  CASCADE_CUDA_CHECK(cudaGraphDestroy(graph));
  CASCADE_CUDA_CHECK(cudaStreamDestroy(s));
}

}  // TEST_SUITE("gpu")
