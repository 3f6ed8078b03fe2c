// reduce_axes_into and transform_reduce_axes_into: every axis owner of the registry (axis/all.cuh),
// every segment owner (segment/all.cuh) and the default, against a host fold in index order (exact:
// int sums, float maxima, a non-commutative 2x2 matrix product mod 2^32; float sums within a bound),
// over ranks 1..4, every subset of the axes, extents 0, 1, primes and powers of two, row-major,
// column-major, padded and permuted strides, broadcast (stride 0) axes, outputs with and without the
// reduced axes; mdspan layouts; more than 2^32 items through a counting iterator; graph capture; and
// the argument errors, which leave the output as it was. argmin_axis_into and argmax_axis_into along
// every axis of random shapes (ties, NaN, signed zeros) under five policies, against the op folded on
// the host in index order.
#include <doctest/doctest.h>

#include <cascade/cascade.cuh>
#include <cuda/std/array>
#include <cuda/std/mdspan>
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/fill.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "support/capture.cuh"
#include "support/noncommutative_ops.cuh"
#include "support/seed.hpp"

namespace {

using namespace cascade_test;

// An array's shape: extents and strides (in items), and the items it spans.
struct shape {
  int rank = 0;
  long long extents[4] = {};
  long long strides[4] = {};
  long long span() const {
    long long last = 0;
    for (int a = 0; a < rank; ++a) {
      if (extents[a] == 0) return 0;
      last += (extents[a] - 1) * strides[a];
    }
    return last + 1;
  }
  long long size() const {
    long long n = 1;
    for (int a = 0; a < rank; ++a) n *= extents[a];
    return n;
  }
  std::string text() const {
    std::string t = "extents (";
    for (int a = 0; a < rank; ++a) t += std::to_string(extents[a]) + (a + 1 < rank ? ", " : "");
    t += ") strides (";
    for (int a = 0; a < rank; ++a) t += std::to_string(strides[a]) + (a + 1 < rank ? ", " : "");
    return t + ")";
  }
};

template <class It>
cascade::array_view<It> view_of(It data, shape const& s) {
  cascade::array_view<It> v{data, s.rank};
  for (int a = 0; a < s.rank; ++a) v.extents[a] = s.extents[a], v.strides[a] = s.strides[a];
  return v;
}

// The output shape (row-major, compact) for reducing `mask`'s axes of `in`; keepdim leaves them, extent 1.
shape output_shape(shape const& in, unsigned mask, bool keepdim) {
  shape out;
  for (int a = 0; a < in.rank; ++a)
    if (!((mask >> a) & 1u)) out.extents[out.rank++] = in.extents[a];
    else if (keepdim) out.extents[out.rank++] = 1;
  long long step = 1;
  for (int a = out.rank - 1; a >= 0; --a) {
    out.strides[a] = step;
    step *= std::max(1ll, out.extents[a]);
  }
  return out;
}

// The host fold: for every kept index (row-major), init op the items over the reduced axes in
// row-major order; written where the output shape puts it.
template <class T, class X, class Op>
std::vector<T> host_fold(std::vector<X> const& in, shape const& s, unsigned mask, shape const& out, T init, Op op,
                         std::size_t out_items) {
  std::vector<T> result(out_items, init);
  int kept[4], red[4], nk = 0, nr = 0;
  for (int a = 0; a < s.rank; ++a) ((mask >> a) & 1u ? red[nr++] : kept[nk++]) = a;
  long long outputs = 1, reduced = 1;
  for (int k = 0; k < nk; ++k) outputs *= s.extents[kept[k]];
  for (int k = 0; k < nr; ++k) reduced *= s.extents[red[k]];
  bool const keepdim = out.rank == s.rank && nr > 0;
  for (long long o = 0; o < outputs; ++o) {
    long long base = 0, where = 0, rest = o;
    for (int k = nk - 1; k >= 0; --k) {
      long long const e = s.extents[kept[k]];
      long long const i = rest % e;
      rest /= e;
      base += i * s.strides[kept[k]];
      where += i * out.strides[keepdim ? kept[k] : k];
    }
    T acc = init;
    for (long long j = 0; j < reduced; ++j) {
      long long off = 0, r = j;
      for (int k = nr - 1; k >= 0; --k) {
        long long const e = s.extents[red[k]];
        off += (r % e) * s.strides[red[k]];
        r /= e;
      }
      acc = op(acc, static_cast<T>(in[base + off]));
    }
    result[where] = acc;
  }
  return result;
}

// A random shape: rank 1..4, extents among 0, 1, primes, powers of two and their neighbours (at most
// `budget` items), and one of five layouts.
shape random_shape(std::mt19937_64& rng, long long budget, std::string& layout) {
  static long long const choices[] = {1, 2, 3, 5, 7, 13, 31, 32, 33, 64, 97, 127, 128, 129, 257, 1024};
  shape s;
  s.rank = 1 + static_cast<int>(rng() % 4);
  long long items = 1;
  for (int a = 0; a < s.rank; ++a) {
    long long e = choices[rng() % (sizeof(choices) / sizeof(choices[0]))];
    while (e > 1 && items * e > budget) e = e / 2;
    if (rng() % 40 == 0) e = 0;
    s.extents[a] = e;
    items *= std::max(1ll, e);
  }
  int const kind = static_cast<int>(rng() % 5);
  int order[4] = {0, 1, 2, 3};
  if (kind == 1) std::reverse(order, order + s.rank);                      // column-major
  if (kind == 3) std::shuffle(order, order + s.rank, rng);                  // permuted
  long long step = 1;
  for (int k = s.rank - 1; k >= 0; --k) {
    int const a = order[k];
    s.strides[a] = step;
    long long const pad = kind == 2 || kind == 3 ? static_cast<long long>(rng() % 5) : 0;  // padded rows
    step = step * std::max(1ll, s.extents[a]) + pad * step;
  }
  if (kind == 4) s.strides[rng() % s.rank] = 0;  // a broadcast axis
  static char const* const names[] = {"row-major", "column-major", "padded", "permuted and padded", "broadcast"};
  layout = names[kind];
  return s;
}

struct case_data {
  shape in;
  std::string text;
  std::vector<int> ints;
  std::vector<float> floats;
  std::vector<mat2> mats;
};

case_data random_case(std::mt19937_64& rng, long long budget) {
  case_data c;
  std::string layout;
  c.in = random_shape(rng, budget, layout);
  c.text = layout + " " + c.in.text();
  long long const span = std::max(1ll, c.in.span());
  c.ints.resize(span);
  c.floats.resize(span);
  c.mats.resize(span);
  for (long long i = 0; i < span; ++i) {
    c.ints[i] = static_cast<int>(rng() % 2001) - 1000;
    c.floats[i] = std::ldexp(static_cast<float>(rng() % 100000) - 50000.0f, static_cast<int>(rng() % 20) - 10);
    c.mats[i] = mat2::random_invertible(rng);
  }
  return c;
}

// Runs reduce_axes_into under `policy` and compares with the host fold: exactly, or for float sums
// (unit > 0) within the bound of any summation order, (items + 1) unit (the sum of the magnitudes
// folded, init's included), against the fold in double.
template <class Policy, class T, class X, class Op>
void check(Policy policy, std::vector<X> const& h_in, shape const& in, unsigned mask, bool keepdim, T init, Op op,
           std::string const& what, double unit = 0) {
  shape const out = output_shape(in, mask, keepdim);
  thrust::device_vector<X> d_in(h_in.begin(), h_in.end());
  std::size_t const out_items = static_cast<std::size_t>(std::max(1ll, out.size()));
  thrust::device_vector<T> d_out(out_items, init);
  std::vector<int> list;
  for (int a = 0; a < in.rank; ++a)
    if ((mask >> a) & 1u) list.push_back(a - (a % 2 == 1 ? in.rank : 0));  // odd axes counted from the end
  cascade::axes which;
  switch (list.size()) {
    case 0: which = cascade::axes{}; break;
    case 1: which = cascade::axes{list[0]}; break;
    case 2: which = cascade::axes{list[0], list[1]}; break;
    case 3: which = cascade::axes{list[0], list[1], list[2]}; break;
    default: which = cascade::axes::all(); break;
  }
  cascade::reduce_axes_into(policy, view_of(thrust::raw_pointer_cast(d_in.data()), in), which,
                            view_of(thrust::raw_pointer_cast(d_out.data()), out), init, op);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  thrust::host_vector<T> const got(d_out.begin(), d_out.end());
  std::string const where = what + ": axes mask " + std::to_string(mask) + (keepdim ? " (keepdim)" : "");
  if constexpr (std::is_arithmetic_v<X>) {
    if (unit > 0) {
      long long reduced = 1;
      for (int a = 0; a < in.rank; ++a)
        if ((mask >> a) & 1u) reduced *= in.extents[a];
      auto const add = [](double a, double b) { return a + b; };
      std::vector<double> abs_in(h_in.size());
      for (std::size_t i = 0; i < h_in.size(); ++i) abs_in[i] = std::fabs(static_cast<double>(h_in[i]));
      std::vector<double> const magnitude = host_fold(abs_in, in, mask, out, std::fabs(static_cast<double>(init)), add, out_items);
      std::vector<double> const exact =
          host_fold(std::vector<double>(h_in.begin(), h_in.end()), in, mask, out, static_cast<double>(init), add, out_items);
      for (std::size_t i = 0; i < out_items; ++i) {
        INFO(where, ", output ", i, " of ", out_items);
        REQUIRE(std::fabs(static_cast<double>(got[i]) - exact[i]) <= static_cast<double>(reduced + 1) * unit * magnitude[i]);
      }
      return;
    }
  }
  std::vector<T> const want = host_fold(h_in, in, mask, out, init, op, out_items);
  for (std::size_t i = 0; i < out_items; ++i) {
    INFO(where, ", output ", i, " of ", out_items);
    REQUIRE(got[i] == want[i]);
  }
}

// CASCADE_TEST_OWNER=<text> keeps the policies whose names hold it (a sanitizer's run of one owner).
template <class F>
void for_each_policy(F f) {
  char const* const only = std::getenv("CASCADE_TEST_OWNER");
  auto const run = [&](auto policy, std::string const& name) {
    if (only == nullptr || name.find(only) != std::string::npos) f(policy, name);
  };
  run(cascade::default_policy{}, "default_policy");
#ifdef CASCADE_AXES_FEW  // a compile check (test/meson.build): one policy of each kind
  run(cascade::policy<256, 4, cascade::tree::shuffle, cascade::axis::columns>{}, "axis::columns <256, 4>");
  run(cascade::policy<128, 2, cascade::tree::shuffle, cascade::axis::blocks>{}, "axis::blocks <128, 2>");
  run(cascade::policy<128, 4, cascade::tree::shuffle, cascade::segment::warp<32>>{}, "segment::warp<32> <128, 4>");
  return;
#endif
  cascade::detail::for_each_type(cascade::axis::all{}, [&](auto owner) {
    using o = decltype(owner);
    run(cascade::policy<256, 4, cascade::tree::shuffle, o>{}, std::string(o::name) + " <256, 4>");
    run(cascade::policy<64, 1, cascade::tree::shuffle, o>{}, std::string(o::name) + " <64, 1>");
  });
  cascade::detail::for_each_type(cascade::segment::all{}, [&](auto owner) {
    using o = decltype(owner);
    run(cascade::policy<128, 4, cascade::tree::shuffle, o>{}, std::string(o::name) + " <128, 4>");
  });
}

}  // namespace

