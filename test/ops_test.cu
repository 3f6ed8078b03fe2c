// The operators and their identities, on the host (the same functions run on the device).
#include <doctest/doctest.h>

#include <cascade/ops.cuh>

#include <cmath>
#include <cstdint>
#include <limits>

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
