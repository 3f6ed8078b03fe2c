// The same bits under every policy at the edges (docs/ops.md, "Semantics"): minimum, maximum,
// minimum_number and maximum_number with NaNs of any payload and sign, signed zeros, infinities and
// denormals in the data; argmin, argmax and minmax with NaN (the first NaN wins); exact_plus and
// reproducible_plus at the types' largest values (no overflow in between, finish::atomic included)
// and at BlockSize 1024 with every shared-memory tree; iterators that read through proxy references;
// 1-byte accumulators with finish::atomic; the segmented family with NaN, with a null input over
// empty work, and with host offsets while a stream is captured. Every answer is checked bitwise
// against a fold written plainly here (or support/exact_reference.cpp), not against cascade's code.
// Without a GPU (-Dmerge-units=true: a compile check) CASCADE_SEMANTICS_FEW builds three policies.
// CASCADE_TEST_MAX_N caps the sizes (the sanitizers' runs).
#include <doctest/doctest.h>

#include <cascade/cascade.cuh>
#include <cascade/tree/cub_block.cuh>
#include <cascade/cross_check.cuh>
#include <cub/device/device_reduce.cuh>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <thrust/device_ptr.h>
#include <thrust/device_vector.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "support/exact_reference.hpp"
#include "support/ieee_reference.hpp"
#include "support/seed.hpp"

#ifndef CASCADE_SEMANTICS_FEW
#define CASCADE_SEMANTICS_FEW 0
#endif

namespace {

using namespace cascade_test;
namespace tree = cascade::tree;
namespace finish = cascade::finish;
template <int B, int C, class Tree, class Finish>
using policy = cascade::policy<B, C, Tree, Finish>;

// Items of T in [-1000, 1000], with a share of special values: NaNs of random payload and sign,
// zeros of both signs, infinities, the largest finite values, denormals.
template <class T>
std::vector<T> edge_data(std::mt19937_64& rng, long long n, double nan_share, double zero_share) {
  using B = bits_t<T>;
  constexpr int width = 8 * sizeof(T);
  constexpr int mantissa = std::is_same_v<T, double> ? 52 : std::is_same_v<T, float> ? 23 : std::is_same_v<T, __half> ? 10 : 7;
  B const sign = B(1) << (width - 1);
  B const exponent = static_cast<B>(~sign & ~((B(1) << mantissa) - 1));  // all ones: inf / NaN
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<T> xs(static_cast<std::size_t>(n));
  for (auto& x : xs) {
    double const r = unit(rng);
    B const s = (rng() & 1) ? sign : B(0);
    if (r < nan_share) {
      B payload = static_cast<B>(rng() & ((B(1) << mantissa) - 1));
      if (payload == 0) payload = 1;
      x = of_bits<T>(static_cast<B>(s | exponent | payload));
    } else if (r < nan_share + zero_share) {
      x = of_bits<T>(s);
    } else if (r < nan_share + zero_share + 0.002) {
      int const kind = static_cast<int>(rng() % 3);  // inf, the largest, a denormal
      B const m = kind == 0 ? exponent : kind == 1 ? static_cast<B>(exponent - 1) : static_cast<B>(1 + rng() % 7);
      x = of_bits<T>(static_cast<B>(s | m));
    } else {
      x = static_cast<T>(static_cast<float>(unit(rng) * 2000 - 1000));
      if constexpr (std::is_same_v<T, double>) x = unit(rng) * 2000 - 1000;
    }
  }
  return xs;
}

// The largest input a case reads (CASCADE_TEST_MAX_N, default 2^21).
long long max_n() {
  char const* s = std::getenv("CASCADE_TEST_MAX_N");
  return s != nullptr ? std::atoll(s) : (1ll << 21);
}

// The edge cases a test runs: a size, a share of NaNs and of zeros.
struct edge_case {
  long long n;
  double nan_share, zero_share;
};
std::vector<edge_case> edge_cases() {
  std::vector<edge_case> cases;
  for (long long n : {1ll, 2ll, 20ll, 33ll, 2000ll, 4097ll, 65537ll, (1ll << 20) + 3})
    for (double nan_share : {0.0, 0.0005, 0.45})  // none, a few, about half (9 of 20)
      if (n <= max_n()) cases.push_back({n, nan_share, 0.05});
  cases.push_back({1000, 1.0, 0.0});  // all NaN
  cases.push_back({1000, 0.0, 1.0});  // all zeros, of both signs
  return cases;
}

// ---- the policies ---------------------------------------------------------------------------------

template <class P>
std::string name_of() {
  if constexpr (requires { P::block_size; })
    return "policy<" + std::to_string(P::block_size) + ", " + std::to_string(P::coarse_factor) + ", " +
           P::tree_type::name + ", " + P::finish_type::name + ">";
  else
    return "default_policy";
}

template <class P>
constexpr bool finish_is(auto finish_tag) {
  if constexpr (requires { typename P::finish_type; }) return std::is_same_v<typename P::finish_type, decltype(finish_tag)>;
  else return false;
}

// f(policy) for every tree and every finish at least once, BlockSize 32 and 1024, odd coarse
// factors, and the shapes that gave other answers before minimum and maximum were IEEE's.
template <class F>
void for_each_policy(F&& f) {
  f(cascade::default_policy{});
  f(policy<256, 8, tree::none, finish::atomic>{});
  f(policy<1024, 1, tree::interleaved, finish::two_pass>{});
#if !CASCADE_SEMANTICS_FEW
  f(policy<256, 8, tree::sequential, finish::recursive>{});
  f(policy<1024, 2, tree::unrolled, finish::last_block>{});
  f(policy<32, 3, tree::interleaved_strided, finish::host>{});
  f(policy<512, 16, tree::unrolled_warp, finish::cooperative>{});
  f(policy<256, 4, tree::cub_block, finish::flagged>{});
  f(policy<128, 5, tree::shuffle, finish::atomic>{});
  f(policy<1024, 4, tree::by_commutativity<tree::sequential, tree::shuffle>, finish::flagged>{});
  if constexpr (cascade::detail::is_compiled_v<tree::redux>) f(policy<64, 2, tree::redux, finish::recursive>{});
  if constexpr (cascade::detail::is_compiled_v<finish::cluster>) f(policy<256, 8, tree::shuffle, finish::cluster>{});
#endif
}

// ---- minimum, maximum, minimum_number, maximum_number ---------------------------------------------

template <class T, class Op>
void check_extremum(std::vector<T> const& xs, T const* d, T init, Op op, bool max, bool number, char const* op_name) {
  long long const n = static_cast<long long>(xs.size());
  bits_t<T> const want = reference_extremum(init, xs, max, number);
  for_each_policy([&](auto p) {
    using P = decltype(p);
    T const got = cascade::reduce(p, d, d + n, init, op);
    INFO(op_name, " under ", name_of<P>(), ": got ", hex(got), ", want ", hex(of_bits<T>(want)));
    CHECK(bits(got) == want);
  });
}

// The larger of two ints, saying it is idempotent (ops/idempotent.cuh).
struct larger {
  static constexpr bool idempotent = true;
  __host__ __device__ int operator()(int a, int b) const { return a < b ? b : a; }
};

// a op b on the device for every ordered pair of xs: the four IEEE ops (minimum, maximum,
// minimum_number, maximum_number), so that each operand order of each pair is seen once.
template <class T>
__global__ void pairs_kernel(T const* xs, int n, T* out) {
  int const k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n * n) return;
  T const a = xs[k / n], b = xs[k % n];
  out[4 * k + 0] = cascade::minimum{}(a, b);
  out[4 * k + 1] = cascade::maximum{}(a, b);
  out[4 * k + 2] = cascade::minimum_number{}(a, b);
  out[4 * k + 3] = cascade::maximum_number{}(a, b);
}

