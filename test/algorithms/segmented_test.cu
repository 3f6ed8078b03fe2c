// segmented_reduce and batched_reduce: every segment owner of the registry (segment/all.cuh) and the
// segmented default, against a host fold (exact: integer sums, float minimum, a non-commutative 2x2
// matrix product mod 2^32, a struct op) and against cub::DeviceSegmentedReduce, over segment lengths
// all 0, all 1, 2^k - 1, 2^k, 2^k + 1, uniform random, power-law, and one huge segment among many
// tiny ones; offsets as device arrays, host arrays (pinned and pageable), counting and transform
// iterators; more than 2^31 items in one segment through a counting iterator; and the argument errors.
#include <doctest/doctest.h>

#include <cascade/cascade.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "support/capture.cuh"
#include "support/noncommutative_ops.cuh"
#include "support/seed.hpp"

namespace {

using namespace cascade_test;
using owners = cascade::segment::all;

struct stats {
  long long count;
  long long sum;
  int max;
  bool operator==(stats const&) const = default;
};
struct stats_op {
  __host__ __device__ stats operator()(stats const& a, stats const& b) const {
    return {a.count + b.count, a.sum + b.sum, a.max > b.max ? a.max : b.max};
  }
};
struct to_stats {
  __host__ __device__ stats operator()(int x) const { return {1, x, x}; }
};

// CASCADE_TEST_MAX_N (the sanitizers' runs) caps the longest segment.
long long max_length() {
  char const* cap = std::getenv("CASCADE_TEST_MAX_N");
  return cap ? std::max(64ll, std::atoll(cap)) : (1ll << 20) + 3;
}

// Segment lengths of the cases the issue names.
std::vector<std::vector<long long>> length_cases(std::mt19937_64& rng) {
  std::vector<std::vector<long long>> cases;
  cases.push_back(std::vector<long long>(1000, 0));
  cases.push_back(std::vector<long long>(3001, 1));
  for (int k : {2, 5, 8, 11})
    for (long long d : {-1, 0, 1}) cases.push_back(std::vector<long long>(4096 >> (k / 2), (1ll << k) + d));
  std::vector<long long> uniform(2000);
  for (auto& l : uniform) l = static_cast<long long>(rng() % 300);
  cases.push_back(uniform);
  std::vector<long long> power(3000);  // Pareto-like: mostly short, a few long
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (auto& l : power) l = std::min<long long>(static_cast<long long>(4.0 / std::pow(1.0 - u(rng), 1.2)), 1 << 16);
  cases.push_back(power);
  // Groups of 32 where 24 have 33-128 items (the binning pass folds those itself) and 8 have 129-256
  // (listed): both ways in every warp.
  std::vector<long long> mixed(2048);
  for (std::size_t i = 0; i < mixed.size(); ++i)
    mixed[i] = i % 4 == 3 ? 129 + static_cast<long long>(rng() % 128) : 33 + static_cast<long long>(rng() % 96);
  cases.push_back(mixed);
  std::vector<long long> huge(500, 2);
  huge[137] = max_length();
  huge[3] = 0;
  cases.push_back(huge);
  return cases;
}

std::vector<long long> offsets_of(std::vector<long long> const& lengths) {
  std::vector<long long> off(lengths.size() + 1, 0);
  for (std::size_t i = 0; i < lengths.size(); ++i) off[i + 1] = off[i] + lengths[i];
  return off;
}

// A length case's offsets and random items: ints in [-1000, 1000], floats over 40 binades and
// invertible mat2s (for the non-commutative product); `shape` names it in failures.
struct case_inputs {
  std::vector<long long> off;
  std::vector<int> ints;
  std::vector<float> floats;
  std::vector<mat2> mats;
  std::string shape;
};
case_inputs inputs_of(std::vector<long long> const& lengths, std::mt19937_64& rng) {
  case_inputs c{offsets_of(lengths), {}, {}, {}, {}};
  long long const items = c.off.back();
  c.ints.resize(items);
  c.floats.resize(items);
  c.mats.resize(items);
  for (long long i = 0; i < items; ++i) {
    c.ints[i] = static_cast<int>(rng() % 2001) - 1000;
    c.floats[i] = std::ldexp(static_cast<float>(rng() % 100000) - 50000.0f, static_cast<int>(rng() % 40) - 20);
    c.mats[i] = mat2::random_invertible(rng);
  }
  c.shape = std::to_string(lengths.size()) + " segments, " + std::to_string(items) + " items";
  return c;
}

template <class T, class X, class Op>
std::vector<T> host_fold(std::vector<X> const& in, std::vector<long long> const& off, T init, Op op) {
  std::vector<T> out(off.size() - 1);
  for (std::size_t s = 0; s + 1 < off.size(); ++s) {
    T acc = init;
    for (long long i = off[s]; i < off[s + 1]; ++i) acc = op(acc, static_cast<T>(in[i]));
    out[s] = acc;
  }
  return out;
}

template <class Policy, class T, class X, class Op>
void check_offsets(Policy policy, std::vector<X> const& h_in, std::vector<long long> const& off, T init, Op op,
                   std::string const& what, cascade::segment_lengths lengths = {}) {
  thrust::device_vector<X> in(h_in.begin(), h_in.end());
  if (h_in.empty()) in.resize(1);  // (a null input is refused: the offsets on the device are not read on the host)
  thrust::device_vector<long long> d_off(off.begin(), off.end());
  long long const n = static_cast<long long>(off.size()) - 1;
  thrust::device_vector<T> out(n > 0 ? n : 1);
  long long const* o = thrust::raw_pointer_cast(d_off.data());
  cascade::segmented_reduce(policy, thrust::raw_pointer_cast(in.data()), o, o + 1, n,
                            thrust::raw_pointer_cast(out.data()), init, op, lengths);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  std::vector<T> const want = host_fold(h_in, off, init, op);
  thrust::host_vector<T> const got(out.begin(), out.begin() + n);
  for (long long s = 0; s < n; ++s) {
    INFO(what, ": segment ", s, " of ", n, " (", off[s], "..", off[s + 1], ")");
    REQUIRE(got[s] == want[s]);
  }
}

// CASCADE_TEST_OWNER=<text> keeps the policies whose names hold it (a sanitizer's run of one owner).
template <class F>
void for_each_owner(F f) {
  char const* const only = std::getenv("CASCADE_TEST_OWNER");
  auto const run = [&](auto policy, std::string const& name) {
    if (only == nullptr || name.find(only) != std::string::npos) f(policy, name);
  };
  cascade::detail::for_each_type(owners{}, [&](auto owner) {
    using o = decltype(owner);
    run(cascade::segmented_policy<o, 256, 4>{}, std::string(o::name) + " <256, 4>");
    run(cascade::segmented_policy<o, 64, 1, cascade::tree::interleaved>{}, std::string(o::name) + " <64, 1, interleaved>");
  });
  run(cascade::default_policy{}, std::string("default_policy"));
}

}  // namespace