TEST_SUITE("gpu") {

TEST_CASE("reduce_axes_into: every policy against a host fold, random shapes and every subset of axes") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0xA8E5);
  for (int round = 0; round < 24; ++round) {
    case_data const c = random_case(rng, round < 20 ? 4096 : (1 << 18));
    for (unsigned mask = 0; mask < (1u << c.in.rank); ++mask) {
      bool const keepdim = rng() % 3 == 0;
      for_each_policy([&](auto policy, std::string const& name) {
        check(policy, c.ints, c.in, mask, keepdim, 7, cascade::plus{}, name + ", int plus, " + c.text);
        check(policy, c.mats, c.in, mask, keepdim, mat2{3, 1, 4, 1}, cascade::non_commutative(mat2_product{}),
              name + ", mat2 product (non-commutative), " + c.text);
      });
      double const unit = std::ldexp(1.0, -24);
      check(cascade::default_policy{}, c.floats, c.in, mask, keepdim, -INFINITY, cascade::maximum{},
            "default, float maximum, " + c.text);
      check(cascade::default_policy{}, c.floats, c.in, mask, keepdim, 0.5f, cascade::plus{}, "default, float plus, " + c.text,
            unit);
      check(cascade::policy<256, 8, cascade::tree::shuffle, cascade::axis::columns>{}, c.floats, c.in, mask, keepdim,
            0.5f, cascade::plus{}, "axis::columns, float plus, " + c.text, unit);
    }
  }
}