// The special values of T: NaNs (quiet, signalling, negative, payloads), both zeros and infinities,
// the largest finite values, the smallest denormals, and ordinary numbers.
template <class T>
std::vector<T> special_values() {
  using B = bits_t<T>;
  constexpr int width = 8 * sizeof(T);
  constexpr int mantissa = std::is_same_v<T, double> ? 52 : std::is_same_v<T, float> ? 23 : std::is_same_v<T, __half> ? 10 : 7;
  B const sign = B(1) << (width - 1);
  B const exponent = static_cast<B>(~sign & ~((B(1) << mantissa) - 1));
  B const quiet = B(1) << (mantissa - 1);
  std::vector<T> xs;
  for (B const s : {B(0), sign}) {
    for (B const m : {static_cast<B>(exponent | quiet), static_cast<B>(exponent | 1), static_cast<B>(exponent | quiet | 5),
                      exponent, static_cast<B>(exponent - 1), B(1), B(0)})
      xs.push_back(of_bits<T>(static_cast<B>(s | m)));
    xs.push_back(static_cast<T>(s ? -1.0f : 1.0f));
    xs.push_back(static_cast<T>(s ? -2.5f : 2.5f));
  }
  return xs;
}

}  // namespace

TEST_SUITE("gpu") {

TEST_CASE_TEMPLATE("the ops on the device: every ordered pair of special values, the reference's bits", T, float,
                   double, __half, __nv_bfloat16) {
  // each order of each pair: a rule left to the hardware (e.g. how min.f64 orders -0 and +0) shows here
  auto const xs = special_values<T>();
  int const n = static_cast<int>(xs.size());
  thrust::device_vector<T> dxs(xs.begin(), xs.end());
  thrust::device_vector<T> out(4 * static_cast<std::size_t>(n) * n);
  pairs_kernel<<<(n * n + 127) / 128, 128>>>(thrust::raw_pointer_cast(dxs.data()), n, thrust::raw_pointer_cast(out.data()));
  CASCADE_CUDA_CHECK(cudaGetLastError());
  std::vector<T> const got(out.begin(), out.end());
  char const* const names[4] = {"minimum", "maximum", "minimum_number", "maximum_number"};
  int wrong = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int o = 0; o < 4; ++o) {
        bits_t<T> const want = reference_extremum(xs[i], {xs[j]}, o % 2 == 1, o >= 2);
        bits_t<T> const have = bits(got[4 * (static_cast<std::size_t>(i) * n + j) + o]);
        if (have != want && ++wrong <= 8)
          FAIL_CHECK(names[o], "(", hex(xs[i]), ", ", hex(xs[j]), "): got ", hex(of_bits<T>(have)), ", want ",
                     hex(of_bits<T>(want)));
      }
  CHECK(wrong == 0);
}