TEST_SUITE("gpu") {

TEST_CASE("segmented_reduce: every owner against a host fold, over every length case") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x5E6);
  for (auto const& lengths : length_cases(rng)) {
    auto const [off, ints, floats, mats, shape] = inputs_of(lengths, rng);
    for_each_owner([&](auto policy, std::string const& name) {
      check_offsets(policy, ints, off, 7ll, cascade::plus{}, name + ", int plus into long long, " + shape);
      check_offsets(policy, floats, off, INFINITY, cascade::minimum{}, name + ", float minimum, " + shape);
      check_offsets(policy, mats, off, mat2{3, 1, 4, 1}, cascade::non_commutative(mat2_product{}),
                    name + ", mat2 product (non-commutative), " + shape);
    });
  }
}

TEST_CASE("segmented_reduce: a segment_lengths hint, right or wrong, never changes a result") {
  // Device offsets: the default picks by the hint (policy_test checks which owner); every owner folds
  // any lengths, so a hint of 1, 16, 300 or 20000 items, or skewed lengths, gives the same results.
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x1E6);
  using cascade::segment_lengths;
  std::vector<segment_lengths> const hints = {segment_lengths::about(1), segment_lengths::about(16),
                                              segment_lengths::about(300), segment_lengths::about(20000),
                                              segment_lengths::mean_and_longest(32, 1 << 20)};
  for (auto const& lengths : length_cases(rng)) {
    auto const [off, ints, floats, mats, shape] = inputs_of(lengths, rng);
    for (auto const hint : hints) {
      std::string const name = "default_policy, hint {" + std::to_string(hint.mean) + ", " +
                               std::to_string(hint.longest) + "}, ";
      check_offsets(cascade::default_policy{}, ints, off, 7ll, cascade::plus{}, name + "int plus, " + shape, hint);
      check_offsets(cascade::default_policy{}, floats, off, INFINITY, cascade::minimum{},
                    name + "float minimum, " + shape, hint);
      check_offsets(cascade::default_policy{}, mats, off, mat2{3, 1, 4, 1}, cascade::non_commutative(mat2_product{}),
                    name + "mat2 product (non-commutative), " + shape, hint);
    }
  }
  // the argmin and transform_reduce forms take it too
  std::vector<long long> const lengths(300, 16384);
  auto const [off, ints, floats, mats, shape] = inputs_of(lengths, rng);
  thrust::device_vector<float> in(floats.begin(), floats.end());
  thrust::device_vector<long long> d_off(off.begin(), off.end());
  long long const n = static_cast<long long>(lengths.size());
  thrust::device_vector<cascade::indexed<float>> hinted(n), plain(n);
  thrust::device_vector<double> sq_hinted(n), sq_plain(n);
  float const* d = thrust::raw_pointer_cast(in.data());
  long long const* o = thrust::raw_pointer_cast(d_off.data());
  auto const square = [] __host__ __device__(float x) { return static_cast<double>(x) * x; };
  for (auto const hint : hints) {
    cascade::segmented_argmin_into(cascade::default_policy{}, d, o, o + 1, n, thrust::raw_pointer_cast(hinted.data()),
                                   hint);
    cascade::segmented_argmin_into(cascade::segmented_policy<cascade::segment::block>{}, d, o, o + 1, n,
                                   thrust::raw_pointer_cast(plain.data()));
    cascade::segmented_transform_reduce_into(cascade::default_policy{}, d, o, o + 1, n,
                                             thrust::raw_pointer_cast(sq_hinted.data()), 0.0, cascade::maximum{},
                                             square, hint);
    cascade::segmented_transform_reduce_into(cascade::segmented_policy<cascade::segment::block>{}, d, o, o + 1, n,
                                             thrust::raw_pointer_cast(sq_plain.data()), 0.0, cascade::maximum{},
                                             square);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    INFO("hint {", hint.mean, ", ", hint.longest, "}, ", shape);
    CHECK(thrust::host_vector<cascade::indexed<float>>(hinted) == thrust::host_vector<cascade::indexed<float>>(plain));
    CHECK(thrust::host_vector<double>(sq_hinted) == thrust::host_vector<double>(sq_plain));
  }
}

TEST_CASE("segmented_reduce: a struct op, through a transform iterator over the input") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x5E7);
  std::vector<long long> lengths(700);
  for (auto& l : lengths) l = static_cast<long long>(rng() % 2000);
  auto const off = offsets_of(lengths);
  std::vector<int> h(off.back());
  for (auto& x : h) x = static_cast<int>(rng() % 1000000);
  thrust::device_vector<int> in(h.begin(), h.end());
  thrust::device_vector<long long> d_off(off.begin(), off.end());
  long long const* o = thrust::raw_pointer_cast(d_off.data());
  std::vector<stats> want(lengths.size());
  for (std::size_t s = 0; s < lengths.size(); ++s) {
    stats acc{0, 0, -1};
    for (long long i = off[s]; i < off[s + 1]; ++i) acc = stats_op{}(acc, to_stats{}(h[i]));
    want[s] = acc;
  }
  auto first = thrust::make_transform_iterator(thrust::raw_pointer_cast(in.data()), to_stats{});
  for_each_owner([&](auto policy, std::string const& name) {
    thrust::device_vector<stats> out(lengths.size());
    cascade::segmented_reduce(policy, first, o, o + 1, static_cast<long long>(lengths.size()),
                              thrust::raw_pointer_cast(out.data()), stats{0, 0, -1}, stats_op{});
    thrust::host_vector<stats> const got(out);
    for (std::size_t s = 0; s < lengths.size(); ++s) {
      INFO(name, ": segment ", s);
      REQUIRE(got[s] == want[s]);
    }
  });
}

