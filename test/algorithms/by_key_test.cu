// reduce_by_key against Thrust, CUB's ReduceByKey and a host fold: runs of mean length 1, 8, 64 and
// 1024 and power-law lengths, sizes 0, 1, 2^k - 1, 2^k, 2^k + 1 and primes, several policies, a
// custom key equality, a non-commutative op, more than 2^31 pairs through counting iterators, and a
// captured graph; both ways of finding a tile's place (the single pass's look-back, and the keys
// counted first, which calls take from 2^22 pairs: two policies here take it at every size).
#include <doctest/doctest.h>

#include <cascade/algorithm/reduce_by_key.cuh>
#include <cascade/cascade.cuh>
#include <cub/device/device_reduce.cuh>
#include <thrust/device_vector.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/reduce.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "support/capture.cuh"
#include "support/host_copy.cuh"
#include "support/noncommutative_ops.cuh"
#include "support/references.cuh"
#include "support/seed.hpp"

namespace {

using namespace cascade_test;

using p_small = cascade::policy<64, 1, cascade::tree::shuffle, cascade::finish::last_block>;
using p_mid = cascade::policy<128, 4, cascade::tree::shuffle, cascade::finish::last_block>;
using p_wide = cascade::policy<512, 16, cascade::tree::shuffle, cascade::finish::flagged>;
using p_counted = cascade::policy<128, 4, cascade::tree::shuffle, cascade::finish::flagged>;
using p_counted_wide = cascade::policy<256, 20, cascade::tree::shuffle, cascade::finish::flagged>;

}  // namespace

// Two policies that count the keys first at every size (the default's from 2^22 pairs): staged runs
// (128 x 4, and 256 x 20 of 8-byte pairs), scattered ones (256 x 20 of the matrices' 20-byte pairs).
template <>
struct cascade::detail::by_key_shape<p_counted> {
  static constexpr int block_size = 128, items = 4;
  static constexpr cuda::std::int64_t counted_from = 0;
};
template <>
struct cascade::detail::by_key_shape<p_counted_wide> {
  static constexpr int block_size = 256, items = 20;
  static constexpr cuda::std::int64_t counted_from = 0;
};

namespace {

std::string policy_name;

template <class F>
void for_each_policy(F f) {
  auto const run = [&](auto policy, char const* name) {
    policy_name = name;
    f(policy);
  };
  run(cascade::default_policy{}, "default_policy");
  run(p_small{}, "<64, 1>");
  run(p_mid{}, "<128, 4>");
  run(p_wide{}, "<512, 16>");
  run(p_counted{}, "<128, 4> counted");
  run(p_counted_wide{}, "<256, 20> counted");
}

// n keys in runs: mean length `mean` (geometric), or power-law lengths when mean is 0.
std::vector<int> run_keys(std::mt19937_64& rng, long long n, int mean) {
  std::vector<int> keys(n);
  int key = static_cast<int>(rng() % 1000);
  long long i = 0;
  while (i < n) {
    long long len = 1;
    if (mean > 1) len = 1 + static_cast<long long>(std::geometric_distribution<long long>(1.0 / mean)(rng));
    if (mean == 0) len = std::max(1ll, static_cast<long long>(std::pow(2.0, std::uniform_real_distribution<double>(0, 17)(rng))));
    for (long long j = 0; j < len && i < n; ++j) keys[i++] = key;
    key += 1 + static_cast<int>(rng() % 3);  // differs from the run before
  }
  return keys;
}

template <class K, class V, class Op, class Eq>
void host_by_key(std::vector<K> const& keys, std::vector<V> const& vals, Op op, Eq eq, std::vector<K>& out_keys,
                 std::vector<V>& out_vals) {
  out_keys.clear();
  out_vals.clear();
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (i == 0 || !eq(keys[i - 1], keys[i])) {
      out_keys.push_back(keys[i]);
      out_vals.push_back(vals[i]);
    } else {
      out_vals.back() = op(out_vals.back(), vals[i]);
    }
  }
}