TEST_CASE_TEMPLATE("minimum and maximum with NaN, signed zeros and infinities: the same bits under every policy", T,
                   float, double, __half, __nv_bfloat16) {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ (0x5E3A + sizeof(T)));
  T const inf = of_bits<T>(bits(static_cast<T>(INFINITY)));
  for (edge_case const c : edge_cases()) {
    auto const xs = edge_data<T>(rng, c.n, c.nan_share, c.zero_share);
    CAPTURE(c.n);
    CAPTURE(c.nan_share);
    thrust::device_vector<T> dv(xs.begin(), xs.end());
    T const* d = thrust::raw_pointer_cast(dv.data());
    check_extremum(xs, d, inf, cascade::minimum{}, false, false, "minimum");
    check_extremum(xs, d, static_cast<T>(-0.0f), cascade::maximum{}, true, false, "maximum from -0");
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, __half>) {
      check_extremum(xs, d, of_bits<T>(canonical_nan<T>()), cascade::minimum_number{}, false, true, "minimum_number");
      check_extremum(xs, d, static_cast<T>(0.0f), cascade::maximum_number{}, true, true, "maximum_number from +0");
    }
    if constexpr (std::is_same_v<T, float>) {
      // CCCL's functor runs as cascade::minimum; a NaN init spreads to the result
      check_extremum(xs, d, inf, cuda::minimum<>{}, false, false, "cuda::minimum<>");
      check_extremum(xs, d, of_bits<T>(0xffc00123u), cascade::minimum{}, false, false, "minimum from a NaN");
      // cub::DeviceReduce with cascade's op: associative, so CUB's grouping gives the same bits
      thrust::device_vector<T> out(1);
      std::size_t bytes = 0;
      CASCADE_CUDA_CHECK(cub::DeviceReduce::Reduce(nullptr, bytes, d, thrust::raw_pointer_cast(out.data()), c.n,
                                                   cascade::minimum{}, inf));
      thrust::device_vector<unsigned char> temp(bytes + 1);
      CASCADE_CUDA_CHECK(cub::DeviceReduce::Reduce(thrust::raw_pointer_cast(temp.data()), bytes, d,
                                                   thrust::raw_pointer_cast(out.data()), c.n, cascade::minimum{}, inf));
      CHECK(bits(static_cast<T>(out[0])) == reference_extremum(inf, xs, false, false));
      // cross_check runs CUB with cascade's op for CCCL's: bitwise agreement, NaN included
      auto const r = cascade::cross_check(cascade::default_policy{}, d, d + c.n, inf, cuda::minimum<>{});
      CHECK(r.agree);
      CHECK(bits(r.cub) == reference_extremum(inf, xs, false, false));
    }
  }
}

TEST_CASE("an idempotent op reads no item past the end of the input, under every policy") {
  // A partial tile under an idempotent op reads all of a thread's items at once, those past the end
  // replaced by the thread's last one (detail/kernel/tile_loop.cuh); after the input here lie items
  // larger than any in it, so a read past the end shows in the result.
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x1DE3);
  static_assert(larger::idempotent && cascade::is_idempotent_v<larger>);
  for (long long n : {1ll, 2ll, 31ll, 255ll, 257ll, 1000ll, 4097ll, 65539ll, 1000003ll}) {
    CAPTURE(n);
    std::vector<int> xs(n + 4096, 1 << 30);
    for (long long i = 0; i < n; ++i) xs[i] = static_cast<int>(rng() % 1000000);
    int const want = *std::max_element(xs.begin(), xs.begin() + n);
    thrust::device_vector<int> dv(xs.begin(), xs.end());
    int const* d = thrust::raw_pointer_cast(dv.data());
    for_each_policy([&](auto p) {
      INFO(name_of<decltype(p)>());
      CHECK(cascade::reduce(p, d, d + n, -1, larger{}) == want);
      CHECK(cascade::reduce(p, d, d + n, -1, cascade::maximum{}) == want);
    });
  }
}