TEST_CASE("batched_reduce: every owner, fixed sizes around powers of two, against a host fold") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x5E8);
  for (long long size : {0ll, 1ll, 3ll, 4ll, 5ll, 16ll, 31ll, 64ll, 255ll, 256ll, 1025ll, 16384ll + 1}) {
    long long const segments = std::max<long long>(3, 200000 / std::max<long long>(size, 1) / 4);
    std::vector<int> h(size * segments);
    for (auto& x : h) x = static_cast<int>(rng() % 2001) - 1000;
    thrust::device_vector<int> in(h.begin(), h.end());
    std::vector<long long> off(segments + 1);
    for (long long s = 0; s <= segments; ++s) off[s] = s * size;
    auto const want = host_fold(h, off, -5ll, cascade::plus{});
    for_each_owner([&](auto policy, std::string const& name) {
      thrust::device_vector<long long> out(segments, 123);
      cascade::batched_reduce(policy, thrust::raw_pointer_cast(in.data()), size, segments,
                              thrust::raw_pointer_cast(out.data()), -5ll, cascade::plus{});
      thrust::host_vector<long long> const got(out);
      for (long long s = 0; s < segments; ++s) {
        INFO(name, ": ", segments, " segments of ", size, ", segment ", s);
        REQUIRE(got[s] == want[s]);
      }
    });
  }
}

TEST_CASE("batched_reduce: segments of one item (the default's path of its own), init first, every tail") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x5E9);
  for (long long segments : {1ll, 255ll, 2047ll, 2048ll, 2049ll, 2048ll * 9 + 37, 1ll << 20}) {
    std::vector<mat2> h(segments);
    for (auto& m : h) m = mat2::random_invertible(rng);
    thrust::device_vector<mat2> in(h.begin(), h.end());
    thrust::device_vector<mat2> out(segments);
    mat2 const init{3, 1, 4, 1};
    cascade::batched_reduce_into(cascade::default_policy{}, thrust::raw_pointer_cast(in.data()), 1, segments,
                                 thrust::raw_pointer_cast(out.data()), init, cascade::non_commutative(mat2_product{}));
    thrust::host_vector<mat2> const got(out);
    for (long long s = 0; s < segments; ++s) {
      INFO(segments, " segments of 1, segment ", s);
      REQUIRE(got[s] == mat2_product{}(init, h[s]));
    }
  }
}

TEST_CASE("segmented_reduce: against cub::DeviceSegmentedReduce (plus of ints, minimum of floats)") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x5E9);
  std::vector<long long> lengths(5000);
  for (auto& l : lengths) l = static_cast<long long>(rng() % 700);
  auto const off = offsets_of(lengths);
  long long const n = static_cast<long long>(lengths.size());
  std::vector<int> h(off.back());
  std::vector<float> hf(off.back());
  for (std::size_t i = 0; i < h.size(); ++i) {
    h[i] = static_cast<int>(rng() % 100000) - 50000;
    hf[i] = static_cast<float>(h[i]) * 0.37f;
  }
  thrust::device_vector<int> in(h.begin(), h.end());
  thrust::device_vector<float> inf(hf.begin(), hf.end());
  thrust::device_vector<long long> d_off(off.begin(), off.end());
  long long const* o = thrust::raw_pointer_cast(d_off.data());
  thrust::device_vector<int> cub_sum(n), ours(n);
  thrust::device_vector<float> cub_min(n), ours_min(n);
  std::size_t bytes = 0;
  REQUIRE(cub::DeviceSegmentedReduce::Sum(nullptr, bytes, thrust::raw_pointer_cast(in.data()),
                                          thrust::raw_pointer_cast(cub_sum.data()), n, o, o + 1) == cudaSuccess);
  thrust::device_vector<char> temp(bytes + 1);
  REQUIRE(cub::DeviceSegmentedReduce::Sum(thrust::raw_pointer_cast(temp.data()), bytes, thrust::raw_pointer_cast(in.data()),
                                          thrust::raw_pointer_cast(cub_sum.data()), n, o, o + 1) == cudaSuccess);
  bytes = 0;
  REQUIRE(cub::DeviceSegmentedReduce::Min(nullptr, bytes, thrust::raw_pointer_cast(inf.data()),
                                          thrust::raw_pointer_cast(cub_min.data()), n, o, o + 1) == cudaSuccess);
  temp.resize(bytes + 1);
  REQUIRE(cub::DeviceSegmentedReduce::Min(thrust::raw_pointer_cast(temp.data()), bytes, thrust::raw_pointer_cast(inf.data()),
                                          thrust::raw_pointer_cast(cub_min.data()), n, o, o + 1) == cudaSuccess);
  thrust::host_vector<int> const want(cub_sum);
  thrust::host_vector<float> const want_min(cub_min);
  for_each_owner([&](auto policy, std::string const& name) {
    cascade::segmented_reduce(policy, thrust::raw_pointer_cast(in.data()), o, o + 1, n,
                              thrust::raw_pointer_cast(ours.data()), 0, cascade::plus{});
    cascade::segmented_reduce(policy, thrust::raw_pointer_cast(inf.data()), o, o + 1, n,
                              thrust::raw_pointer_cast(ours_min.data()), INFINITY, cascade::minimum{});
    thrust::host_vector<int> const got(ours);
    thrust::host_vector<float> const got_min(ours_min);
    for (long long s = 0; s < n; ++s) {
      INFO(name, ": segment ", s, " (", lengths[s], " items)");
      REQUIRE(got[s] == want[s]);
      // CUB's Min of an empty segment is FLT_MAX (its identity); cascade's is init, +inf here.
      REQUIRE(got_min[s] == (lengths[s] == 0 ? INFINITY : want_min[s]));
    }
  });
}