struct same_decade {  // keys equal when they agree but for the last digit: the first of a run is kept
  __host__ __device__ bool operator()(int a, int b) const { return a / 10 == b / 10; }
};

struct million_runs {  // key i / 2^20
  __host__ __device__ long long operator()(long long i) const { return i >> 20; }
};

// n int pairs, keys in runs of mean length `mean` (run_keys), values in [-1000, 1000], and the
// host's exact reduce_by_key of them (keys, sums).
struct int_case {
  std::vector<int> keys, vals, host_keys, host_sums;
  int_case(std::mt19937_64& rng, long long n, int mean) : keys(run_keys(rng, n, mean)), vals(n) {
    for (auto& v : vals) v = static_cast<int>(rng() % 2001) - 1000;
    host_by_key(keys, vals, std::plus<int>{}, std::equal_to<int>{}, host_keys, host_sums);
  }
};

std::vector<long long> sizes(std::mt19937_64& rng) {
  std::vector<long long> s = {1, 2, 31, 1023, 1024, 1025, 2048, 2049, 65537, (1 << 20) + 7};
  s.push_back(std::uniform_int_distribution<long long>(2, 1 << 22)(rng));
  if (char const* cap = std::getenv("CASCADE_TEST_MAX_N")) {
    long long const max_n = std::atoll(cap);
    std::erase_if(s, [&](long long n) { return n > max_n; });
  }
  return s;
}

}  // namespace

TEST_SUITE("gpu") {

TEST_CASE("reduce_by_key of ints: exact, against Thrust, CUB and the host, every run length") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0xb1);
  for (int mean : {1, 8, 64, 1024, 0}) {
    for (long long n : sizes(rng)) {
      CAPTURE(mean);
      CAPTURE(n);
      int_case const c(rng, n, mean);
      std::vector<int> const& hk = c.host_keys;
      std::vector<int> const& hv = c.host_sums;
      long long const runs = static_cast<long long>(hk.size());
      thrust::device_vector<int> dk(c.keys.begin(), c.keys.end()), dv(c.vals.begin(), c.vals.end());
      thrust::device_vector<int> ok(n), ov(n);
      thrust::device_vector<long long> count(1);
      auto const t = thrust::reduce_by_key(dk.begin(), dk.end(), dv.begin(), ok.begin(), ov.begin());
      REQUIRE(t.first - ok.begin() == runs);
      REQUIRE(host_copy(ov.begin(), runs) == hv);
      {  // CUB's ReduceByKey, the same
        std::size_t bytes = 0;
        int const* k = thrust::raw_pointer_cast(dk.data());
        int const* v = thrust::raw_pointer_cast(dv.data());
        CASCADE_CUDA_CHECK(cub::DeviceReduce::ReduceByKey(nullptr, bytes, k, thrust::raw_pointer_cast(ok.data()), v,
                                                          thrust::raw_pointer_cast(ov.data()),
                                                          thrust::raw_pointer_cast(count.data()), cuda::std::plus<>{}, n));
        thrust::device_vector<unsigned char> temp(bytes + 1);
        CASCADE_CUDA_CHECK(cub::DeviceReduce::ReduceByKey(thrust::raw_pointer_cast(temp.data()), bytes, k,
                                                          thrust::raw_pointer_cast(ok.data()), v,
                                                          thrust::raw_pointer_cast(ov.data()),
                                                          thrust::raw_pointer_cast(count.data()), cuda::std::plus<>{}, n));
        REQUIRE(count[0] == runs);
        REQUIRE(host_copy(ov.begin(), runs) == hv);
      }
      for_each_policy([&](auto policy) {
        CAPTURE(policy_name);
        thrust::fill(ok.begin(), ok.end(), -1);
        thrust::fill(ov.begin(), ov.end(), -1);
        auto const [ke, ve] = cascade::reduce_by_key(policy, dk.begin(), dk.end(), dv.begin(), ok.begin(), ov.begin());
        CHECK(ke - ok.begin() == runs);
        CHECK(ve - ov.begin() == runs);
        CHECK(host_copy(ok.begin(), runs) == hk);
        CHECK(host_copy(ov.begin(), runs) == hv);
        count[0] = -1;
        cascade::reduce_by_key_into(policy, thrust::raw_pointer_cast(dk.data()), thrust::raw_pointer_cast(dk.data()) + n,
                                    thrust::raw_pointer_cast(dv.data()), thrust::raw_pointer_cast(ok.data()),
                                    thrust::raw_pointer_cast(ov.data()), thrust::raw_pointer_cast(count.data()));
        CHECK(count[0] == runs);
        CHECK(host_copy(ov.begin(), runs) == hv);
      });
    }
  }
}

