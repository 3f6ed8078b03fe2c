// The operators and their identities, on the host (the same functions run on the device).
#include <doctest/doctest.h>

#include <cascade/indexed.cuh>
#include <cascade/monoid.cuh>
#include <cascade/non_commutative.cuh>
#include <cascade/ops.cuh>
#include <cascade/detail/atomics.cuh>
#include <cascade/tree/redux.cuh>
#include <cascade/tuning/table.cuh>

#include <thrust/functional.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace {
struct custom_op {
  int operator()(int a, int b) const { return a * 31 + b; }
};
struct pair {
  int key, tag;
  __host__ __device__ bool operator<(pair const& o) const { return key < o.key; }
};
}  // namespace

TEST_CASE_TEMPLATE("identities are neutral", T, std::int8_t, std::uint8_t, std::int32_t, std::uint32_t, std::int64_t,
                   std::uint64_t, float, double) {
  T const samples[] = {T(0), T(1), T(7), std::numeric_limits<T>::max(), std::numeric_limits<T>::lowest()};
  for (T x : samples) {
    CAPTURE(+x);
    CHECK(static_cast<T>(cascade::plus{}(cascade::identity<cascade::plus, T>::value(), x)) == x);
    CHECK(static_cast<T>(cascade::multiplies{}(cascade::identity<cascade::multiplies, T>::value(), x)) == x);
    CHECK(cascade::minimum{}(cascade::identity<cascade::minimum, T>::value(), x) == x);
    CHECK(cascade::maximum{}(cascade::identity<cascade::maximum, T>::value(), x) == x);
  }
}

TEST_CASE("min and max identities are infinities for floating point and limits for integers") {
  CHECK(std::isinf(cascade::identity<cascade::minimum, float>::value()));
  CHECK(cascade::identity<cascade::minimum, float>::value() > 0);
  CHECK(cascade::identity<cascade::maximum, double>::value() == -std::numeric_limits<double>::infinity());
  CHECK(cascade::identity<cascade::minimum, int>::value() == std::numeric_limits<int>::max());
  CHECK(cascade::identity<cascade::maximum, int>::value() == std::numeric_limits<int>::min());
  CHECK(cascade::identity<cascade::maximum, std::uint8_t>::value() == 0);
}

TEST_CASE("ops are transparent and min/max keep the first of equal operands") {
  CHECK(cascade::plus{}(2, 3.5) == 5.5);
  CHECK(cascade::multiplies{}(std::int64_t(1) << 40, 4) == (std::int64_t(1) << 42));
  CHECK(cascade::minimum{}(-1, 2) == -1);
  CHECK(cascade::maximum{}(-1, 2) == 2);
  pair const a{1, 10}, b{1, 20};
  CHECK(cascade::minimum{}(a, b).tag == 10);
  CHECK(cascade::maximum{}(a, b).tag == 10);
  static_assert(cascade::plus{}(1, 2) == 3);  // constexpr
}

TEST_CASE("ops without a declared identity say so") {
  static_assert(cascade::has_identity_v<cascade::plus, float>);
  static_assert(cascade::has_identity_v<cascade::minimum, std::uint16_t>);
  static_assert(!cascade::has_identity_v<custom_op, int>);
  static_assert(!cascade::has_identity_v<cascade::plus, pair>);
  CHECK(custom_op{}(1, 2) == 33);
}