TEST_CASE("segmented_reduce: offsets from counting and transform iterators, and from host memory") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x5EA);
  long long const size = 37, segments = 3000;
  std::vector<int> h(size * segments);
  for (auto& x : h) x = static_cast<int>(rng() % 1000);
  thrust::device_vector<int> in(h.begin(), h.end());
  std::vector<long long> off(segments + 1);
  for (long long s = 0; s <= segments; ++s) off[s] = s * size;
  auto const want = host_fold(h, off, 0ll, cascade::plus{});
  int const* d = thrust::raw_pointer_cast(in.data());
  auto check = [&](thrust::device_vector<long long> const& out, std::string const& what) {
    thrust::host_vector<long long> const got(out);
    for (long long s = 0; s < segments; ++s) {
      INFO(what, ": segment ", s);
      REQUIRE(got[s] == want[s]);
    }
  };
  auto starts = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0),
                                                [] __host__ __device__(long long s) { return s * 37; });
  for_each_owner([&](auto policy, std::string const& name) {
    thrust::device_vector<long long> out(segments);
    cascade::segmented_reduce(policy, d, starts, starts + 1, segments, thrust::raw_pointer_cast(out.data()), 0ll,
                              cascade::plus{});
    check(out, name + ", transform iterator offsets");
  });
  // Pinned and pageable host offsets (read and checked on the host; pageable ones copied).
  long long* pinned = nullptr;
  REQUIRE(cudaMallocHost(&pinned, sizeof(long long) * (segments + 1)) == cudaSuccess);
  std::copy(off.begin(), off.end(), pinned);
  thrust::device_vector<long long> out(segments);
  cascade::segmented_reduce(cascade::default_policy{}, d, pinned, pinned + 1, segments,
                            thrust::raw_pointer_cast(out.data()), 0ll, cascade::plus{});
  check(out, "pinned host offsets");
  thrust::fill(out.begin(), out.end(), 0);
  cascade::segmented_reduce(cascade::segmented_policy<cascade::segment::warp<8>>{}, d, off.data(), off.data() + 1,
                            segments, thrust::raw_pointer_cast(out.data()), 0ll, cascade::plus{});
  check(out, "pageable host offsets");
  // Pageable CSR offsets (end == begin + 1: copied once, n + 1 of them, and CSR on the device) and
  // separate begin and end arrays (copied each; segment::tiles hands those to binned), every owner.
  std::vector<long long> const ends(off.begin() + 1, off.end());
  for_each_owner([&](auto policy, std::string const& name) {
    thrust::device_vector<long long> csr_out(segments), pair_out(segments);
    cascade::segmented_reduce(policy, d, off.data(), off.data() + 1, segments,
                              thrust::raw_pointer_cast(csr_out.data()), 0ll, cascade::plus{});
    check(csr_out, name + ", pageable CSR host offsets");
    cascade::segmented_reduce(policy, d, off.data(), ends.data(), segments,
                              thrust::raw_pointer_cast(pair_out.data()), 0ll, cascade::plus{});
    check(pair_out, name + ", pageable host begin and end arrays");
  });
  // Segments of one size through a counting iterator on both sides: [s, s + 1) of a 1-item stride.
  thrust::counting_iterator<int> cnt(0);
  cascade::segmented_reduce(cascade::segmented_policy<cascade::segment::thread>{}, d, cnt, cnt + 1, segments,
                            thrust::raw_pointer_cast(out.data()), 0ll, cascade::plus{});
  thrust::host_vector<long long> const got(out);
  for (long long s = 0; s < segments; ++s) REQUIRE(got[s] == h[s]);
  REQUIRE(cudaFreeHost(pinned) == cudaSuccess);
}

TEST_CASE("segmented_reduce: every owner captured into a graph and replayed, beside uncaptured calls on a second stream") {
  // A user's pipeline: the reduction captured once on a non-blocking stream, replayed with new input
  // each time, while another stream runs the same policy uncaptured. The lengths reach every path of
  // segment::binned (its pass, its lists, the tail's parts of segments past 2048 items).
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x5EC);
  std::vector<long long> lengths;
  for (int i = 0; i < 1200; ++i) lengths.push_back(static_cast<long long>(rng() % 40));  // mostly short
  for (int i = 0; i < 64; ++i) lengths.push_back(33 + static_cast<long long>(rng() % 96));  // dense 33-128
  std::size_t const listed_from = lengths.size();  // from here on shuffled; the dense run stays whole
  for (int i = 0; i < 200; ++i) lengths.push_back(129 + static_cast<long long>(rng() % 1900));  // listed
  for (long long l : {2049ll, 70001ll, 150000ll, 0ll, 5000ll}) lengths.push_back(std::min(l, max_length()));  // parts
  std::shuffle(lengths.begin() + static_cast<std::ptrdiff_t>(listed_from), lengths.end(), rng);
  auto const off = offsets_of(lengths);
  long long const n = static_cast<long long>(lengths.size());
  long long const items = off.back();
  streams s;
  thrust::device_vector<long long> d_off(off.begin(), off.end());
  long long const* o = thrust::raw_pointer_cast(d_off.data());
  auto fresh = [&] {
    std::vector<int> v(items);
    for (auto& x : v) x = static_cast<int>(rng() % 2001) - 1000;
    return v;
  };
  for_each_owner([&](auto policy, std::string const& name) {
    INFO(name);
    thrust::device_vector<int> in_a(items), in_b(items);
    thrust::device_vector<long long> out_a(n), out_b(n);
    int* const pa = thrust::raw_pointer_cast(in_a.data());
    int* const pb = thrust::raw_pointer_cast(in_b.data());
    long long* const oa = thrust::raw_pointer_cast(out_a.data());
    long long* const ob = thrust::raw_pointer_cast(out_b.data());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    std::string failure;
    cudaGraph_t graph = capture(
        s.a, [&] { cascade::segmented_reduce(policy.on(s.a), pa, o, o + 1, n, oa, 7ll, cascade::plus{}); }, failure);
    REQUIRE_MESSAGE(failure.empty(), failure);
    cudaGraphExec_t exec = nullptr;
    REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
    CASCADE_CUDA_CHECK(cudaGraphDestroy(graph));
    for (int replay = 0; replay < 3; ++replay) {
      INFO("replay ", replay);
      std::vector<int> const ha = fresh(), hb = fresh();
      CASCADE_CUDA_CHECK(cudaMemcpyAsync(pa, ha.data(), sizeof(int) * items, cudaMemcpyHostToDevice, s.a));
      CASCADE_CUDA_CHECK(cudaMemcpyAsync(pb, hb.data(), sizeof(int) * items, cudaMemcpyHostToDevice, s.b));
      CASCADE_CUDA_CHECK(cudaGraphLaunch(exec, s.a));
      cascade::segmented_reduce(policy.on(s.b), pb, o, o + 1, n, ob, 9ll, cascade::plus{});
      CASCADE_CUDA_CHECK(cudaStreamSynchronize(s.a));
      CASCADE_CUDA_CHECK(cudaStreamSynchronize(s.b));
      std::vector<long long> const want_a = host_fold(ha, off, 7ll, cascade::plus{});
      std::vector<long long> const want_b = host_fold(hb, off, 9ll, cascade::plus{});
      thrust::host_vector<long long> const got_a(out_a), got_b(out_b);
      for (long long i = 0; i < n; ++i) {
        INFO("segment ", i, " of ", n, " (", off[i], "..", off[i + 1], ")");
        REQUIRE(got_a[i] == want_a[i]);
        REQUIRE(got_b[i] == want_b[i]);
      }
    }
    CASCADE_CUDA_CHECK(cudaGraphExecDestroy(exec));
  });
}