TEST_CASE("reduce_by_key from 2^26 pairs: default_policy counts the keys first") {
  long long const n = (1ll << 26) + 5;
  if (char const* cap = std::getenv("CASCADE_TEST_MAX_N"); cap && std::atoll(cap) < n) return;
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0xb5);
  for (int mean : {1, 64}) {  // every pair a run, and long runs
    CAPTURE(mean);
    int_case const c(rng, n, mean);
    long long const runs = static_cast<long long>(c.host_keys.size());
    thrust::device_vector<int> dk(c.keys.begin(), c.keys.end()), dv(c.vals.begin(), c.vals.end());
    thrust::device_vector<int> ok(n, -1), ov(n, -1);
    thrust::device_vector<long long> count(1, -1);
    cascade::reduce_by_key_into(cascade::default_policy{}, thrust::raw_pointer_cast(dk.data()),
                                thrust::raw_pointer_cast(dk.data()) + n, thrust::raw_pointer_cast(dv.data()),
                                thrust::raw_pointer_cast(ok.data()), thrust::raw_pointer_cast(ov.data()),
                                thrust::raw_pointer_cast(count.data()));
    REQUIRE(count[0] == runs);
    CHECK(host_copy(ok.begin(), runs) == c.host_keys);
    CHECK(host_copy(ov.begin(), runs) == c.host_sums);
  }
}

TEST_CASE("reduce_by_key of floats within the bound; a custom key equality keeps each run's first key") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0xb2);
  long long const n = std::min<long long>(300007, std::getenv("CASCADE_TEST_MAX_N") ? std::atoll(std::getenv("CASCADE_TEST_MAX_N")) : 300007);
  std::vector<int> keys = run_keys(rng, n, 64);
  for (auto& k : keys) k = k * 10 + static_cast<int>(rng() % 10);  // runs of same_decade, keys differ within
  std::vector<float> vals(n);
  for (auto& v : vals) v = std::uniform_real_distribution<float>(-1, 1)(rng);
  std::vector<int> hk;
  std::vector<double> hv;
  std::vector<double> wide(vals.begin(), vals.end());
  host_by_key(keys, wide, std::plus<double>{}, same_decade{}, hk, hv);
  thrust::device_vector<int> dk(keys.begin(), keys.end()), ok(n);
  thrust::device_vector<float> dv(vals.begin(), vals.end()), ov(n);
  for_each_policy([&](auto policy) {
    CAPTURE(policy_name);
    auto const [ke, ve] =
        cascade::reduce_by_key(policy, dk.begin(), dk.end(), dv.begin(), ok.begin(), ov.begin(), cascade::plus{}, same_decade{});
    REQUIRE(ke - ok.begin() == static_cast<long long>(hk.size()));
    CHECK(host_copy(ok.begin(), ke) == hk);
    std::vector<float> const got = host_copy(ov.begin(), ve);
    for (std::size_t r = 0; r < hk.size(); ++r) CHECK(std::fabs(got[r] - hv[r]) <= 1e-4 * (1 + std::fabs(hv[r])));
  });
}

