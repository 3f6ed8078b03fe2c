// Differential fuzzing of the reduction family against Thrust, CUB and the host: each case draws an
// algorithm (count_if, inner_product, min/max/minmax_element, any_of, all_of, reduce_by_key, a
// device-held count), a policy (under one of them reduce_by_key counts the keys first), a size
// (empty, tiny, or log-uniform up to 2^20), data (ints with runs of length 1..10^5 for the keys; a
// first hit anywhere or none for the predicates) and the call: to the host, _into on a stream, or
// _into captured into a graph and replayed. Every result must be
// exact (counts, positions, integer sums and folds); the input must be unchanged.
//
// On failure it prints the case; CASCADE_TEST_SEED=<seed> CASCADE_FUZZ_CASE=<k> replays case k alone.
// CASCADE_FUZZ_CASES sets how many run (default 400); CASCADE_TEST_MAX_N caps the sizes.
#include <doctest/doctest.h>

#include <cascade/algorithm/reduce_by_key.cuh>
#include <cascade/cascade.cuh>
#include <cub/device/device_reduce.cuh>
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/inner_product.h>
#include <thrust/reduce.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "support/capture.cuh"
#include "support/host_copy.cuh"
#include "support/seed.hpp"

#ifndef CASCADE_FAMILY_FEW
#define CASCADE_FAMILY_FEW 0
#endif

namespace {

using namespace cascade_test;

struct is_odd {
  __host__ __device__ bool operator()(int x) const { return (x & 1) != 0; }
};
struct is_target {  // the predicates' hit
  int value;
  __host__ __device__ bool operator()(int x) const { return x == value; }
};
struct below_target {
  int value;
  __host__ __device__ bool operator()(int x) const { return x < value; }
};

enum class algorithm { count_if, inner_product, min_element, max_element, minmax_element, any_of, all_of, by_key, held };
constexpr int algorithms = 9;
enum class shape { to_host, into, captured };

using counted_by_key = cascade::policy<256, 8, cascade::tree::sequential, cascade::finish::two_pass>;

}  // namespace

// reduce_by_key under the last policy counts the keys first at every size (default_policy from 2^22
// pairs, beyond these sizes), so that the fuzz covers both of its designs.
template <>
struct cascade::detail::by_key_shape<counted_by_key> {
  static constexpr int block_size = 256, items = 8;
  static constexpr cuda::std::int64_t counted_from = 0;
};