TEST_CASE("segment::binned: more long segments than part slots, segments out of order and overlapping") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x5EB);
  // <32, 1>: parts of 256 items, so 7300 segments of 2049..2303 items ask for 9 slots each, more than
  // the 65536 there are: the last to ask are folded whole. Among them, every bin's lengths, and the
  // segments read from shuffled, overlapping places of the input.
  long long const n = 7300 + 3000;
  std::vector<long long> begins(n), ends(n);
  long long const items = 1 << 24;
  std::vector<std::pair<long long, long long>> segs(n);
  for (long long s = 0; s < n; ++s) {
    long long const len = s < 7300 ? 2049 + static_cast<long long>(rng() % 255)
                          : rng() % 3 == 0 ? static_cast<long long>(rng() % 9)
                                           : static_cast<long long>(rng() % 4000);
    long long const b = static_cast<long long>(rng() % static_cast<unsigned long long>(items - len));
    segs[s] = s % 97 == 5 ? std::pair{b + len, b} : std::pair{b, b + len};  // begin > end: empty on the device
  }
  std::shuffle(segs.begin(), segs.end(), rng);
  for (long long s = 0; s < n; ++s) std::tie(begins[s], ends[s]) = segs[s];
  std::vector<int> h(items);
  for (auto& x : h) x = static_cast<int>(rng() % 2001) - 1000;
  thrust::device_vector<int> in(h.begin(), h.end());
  thrust::device_vector<long long> d_begins(begins.begin(), begins.end()), d_ends(ends.begin(), ends.end());
  std::vector<long long> want(n);
  for (long long s = 0; s < n; ++s) {
    long long acc = -3;
    for (long long i = begins[s]; i < ends[s]; ++i) acc += h[i];
    want[s] = acc;
  }
  auto check = [&](auto policy, std::string const& what) {
    thrust::device_vector<long long> out(n, 0);
    cascade::segmented_reduce(policy, thrust::raw_pointer_cast(in.data()), thrust::raw_pointer_cast(d_begins.data()),
                              thrust::raw_pointer_cast(d_ends.data()), n, thrust::raw_pointer_cast(out.data()), -3ll,
                              cascade::plus{});
    thrust::host_vector<long long> const got(out);
    for (long long s = 0; s < n; ++s) {
      INFO(what, ": segment ", s, " (", begins[s], "..", ends[s], ")");
      REQUIRE(got[s] == want[s]);
    }
  };
  check(cascade::segmented_policy<cascade::segment::binned, 32, 1>{}, "segment::binned <32, 1>");
  check(cascade::segmented_policy<cascade::segment::binned, 256, 8>{}, "segment::binned <256, 8>");
  check(cascade::default_policy{}, "default_policy (device offsets, not CSR: binned)");
}

TEST_CASE("segment::tiles: CSR offsets that decrease (overlapping segments), at a tile's edges and inside") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x5EC);
  long long const items = 300000;
  std::vector<int> h(items);
  for (auto& x : h) x = static_cast<int>(rng() % 2001) - 1000;
  thrust::device_vector<int> in(h.begin(), h.end());
  // Non-decreasing offsets (the tiles' own path), then the same with a few steps back: the tiles
  // kernels find those and every segment is folded by itself (segment k is [off[k], off[k + 1]),
  // empty where that runs backwards).
  std::vector<long long> off = {0};
  while (off.back() < items - 5000) off.push_back(off.back() + static_cast<long long>(rng() % 3000));
  off.push_back(items);
  std::vector<long long> back = off;
  for (std::size_t k = 3; k + 1 < back.size(); k += 1 + rng() % 40)
    back[k] = std::max(0ll, back[k - 1] - static_cast<long long>(rng() % 500));
  back[back.size() / 2] = 0;
  // The last offset below the first: no items by the first and last, though segments hold some.
  std::vector<long long> low = back;
  low.front() = 1000;
  low.back() = 500;
  for (auto const* o : {&off, &back, &low}) {
    long long const n = static_cast<long long>(o->size()) - 1;
    thrust::device_vector<long long> d_off(o->begin(), o->end());
    long long const* d = thrust::raw_pointer_cast(d_off.data());
    std::vector<long long> want(n);
    for (long long s = 0; s < n; ++s) {
      long long acc = -3;
      for (long long i = (*o)[s]; i < (*o)[s + 1]; ++i) acc += h[i];
      want[s] = acc;
    }
    auto check = [&](auto policy, std::string const& what) {
      thrust::device_vector<long long> out(n, 0);
      cascade::segmented_reduce(policy, thrust::raw_pointer_cast(in.data()), d, d + 1, n,
                                thrust::raw_pointer_cast(out.data()), -3ll, cascade::plus{});
      thrust::host_vector<long long> const got(out);
      for (long long s = 0; s < n; ++s) {
        INFO(what, (o == &off ? ", increasing" : o == &back ? ", decreasing here and there" : ", the last below the first"),
             ": segment ", s, " (", (*o)[s], "..",
             (*o)[s + 1], ")");
        REQUIRE(got[s] == want[s]);
      }
    };
    check(cascade::segmented_policy<cascade::segment::tiles, 256, 16>{}, "segment::tiles <256, 16>");
    check(cascade::segmented_policy<cascade::segment::tiles, 32, 3>{}, "segment::tiles <32, 3>");
    struct restore {
      ~restore() { cascade::detail::tiles_test_capacity = 0; }
    } const guard;
    cascade::detail::tiles_test_capacity = 5;  // chunks of 59 tiles: their own checks
    check(cascade::segmented_policy<cascade::segment::tiles, 256, 4>{}, "segment::tiles <256, 4>, capacity 5");
  }
}

