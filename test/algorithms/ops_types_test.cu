// Every operator with its identity, over every type of one group (chosen at build time,
// CASCADE_TEST_GROUP: integers, floating or structs; one executable each), through the identity form
// reduce(policy, first, last, op) and the init form, under default_policy and two other policies,
// against cub::DeviceReduce::Reduce and an exact host fold. Data keep every result exact in any
// order (small values, +-1 factors, comparisons), so each check is equality. Also: the accumulator is
// init's type (half and int8 input accumulated in float and int32 give sums that half and int8
// cannot hold).
#include <doctest/doctest.h>

#include <cascade/cascade.cuh>
#include <thrust/device_vector.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "support/references.cuh"
#include "support/seed.hpp"

namespace {

using namespace cascade_test;

template <class T>
constexpr bool is_half_like = std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>;

template <class T>
double as_double(T x) {
  if constexpr (is_half_like<T>) return static_cast<double>(static_cast<float>(x));
  else return static_cast<double>(x);
}

template <class T>
T from_double(double x) {
  if constexpr (is_half_like<T>) return T(static_cast<float>(x));
  else return static_cast<T>(x);
}

template <class T, class Op>
T fold(std::vector<T> const& xs, T init, Op op) {
  for (T const& x : xs) init = static_cast<T>(op(init, x));
  return init;
}

template <class T>
bool same(T const& a, T const& b) {
  if constexpr (is_half_like<T>) return as_double(a) == as_double(b);
  else return a == b;
}

using other_policy_a = cascade::policy<128, 4, cascade::tree::shuffle, cascade::finish::last_block>;
using other_policy_b = cascade::policy<64, 8, cascade::tree::interleaved, cascade::finish::two_pass>;

// The identity form and the init form under three policies, CUB and the host fold all agree.
template <class T, class Op>
void check_op(std::vector<T> const& xs, Op op, char const* op_name) {
  CAPTURE(op_name);
  thrust::device_vector<T> d(xs.begin(), xs.end());
  T const* p = thrust::raw_pointer_cast(d.data());
  long long const n = static_cast<long long>(xs.size());
  T const e = cascade::identity<Op, T>::value();
  T const expected = fold(xs, e, op);
  REQUIRE(same(cub_reduce(p, n, e, op), expected));
  CHECK(same(cascade::reduce(cascade::default_policy{}, p, p + n, op), expected));
  CHECK(same(cascade::reduce(other_policy_a{}, p, p + n, op), expected));
  CHECK(same(cascade::reduce(other_policy_b{}, p, p + n, e, op), expected));
  CHECK(same(cascade::reduce(p, p + n, op), expected));  // default policy, identity form
}

std::vector<long long> sizes(std::mt19937_64& rng) {
  std::vector<long long> s = {0, 1, 2, 3, 31, 32, 33, 255, 256, 257, 1021, 4096, 4097, 65521};
  s.push_back(std::uniform_int_distribution<long long>(2, 200000)(rng));
  if (char const* cap = std::getenv("CASCADE_TEST_MAX_N")) {
    long long const max_n = std::atoll(cap);
    std::erase_if(s, [&](long long n) { return n > max_n; });
  }
  return s;
}

template <class T>
void check_integer_type() {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ (0x7000 + sizeof(T) * 2 + std::is_signed_v<T>));
  for (long long n : sizes(rng)) {
    CAPTURE(n);
    std::vector<T> any(n), small(n), factors(n), mostly_true(n), mostly_false(n);
    for (long long i = 0; i < n; ++i) {
      any[i] = static_cast<T>(rng());
      small[i] = static_cast<T>(static_cast<int>(rng() % 201) - 100);  // sums stay in range for 32/64-bit
      // Unsigned and 8/16-bit (promoted to int) products wrap exactly; wider signed ones stay +-1.
      factors[i] = (std::is_unsigned_v<T> || sizeof(T) < 4) ? static_cast<T>(rng() | 1)
                                                              : static_cast<T>(rng() % 2 ? 1 : -1);
      mostly_true[i] = static_cast<T>(rng() % 1000 == 0 ? 0 : 1 + rng() % 5);
      mostly_false[i] = static_cast<T>(rng() % 1000 == 0 ? 1 + rng() % 5 : 0);
    }
    check_op(sizeof(T) >= 4 ? small : any, cascade::plus{}, "plus");
    check_op(factors, cascade::multiplies{}, "multiplies");
    check_op(any, cascade::minimum{}, "minimum");
    check_op(any, cascade::maximum{}, "maximum");
    check_op(mostly_true, cascade::logical_and{}, "logical_and");
    check_op(mostly_false, cascade::logical_or{}, "logical_or");
    check_op(mostly_true, cascade::logical_or{}, "logical_or (true)");
    check_op(any, cascade::bit_and{}, "bit_and");
    check_op(any, cascade::bit_or{}, "bit_or");
    check_op(any, cascade::bit_xor{}, "bit_xor");
  }
}

