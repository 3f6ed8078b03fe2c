// The public API beyond the type sweep: the default policy and op overloads, reduce_into on a stream
// (no host synchronization, result in device memory), empty ranges, fancy iterators, sizes beyond
// 2^32 with closed-form answers, scratch in steady state. (Concurrent calls on several streams and
// host threads: finishes_test.cu, for every finish.)
#include <doctest/doctest.h>

#include <cascade/cascade.cuh>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "support/references.cuh"
#include "support/seed.hpp"

namespace {

using namespace cascade_test;
using seq_recursive = cascade::policy<256, 8, cascade::tree::sequential, cascade::finish::recursive>;

std::vector<int> random_ints(long long n, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> d(-1000, 1000);
  std::vector<int> xs(n);
  for (auto& x : xs) x = d(rng);
  return xs;
}

long long host_sum(std::vector<int> const& xs) {
  long long s = 0;
  for (int x : xs) s += x;
  return s;
}

struct square {
  __host__ __device__ long long operator()(long long x) const { return x * x; }
};

}  // namespace

TEST_SUITE("gpu") {

TEST_CASE("default policy and default op overloads agree with CUB") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x2001);
  long long const n = (1 << 22) + 13;
  auto xs = random_ints(n, rng);
  thrust::device_vector<int> d(xs.begin(), xs.end());
  int const* p = thrust::raw_pointer_cast(d.data());
  int const expected = static_cast<int>(host_sum(xs) + 7);
  REQUIRE(cub_reduce(p, n, 7, cascade::plus{}) == expected);
  CHECK(cascade::reduce(p, p + n, 7) == expected);
  CHECK(cascade::reduce(p, p + n, 7, cascade::plus{}) == expected);
  CHECK(cascade::reduce(cascade::default_policy{}, p, p + n, 7) == expected);
  CHECK(cascade::reduce(seq_recursive{}, p, p + n, 7) == expected);
  // thrust::device_vector iterators, not only raw pointers
  CHECK(cascade::reduce(seq_recursive{}, d.begin(), d.end(), 7) == expected);
  CHECK(cascade::reduce(seq_recursive{}, d.cbegin(), d.cend(), 7, cascade::plus{}) == expected);
  // accumulate int input in int64
  CHECK(cascade::reduce(seq_recursive{}, p, p + n, std::int64_t(7)) == host_sum(xs) + 7);
}

TEST_CASE("empty ranges give init") {
  thrust::device_vector<int> d(4, 5);
  int const* p = thrust::raw_pointer_cast(d.data());
  CHECK(cascade::reduce(seq_recursive{}, p, p, 42) == 42);
  CHECK(cascade::reduce(p, p, -3, cascade::minimum{}) == -3);
  thrust::device_vector<int> out(1, 0);
  cascade::reduce_into(seq_recursive{}, p, p, out.data(), 42, cascade::plus{});
  CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
  CHECK(out[0] == 42);
}

TEST_CASE("reduce_into writes to device memory on the policy's stream") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x2002);
  cudaStream_t stream;
  CASCADE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  for (long long n : {1ll, 1000ll, (1ll << 20) + 7}) {
    CAPTURE(n);
    auto xs = random_ints(n, rng);
    thrust::device_vector<int> d(xs.begin(), xs.end());
    int const* p = thrust::raw_pointer_cast(d.data());
    int* d_out = nullptr;
    CASCADE_CUDA_CHECK(cudaMalloc(&d_out, 2 * sizeof(int)));
    CASCADE_CUDA_CHECK(cudaMemset(d_out, 0xff, 2 * sizeof(int)));
    auto const policy = seq_recursive{}.on(stream);
    CHECK(policy.stream() == stream);
    cascade::reduce_into(policy, p, p + n, d_out, 11, cascade::plus{});
    cascade::reduce_into(policy, p, p + n, thrust::device_ptr<int>(d_out + 1), 0, cascade::maximum{});
    CASCADE_CUDA_CHECK(cudaStreamSynchronize(stream));
    int got[2];
    CASCADE_CUDA_CHECK(cudaMemcpy(got, d_out, sizeof(got), cudaMemcpyDeviceToHost));
    int mx = 0;
    for (int x : xs) mx = x > mx ? x : mx;
    CHECK(got[0] == static_cast<int>(host_sum(xs) + 11));
    CHECK(got[1] == mx);
    CASCADE_CUDA_CHECK(cudaFree(d_out));
  }
  CASCADE_CUDA_CHECK(cudaStreamDestroy(stream));
}