TEST_CASE("segment::tiles: offsets that run anywhere write only the segments' results, not past them") {
  // Unsorted offsets in [0, items] (the first 0, the last `items`, so that the tiles run): a segment
  // may then begin before its chunk or past the last tile's items, where a partial last tile marks
  // a head of its own (numbered n) that must never be closed. The output holds one more element,
  // which must keep its value.
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x5F1);
  for (int trial = 0; trial < 120; ++trial) {
    long long const n = 2 + static_cast<long long>(rng() % 400);
    long long const items = 1 + static_cast<long long>(rng() % 9000);
    std::vector<long long> off(n + 1);
    for (long long s = 1; s < n; ++s) off[s] = static_cast<long long>(rng() % static_cast<unsigned long long>(items + 1));
    off[0] = 0;
    off[n] = items;
    if (trial % 2 == 0) {  // sorted but a few
      std::sort(off.begin(), off.end());
      for (int k = 0; k < 3; ++k) off[1 + rng() % (n - 1)] = static_cast<long long>(rng() % static_cast<unsigned long long>(items + 1));
    }
    std::vector<int> h(items);
    for (auto& x : h) x = static_cast<int>(rng() % 2001) - 1000;
    thrust::device_vector<int> in(h.begin(), h.end());
    thrust::device_vector<long long> d_off(off.begin(), off.end());
    long long const* d = thrust::raw_pointer_cast(d_off.data());
    auto check = [&](auto policy, auto init, std::string const& what) {
      using T = decltype(init);
      T const guard = static_cast<T>(0x5EC0DE);
      thrust::device_vector<T> out(n + 1, guard);
      cascade::segmented_reduce(policy, thrust::raw_pointer_cast(in.data()), d, d + 1, n,
                                thrust::raw_pointer_cast(out.data()), init, cascade::plus{});
      thrust::host_vector<T> const got(out);
      std::vector<T> const want = host_fold(h, off, init, cascade::plus{});  // (a segment whose end is at or before its begin: init)
      INFO(what, ", trial ", trial, ": ", n, " segments, ", items, " items");
      REQUIRE(got[n] == guard);
      for (long long s = 0; s < n; ++s) {
        INFO("segment ", s, " (", off[s], "..", off[s + 1], ")");
        REQUIRE(got[s] == want[s]);
      }
    };
    check(cascade::segmented_policy<cascade::segment::tiles, 256, 16>{}, 7, "segment::tiles <256, 16>, int plus into int");
    check(cascade::segmented_policy<cascade::segment::tiles, 256, 16>{}, 7ll, "segment::tiles <256, 16>, int plus");
    check(cascade::segmented_policy<cascade::segment::tiles, 32, 3>{}, 7ll, "segment::tiles <32, 3>, int plus");
    check(cascade::segmented_policy<cascade::segment::tiles, 64, 1>{}, 7, "segment::tiles <64, 1>, int plus into int");
  }
}

TEST_CASE("segment::tiles: chunks of several tiles and partial tiles (a capacity held at 3 and 7 chunks), every length case") {
  // Past its capacity (16 waves of resident blocks) a chunk holds several tiles; held small here, so
  // that every length case takes that path.
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x5ED);
  struct restore {
    ~restore() { cascade::detail::tiles_test_capacity = 0; }
  } const guard;
  for (long long capacity : {3, 7}) {
    cascade::detail::tiles_test_capacity = capacity;
    for (auto const& lengths : length_cases(rng)) {
      auto const [off, ints, floats, mats, case_shape] = inputs_of(lengths, rng);
      std::string const shape = "capacity " + std::to_string(capacity) + ", " + case_shape;
      check_offsets(cascade::segmented_policy<cascade::segment::tiles, 256, 4>{}, ints, off, 7ll, cascade::plus{},
                    "segment::tiles <256, 4>, int plus, " + shape);
      check_offsets(cascade::segmented_policy<cascade::segment::tiles, 32, 3>{}, ints, off, 7ll, cascade::plus{},
                    "segment::tiles <32, 3>, int plus, " + shape);
      check_offsets(cascade::segmented_policy<cascade::segment::tiles, 64, 1, cascade::tree::interleaved>{}, mats, off,
                    mat2{3, 1, 4, 1}, cascade::non_commutative(mat2_product{}),
                    "segment::tiles <64, 1>, mat2 product (non-commutative), " + shape);
    }
  }
}