template <class T>
void check_floating_type() {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ (0x7100 + sizeof(T)));
  // Largest n whose +-1 partial sums are exact in T: 2^(mantissa bits + 1).
  long long const exact_sum_n = 1ll << std::numeric_limits<T>::digits;
  for (long long n : sizes(rng)) {
    CAPTURE(n);
    std::vector<T> unit(n), signs(n), mixed(n), mostly_true(n), mostly_false(n);
    for (long long i = 0; i < n; ++i) {
      unit[i] = from_double<T>(static_cast<int>(rng() % 3) - 1);
      signs[i] = from_double<T>(rng() % 2 ? 1.0 : -1.0);
      // Spread values, some infinite, for min/max.
      double const r = std::ldexp(static_cast<double>(rng() % 2001) - 1000, -static_cast<int>(rng() % 8));
      mixed[i] = from_double<T>(rng() % 97 == 0 ? (rng() % 2 ? 1 : -1) * std::numeric_limits<double>::infinity() : r);
      mostly_true[i] = from_double<T>(rng() % 1000 == 0 ? 0.0 : 0.5);
      mostly_false[i] = from_double<T>(rng() % 1000 == 0 ? -2.0 : 0.0);
    }
    if (n <= exact_sum_n) check_op(unit, cascade::plus{}, "plus");
    check_op(signs, cascade::multiplies{}, "multiplies");
    check_op(mixed, cascade::minimum{}, "minimum");
    check_op(mixed, cascade::maximum{}, "maximum");
    check_op(mostly_true, cascade::logical_and{}, "logical_and");
    check_op(mostly_false, cascade::logical_or{}, "logical_or");
  }
}

}  // namespace