TEST_CASE("reduce_axes_into: the shapes the bench measures, column and row sums, dim=(0, 2)") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0xA8E6);
  for (auto [rows, cols] : {std::pair{1000ll, 1000ll}, std::pair{1ll << 16, 64ll}, std::pair{64ll, 1ll << 16},
                            std::pair{3ll, 100003ll}}) {
    shape s{2, {rows, cols}, {cols, 1}};
    std::vector<int> h(rows * cols);
    for (auto& x : h) x = static_cast<int>(rng() % 2001) - 1000;
    for (unsigned mask : {1u, 2u, 3u})
      for_each_policy([&](auto policy, std::string const& name) {
        check(policy, h, s, mask, false, 0, cascade::plus{}, name + ", " + s.text());
      });
  }
  shape t{3, {17, 33, 129}, {33 * 129, 129, 1}};
  std::vector<int> h(t.size());
  for (auto& x : h) x = static_cast<int>(rng() % 2001) - 1000;
  for_each_policy([&](auto policy, std::string const& name) {
    check(policy, h, t, 5u, false, 0, cascade::plus{}, name + ", dim=(0, 2), " + t.text());
  });
}

TEST_CASE("reduce_axes_into: more than 2^32 items through a counting iterator") {
  // 2^11 x 2^21 items, item (r, c) = r C + c with C = 2^21: row r sums to C (r C) + C (C - 1) / 2,
  // column c to C R (R - 1) / 2 + R c (R = 2^11; exact in 64 bits).
  long long const rows = 1ll << 11, cols = 1ll << 21;
  thrust::counting_iterator<unsigned long long> const first(0ull);
  auto const in = cascade::view(first, {rows, cols});
  thrust::device_vector<unsigned long long> row_sums(rows), col_sums(cols);
  auto run = [&](auto policy, std::string const& name) {
    INFO(name);
    thrust::fill(row_sums.begin(), row_sums.end(), 0ull);
    thrust::fill(col_sums.begin(), col_sums.end(), 0ull);
    cascade::reduce_axes_into(policy, in, cascade::axes{1}, cascade::view(thrust::raw_pointer_cast(row_sums.data()), {rows}),
                              0ull, cascade::plus{});
    cascade::reduce_axes_into(policy, in, cascade::axes{0}, cascade::view(thrust::raw_pointer_cast(col_sums.data()), {cols}),
                              0ull, cascade::plus{});
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    thrust::host_vector<unsigned long long> const r(row_sums), c(col_sums);
    unsigned long long const C = static_cast<unsigned long long>(cols), R = static_cast<unsigned long long>(rows);
    for (long long i : {0ll, 1ll, 777ll, rows - 1}) {
      unsigned long long const u = static_cast<unsigned long long>(i);
      REQUIRE(r[i] == C * (u * C) + C * (C - 1) / 2);
    }
    for (long long i : {0ll, 1ll, 123457ll, cols - 1}) {
      unsigned long long const u = static_cast<unsigned long long>(i);
      REQUIRE(c[i] == C * (R * (R - 1) / 2) + R * u);
    }
  };
  run(cascade::default_policy{}, "default_policy");
  run(cascade::policy<256, 8, cascade::tree::shuffle, cascade::axis::columns>{}, "axis::columns");
  run(cascade::policy<256, 8, cascade::tree::shuffle, cascade::segment::blocks>{}, "segment::blocks");
}