TEST_CASE("segment::tiles: whole tiles of 8 and 16 items a thread (their three folds), every length case") {
  // A whole tile's warp folds its items without branches where its lanes have heads at more than 4
  // positions (power-law and random lengths), by branches where at fewer (fixed lengths), plainly
  // where at none: only more than 4 items a thread take the first, which the every-owner cases
  // (4 and 1) never do. Each fold also with values kept in shared memory (below).
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x5EE);
  for (auto const& lengths : length_cases(rng)) {
    auto const [off, ints, floats, mats, shape] = inputs_of(lengths, rng);
    check_offsets(cascade::segmented_policy<cascade::segment::tiles, 256, 16>{}, ints, off, 7ll, cascade::plus{},
                  "segment::tiles <256, 16>, int plus, " + shape);
    // Values of 4 bytes: tiles of more than two segments a thread keep them in shared memory and
    // write them a thread a segment (the 1- and 3-5-item cases here; 8 items are two a thread, not staged).
    check_offsets(cascade::segmented_policy<cascade::segment::tiles, 256, 16>{}, ints, off, 7, cascade::plus{},
                  "segment::tiles <256, 16>, int plus into int, " + shape);
    check_offsets(cascade::segmented_policy<cascade::segment::tiles, 128, 8>{}, floats, off, INFINITY, cascade::minimum{},
                  "segment::tiles <128, 8>, float minimum, " + shape);
    check_offsets(cascade::segmented_policy<cascade::segment::tiles, 128, 8>{}, mats, off, mat2{3, 1, 4, 1},
                  cascade::non_commutative(mat2_product{}), "segment::tiles <128, 8>, mat2 product (non-commutative), " + shape);
  }
}

TEST_CASE("segment::tiles: CSR offsets over more than 2^31 items, beyond 2^32 (chunks of many tiles)") {
  // first[i] = i (a counting iterator): the sum of [b, e) is (e - 1 + b)(e - b) / 2 (its product taken
  // in 128 bits; the sum itself fits in 64).
  std::vector<long long> const off = {5, (1ll << 31) + 1000, (1ll << 32) + 7, (1ll << 32) + 7, (1ll << 32) + 300007,
                                      (1ll << 32) + 300008};
  thrust::device_vector<long long> d_off(off.begin(), off.end());
  long long const* d = thrust::raw_pointer_cast(d_off.data());
  auto first = thrust::counting_iterator<long long>(0);
  long long const n = static_cast<long long>(off.size()) - 1;
  std::vector<long long> want(n);
  for (long long s = 0; s < n; ++s)
    want[s] = 11 + static_cast<long long>(static_cast<__int128>(off[s + 1] - 1 + off[s]) * (off[s + 1] - off[s]) / 2);
  auto run = [&](auto policy, std::string const& name) {
    thrust::device_vector<long long> out(n);
    cascade::segmented_reduce(policy, first, d, d + 1, n, thrust::raw_pointer_cast(out.data()), 11ll, cascade::plus{});
    thrust::host_vector<long long> const got(out);
    for (long long s = 0; s < n; ++s) {
      INFO(name, ": segment ", s);
      REQUIRE(got[s] == want[s]);
    }
  };
  run(cascade::segmented_policy<cascade::segment::tiles, 256, 16>{}, "segment::tiles <256, 16>");
  run(cascade::segmented_policy<cascade::segment::tiles, 64, 1>{}, "segment::tiles <64, 1>");
}

struct square_of {
  __host__ __device__ long long operator()(int x) const { return static_cast<long long>(x) * x; }
};

TEST_CASE("segmented_transform_reduce and segmented_argmin/argmax: every owner, against a host fold and CUB") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x5EC);
  std::vector<long long> lengths(4000);
  for (auto& l : lengths) {
    auto const r = rng() % 100;
    l = r < 5 ? 0 : r < 60 ? static_cast<long long>(rng() % 9) : r < 95 ? static_cast<long long>(rng() % 300)
                                                                          : static_cast<long long>(rng() % 40000);
  }
  auto const off = offsets_of(lengths);
  long long const n = static_cast<long long>(lengths.size());
  std::vector<int> h(std::max(1ll, off.back()));
  std::vector<float> hf(h.size());
  for (std::size_t i = 0; i < h.size(); ++i) {
    h[i] = static_cast<int>(rng() % 2001) - 1000;
    hf[i] = static_cast<float>(rng() % 50);  // many ties: the first occurrence must win
  }
  thrust::device_vector<int> in(h.begin(), h.end());
  thrust::device_vector<float> inf(hf.begin(), hf.end());
  thrust::device_vector<long long> d_off(off.begin(), off.end());
  long long const* o = thrust::raw_pointer_cast(d_off.data());
  std::vector<long long> want_sq(n);
  std::vector<cascade::indexed<float>> want_min(n), want_max(n);
  for (long long s = 0; s < n; ++s) {
    long long acc = 5;
    cascade::indexed<float> lo{-1, INFINITY}, hi{-1, -INFINITY};
    for (long long i = off[s]; i < off[s + 1]; ++i) {
      acc += static_cast<long long>(h[i]) * h[i];
      if (hf[i] < lo.value) lo = {i - off[s], hf[i]};
      if (hf[i] > hi.value) hi = {i - off[s], hf[i]};
    }
    want_sq[s] = acc;
    want_min[s] = lo;
    want_max[s] = hi;
  }
  // CUB's ArgMin/ArgMax agree on every non-empty segment.
  using kv = cub::KeyValuePair<int, float>;
  thrust::device_vector<kv> cub_min(n), cub_max(n);
  std::size_t bytes = 0;
  REQUIRE(cub::DeviceSegmentedReduce::ArgMin(nullptr, bytes, thrust::raw_pointer_cast(inf.data()),
                                             thrust::raw_pointer_cast(cub_min.data()), n, o, o + 1) == cudaSuccess);
  thrust::device_vector<char> temp(bytes + 1);
  REQUIRE(cub::DeviceSegmentedReduce::ArgMin(thrust::raw_pointer_cast(temp.data()), bytes,
                                             thrust::raw_pointer_cast(inf.data()), thrust::raw_pointer_cast(cub_min.data()),
                                             n, o, o + 1) == cudaSuccess);
  bytes = 0;
  REQUIRE(cub::DeviceSegmentedReduce::ArgMax(nullptr, bytes, thrust::raw_pointer_cast(inf.data()),
                                             thrust::raw_pointer_cast(cub_max.data()), n, o, o + 1) == cudaSuccess);
  temp.resize(bytes + 1);
  REQUIRE(cub::DeviceSegmentedReduce::ArgMax(thrust::raw_pointer_cast(temp.data()), bytes,
                                             thrust::raw_pointer_cast(inf.data()), thrust::raw_pointer_cast(cub_max.data()),
                                             n, o, o + 1) == cudaSuccess);
  thrust::host_vector<kv> const h_cub_min(cub_min), h_cub_max(cub_max);
  for (long long s = 0; s < n; ++s) {
    if (lengths[s] == 0) continue;
    INFO("CUB, segment ", s);
    REQUIRE(h_cub_min[s].key == want_min[s].index);
    REQUIRE(h_cub_max[s].key == want_max[s].index);
  }
  for_each_owner([&](auto policy, std::string const& name) {
    thrust::device_vector<long long> sq(n);
    thrust::device_vector<cascade::indexed<float>> lo(n), hi(n);
    cascade::segmented_transform_reduce(policy, thrust::raw_pointer_cast(in.data()), o, o + 1, n,
                                        thrust::raw_pointer_cast(sq.data()), 5ll, cascade::plus{}, square_of{});
    cascade::segmented_argmin(policy, thrust::raw_pointer_cast(inf.data()), o, o + 1, n,
                              thrust::raw_pointer_cast(lo.data()));
    cascade::segmented_argmax(policy, thrust::raw_pointer_cast(inf.data()), o, o + 1, n,
                              thrust::raw_pointer_cast(hi.data()));
    thrust::host_vector<long long> const got_sq(sq);
    thrust::host_vector<cascade::indexed<float>> const got_lo(lo), got_hi(hi);
    for (long long s = 0; s < n; ++s) {
      INFO(name, ": segment ", s, " (", lengths[s], " items)");
      REQUIRE(got_sq[s] == want_sq[s]);
      REQUIRE(got_lo[s] == want_min[s]);
      REQUIRE(got_hi[s] == want_max[s]);
    }
  });
}