// Calls f(window, d, lo, hi) for every edge case's items, on the device from item 0 (aligned: the
// vector scans) and from item 1 (misaligned: item by item); lo and hi are argmin's and argmax's
// index in the window by the reference.
template <class T, class F>
void for_each_arg_window(std::mt19937_64& rng, F&& f) {
  for (edge_case const c : edge_cases()) {
    auto const xs = edge_data<T>(rng, c.n + 1, c.nan_share, c.zero_share);
    CAPTURE(c.n);
    CAPTURE(c.nan_share);
    thrust::device_vector<T> dv(xs.begin(), xs.end());
    for (int offset : {0, 1}) {
      CAPTURE(offset);
      std::vector<T> const window(xs.begin() + offset, xs.begin() + offset + c.n);
      f(window, thrust::raw_pointer_cast(dv.data()) + offset, reference_arg(window, false), reference_arg(window, true));
    }
  }
}

TEST_CASE_TEMPLATE("argmin, argmax and minmax with NaN and signed zeros: the first NaN, the same index under every policy",
                   T, float, double, __half) {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ (0xA5A + sizeof(T)));
  for_each_arg_window<T>(rng, [](std::vector<T> const& window, T const* d, std::int64_t lo, std::int64_t hi) {
    auto const n = static_cast<std::int64_t>(window.size());
    for_each_policy([&](auto p) {
      using P = decltype(p);
      if constexpr (!finish_is<P>(finish::atomic{})) {  // (16-byte pairs: finish::atomic takes none)
        INFO(name_of<P>(), ": want ", lo, " ", hex(window[lo]), " and ", hi, " ", hex(window[hi]));
        auto const a = cascade::argmin(p, d, d + n);
        auto const b = cascade::argmax(p, d, d + n);
        auto const m = cascade::minmax(p, d, d + n);
        CHECK(a.index == lo);
        CHECK(bits(a.value) == bits(window[lo]));
        CHECK(b.index == hi);
        CHECK(bits(b.value) == bits(window[hi]));
        CHECK(m.min.index == lo);
        CHECK(bits(m.min.value) == bits(window[lo]));
        CHECK(m.max.index == hi);
        CHECK(bits(m.max.value) == bits(window[hi]));
      }
    });
  });
}

// Over a pointer to an IEEE type the pairs carry rank keys (detail/kernel/arg/keyed_input.cuh), through
// any other iterator (thrust::device_ptr here) the values: the two give the same index and bits, the
// first NaN's own bits included, aligned or not.
TEST_CASE_TEMPLATE("argmin, argmax and minmax over a pointer (rank keys) and a device_ptr (values): the same bits", T,
                   float, double, __half, __nv_bfloat16) {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ (0xB6B + sizeof(T)));
  for_each_arg_window<T>(rng, [](std::vector<T> const& window, T const* d, std::int64_t lo, std::int64_t hi) {
    auto const n = static_cast<std::int64_t>(window.size());
    thrust::device_ptr<T const> const v(d);
    cascade::default_policy const p{};
    auto const a = cascade::argmin(p, d, d + n), a2 = cascade::argmin(p, v, v + n);
    auto const b = cascade::argmax(p, d, d + n), b2 = cascade::argmax(p, v, v + n);
    auto const m = cascade::minmax(p, d, d + n), m2 = cascade::minmax(p, v, v + n);
    CHECK(a.index == lo);
    CHECK(b.index == hi);
    CHECK(bits(a.value) == bits(window[lo]));
    CHECK(bits(b.value) == bits(window[hi]));
    CHECK((a.index == a2.index && bits(a.value) == bits(a2.value)));
    CHECK((b.index == b2.index && bits(b.value) == bits(b2.value)));
    CHECK((m.min.index == a.index && bits(m.min.value) == bits(a.value)));
    CHECK((m.max.index == b.index && bits(m.max.value) == bits(b.value)));
    CHECK((m2.min.index == a.index && bits(m2.min.value) == bits(a.value)));
    CHECK((m2.max.index == b.index && bits(m2.max.value) == bits(b.value)));
  });
}