TEST_CASE("fancy iterators: counting, constant, transform") {
  long long const n = 100003;
  thrust::counting_iterator<long long> count(0);
  CHECK(cascade::reduce(seq_recursive{}, count, count + n, 0ll) == n * (n - 1) / 2);
  thrust::constant_iterator<int> three(3);
  CHECK(cascade::reduce(seq_recursive{}, three, three + n, 1) == 3 * n + 1);
  auto squares = thrust::make_transform_iterator(count, square{});
  long long const sum_sq = (n - 1) * n * (2 * n - 1) / 6;
  CHECK(cascade::reduce(seq_recursive{}, squares, squares + n, 0ll) == sum_sq);
  CHECK(cub_reduce(squares, n, 0ll, cascade::plus{}) == sum_sq);
}

TEST_CASE("sizes beyond 2^32 through counting and constant iterators") {
  // Both offset paths: just under and just over where dispatch switches from 32- to 64-bit offsets,
  // and well past 2^32, with a small-tile policy whose grid is capped so blocks loop over tiles.
  using small_tiles = cascade::policy<32, 1, cascade::tree::sequential, cascade::finish::recursive>;
  using big_tiles = cascade::policy<1024, 8, cascade::tree::sequential, cascade::finish::recursive>;
  for (std::uint64_t n : {(1ull << 31) - 5000, (1ull << 31) + 3, (1ull << 32) + 17, (1ull << 33) + 1}) {
    CAPTURE(n);
    thrust::counting_iterator<std::uint64_t> count(0);
    // sum of 0..n-1 modulo 2^64 (unsigned arithmetic wraps the same on host and device)
    unsigned __int128 const wide = static_cast<unsigned __int128>(n) * (n - 1) / 2;
    auto const expected = static_cast<std::uint64_t>(wide);
    CHECK(cascade::reduce(big_tiles{}, count, count + n, std::uint64_t(0)) == expected);
    CHECK(cascade::reduce(count, count + n, std::uint64_t(0)) == expected);
    thrust::constant_iterator<int> three(3);
    CHECK(cascade::reduce(big_tiles{}, three, three + n, std::int64_t(5)) == 5 + 3 * static_cast<std::int64_t>(n));
    CHECK(cascade::reduce(count, count + n, std::uint64_t(0), cascade::maximum{}) == n - 1);
    if (n < (1ull << 33)) {
      CHECK(cascade::reduce(small_tiles{}, count, count + n, std::uint64_t(0)) == expected);
    }
  }
}

TEST_CASE("scratch: no new device memory in steady state, nothing left in use") {
  // Checked on cascade's own pool, not with cudaMemGetInfo: other processes (tests run in parallel)
  // move the device's free memory.
  thrust::device_vector<float> d(1 << 24, 1.0f);
  float const* p = thrust::raw_pointer_cast(d.data());
  auto const expected = static_cast<float>(1 << 24);
  CHECK(cascade::reduce(seq_recursive{}, p, p + d.size(), 0.0f) == expected);  // warm-up
  std::size_t const reserved = cascade::detail::scratch_reserved_bytes();
  std::size_t const used = cascade::detail::scratch_used_bytes();
  CHECK(reserved > 0);
  for (int i = 0; i < 200; ++i) REQUIRE(cascade::reduce(seq_recursive{}, p, p + d.size(), 0.0f) == expected);
  CHECK(cascade::detail::scratch_reserved_bytes() == reserved);
  CHECK(cascade::detail::scratch_used_bytes() == used);
}