TEST_SUITE("gpu") {

#if defined(CASCADE_TEST_GROUP_INTEGERS)
#ifdef CASCADE_OPS_FEW  // a compile check (test/meson.build): one type of each size class
TEST_CASE_TEMPLATE("integer types: every op and its identity", T, std::int8_t, std::uint32_t, std::int64_t) {
  check_integer_type<T>();
}
#else
TEST_CASE_TEMPLATE("integer types: every op and its identity", T, std::int8_t, std::uint8_t, std::int16_t,
                   std::uint16_t, std::int32_t, std::uint32_t, std::int64_t, std::uint64_t) {
  check_integer_type<T>();
}
#endif

TEST_CASE("int8 input with an int32 init accumulates in int32") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x7201);
  long long const n = (1 << 20) + 3;
  std::vector<std::int8_t> xs(n);
  long long sum = 0;
  for (auto& x : xs) sum += (x = static_cast<std::int8_t>(rng() % 128));  // far beyond int8's range
  thrust::device_vector<std::int8_t> d(xs.begin(), xs.end());
  auto const* p = thrust::raw_pointer_cast(d.data());
  CHECK(cascade::reduce(cascade::default_policy{}, p, p + n, std::int32_t(0)) == sum);
  CHECK(cascade::reduce(other_policy_a{}, p, p + n, std::int32_t(0)) == sum);
  CHECK(cub_reduce(p, n, std::int32_t(0), cascade::plus{}) == sum);
}
#elif defined(CASCADE_TEST_GROUP_FLOATING)
}  // TEST_SUITE
namespace {
struct float_plus {
  __host__ __device__ float operator()(float a, float b) const { return a + b; }
};

}  // namespace
TEST_SUITE("gpu") {
TEST_CASE_TEMPLATE("floating-point types: every op and its identity", T, __half, __nv_bfloat16, float, double) {
  check_floating_type<T>();
}

TEST_CASE_TEMPLATE("16-bit floating input with a float init accumulates in float", T, __half, __nv_bfloat16) {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x7202);
  long long const n = (1 << 20) + 5;
  std::vector<T> xs(n);
  long long sum = 0;
  for (auto& x : xs) {
    int const v = static_cast<int>(rng() % 4);  // 0..3: the sum (~1.5M) is exact in float, not in T
    sum += v;
    x = T(static_cast<float>(v));
  }
  thrust::device_vector<T> d(xs.begin(), xs.end());
  T const* p = thrust::raw_pointer_cast(d.data());
  CHECK(cascade::reduce(cascade::default_policy{}, p, p + n, 0.0f) == static_cast<float>(sum));
  CHECK(cascade::reduce(other_policy_b{}, p, p + n, 0.0f) == static_cast<float>(sum));
  // float + __half is ambiguous in C++, so CUB (which calls op(float, __half)) gets an op taking floats;
  // cascade converts each item to the accumulator type first.
  CHECK(cub_reduce(p, n, 0.0f, float_plus{}) == static_cast<float>(sum));
}
#elif defined(CASCADE_TEST_GROUP_STRUCTS)
}  // TEST_SUITE
namespace {
// 12 bytes, 4-byte aligned: a float3-like vector summed component-wise.
struct vec3 {
  float x, y, z;
  bool operator==(vec3 const&) const = default;
};
struct vec3_plus {
  __host__ __device__ vec3 operator()(vec3 const& a, vec3 const& b) const { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
};

// 16 bytes: the range and count of a set of values.
struct span_count {
  std::int32_t lo, hi;
  std::int64_t count;
  bool operator==(span_count const&) const = default;
};
struct span_count_op {
  __host__ __device__ span_count operator()(span_count const& a, span_count const& b) const {
    return {a.lo < b.lo ? a.lo : b.lo, a.hi < b.hi ? b.hi : a.hi, a.count + b.count};
  }
};

}  // namespace
TEST_SUITE("gpu") {
TEST_CASE("user structs: a 12-byte vector and a 16-byte (min, max, count)") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x7203);
  for (long long n : sizes(rng)) {
    CAPTURE(n);
    std::vector<vec3> vs(n);
    std::vector<span_count> ss(n);
    for (long long i = 0; i < n; ++i) {
      auto small = [&] { return static_cast<float>(static_cast<int>(rng() % 17) - 8); };  // sums exact in float
      vs[i] = {small(), small(), small()};
      auto const v = static_cast<std::int32_t>(rng());
      ss[i] = {v, v, 1};
    }
    {
      vec3 const init{1, 2, 3};
      thrust::device_vector<vec3> d(vs.begin(), vs.end());
      vec3 const* p = thrust::raw_pointer_cast(d.data());
      vec3 const expected = fold(vs, init, vec3_plus{});
      REQUIRE(cub_reduce(p, n, init, vec3_plus{}) == expected);
      CHECK(cascade::reduce(cascade::default_policy{}, p, p + n, init, vec3_plus{}) == expected);
      CHECK(cascade::reduce(other_policy_a{}, p, p + n, init, vec3_plus{}) == expected);
      CHECK(cascade::reduce(other_policy_b{}, p, p + n, init, vec3_plus{}) == expected);
    }
    span_count const init{std::numeric_limits<std::int32_t>::max(), std::numeric_limits<std::int32_t>::min(), 0};
    thrust::device_vector<span_count> d(ss.begin(), ss.end());
    span_count const* p = thrust::raw_pointer_cast(d.data());
    span_count const expected = fold(ss, init, span_count_op{});
    REQUIRE(cub_reduce(p, n, init, span_count_op{}) == expected);
    CHECK(cascade::reduce(cascade::default_policy{}, p, p + n, init, span_count_op{}) == expected);
    CHECK(cascade::reduce(other_policy_a{}, p, p + n, init, span_count_op{}) == expected);
    CHECK(cascade::reduce(other_policy_b{}, p, p + n, init, span_count_op{}) == expected);
    // The same op through a monoid: the identity form.
    auto const m = cascade::monoid(span_count_op{}, init);
    CHECK(cascade::reduce(cascade::default_policy{}, p, p + n, m) == expected);
  }
}
#else
#error "define one of CASCADE_TEST_GROUP_INTEGERS, _FLOATING, _STRUCTS"
#endif

}  // TEST_SUITE