TEST_CASE("reduce_axes_into: mdspan layouts, keepdim, a transform, an init-free op") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0xA8E7);
  int const A = 6, B = 7, C = 5;
  std::vector<int> h(A * B * C);
  for (auto& x : h) x = static_cast<int>(rng() % 201) - 100;
  thrust::device_vector<int> d(h.begin(), h.end());
  int* p = thrust::raw_pointer_cast(d.data());
  using ext3 = cuda::std::dextents<long long, 3>;
  using ext1 = cuda::std::dextents<long long, 1>;
  thrust::device_vector<int> out(B), out_left(B), out_stride(B), out_keep(B), out_sq(B), out_max(B);
  // the same items as layout_right (A, B, C), layout_left (C, B, A), layout_stride (A, B, C)
  cuda::std::mdspan<int const, ext3, cuda::std::layout_right> right(p, A, B, C);
  cuda::std::mdspan<int const, ext3, cuda::std::layout_left> left(p, C, B, A);
  cuda::std::layout_stride::mapping<ext3> const strided(ext3(A, B, C), cuda::std::array<long long, 3>{B * C, C, 1});
  cuda::std::mdspan<int const, ext3, cuda::std::layout_stride> any(p, strided);
  cuda::std::mdspan<int, ext1> o(thrust::raw_pointer_cast(out.data()), B);
  cuda::std::mdspan<int, ext1> ol(thrust::raw_pointer_cast(out_left.data()), B);
  cuda::std::mdspan<int, ext1> os(thrust::raw_pointer_cast(out_stride.data()), B);
  cascade::default_policy policy;
  cascade::reduce_axes_into(policy, right, cascade::axes{0, 2}, o, 1, cascade::plus{});
  cascade::reduce_axes_into(policy, left, cascade::axes_of<0, 2>{}, ol, 1, cascade::plus{});
  cascade::reduce_axes_into(policy, any, cascade::axes{-1, 0}, os, 1, cascade::plus{});
  cuda::std::mdspan<int, cuda::std::dextents<long long, 3>> ok(thrust::raw_pointer_cast(out_keep.data()), 1, B, 1);
  cascade::reduce_axes_into(policy, right, cascade::axes{0, 2}, ok, 1, cascade::plus{});
  auto square = [] __host__ __device__(int x) { return x * x; };
  cascade::transform_reduce_axes_into(policy, right, cascade::axes{0, 2},
                                      cascade::view(thrust::raw_pointer_cast(out_sq.data()), {B}), 0, cascade::plus{}, square);
  cascade::reduce_axes_into(policy, right, cascade::axes{0, 2}, cascade::view(thrust::raw_pointer_cast(out_max.data()), {B}),
                            cascade::maximum{});
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  thrust::host_vector<int> const g(out), gl(out_left), gs(out_stride), gk(out_keep), gq(out_sq), gm(out_max);
  for (int b = 0; b < B; ++b) {
    int sum = 1, sq = 0, mx = -1000;
    for (int a = 0; a < A; ++a)
      for (int c = 0; c < C; ++c) {
        int const x = h[(a * B + b) * C + c];
        sum += x;
        sq += x * x;
        mx = std::max(mx, x);
      }
    INFO("b = ", b);
    CHECK(g[b] == sum);
    CHECK(gl[b] == sum);
    CHECK(gs[b] == sum);
    CHECK(gk[b] == sum);
    CHECK(gq[b] == sq);
    CHECK(gm[b] == mx);
  }
}