// CCCL's and Thrust's function objects are cascade's ops: the init-less forms start from their
// identities, the atomic finish takes the hardware atomics, tree::redux the warp instructions; the
// results those of CUB and a host fold.
TEST_CASE("CCCL's and Thrust's ops: identities, every path, against CUB and the host") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x2011);
  using atomic = cascade::policy<256, 4, cascade::tree::shuffle, cascade::finish::atomic>;
  using redux = cascade::policy<256, 4, cascade::compiled_or_t<cascade::tree::redux, cascade::tree::shuffle>,
                                cascade::finish::last_block>;
  for (long long n : {1ll, 1023ll, 4099ll, (1ll << 20) + 7}) {
    CAPTURE(n);
    auto xs = random_ints(n, rng);
    std::vector<unsigned> us(xs.begin(), xs.end());
    std::vector<float> fs(xs.begin(), xs.end());
    for (auto& f : fs) f *= 0.25f;  // exact: float sums of these are exact at these sizes
    thrust::device_vector<int> di(xs.begin(), xs.end());
    thrust::device_vector<unsigned> du(us.begin(), us.end());
    thrust::device_vector<float> df(fs.begin(), fs.end());
    int const* pi = thrust::raw_pointer_cast(di.data());
    unsigned const* pu = thrust::raw_pointer_cast(du.data());
    float const* pf = thrust::raw_pointer_cast(df.data());

    int const sum = static_cast<int>(host_sum(xs));
    int const lo = *std::min_element(xs.begin(), xs.end()), hi = *std::max_element(xs.begin(), xs.end());
    unsigned x = 0, o = 0;
    for (unsigned u : us) x ^= u, o |= u;
    double fsum = 0;
    for (float f : fs) fsum += f;

    REQUIRE(cub_reduce(pi, n, 0, cuda::std::plus<>{}) == sum);
    CHECK(cascade::reduce(pi, pi + n, cuda::std::plus<>{}) == sum);  // the op is not taken as init
    CHECK(cascade::reduce(atomic{}, pi, pi + n, cuda::std::plus<int>{}) == sum);
    CHECK(cascade::reduce(redux{}, pi, pi + n, thrust::plus<int>{}) == sum);
    CHECK(cascade::reduce(pi, pi + n, cuda::minimum<>{}) == lo);
    CHECK(cascade::reduce(atomic{}, pi, pi + n, cuda::minimum<int>{}) == lo);
    CHECK(cascade::reduce(redux{}, pi, pi + n, thrust::maximum<int>{}) == hi);
    CHECK(cascade::reduce(atomic{}, pi, pi + n, cuda::maximum<>{}) == hi);
    CHECK(cascade::reduce(pu, pu + n, cuda::std::bit_xor<>{}) == x);
    CHECK(cascade::reduce(atomic{}, pu, pu + n, cuda::std::bit_or<unsigned>{}) == o);
    CHECK(cascade::reduce(pu, pu + n, cuda::std::bit_and<>{}) == cub_reduce(pu, n, ~0u, cuda::std::bit_and<>{}));
    CHECK(cascade::reduce(pi, pi + n, cuda::std::logical_or<>{}) == cub_reduce(pi, n, 0, cuda::std::logical_or<>{}));
    CHECK(cascade::reduce(pi, pi + n, cuda::std::logical_and<>{}) == cub_reduce(pi, n, 1, cuda::std::logical_and<>{}));
    CHECK(cascade::reduce(pf, pf + n, cuda::std::plus<>{}) == static_cast<float>(fsum));
    CHECK(cascade::reduce(atomic{}, pf, pf + n, thrust::plus<float>{}) == static_cast<float>(fsum));
    CHECK(cascade::reduce(pf, pf + n, thrust::minimum<float>{}) == static_cast<float>(lo) * 0.25f);
    // a typed op over another accumulator stays a plain functor: every step rounds to int
    float const rounded = cascade::reduce(pf, pf + n, 0.0f, cuda::std::plus<int>{});
    CHECK(rounded == cub_reduce(pf, n, 0.0f, cuda::std::plus<int>{}));
  }
}

}  // TEST_SUITE("gpu")