namespace {

template <class F>
void with_policy(int k, F f) {
  switch (k) {
    case 0: f(cascade::default_policy{}); break;
#if !CASCADE_FAMILY_FEW
    case 1: f(cascade::policy<128, 4, cascade::tree::shuffle, cascade::finish::last_block>{}); break;
    case 2: f(cascade::policy<512, 16, cascade::tree::shuffle, cascade::finish::flagged>{}); break;
    case 3: f(cascade::policy<64, 1, cascade::tree::interleaved, cascade::finish::recursive>{}); break;
#endif
    default: f(counted_by_key{}); break;
  }
}
constexpr int policies = CASCADE_FAMILY_FEW ? 2 : 5;

// Runs enqueue(stream) as the shape says, and waits.
template <class F>
void run_shaped(shape s, F enqueue) {
  cudaStream_t stream;
  CASCADE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  if (s == shape::captured) {
    std::string failure;
    cudaGraph_t graph = capture(stream, [&] { enqueue(stream); }, failure);
    REQUIRE(failure.empty());
    cudaGraphExec_t exec;
    CASCADE_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
    for (int r = 0; r < 2; ++r) CASCADE_CUDA_CHECK(cudaGraphLaunch(exec, stream));
    CASCADE_CUDA_CHECK(cudaStreamSynchronize(stream));
    CASCADE_CUDA_CHECK(cudaGraphExecDestroy(exec));
    CASCADE_CUDA_CHECK(cudaGraphDestroy(graph));
  } else {
    enqueue(stream);
    CASCADE_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  CASCADE_CUDA_CHECK(cudaStreamDestroy(stream));
}

}  // namespace

TEST_SUITE("gpu") {

TEST_CASE("family fuzz: every new algorithm against Thrust, CUB and the host, on three call shapes") {
  CASCADE_SEED_INFO();
  int const cases = std::getenv("CASCADE_FUZZ_CASES") ? std::atoi(std::getenv("CASCADE_FUZZ_CASES")) : 400;
  int const only = std::getenv("CASCADE_FUZZ_CASE") ? std::atoi(std::getenv("CASCADE_FUZZ_CASE")) : -1;
  long long const cap = std::getenv("CASCADE_TEST_MAX_N") ? std::atoll(std::getenv("CASCADE_TEST_MAX_N")) : 1 << 20;
  for (int k = 0; k < cases; ++k) {
    if (only >= 0 && k != only) continue;
    std::mt19937_64 rng(base_seed() ^ (0xf00d0000ull + k));
    auto const what = static_cast<algorithm>(rng() % algorithms);
    int const pk = static_cast<int>(rng() % policies);
    auto const how = static_cast<shape>(rng() % 3);
    long long n = rng() % 8 == 0 ? static_cast<long long>(rng() % 3)
                                 : static_cast<long long>(std::exp2(std::uniform_real_distribution<double>(0, 20)(rng)));
    n = std::min(n, cap);
    INFO("case ", k, ": algorithm ", static_cast<int>(what), ", policy ", pk, ", shape ", static_cast<int>(how), ", n ", n,
         " (replay with CASCADE_FUZZ_CASE=", k, ")");
    // ints in runs of length 1..10^5 (log-uniform), small values so that sums stay exact
    std::vector<int> xs(n), ys(n);
    long long const run = static_cast<long long>(std::exp2(std::uniform_real_distribution<double>(0, 16.6)(rng)));
    for (long long i = 0, key = 0; i < n; ++i) {
      if (i % run == 0 || rng() % (run * 4 + 1) == 0) key = static_cast<long long>(rng() % 50);
      xs[i] = static_cast<int>(key);
    }
    for (auto& y : ys) y = static_cast<int>(rng() % 7) - 3;
    int const target = 1000;  // absent from xs but for the planted hit
    long long const hit = n > 0 && rng() % 2 ? static_cast<long long>(rng() % n) : -1;
    if (hit >= 0 && (what == algorithm::any_of || what == algorithm::all_of)) xs[hit] = target;
    thrust::device_vector<int> dx(xs.begin(), xs.end()), dy(ys.begin(), ys.end());
    int const* px = thrust::raw_pointer_cast(dx.data());
    int const* py = thrust::raw_pointer_cast(dy.data());
    thrust::device_vector<long long> out(4, -7);
    long long* po = thrust::raw_pointer_cast(out.data());
    with_policy(pk, [&](auto policy) {
      switch (what) {
        case algorithm::count_if: {
          long long const want = thrust::count_if(dx.begin(), dx.end(), is_odd{});
          REQUIRE(want == std::count_if(xs.begin(), xs.end(), is_odd{}));
          if (how == shape::to_host) CHECK(cascade::count_if(policy, px, px + n, is_odd{}) == want);
          else run_shaped(how, [&](cudaStream_t s) { cascade::count_if_into(policy.on(s), px, px + n, po, is_odd{}); });
          if (how != shape::to_host) CHECK(out[0] == want);
          break;
        }
        case algorithm::inner_product: {
          long long want = 3;
          for (long long i = 0; i < n; ++i) want += static_cast<long long>(xs[i]) * ys[i];
          REQUIRE(thrust::inner_product(dx.begin(), dx.end(), dy.begin(), 3ll) == want);
          if (how == shape::to_host) CHECK(cascade::inner_product(policy, px, px + n, py, 3ll) == want);
          else run_shaped(how, [&](cudaStream_t s) { cascade::inner_product_into(policy.on(s), px, px + n, py, po, 3ll); });
          if (how != shape::to_host) CHECK(out[0] == want);
          break;
        }
        case algorithm::min_element:
        case algorithm::max_element:
        case algorithm::minmax_element: {
          long long const lo = std::min_element(xs.begin(), xs.end()) - xs.begin();
          long long const hi = std::max_element(xs.begin(), xs.end()) - xs.begin();
          if (how == shape::to_host) {
            if (what == algorithm::min_element) CHECK(cascade::min_element(policy, px, px + n) - px == lo);
            if (what == algorithm::max_element) CHECK(cascade::max_element(policy, px, px + n) - px == hi);
            if (what == algorithm::minmax_element) {
              auto const [a, b] = cascade::minmax_element(policy, px, px + n);
              CHECK(a - px == lo);
              CHECK(b - px == hi);
            }
          } else {
            run_shaped(how, [&](cudaStream_t s) {
              if (what == algorithm::min_element) cascade::min_element_into(policy.on(s), px, px + n, po);
              if (what == algorithm::max_element) cascade::max_element_into(policy.on(s), px, px + n, po + 1);
              if (what == algorithm::minmax_element) cascade::minmax_element_into(policy.on(s), px, px + n, po, po + 1);
            });
            if (what != algorithm::max_element) CHECK(out[0] == lo);
            if (what != algorithm::min_element) CHECK(out[1] == hi);
          }
          break;
        }
        case algorithm::any_of:
        case algorithm::all_of: {
          bool const want = what == algorithm::any_of ? hit >= 0 : hit < 0;  // all_of(x < target)
          thrust::device_vector<bool> flag(1);
          if (how == shape::to_host) {
            bool const got = what == algorithm::any_of ? cascade::any_of(policy, px, px + n, is_target{target})
                                                       : cascade::all_of(policy, px, px + n, below_target{target});
            CHECK(got == want);
          } else {
            bool* pf = thrust::raw_pointer_cast(flag.data());
            run_shaped(how, [&](cudaStream_t s) {
              if (what == algorithm::any_of) cascade::any_of_into(policy.on(s), px, px + n, pf, is_target{target});
              else cascade::all_of_into(policy.on(s), px, px + n, pf, below_target{target});
            });
            CHECK(flag[0] == want);
          }
          break;
        }
        case algorithm::by_key: {
          thrust::device_vector<int> tk(std::max(n, 1ll)), tv(std::max(n, 1ll)), ck(std::max(n, 1ll)), cv(std::max(n, 1ll));
          long long const runs =
              n == 0 ? 0 : thrust::reduce_by_key(dx.begin(), dx.end(), dy.begin(), tk.begin(), tv.begin()).first - tk.begin();
          if (how == shape::to_host) {
            auto const [ke, ve] = cascade::reduce_by_key(policy, px, px + n, py, ck.begin(), cv.begin());
            CHECK(ke - ck.begin() == runs);
            CHECK(ve - cv.begin() == runs);
          } else {
            int* pk2 = thrust::raw_pointer_cast(ck.data());
            int* pv2 = thrust::raw_pointer_cast(cv.data());
            run_shaped(how, [&](cudaStream_t s) { cascade::reduce_by_key_into(policy.on(s), px, px + n, py, pk2, pv2, po); });
            CHECK(out[0] == runs);
          }
          CHECK(host_copy(ck.begin(), runs) == host_copy(tk.begin(), runs));
          CHECK(host_copy(cv.begin(), runs) == host_copy(tv.begin(), runs));
          break;
        }
        case algorithm::held: {
          // the count on the device, at most n; *d_n drawn from -2..n + 2
          long long const m = static_cast<long long>(rng() % (n + 5)) - 2;
          long long const used = std::clamp(m, 0ll, n);
          long long want = 11;
          for (long long i = 0; i < used; ++i) want += xs[i];
          thrust::device_vector<long long> d_m(1, m), d_init(1, 11);
          long long const* pm = thrust::raw_pointer_cast(d_m.data());
          long long const* pi = thrust::raw_pointer_cast(d_init.data());
          run_shaped(how == shape::to_host ? shape::into : how, [&](cudaStream_t s) {
            cascade::reduce_into(policy.on(s), px, cascade::device_count(pm, n), po, cascade::device_value(pi), cascade::plus{});
          });
          CHECK(out[0] == want);
          break;
        }
      }
    });
    CHECK(host_copy(dx.begin(), dx.end()) == xs);  // the input unchanged
    CHECK(host_copy(dy.begin(), dy.end()) == ys);
  }
}

}  // TEST_SUITE