TEST_CASE_TEMPLATE("logical and bitwise identities are neutral", T, bool, std::int8_t, std::uint16_t, std::int32_t,
                   std::uint64_t) {
  T const samples[] = {T(0), T(1), std::numeric_limits<T>::max(), std::numeric_limits<T>::lowest()};
  for (T x : samples) {
    CAPTURE(+x);
    CHECK(static_cast<T>(cascade::logical_and{}(cascade::identity<cascade::logical_and, T>::value(), x)) ==
          static_cast<T>(x != T(0)));
    CHECK(static_cast<T>(cascade::logical_or{}(cascade::identity<cascade::logical_or, T>::value(), x)) ==
          static_cast<T>(x != T(0)));
    CHECK(static_cast<T>(cascade::bit_and{}(cascade::identity<cascade::bit_and, T>::value(), x)) == x);
    CHECK(static_cast<T>(cascade::bit_or{}(cascade::identity<cascade::bit_or, T>::value(), x)) == x);
    CHECK(static_cast<T>(cascade::bit_xor{}(cascade::identity<cascade::bit_xor, T>::value(), x)) == x);
  }
  static_assert(!cascade::has_identity_v<cascade::bit_and, float>);  // no bits to combine
}

TEST_CASE_TEMPLATE("16-bit floating identities: 0, 1, +-inf", T, __half, __nv_bfloat16) {
  auto const f = [](T x) { return static_cast<float>(x); };
  CHECK(f(cascade::identity<cascade::plus, T>::value()) == 0.0f);
  CHECK(f(cascade::identity<cascade::multiplies, T>::value()) == 1.0f);
  CHECK(f(cascade::identity<cascade::minimum, T>::value()) == std::numeric_limits<float>::infinity());
  CHECK(f(cascade::identity<cascade::maximum, T>::value()) == -std::numeric_limits<float>::infinity());
  T const x = T(2.5f);
  CHECK(f(cascade::plus{}(cascade::identity<cascade::plus, T>::value(), x)) == 2.5f);
  CHECK(f(cascade::minimum{}(cascade::identity<cascade::minimum, T>::value(), x)) == 2.5f);
  CHECK(f(cascade::maximum{}(cascade::identity<cascade::maximum, T>::value(), x)) == 2.5f);
}

TEST_CASE("monoid and non_commutative: the op unchanged, the identity and the order property carried") {
  auto const m = cascade::monoid(custom_op{}, 0);
  CHECK(m(1, 2) == 33);
  CHECK(cascade::detail::identity_of<int>(m) == 0);
  CHECK(cascade::detail::identity_of<long>(m) == 0L);
  static_assert(cascade::has_identity_v<decltype(m), int>);
  static_assert(cascade::is_monoid_v<decltype(m)> && !cascade::is_monoid_v<custom_op>);
  static_assert(cascade::is_commutative_v<decltype(m)> && cascade::is_commutative_v<cascade::plus>);

  auto const nc = cascade::non_commutative(custom_op{});
  CHECK(nc(1, 2) == 33);
  static_assert(!cascade::is_commutative_v<decltype(nc)>);
  static_assert(!cascade::has_identity_v<decltype(nc), int>);
  auto const both = cascade::non_commutative(cascade::monoid(custom_op{}, 7));
  auto const other_way = cascade::monoid(cascade::non_commutative(custom_op{}), 7);
  CHECK(cascade::detail::identity_of<int>(both) == 7);
  CHECK(cascade::detail::identity_of<int>(other_way) == 7);
  static_assert(!cascade::is_commutative_v<decltype(both)> && !cascade::is_commutative_v<decltype(other_way)>);
  // The trait passes through non_commutative to the wrapped op's declaration.
  CHECK(cascade::detail::identity_of<int>(cascade::non_commutative(cascade::plus{})) == 0);
  static_assert(!cascade::has_identity_v<cascade::monoid_op<custom_op, pair>, int>);  // pair does not convert
}

TEST_CASE("arg ops: smaller / larger value, the smaller index on ties") {
  cascade::indexed<int> const a{4, 7}, b{2, 7}, c{9, 1};
  CHECK(cascade::arg_min{}(a, b) == b);
  CHECK(cascade::arg_min{}(b, a) == b);
  CHECK(cascade::arg_min{}(a, c) == c);
  CHECK(cascade::arg_max{}(a, c) == a);
  CHECK(cascade::arg_max{}(c, b) == b);
  cascade::minmax_result<int> const ma{a, a}, mc{c, c};
  auto const mm = cascade::arg_min_max{}(ma, mc);
  CHECK(mm.min == c);
  CHECK(mm.max == a);
}