TEST_CASE("segmented_reduce: a segment of more than 2^31 items, and 64-bit offsets beyond 2^32") {
  // first[i] = i (a counting iterator): the sum of [b, e) is (e - 1 + b)(e - b) / 2, exact in 64 bits.
  long long const b = 5, e = (1ll << 31) + 1000;
  long long const b2 = (1ll << 32) + 7, e2 = (1ll << 32) + 7 + 300000;
  thrust::device_vector<long long> d_begin(std::vector<long long>{b, b2, 3, 9});
  thrust::device_vector<long long> d_end(std::vector<long long>{e, e2, 3, 10});
  auto first = thrust::counting_iterator<long long>(0);
  auto sum = [](long long lo, long long hi) { return (hi - 1 + lo) * (hi - lo) / 2; };
  std::vector<long long> const want = {11 + sum(b, e), 11 + sum(b2, e2), 11, 11 + 9};
  auto run = [&](auto policy, std::string const& name) {
    thrust::device_vector<long long> out(4);
    cascade::segmented_reduce(policy, first, thrust::raw_pointer_cast(d_begin.data()),
                              thrust::raw_pointer_cast(d_end.data()), 4, thrust::raw_pointer_cast(out.data()), 11ll,
                              cascade::plus{});
    thrust::host_vector<long long> const got(out);
    for (int s = 0; s < 4; ++s) {
      INFO(name, ": segment ", s);
      REQUIRE(got[s] == want[s]);
    }
  };
  run(cascade::segmented_policy<cascade::segment::block, 1024, 8>{}, "segment::block <1024, 8>");
  run(cascade::segmented_policy<cascade::segment::blocks, 256, 8>{}, "segment::blocks <256, 8>");
  run(cascade::default_policy{}, "default_policy");
}

TEST_CASE("segmented_reduce and batched_reduce: bad arguments are std::invalid_argument and launch nothing") {
  thrust::device_vector<int> in(100, 1);
  thrust::device_vector<int> out(4, -1);
  int const* d = thrust::raw_pointer_cast(in.data());
  int* o = thrust::raw_pointer_cast(out.data());
  std::vector<long long> begins = {0, 10, 50, 20}, ends = {10, 50, 40, 30};  // segment 2: begin > end
  CHECK_THROWS_AS(cascade::segmented_reduce(cascade::default_policy{}, d, begins.data(), ends.data(), 4, o, 0),
                  std::invalid_argument);
  std::vector<long long> beyond = {10, 50, 101, 30};  // segment 2 ends past the 100 items
  std::vector<long long> starts = {0, 10, 50, 20};
  CHECK_THROWS_AS(cascade::segmented_reduce(cascade::default_policy{}, d, starts.data(), beyond.data(), 4, o, 0),
                  std::invalid_argument);
  CHECK_THROWS_AS(cascade::segmented_reduce(cascade::default_policy{}, d, starts.data(), ends.data(), -1, o, 0),
                  std::invalid_argument);
  CHECK_THROWS_AS(cascade::batched_reduce(cascade::default_policy{}, d, 26, 4, o, 0), std::invalid_argument);
  CHECK_THROWS_AS(cascade::batched_reduce(cascade::default_policy{}, d, -1, 4, o, 0), std::invalid_argument);
  int const* d_starts = d;  // any device offsets: a hint that cannot be is refused before they are read
  CHECK_THROWS_AS(cascade::segmented_reduce(cascade::default_policy{}, d, d_starts, d_starts + 1, 4, o, 0,
                                            cascade::plus{}, cascade::segment_lengths{-5, -1}),
                  std::invalid_argument);
  CHECK_THROWS_AS(cascade::segmented_reduce_into(cascade::default_policy{}, d, d_starts, d_starts + 1, 4, o, 0,
                                                 cascade::plus{}, cascade::segment_lengths{10, 5}),
                  std::invalid_argument);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  thrust::host_vector<int> const untouched(out);
  for (int v : untouched) CHECK(v == -1);
  // Zero segments write nothing; 25 x 4 fits exactly.
  cascade::batched_reduce(cascade::default_policy{}, d, 25, 0, o, 0);
  cascade::batched_reduce(cascade::default_policy{}, d, 25, 4, o, 0);
  thrust::host_vector<int> const sums(out);
  for (int v : sums) CHECK(v == 25);
}

}  // TEST_SUITE
