// The operators and their identities, on the host (the same functions run on the device).
#include <doctest/doctest.h>

#include <cascade/ops/indexed.cuh>
#include <cascade/ops/monoid.cuh>
#include <cascade/ops/non_commutative.cuh>
#include <cascade/ops.cuh>
#include <cascade/detail/block/atomics.cuh>
#include <cascade/detail/kernel/arg/keyed_input.cuh>
#include <cascade/tree/redux.cuh>
#include <cascade/tuning/table.cuh>

#include <thrust/functional.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "support/ieee_reference.hpp"

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
  // op_kind_of maps what known_op maps, CCCL's and Thrust's functors included, typed or not
  using tuning::op_kind;
  static_assert(tuning::op_kind_of<cuda::minimum<>> == op_kind::min_max);
  static_assert(tuning::op_kind_of<cuda::maximum<>> == op_kind::min_max);
  static_assert(tuning::op_kind_of<cuda::minimum<int>> == op_kind::min_max);
  static_assert(tuning::op_kind_of<thrust::minimum<double>> == op_kind::min_max);
  static_assert(tuning::op_kind_of<thrust::maximum<float>> == op_kind::min_max);
  static_assert(tuning::op_kind_of<thrust::maximum<float>, float> == op_kind::min_max);
  static_assert(tuning::op_kind_of<cascade::minimum_number> == op_kind::min_max);
  static_assert(tuning::op_kind_of<cascade::maximum_number> == op_kind::min_max);
  static_assert(tuning::op_kind_of<cuda::std::plus<>> == op_kind::sum);
  static_assert(tuning::op_kind_of<thrust::plus<float>> == op_kind::sum);
  static_assert(tuning::op_kind_of<cuda::std::multiplies<int>> == op_kind::sum);
  static_assert(tuning::op_kind_of<thrust::bit_and<unsigned>> == op_kind::sum);
  static_assert(tuning::op_kind_of<cuda::std::logical_or<>> == op_kind::sum);
  static_assert(tuning::op_kind_of<cuda::std::minus<>> == op_kind::sum);  // not one of cascade's: a plain functor
  static_assert(tuning::op_kind_of<cascade::arg_min> == op_kind::arg);
  static_assert(cascade::detail::has_native_atomic<float, cuda::std::plus<>>);
  static_assert(cascade::detail::has_native_atomic<int, cuda::minimum<int>>);
  static_assert(!cascade::detail::has_native_atomic<float, cuda::minimum<>>);  // no float atomicMin
  static_assert(!cascade::detail::has_native_atomic<float, cuda::std::plus<int>>);
  static_assert(cascade::detail::has_hardware_warp_reduce<int, cuda::maximum<>>);
}

// ---- IEEE 754-2019 minimum / maximum (and the Number forms): every value, NaN and zeros included ----