// CCCL's function objects (and Thrust's, the same types) stand for cascade's ops: the same identities,
// table keys and hardware paths; typed forms only over the type they compute in.
TEST_CASE("CCCL's ops: identities, table keys and hardware paths of the cascade op they compute") {
  using cascade::has_identity_v;
  using cascade::detail::known_op_t;
  namespace tuning = cascade::tuning;
  static_assert(std::is_same_v<known_op_t<cuda::std::plus<>, float>, cascade::plus>);
  static_assert(std::is_same_v<known_op_t<cuda::std::plus<float>, float>, cascade::plus>);
  static_assert(std::is_same_v<known_op_t<thrust::plus<int>, int>, cascade::plus>);
  static_assert(std::is_same_v<known_op_t<cuda::std::plus<int>, float>, cuda::std::plus<int>>);  // rounds to int
  static_assert(std::is_same_v<known_op_t<cuda::std::multiplies<>, double>, cascade::multiplies>);
  static_assert(std::is_same_v<known_op_t<cuda::minimum<>, int>, cascade::minimum>);
  static_assert(std::is_same_v<known_op_t<thrust::maximum<double>, double>, cascade::maximum>);
  static_assert(std::is_same_v<known_op_t<cuda::std::bit_xor<unsigned>, unsigned>, cascade::bit_xor>);
  static_assert(std::is_same_v<known_op_t<cuda::std::logical_or<>, bool>, cascade::logical_or>);
  static_assert(std::is_same_v<known_op_t<cuda::std::minus<>, int>, cuda::std::minus<>>);  // not a monoid
  static_assert(std::is_same_v<known_op_t<cascade::plus, int>, cascade::plus>);

  CHECK(cascade::identity<cuda::std::plus<>, int>::value() == 0);
  CHECK(cascade::identity<cuda::std::multiplies<float>, float>::value() == 1.0f);
  CHECK(cascade::identity<cuda::minimum<>, int>::value() == std::numeric_limits<int>::max());
  CHECK(cascade::identity<thrust::minimum<float>, float>::value() == std::numeric_limits<float>::infinity());
  CHECK(cascade::identity<cuda::maximum<>, double>::value() == -std::numeric_limits<double>::infinity());
  CHECK(cascade::identity<cuda::std::bit_and<>, std::uint8_t>::value() == 0xff);
  CHECK(cascade::identity<cuda::std::bit_or<>, int>::value() == 0);
  CHECK(cascade::identity<cuda::std::bit_xor<>, long>::value() == 0);
  CHECK(cascade::identity<cuda::std::logical_and<>, int>::value() == 1);
  CHECK(cascade::identity<cuda::std::logical_or<>, int>::value() == 0);
  static_assert(!has_identity_v<cuda::std::plus<int>, float>);  // a plain functor over float
  static_assert(!has_identity_v<cuda::std::bit_and<>, float>);
  static_assert(!has_identity_v<cuda::std::minus<>, int>);
  static_assert(has_identity_v<cascade::non_commutative_op<cuda::std::plus<>>, int>);

  static_assert(tuning::op_kind_of<known_op_t<cuda::minimum<>, float>> == tuning::op_kind::min_max);
  static_assert(tuning::op_kind_of<known_op_t<thrust::plus<float>, float>> == tuning::op_kind::sum);
  static_assert(cascade::detail::has_native_atomic<float, cuda::std::plus<>>);
  static_assert(cascade::detail::has_native_atomic<int, cuda::minimum<int>>);
  static_assert(!cascade::detail::has_native_atomic<float, cuda::minimum<>>);  // no float atomicMin
  static_assert(!cascade::detail::has_native_atomic<float, cuda::std::plus<int>>);
  static_assert(cascade::detail::has_hardware_warp_reduce<int, cuda::maximum<>>);
}