TEST_CASE("reduce_axes_into: captured in a graph, replayed on new items") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0xA8E8);
  long long const rows = 3000, cols = 700;
  thrust::device_vector<int> d(rows * cols);
  thrust::device_vector<int> sums(cols);
  cudaStream_t stream;
  REQUIRE(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess);
  std::string failure;
  cudaGraph_t graph = capture(stream, [&] {
    cascade::reduce_axes_into(cascade::default_policy{}.on(stream), cascade::view(thrust::raw_pointer_cast(d.data()), {rows, cols}),
                              cascade::axes{0}, cascade::view(thrust::raw_pointer_cast(sums.data()), {cols}), 0, cascade::plus{});
  }, failure);
  REQUIRE(failure.empty());
  cudaGraphExec_t exec;
  REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  for (int replay = 0; replay < 3; ++replay) {
    std::vector<int> h(rows * cols);
    for (auto& x : h) x = static_cast<int>(rng() % 2001) - 1000;
    thrust::copy(h.begin(), h.end(), d.begin());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    REQUIRE(cudaGraphLaunch(exec, stream) == cudaSuccess);
    REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
    thrust::host_vector<int> const got(sums);
    for (long long c = 0; c < cols; ++c) {
      int want = 0;
      for (long long r = 0; r < rows; ++r) want += h[r * cols + c];
      INFO("replay ", replay, ", column ", c);
      REQUIRE(got[c] == want);
    }
  }
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
}