// A pointer beyond 2^31 - 1 items runs in chunks of 2^30 (arg_reduce.cuh), each chunk's keys turned
// back into values with the chunk's own start: a NaN's bits read again at its place past the first
// chunk, -inf in the last chunk of five items.
TEST_CASE("argmin, argmax and minmax over a pointer to 2^31 + 5 halves: chunks of rank keys, a NaN's own bits") {
  std::int64_t const n = (std::int64_t(1) << 31) + 5;
  std::size_t free_bytes = 0, total_bytes = 0;
  CASCADE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (free_bytes < static_cast<std::size_t>(n) * sizeof(__half) + (std::size_t(1) << 30)) {
    MESSAGE("skipped: the device has too little free memory for 2^31 + 5 halves");
    return;
  }
  thrust::device_vector<__half> dv(static_cast<std::size_t>(n), __float2half(1.0f));
  __half const* d = thrust::raw_pointer_cast(dv.data());
  std::int64_t const nan_at = (std::int64_t(1) << 30) + 3, low_at = n - 2, high_at = (std::int64_t(1) << 31) - 7;
  std::uint16_t const nan_bits = 0xfd17;  // a negative NaN with a payload
  dv[low_at] = of_bits<__half>(0xfc00);   // -inf
  dv[high_at] = __float2half(2.0f);
  cascade::default_policy const p{};
  CHECK(cascade::argmin(p, d, d + n).index == low_at);
  CHECK(cascade::argmax(p, d, d + n).index == high_at);
  dv[nan_at] = of_bits<__half>(nan_bits);
  auto const a = cascade::argmin(p, d, d + n);
  auto const b = cascade::argmax(p, d, d + n);
  auto const m = cascade::minmax(p, d, d + n);
  CHECK(a.index == nan_at);
  CHECK(bits(a.value) == nan_bits);
  CHECK(b.index == nan_at);
  CHECK(bits(b.value) == nan_bits);
  CHECK(m.min.index == nan_at);
  CHECK(bits(m.max.value) == nan_bits);
  auto const from_second = cascade::argmin(p, d + nan_at + 1, d + n);  // 2^30 + 1 items, one call: -inf
  CHECK(from_second.index == low_at - nan_at - 1);
  CHECK(bits(from_second.value) == 0xfc00);
}

TEST_CASE("exact_plus and reproducible_plus at the largest values: no overflow in between, under every policy") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0xB16);
  double const big = DBL_MAX;
  std::vector<std::vector<double>> inputs = {{big, big, -big}, {big, big}, {-big, -big, big, 1.0}, {0.0, -0.0, 0.0},
                                             {big, -big, 0x1p-1074}};
  {  // 40000 copies of DBL_MAX and 39999 of -DBL_MAX, shuffled: DBL_MAX, though partial sums pass the range
    long long const copies = std::min(40000ll, max_n() / 2);
    std::vector<double> many(static_cast<std::size_t>(copies), big);
    many.insert(many.end(), static_cast<std::size_t>(copies - 1), -big);
    std::shuffle(many.begin(), many.end(), rng);
    inputs.push_back(many);
    inputs.push_back(std::vector<double>(static_cast<std::size_t>(std::min(100000ll, max_n())), 0.0));  // every state empty
  }
  for (auto const& xs : inputs) {
    CAPTURE(xs.size());
    CAPTURE(xs[0]);
    thrust::device_vector<double> dv(xs.begin(), xs.end());
    double const* d = thrust::raw_pointer_cast(dv.data());
    double const want = exact_sum<double>(xs, 0.0);
    std::vector<float> fs;  // the same shapes in float: FLT_MAX
    for (double x : xs) fs.push_back(std::fabs(x) == big ? std::copysign(FLT_MAX, x) : static_cast<float>(x));
    thrust::device_vector<float> fv(fs.begin(), fs.end());
    float const* f = thrust::raw_pointer_cast(fv.data());
    float const want_f = exact_sum<float>(std::vector<double>(fs.begin(), fs.end()), 0.0);
    long long const n = static_cast<long long>(xs.size());
    for_each_policy([&](auto p) {
      using P = decltype(p);
      if constexpr (!finish_is<P>(finish::host{})) {  // (exact sums fold on the device only)
        INFO(name_of<P>());
        double const got = cascade::reduce(p, d, d + n, 0.0, cascade::exact_plus{});
        CHECK(bits(got) == bits(want));
        float const got_f = cascade::reduce(p, f, f + n, 0.0f, cascade::exact_plus{});
        CHECK(bits(got_f) == bits(want_f));
        // reproducible_plus: the window of the largest item holds these sums exactly
        if (xs.back() != 0x1p-1074) {
          CHECK(bits(cascade::reduce(p, d, d + n, 0.0, cascade::reproducible_plus{})) == bits(want));
          CHECK(bits(cascade::reduce(p, f, f + n, 0.0f, cascade::reproducible_plus{})) == bits(want_f));
        }
      }
    });
  }
  // half items at their largest (65504) into float: exact, under every policy
  std::vector<__half> hs(static_cast<std::size_t>(std::min(70001ll, max_n() | 1)), __float2half(65504.0f));
  for (std::size_t i = 0; i < hs.size(); i += 2) hs[i] = __float2half(-65504.0f);
  thrust::device_vector<__half> hv(hs.begin(), hs.end());
  __half const* h = thrust::raw_pointer_cast(hv.data());
  for_each_policy([&](auto p) {
    using P = decltype(p);
    if constexpr (!finish_is<P>(finish::host{})) {
      INFO(name_of<P>());
      CHECK(cascade::reduce(p, h, h + hs.size(), 0.0f, cascade::exact_plus{}) == -65504.0f);
    }
  });
}