namespace {

using namespace cascade_test;

// Values at every edge of T: NaNs with other payloads and signs, infinities, the largest, the
// smallest normal and denormal, zeros of both signs, ordinary numbers, and neighbours.
template <class T>
std::vector<T> edge_values() {
  constexpr int top = 8 * sizeof(T) - 1;
  using B = bits_t<T>;
  B const sign = B(1) << top;
  std::vector<B> positive;
  if constexpr (sizeof(T) == 8)
    positive = {0, 1, 2, 0x000fffffffffffffull, 0x0010000000000000ull, 0x3ff0000000000000ull, 0x3ff0000000000001ull,
                0x4000000000000000ull, 0x7fefffffffffffffull, 0x7ff0000000000000ull, 0x7ff0000000000001ull,
                0x7ff8000000000000ull, 0x7fffffffffffffffull, 0x7ff4000000000abcull};
  else if constexpr (sizeof(T) == 4)
    positive = {0, 1, 2, 0x007fffff, 0x00800000, 0x3f800000, 0x3f800001, 0x40000000, 0x7f7fffff, 0x7f800000,
                0x7f800001, 0x7fc00000, 0x7fffffff, 0x7fa00abc};
  else if constexpr (std::is_same_v<T, __half>)
    positive = {0, 1, 2, 0x03ff, 0x0400, 0x3c00, 0x3c01, 0x4000, 0x7bff, 0x7c00, 0x7c01, 0x7e00, 0x7fff, 0x7d23};
  else
    positive = {0, 1, 2, 0x007f, 0x0080, 0x3f80, 0x3f81, 0x4000, 0x7f7f, 0x7f80, 0x7f81, 0x7fc0, 0x7fff, 0x7fa3};
  std::vector<T> out;
  for (B b : positive) {
    out.push_back(of_bits<T>(b));
    out.push_back(of_bits<T>(static_cast<B>(b | sign)));
  }
  return out;
}

template <class T, class Op, bool Max, bool Number>
void check_extremum(Op op) {
  auto const values = edge_values<T>();
  for (T a : values)
    for (T b : values) {
      CAPTURE(as_double(a));
      CAPTURE(as_double(b));
      CHECK(bits(op(a, b)) == reference_extremum(a, std::vector<T>{b}, Max, Number));
      CHECK(bits(op(a, b)) == bits(op(b, a)));
    }
  for (T a : values)
    for (T b : values)
      for (T c : values) CHECK(bits(op(op(a, b), c)) == bits(op(a, op(b, c))));
}

}  // namespace

TEST_CASE_TEMPLATE("minimum, maximum: IEEE minimum and maximum (NaN wins, -0 below +0), associative to the bit", T,
                   float, double, __half, __nv_bfloat16) {
  check_extremum<T, cascade::minimum, false, false>(cascade::minimum{});
  check_extremum<T, cascade::maximum, true, false>(cascade::maximum{});
  // CCCL's functors run as cascade's ops: the same table, the same results
  check_extremum<T, cascade::detail::known_op_t<cuda::minimum<>, T>, false, false>({});
  check_extremum<T, cascade::detail::known_op_t<thrust::maximum<T>, T>, true, false>({});
}

TEST_CASE_TEMPLATE("minimum_number, maximum_number: NaN ignored unless both are, -0 below +0", T, float, double, __half,
                   __nv_bfloat16) {
  check_extremum<T, cascade::minimum_number, false, true>(cascade::minimum_number{});
  check_extremum<T, cascade::maximum_number, true, true>(cascade::maximum_number{});
  // the identity: the canonical NaN, which every value (NaN too) leaves as it is
  T const e_min = cascade::identity<cascade::minimum_number, T>::value();
  T const e_max = cascade::identity<cascade::maximum_number, T>::value();
  CHECK(bits(e_min) == canonical_nan<T>());
  CHECK(bits(e_max) == canonical_nan<T>());
  for (T x : edge_values<T>()) {
    bits_t<T> const want = nan_of(x) ? canonical_nan<T>() : bits(x);
    CHECK(bits(cascade::minimum_number{}(e_min, x)) == want);
    CHECK(bits(cascade::maximum_number{}(x, e_max)) == want);
  }
}