// argmin_axis_into / argmax_axis_into along every axis of `c`'s shape under `policy`, against the op
// folded on the host along the axis in index order (the first smallest / largest; NaN, -0 and +0 by
// argmin's ranks): the index and the value's bits. An axis of extent 0 must throw and write nothing.
template <class Op, class Policy, class X>
void check_arg(Policy policy, std::vector<X> const& h_in, shape const& in, std::string const& what) {
  thrust::device_vector<X> d_in(h_in.begin(), h_in.end());
  for (int axis = 0; axis < in.rank; ++axis) {
    unsigned const mask = 1u << axis;
    shape const out = output_shape(in, mask, axis % 2 == 1);
    std::size_t const out_items = static_cast<std::size_t>(std::max(1ll, out.size()));
    cascade::indexed<X> const mark{-5, X(7)};
    thrust::device_vector<cascade::indexed<X>> d_out(out_items, mark);
    auto const in_view = view_of(thrust::raw_pointer_cast(d_in.data()), in);
    auto const out_view = view_of(thrust::raw_pointer_cast(d_out.data()), out);
    int const named = axis == in.rank - 1 ? -1 : axis;  // the last axis counted from the end
    std::string const where = what + ", " + in.text() + ", axis " + std::to_string(axis);
    INFO(where);
    auto const call = [&] {
      if constexpr (std::is_same_v<Op, cascade::arg_min>) cascade::argmin_axis_into(policy, in_view, named, out_view);
      else cascade::argmax_axis_into(policy, in_view, named, out_view);
    };
    if (in.extents[axis] == 0) {
      CHECK_THROWS_AS(call(), std::invalid_argument);
    } else {
      call();
    }
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    thrust::host_vector<cascade::indexed<X>> const got(d_out.begin(), d_out.end());
    if (in.extents[axis] == 0 || out.size() == 0) {
      for (auto const& g : got) REQUIRE((g.index == mark.index && g.value == mark.value));
      continue;
    }
    shape along = in;  // the kept indices: the axis at 0
    along.extents[axis] = 1;
    std::vector<cascade::indexed<X>> want(out_items, cascade::detail::arg_call<Op, X>::init());
    for (long long o = 0; o < along.size(); ++o) {
      long long base = 0, where_out = 0, rest = o;
      int k = out.rank - 1;
      for (int a = in.rank - 1; a >= 0; --a) {
        long long const i = rest % along.extents[a];
        rest /= along.extents[a];
        base += i * in.strides[a];
        if (a != axis || out.rank == in.rank) where_out += i * out.strides[k--];
      }
      cascade::indexed<X> acc = cascade::detail::arg_call<Op, X>::init();
      for (long long i = 0; i < in.extents[axis]; ++i) acc = Op{}(acc, cascade::indexed<X>{i, h_in[base + i * in.strides[axis]]});
      want[where_out] = acc;
    }
    for (std::size_t i = 0; i < out_items; ++i) {
      INFO("output ", i, " of ", out_items);
      REQUIRE(got[i].index == want[i].index);
      REQUIRE(std::memcmp(&got[i].value, &want[i].value, sizeof(X)) == 0);
    }
  }
}