TEST_CASE("exact_plus and reproducible_plus over doubles: BlockSize 1024 with every shared-memory tree") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x1024);
  std::normal_distribution<double> normal(0, 1);
  std::vector<double> xs(static_cast<std::size_t>(std::min((1ll << 20) + 3, max_n())));
  for (std::size_t i = 0; i < xs.size(); ++i) xs[i] = std::ldexp(normal(rng), static_cast<int>(i % 97) - 48);
  thrust::device_vector<double> dv(xs.begin(), xs.end());
  double const* d = thrust::raw_pointer_cast(dv.data());
  long long const n = static_cast<long long>(xs.size());
  double const want = exact_sum<double>(xs, 0.5);
  double const binned = cascade::reduce(policy<256, 8, tree::shuffle, finish::two_pass>{}, d, d + n, 0.5,
                                        cascade::reproducible_plus{});
  auto const check = [&](auto p, std::string const& name) {
    INFO(name);
    CHECK(bits(cascade::reduce(p, d, d + n, 0.5, cascade::exact_plus{})) == bits(want));
    CHECK(bits(cascade::reduce(p, d, d + n, 0.5, cascade::reproducible_plus{})) == bits(binned));
    CHECK(bits(cascade::reduce(p, d, d + 700, 0.5, cascade::exact_plus{})) ==  // one partial tile
          bits(exact_sum<double>(std::vector<double>(xs.begin(), xs.begin() + 700), 0.5)));
  };
  check(policy<1024, 1, tree::interleaved, finish::two_pass>{}, "<1024, 1, interleaved, two_pass>");
#if !CASCADE_SEMANTICS_FEW
  check(policy<1024, 2, tree::unrolled, finish::last_block>{}, "<1024, 2, unrolled, last_block>");
  check(policy<1024, 1, tree::interleaved_strided, finish::recursive>{}, "<1024, 1, interleaved_strided, recursive>");
  check(policy<1024, 4, tree::sequential, finish::flagged>{}, "<1024, 4, sequential, flagged>");
  check(policy<1024, 1, tree::unrolled_warp, finish::atomic>{}, "<1024, 1, unrolled_warp, atomic>");
#endif
}

TEST_CASE("exact_plus and reproducible_plus through thrust::device_vector iterators and device_ptr") {
  std::vector<double> xs = {1e16, 1.0, -1e16, 0.25, 3.0};
  thrust::device_vector<double> dv(xs.begin(), xs.end());
  thrust::device_ptr<double const> p(thrust::raw_pointer_cast(dv.data()));
  CHECK(cascade::reduce(dv.begin(), dv.end(), 0.0, cascade::exact_plus{}) == 4.25);  // a plain sum gives 3.25
  CHECK(cascade::reduce(p, p + 5, 0.0, cascade::exact_plus{}) == 4.25);
  CHECK(cascade::reduce(dv.cbegin(), dv.cend(), 0.0f, cascade::reproducible_plus{}) == 4.25f);
  thrust::device_vector<float> fv(1000, 0.1f);
  using named = policy<256, 4, tree::shuffle, finish::last_block>;
  CHECK(cascade::reduce(named{}, fv.begin(), fv.end(), 0.0, cascade::exact_plus{}) ==
        exact_sum<double>(std::vector<double>(1000, double(0.1f)), 0.0));
}