TEST_CASE("reduce_by_key with a non-commutative op: each run's product in order") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0xb3);
  long long const n = 100003;
  std::vector<int> keys = run_keys(rng, n, 300);
  std::vector<mat2> vals(n);
  for (auto& m : vals) m = mat2::random_invertible(rng);
  std::vector<int> hk;
  std::vector<mat2> hv;
  host_by_key(keys, vals, mat2_product{}, std::equal_to<int>{}, hk, hv);
  thrust::device_vector<int> dk(keys.begin(), keys.end()), ok(n);
  thrust::device_vector<mat2> dv(vals.begin(), vals.end()), ov(n);
  thrust::device_vector<long long> count(1);
  for_each_policy([&](auto policy) {
    CAPTURE(policy_name);
    cascade::reduce_by_key_into(policy, dk.begin(), dk.end(), dv.begin(), ok.begin(), ov.begin(),
                                thrust::raw_pointer_cast(count.data()), cascade::non_commutative(mat2_product{}));
    REQUIRE(count[0] == static_cast<long long>(hk.size()));
    std::vector<mat2> const got = host_copy(ov.begin(), count[0]);
    CHECK(got == hv);
  });
}

TEST_CASE("reduce_by_key: empty input counts 0; beyond 2^31 pairs through counting iterators") {
  thrust::device_vector<long long> count(1, -1), ok(4096), ov(4096);
  int const* none = nullptr;
  cascade::reduce_by_key_into(p_mid{}, none, none, none, thrust::raw_pointer_cast(ok.data()),
                              thrust::raw_pointer_cast(ov.data()), thrust::raw_pointer_cast(count.data()));
  CHECK(count[0] == 0);
  long long const n = (1ll << 31) + 5;
  auto keys = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), million_runs{});
  thrust::constant_iterator<long long> ones(1);
  cascade::reduce_by_key_into(cascade::default_policy{}, keys, keys + n, ones, ok.begin(), ov.begin(),
                              thrust::raw_pointer_cast(count.data()));
  REQUIRE(count[0] == 2049);
  CHECK(ov[0] == (1ll << 20));
  CHECK(ov[2047] == (1ll << 20));
  CHECK(ov[2048] == 5);
  CHECK(ok[2048] == 2048);
}

TEST_CASE("reduce_by_key_into captured into a graph and replayed on new data") {
  long long const n = 1 << 20;
  std::mt19937_64 rng(base_seed() ^ 0xb4);
  thrust::device_vector<int> dk(n), dv(n, 1), ok(n), ov(n);
  thrust::device_vector<long long> count(1);
  cudaStream_t s;
  CASCADE_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  auto const replay = [&](auto policy, char const* name) {
    CAPTURE(name);
    std::string failure;
    cudaGraph_t graph = capture(s, [&] {
      cascade::reduce_by_key_into(policy.on(s), dk.begin(), dk.end(), dv.begin(), ok.begin(), ov.begin(),
                                  thrust::raw_pointer_cast(count.data()));
    }, failure);
    REQUIRE(failure.empty());
    cudaGraphExec_t exec;
    CASCADE_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
    for (int mean : {1, 64, 4096}) {
      std::vector<int> keys = run_keys(rng, n, mean);
      thrust::copy(keys.begin(), keys.end(), dk.begin());
      std::vector<int> hk, hv;
      host_by_key(keys, std::vector<int>(n, 1), std::plus<int>{}, std::equal_to<int>{}, hk, hv);
      CASCADE_CUDA_CHECK(cudaGraphLaunch(exec, s));
      CASCADE_CUDA_CHECK(cudaStreamSynchronize(s));
      REQUIRE(count[0] == static_cast<long long>(hk.size()));
      CHECK(host_copy(ov.begin(), count[0]) == hv);
    }
    CASCADE_CUDA_CHECK(cudaGraphExecDestroy(exec));
    CASCADE_CUDA_CHECK(cudaGraphDestroy(graph));
  };
  replay(cascade::default_policy{}, "default_policy");
  replay(p_counted_wide{}, "<256, 20> counted");
  CASCADE_CUDA_CHECK(cudaStreamDestroy(s));
}

}  // TEST_SUITE