TEST_CASE("argmin_axis_into, argmax_axis_into: random shapes, ties, NaN and signed zeros, five policies") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0xA8E9);
  float const values[] = {-2.0f, -1.0f, -0.0f, 0.0f, 1.0f, 2.0f, INFINITY, -INFINITY, NAN};
  for (int round = 0; round < 40; ++round) {
    case_data const c = random_case(rng, round < 32 ? 4096 : (1 << 18));
    std::vector<float> h(c.floats.size());
    int const spread = round % 3 == 0 ? 9 : 8;  // a third of the rounds hold NaNs
    for (auto& x : h) x = values[rng() % spread];
    if (round % 4 == 1)
      for (auto& x : h) x = static_cast<float>(rng() % 100000);  // few ties
    auto const both = [&](auto policy, std::string const& name) {
      check_arg<cascade::arg_min>(policy, h, c.in, name + ", argmin, " + c.text);
      check_arg<cascade::arg_max>(policy, h, c.in, name + ", argmax, " + c.text);
    };
    both(cascade::default_policy{}, "default_policy");
    both(cascade::policy<256, 4, cascade::tree::shuffle, cascade::axis::columns>{}, "axis::columns <256, 4>");
    both(cascade::policy<128, 2, cascade::tree::shuffle, cascade::axis::blocks>{}, "axis::blocks <128, 2>");
    both(cascade::policy<128, 4, cascade::tree::shuffle, cascade::segment::warp<32>>{}, "segment::warp<32> <128, 4>");
    both(cascade::policy<256, 4, cascade::tree::shuffle, cascade::segment::blocks>{}, "segment::blocks <256, 4>");
    check_arg<cascade::arg_max>(cascade::default_policy{}, c.ints, c.in, "default_policy, int argmax, " + c.text);
  }
}

TEST_CASE("reduce_axes_into: argument errors are std::invalid_argument and write nothing") {
  thrust::device_vector<int> d(6 * 4, 1);
  thrust::device_vector<int> out(6, -5);
  auto const in = cascade::view(thrust::raw_pointer_cast(d.data()), {6, 4});
  int* o = thrust::raw_pointer_cast(out.data());
  cascade::default_policy policy;
  CHECK_THROWS_AS(cascade::reduce_axes_into(policy, in, cascade::axes{2}, cascade::view(o, {6}), 0, cascade::plus{}),
                  std::invalid_argument);
  CHECK_THROWS_AS(cascade::reduce_axes_into(policy, in, cascade::axes{-3}, cascade::view(o, {6}), 0, cascade::plus{}),
                  std::invalid_argument);
  CHECK_THROWS_AS(cascade::reduce_axes_into(policy, in, cascade::axes{1, -1}, cascade::view(o, {6}), 0, cascade::plus{}),
                  std::invalid_argument);
  CHECK_THROWS_AS(cascade::reduce_axes_into(policy, in, cascade::axes{1}, cascade::view(o, {4}), 0, cascade::plus{}),
                  std::invalid_argument);
  CHECK_THROWS_AS(cascade::reduce_axes_into(policy, in, cascade::axes{1}, cascade::view(o, {6, 4}), 0, cascade::plus{}),
                  std::invalid_argument);
  CHECK_THROWS_AS(cascade::reduce_axes_into(policy, in, cascade::axes{1}, cascade::view(o, {6, 1, 1}), 0, cascade::plus{}),
                  std::invalid_argument);
  // strides that reach past the allocation's end
  CHECK_THROWS_AS(cascade::reduce_axes_into(policy, cascade::view(thrust::raw_pointer_cast(d.data()), {6, 4}, {5, 1}),
                                            cascade::axes{1}, cascade::view(o, {6}), 0, cascade::plus{}),
                  std::invalid_argument);
  // argmin along an axis of extent 0 has no position to return; an axis out of range
  thrust::device_vector<cascade::indexed<int>> pairs(6, cascade::indexed<int>{-5, -5});
  auto const pair_out = cascade::view(thrust::raw_pointer_cast(pairs.data()), {6});
  CHECK_THROWS_AS(cascade::argmin_axis_into(policy, cascade::view(thrust::raw_pointer_cast(d.data()), {6, 0}), 1, pair_out),
                  std::invalid_argument);
  CHECK_THROWS_AS(cascade::argmax_axis_into(policy, in, 2, pair_out), std::invalid_argument);
  CHECK_THROWS_AS(cascade::argmax_axis_into(policy, in, 0, pair_out), std::invalid_argument);  // 6 outputs for 4
  CHECK_THROWS_AS(cascade::view(o, {6, 4}, {4}), std::invalid_argument);
  CHECK_THROWS_AS(cascade::view(o, {6, -4}), std::invalid_argument);
  CHECK_THROWS_AS(cascade::view(o, {6, 4}, {4, -1}), std::invalid_argument);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  thrust::host_vector<int> const h(out);
  for (int x : h) CHECK(x == -5);
  thrust::host_vector<cascade::indexed<int>> const hp(pairs);
  for (auto const& x : hp) CHECK((x.index == -5 && x.value == -5));
}

}  // TEST_SUITE