TEST_CASE("finish::atomic with 1-byte accumulators: bool and int8") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0xB001);
  for (long long n : {1ll, 77ll, 5000ll, 300001ll}) {
    CAPTURE(n);
    std::vector<unsigned char> flags(static_cast<std::size_t>(n), 1);
    flags[rng() % n] = static_cast<unsigned char>(n % 2);  // one false where n is even
    std::vector<std::int8_t> small(static_cast<std::size_t>(n));
    for (auto& x : small) x = static_cast<std::int8_t>(static_cast<int>(rng() % 201) - 100);
    thrust::device_vector<bool> dflags(flags.begin(), flags.end());
    thrust::device_vector<std::int8_t> dsmall(small.begin(), small.end());
    bool const* b = thrust::raw_pointer_cast(dflags.data());
    std::int8_t const* s = thrust::raw_pointer_cast(dsmall.data());
    std::int8_t const hi = *std::max_element(small.begin(), small.end());
    auto const check = [&](auto p) {
      INFO(name_of<decltype(p)>());
      CHECK(cascade::reduce(p, b, b + n, true, cascade::logical_and{}) == (n % 2 == 1));
      CHECK(cascade::reduce(p, b, b + n, false, cascade::logical_or{}) == true);
      CHECK(cascade::reduce(p, s, s + n, std::int8_t(-128), cascade::maximum{}) == hi);
      thrust::device_vector<std::int8_t> out(4, std::int8_t(0x5a));  // the call's byte between guards
      cascade::reduce_into(p, s, s + n, thrust::raw_pointer_cast(out.data()) + 1, std::int8_t(-128), cascade::maximum{});
      CHECK(out[0] == 0x5a);
      CHECK(out[1] == hi);
      CHECK(out[2] == 0x5a);
    };
    check(policy<256, 8, tree::shuffle, finish::atomic>{});
    check(policy<128, 1, tree::none, finish::atomic>{});
  }
}

TEST_CASE("segmented and batched minimum with NaN: every owner, the same bits per segment; argmin's first NaN") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x5E9);
  // lengths from a power law, empty segments among them
  std::vector<int> offsets = {0};
  while (offsets.back() < std::min(300000ll, max_n())) {
    double const u = std::uniform_real_distribution<double>(0, 1)(rng);
    offsets.push_back(offsets.back() + static_cast<int>(std::min(std::pow(1 - u, -1.0 / 0.8), 1e5)) - 1);
  }
  int const segments = static_cast<int>(offsets.size()) - 1;
  auto const xs = edge_data<float>(rng, offsets.back(), 0.001, 0.05);
  thrust::device_vector<float> dv(xs.begin(), xs.end());
  thrust::device_vector<int> doff(offsets.begin(), offsets.end());
  float const* d = thrust::raw_pointer_cast(dv.data());
  int const* o = thrust::raw_pointer_cast(doff.data());
  std::vector<bits_t<float>> want(segments);
  std::vector<std::int64_t> want_arg(segments, -1);
  int with_nan = 0;
  for (int s = 0; s < segments; ++s) {
    std::vector<float> const seg(xs.begin() + offsets[s], xs.begin() + offsets[s + 1]);
    want[s] = reference_extremum(INFINITY, seg, false, false);
    with_nan += want[s] == canonical_nan<float>();
    if (!seg.empty()) want_arg[s] = reference_arg(seg, false);
  }
  MESSAGE(segments, " segments, ", with_nan, " with a NaN");
  thrust::device_vector<float> out(segments);
  auto const check = [&](auto p, auto op, std::string const& name, int const* begins) {
    INFO(name);
    thrust::fill(out.begin(), out.end(), 42.0f);
    cascade::segmented_reduce(p, d, begins, begins + 1, segments, thrust::raw_pointer_cast(out.data()), INFINITY, op);
    std::vector<float> got(segments);
    thrust::copy(out.begin(), out.end(), got.begin());
    int wrong = 0;
    for (int s = 0; s < segments; ++s) wrong += bits(got[s]) != want[s];
    CHECK(wrong == 0);
  };
  cascade::detail::for_each_type(cascade::segment::all{}, [&](auto owner) {
    using owner_t = decltype(owner);
    if constexpr (!CASCADE_SEMANTICS_FEW || std::is_same_v<owner_t, cascade::segment::tiles>)
      check(cascade::segmented_policy<owner_t, 256, 4>{}, cascade::minimum{}, owner_t::name, o);
  });
  check(cascade::default_policy{}, cascade::minimum{}, "default_policy", o);
  check(cascade::default_policy{}, cuda::minimum<>{}, "default_policy, cuda::minimum<>", o);
  // host offsets: the host picks the owner by the lengths
  check(cascade::default_policy{}, cuda::minimum<float>{}, "default_policy, cuda::minimum<float>, host offsets",
        offsets.data());
  // segmented_argmin: the first NaN of each segment
  thrust::device_vector<cascade::indexed<float>> arg(segments);
  cascade::segmented_argmin(cascade::default_policy{}, d, o, o + 1, segments, thrust::raw_pointer_cast(arg.data()));
  std::vector<cascade::indexed<float>> got(segments);
  thrust::copy(arg.begin(), arg.end(), got.begin());
  int wrong = 0;
  for (int s = 0; s < segments; ++s)
    if (want_arg[s] >= 0) wrong += got[s].index != want_arg[s];
  CHECK(wrong == 0);
  // batched_reduce: rows of 37 items
  long long const rows = offsets.back() / 37;
  thrust::device_vector<float> row_out(rows);
  cascade::batched_reduce(cascade::default_policy{}, d, 37, rows, thrust::raw_pointer_cast(row_out.data()), INFINITY,
                          cascade::minimum{});
  std::vector<float> rows_got(rows);
  thrust::copy(row_out.begin(), row_out.end(), rows_got.begin());
  wrong = 0;
  for (long long r = 0; r < rows; ++r)
    wrong += bits(rows_got[r]) !=
             reference_extremum(INFINITY, std::vector<float>(xs.begin() + 37 * r, xs.begin() + 37 * r + 37), false, false);
  CHECK(wrong == 0);
}