TEST_CASE_TEMPLATE("argmin, argmax: the first NaN wins, then the extreme value, -0 below +0, then the first index", T,
                   float, double, __half, __nv_bfloat16) {
  auto const values = edge_values<T>();
  std::vector<cascade::indexed<T>> items;
  for (std::size_t i = 0; i < values.size(); ++i) items.push_back({static_cast<std::int64_t>(i), values[i]});
  for (std::size_t i = 0; i < values.size(); ++i)  // equal values at later indices
    items.push_back({static_cast<std::int64_t>(values.size() + i), values[i]});
  auto const same = [](cascade::indexed<T> const& a, cascade::indexed<T> const& b) {
    return a.index == b.index && bits(a.value) == bits(b.value);
  };
  auto const check_op = [&](auto op, bool max) {
    // the fold in index order, written plainly: the first NaN, else the first extreme value
    cascade::indexed<T> want = items[0];
    for (auto const& x : items) {
      if (nan_of(want.value)) break;
      if (nan_of(x.value)) { want = x; break; }
      double const a = as_double(x.value), b = as_double(want.value);
      bool const better = max ? (a > b || (a == b && a == 0 && !std::signbit(a) && std::signbit(b)))
                              : (a < b || (a == b && a == 0 && std::signbit(a) && !std::signbit(b)));
      if (better) want = x;
    }
    cascade::indexed<T> acc = items[0];
    for (auto const& x : items) acc = op(acc, x);
    CHECK(same(acc, want));
    for (auto const& a : items)
      for (auto const& b : items) {
        CHECK(same(op(a, b), op(b, a)));
        for (std::size_t k = 0; k < items.size(); k += 3) CHECK(same(op(op(a, b), items[k]), op(a, op(b, items[k]))));
      }
  };
  check_op(cascade::arg_min{}, false);
  check_op(cascade::arg_max{}, true);
  // the ops' integer keys rank every pair as the kernels' vector folds do (rank_compare): else two
  // policies that fold the same items in other places could pick other items
  for (T a : values)
    for (T b : values) {
      CHECK(cascade::detail::rank_compare_keyed<false>(a, b) == cascade::detail::rank_compare<false>(a, b));
      CHECK(cascade::detail::rank_compare_keyed<true>(a, b) == cascade::detail::rank_compare<true>(a, b));
    }
  // argmin's value is what minimum gives, but for the NaN's bits
  cascade::indexed<T> lo = items[0];
  T m = items[0].value;
  for (auto const& x : items) lo = cascade::arg_min{}(lo, x), m = cascade::minimum{}(m, x.value);
  CHECK(nan_of(lo.value) == nan_of(m));
  if (!nan_of(m)) CHECK(bits(lo.value) == bits(m));
}

// argmin, argmax and minmax over a pointer to an IEEE type carry rank keys through the tree and the
// finish (detail/kernel/arg/keyed_input.cuh): the keys must order any two items as rank_compare
// does (else a policy that compares keys where another compares values could pick another item),
// every NaN one key below all others, and a number's key must give back its bits.
TEST_CASE_TEMPLATE("rank keys: the items' order as integers, NaN first, each number's bits back from its key", T, float,
                   double, __half, __nv_bfloat16) {
  using cascade::detail::nan_rank_key;
  using cascade::detail::rank_compare;
  using cascade::detail::rank_key;
  using cascade::detail::value_of_rank_key;
  auto const edges = edge_values<T>();
  std::vector<T> values = edges;
  if constexpr (sizeof(T) == 2)  // every 16-bit value
    for (std::uint32_t b = 0; b < 65536; ++b) values.push_back(of_bits<T>(static_cast<bits_t<T>>(b)));
  long long wrong_order = 0, wrong_back = 0, wrong_nan = 0;
  auto const order = [](auto a, auto b) { return (a > b) - (a < b); };
  for (T x : values) {
    for (T e : edges) {
      wrong_order += order(rank_key<false>(x), rank_key<false>(e)) != rank_compare<false>(x, e);
      wrong_order += order(rank_key<true>(x), rank_key<true>(e)) != rank_compare<true>(x, e);
    }
    if (nan_of(x)) {
      wrong_nan += rank_key<false>(x) != nan_rank_key<T> || rank_key<true>(x) != nan_rank_key<T>;
    } else {
      wrong_nan += rank_key<false>(x) == nan_rank_key<T> || rank_key<true>(x) == nan_rank_key<T>;
      wrong_back += bits(value_of_rank_key<false, T>(rank_key<false>(x))) != bits(x);
      wrong_back += bits(value_of_rank_key<true, T>(rank_key<true>(x))) != bits(x);
    }
  }
  CAPTURE(values.size());
  CHECK(wrong_order == 0);
  CHECK(wrong_nan == 0);
  CHECK(wrong_back == 0);
}