TEST_CASE("a null input over empty work: reduce, batched_reduce and segmented_reduce with host offsets accept it") {
  thrust::device_vector<float> out(2, 7.0f);
  float* d_out = thrust::raw_pointer_cast(out.data());
  float const* none = nullptr;
  CHECK(cascade::reduce(none, none, 2.5f) == 2.5f);
  cascade::reduce_into(cascade::default_policy{}, none, none, d_out, 1.5f, cascade::plus{});
  CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
  CHECK(out[0] == 1.5f);
  cascade::batched_reduce(cascade::default_policy{}, none, 0, 2, d_out, 3.0f, cascade::plus{});
  CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
  CHECK(out[0] == 3.0f);
  CHECK(out[1] == 3.0f);
  std::vector<int> const empty_offsets = {0, 0, 0};  // host offsets: the host sees that no item is read
  cascade::segmented_reduce(cascade::default_policy{}, none, empty_offsets.data(), empty_offsets.data() + 1, 2, d_out,
                            4.0f, cascade::plus{});
  CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
  CHECK(out[0] == 4.0f);
  CHECK(out[1] == 4.0f);
  // offsets only the device reads: the host cannot tell, so the input must be device memory
  thrust::device_vector<int> doff(empty_offsets.begin(), empty_offsets.end());
  int const* o = thrust::raw_pointer_cast(doff.data());
  CHECK_THROWS_AS(cascade::segmented_reduce(cascade::default_policy{}, none, o, o + 1, 2, d_out, 4.0f, cascade::plus{}),
                  std::invalid_argument);
  // items to read: a null input is refused, by all three
  std::vector<int> const one_item = {0, 1, 1};
  CHECK_THROWS_AS(cascade::segmented_reduce(cascade::default_policy{}, none, one_item.data(), one_item.data() + 1, 2,
                                            d_out, 4.0f, cascade::plus{}),
                  std::invalid_argument);
  CHECK_THROWS_AS(cascade::batched_reduce(cascade::default_policy{}, none, 1, 2, d_out, 3.0f, cascade::plus{}),
                  std::invalid_argument);
  CHECK_THROWS_AS(cascade::reduce(none, none + 1, 2.5f), std::invalid_argument);
}

TEST_CASE("segmented_reduce under capture: host offsets are refused before anything is enqueued, device offsets capture") {
  cudaStream_t stream = nullptr;
  CASCADE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  thrust::device_vector<float> items(100, 1.0f), out(2, 0.0f);
  float const* d = thrust::raw_pointer_cast(items.data());
  float* d_out = thrust::raw_pointer_cast(out.data());
  std::vector<int> const host_offsets = {0, 40, 100};
  thrust::device_vector<int> device_offsets(host_offsets.begin(), host_offsets.end());
  int const* o = thrust::raw_pointer_cast(device_offsets.data());
  auto const policy = cascade::default_policy{}.on(stream);
  CASCADE_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  CHECK_THROWS_AS(cascade::segmented_reduce(policy, d, host_offsets.data(), host_offsets.data() + 1, 2, d_out, 0.0f,
                                            cascade::plus{}),
                  std::logic_error);
  cascade::segmented_reduce(policy, d, o, o + 1, 2, d_out, 0.5f, cascade::plus{});  // the capture is still valid
  cudaGraph_t graph = nullptr;
  CASCADE_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec = nullptr;
  CASCADE_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int replay = 0; replay < 3; ++replay) CASCADE_CUDA_CHECK(cudaGraphLaunch(exec, stream));
  CASCADE_CUDA_CHECK(cudaStreamSynchronize(stream));
  CHECK(out[0] == 40.5f);
  CHECK(out[1] == 60.5f);
  CASCADE_CUDA_CHECK(cudaGraphExecDestroy(exec));
  CASCADE_CUDA_CHECK(cudaGraphDestroy(graph));
  CASCADE_CUDA_CHECK(cudaStreamDestroy(stream));
}

}  // TEST_SUITE("gpu")
