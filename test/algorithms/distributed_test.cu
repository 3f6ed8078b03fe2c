// The distributed reduce (cascade/distributed.cuh) against a host fold and a one-GPU cascade::reduce of
// the concatenated shards: every op family (integer and float plus, multiplies, minimum, maximum, bit
// ops, a custom op with no identity, non-commutative 2x2 matrix products and string hashes, exact_plus
// and reproducible_plus against their independent references, bitwise), both
// collectives and automatic, the forms for one rank per call and for every rank in one call, root
// forms, argmin / argmax with global positions, transform_reduce, shards of unequal size, empty
// shards, all shards empty, and more than 2^32 items in all through counting iterators.
//
// How many ranks: one process drives every visible GPU (init_all; CASCADE_TEST_RANKS caps them; one
// thread per rank for the one-rank forms), or, under scripts/launch-ranks.sh, one process per GPU
// (CASCADE_NCCL_ID_FILE, CASCADE_RANK, CASCADE_NRANKS; every process must run the same cases with
// the same CASCADE_TEST_SEED, which the launcher sets). On one GPU: one rank, the whole path.
// The 'cpu' cases check the pieces that need no GPU: the fold's ops, the NCCL type and op table,
// NCCL's error text, and the id shared through a file.
#include <doctest/doctest.h>

#include <cascade/distributed.cuh>
#include <cascade/reduce_axes.cuh>
#include <cascade/tree/all.cuh>
#include <cascade/finish/all.cuh>
#include <cascade/segment/warp.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "support/binned_reference.hpp"
#include "support/exact_reference.hpp"
#include "support/noncommutative_ops.cuh"
#include "support/seed.hpp"

namespace {

using namespace cascade_test;
namespace coll = cascade::collective;
using fixed_policy = cascade::policy<256, 4, cascade::tree::shuffle, cascade::finish::recursive>;
using atomic_policy = cascade::policy<256, 4, cascade::tree::shuffle, cascade::finish::atomic>;
using segment_policy = cascade::policy<256, 4, cascade::tree::shuffle, cascade::segment::warp<8>>;

// ---- the ranks this process drives -------------------------------------------------------------------

struct world {
  std::vector<cascade::communicator> comms;  // every rank (one process), or this process's own rank
  int nranks = 0;
  bool one_process = true;
  int rank_of(std::size_t local) const { return comms[local].rank(); }
};

int env_int(char const* name, int otherwise) {
  char const* v = std::getenv(name);
  return v != nullptr ? std::atoi(v) : otherwise;
}

world& the_world() {
  static world w = [] {
    world made;
    int devices = 0;
    CASCADE_CUDA_CHECK(cudaGetDeviceCount(&devices));
    if (char const* id_file = std::getenv("CASCADE_NCCL_ID_FILE")) {
      int const rank = env_int("CASCADE_RANK", 0);
      int const nranks = env_int("CASCADE_NRANKS", 1);
      int const device = env_int("CASCADE_DEVICE", rank % devices);
      made.comms.push_back(
          cascade::communicator::init_rank(device, nranks, cascade::share_unique_id(id_file, rank), rank));
      made.nranks = nranks;
      made.one_process = false;
      cascade::communicator::prepare_nvlink(made.comms);  // (init_all does it for its ranks)
    } else {
      std::vector<int> list(std::min(devices, std::max(1, env_int("CASCADE_TEST_RANKS", devices))));
      std::iota(list.begin(), list.end(), 0);
      made.comms = cascade::communicator::init_all(list);
      made.nranks = static_cast<int>(list.size());
    }
    std::printf("[cascade] distributed test: %d rank(s), %s, %s\n", made.nranks,
                made.one_process ? "one process driving them all" : "one process per rank",
                made.comms[0].has_nvlink() ? "collective::nvlink available" : "no collective::nvlink (NCCL's collectives)");
    return made;
  }();
  return w;
}

// f(local index, communicator) on every rank this process drives: at once, one thread each (one
// process driving several GPUs must not make one rank's collective wait for another's call).
void on_each(std::vector<cascade::communicator> const& comms,
             std::function<void(std::size_t, cascade::communicator const&)> const& f) {
  if (comms.size() == 1) return f(0, comms[0]);
  std::vector<std::exception_ptr> errors(comms.size());
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < comms.size(); ++i)
    threads.emplace_back([&, i] {
      try {
        CASCADE_CUDA_CHECK(cudaSetDevice(comms[i].device()));
        f(i, comms[i]);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    });
  for (auto& t : threads) t.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

void on_each_rank(std::function<void(std::size_t, cascade::communicator const&)> const& f) { on_each(the_world().comms, f); }

// ---- data: the concatenation of the ranks' shards ------------------------------------------------------

enum class split { equal, unequal, first_empty, last_empty, all_empty, one_large };
char const* name_of(split s) {
  switch (s) {
    case split::equal: return "equal";
    case split::unequal: return "unequal";
    case split::first_empty: return "first empty";
    case split::last_empty: return "last empty";
    case split::all_empty: return "all empty";
    case split::one_large: return "one large";
  }
  return "?";
}
constexpr split all_splits[] = {split::equal, split::unequal, split::first_empty, split::last_empty, split::all_empty,
                                split::one_large};

std::vector<std::int64_t> shard_sizes(split s, int nranks, std::int64_t per_rank, std::mt19937_64& rng) {
  std::vector<std::int64_t> sizes(nranks, per_rank);
  switch (s) {
    case split::equal: break;
    case split::unequal:
      for (auto& n : sizes) n = static_cast<std::int64_t>(rng() % (2 * per_rank + 2));
      break;
    case split::first_empty: sizes.front() = 0; break;
    case split::last_empty: sizes.back() = 0; break;
    case split::all_empty: std::fill(sizes.begin(), sizes.end(), 0); break;
    case split::one_large:
      std::fill(sizes.begin(), sizes.end(), 3);
      sizes[rng() % nranks] = 4 * per_rank + 1;
      break;
  }
  return sizes;
}

template <class T>
struct dataset {
  std::vector<std::int64_t> sizes;
  std::vector<std::int64_t> offsets;  // offsets[r]: where rank r's shard starts in the whole
  std::vector<T> whole;
};

template <class T, class Make>
dataset<T> make_data(split s, std::int64_t per_rank, std::uint64_t salt, Make make) {
  std::mt19937_64 rng(base_seed() ^ salt);
  dataset<T> d;
  d.sizes = shard_sizes(s, the_world().nranks, per_rank, rng);
  d.offsets.assign(d.sizes.size() + 1, 0);
  for (std::size_t r = 0; r < d.sizes.size(); ++r) d.offsets[r + 1] = d.offsets[r] + d.sizes[r];
  d.whole.resize(static_cast<std::size_t>(d.offsets.back()));
  for (auto& x : d.whole) x = make(rng);
  return d;
}

// A device buffer on a given GPU, freed there.
template <class T>
struct device_array {
  int device = 0;
  T* ptr = nullptr;
  device_array(int dev, std::vector<T> const& host, std::size_t from, std::size_t count) : device(dev) {
    cascade::detail::scoped_device on(device);
    CASCADE_CUDA_CHECK(cudaMalloc(&ptr, std::max<std::size_t>(count, 1) * sizeof(T)));
    if (count > 0) CASCADE_CUDA_CHECK(cudaMemcpy(ptr, host.data() + from, count * sizeof(T), cudaMemcpyHostToDevice));
  }
  device_array(int dev, std::size_t count) : device(dev) {
    cascade::detail::scoped_device on(device);
    CASCADE_CUDA_CHECK(cudaMalloc(&ptr, std::max<std::size_t>(count, 1) * sizeof(T)));
  }
  ~device_array() {
    cascade::detail::scoped_device on(device);
    (void)cudaFree(ptr);
  }
  device_array(device_array const&) = delete;
  device_array& operator=(device_array const&) = delete;
  T read(std::size_t i = 0) const {
    cascade::detail::scoped_device on(device);
    T v;
    CASCADE_CUDA_CHECK(cudaMemcpy(&v, ptr + i, sizeof(T), cudaMemcpyDeviceToHost));
    return v;
  }
};

// Each local rank's shard on its GPU.
template <class T>
std::vector<std::unique_ptr<device_array<T>>> upload_shards(dataset<T> const& d) {
  world& w = the_world();
  std::vector<std::unique_ptr<device_array<T>>> shards;
  for (std::size_t i = 0; i < w.comms.size(); ++i) {
    int const r = w.rank_of(i);
    shards.push_back(std::make_unique<device_array<T>>(w.comms[i].device(), d.whole, static_cast<std::size_t>(d.offsets[r]),
                                                       static_cast<std::size_t>(d.sizes[r])));
  }
  return shards;
}

template <class T>
bool same_bits(T const& a, T const& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// ---- the checks ---------------------------------------------------------------------------------------------

// What a case expects of the distributed result r: `exact` (the host fold), or within `bound` of it.
template <class T>
struct expectation {
  T exact;
  double bound = 0;  // 0: bitwise equal to `exact` and to the one-GPU reduce
};

template <class T>
void check_value(T const& got, expectation<T> const& e, T const& one_gpu) {
  if constexpr (std::is_floating_point_v<T>) {
    if (e.bound > 0) {
      CHECK(std::fabs(static_cast<double>(got) - static_cast<double>(e.exact)) <= e.bound);
      return;
    }
  }
  CHECK(same_bits(got, e.exact));
  CHECK(same_bits(got, one_gpu));
}

// Every form of the distributed reduce for one case: the one-rank forms (reduce, reduce_into, the root
// forms) on every rank, and the one-call forms where one process drives every rank.
template <class Collective, class Policy, class T, class Op>
void check_reduce(dataset<T> const& d, T init, Op op, expectation<T> const& e) {
  world& w = the_world();
  CAPTURE(w.nranks);
  CAPTURE(Collective::name);
  if constexpr (std::is_same_v<Collective, coll::nvlink>)
    if (!w.comms[0].has_nvlink()) return;  // (the case below checks that it throws then)
  // The one-GPU reduce of the concatenated data, on the first local GPU.
  T one_gpu{};
  {
    device_array<T> whole(w.comms[0].device(), d.whole, 0, d.whole.size());
    cascade::detail::scoped_device on(w.comms[0].device());
    one_gpu = cascade::reduce(Policy{}, whole.ptr, whole.ptr + d.whole.size(), init, op);
  }
  auto shards = upload_shards(d);
  std::vector<T> to_host(w.comms.size()), into(w.comms.size());
  std::vector<std::optional<T>> at_root(w.comms.size());
  int const root = w.nranks - 1;
  on_each_rank([&](std::size_t i, cascade::communicator const& comm) {
    T* const first = shards[i]->ptr;
    T* const last = first + d.sizes[comm.rank()];
    to_host[i] = cascade::reduce(comm, Policy{}, first, last, init, op, Collective{});
    device_array<T> out(comm.device(), 1);
    cascade::reduce_into(comm, Policy{}, first, last, out.ptr, init, op, Collective{});
    CASCADE_CUDA_CHECK(cudaStreamSynchronize(comm.stream()));
    into[i] = out.read();
    at_root[i] = cascade::reduce(comm, cascade::root{root}, Policy{}, first, last, init, op, Collective{});
  });
  for (std::size_t i = 0; i < w.comms.size(); ++i) {
    CAPTURE(i);
    check_value(to_host[i], e, one_gpu);
    check_value(into[i], e, one_gpu);
    CHECK(same_bits(to_host[i], into[i]));
    CHECK(same_bits(to_host[i], to_host[0]));  // every rank: the same bits
    CHECK(at_root[i].has_value() == (w.rank_of(i) == root));
    if (at_root[i]) check_value(*at_root[i], e, one_gpu);
  }
  if (!w.one_process) return;
  std::vector<cascade::shard<T const*>> parts;
  for (std::size_t i = 0; i < w.comms.size(); ++i) parts.push_back({shards[i]->ptr, shards[i]->ptr + d.sizes[i]});
  check_value(cascade::reduce(w.comms, Policy{}, parts, init, op, Collective{}), e, one_gpu);
  std::vector<std::unique_ptr<device_array<T>>> outs;
  std::vector<T*> out_ptrs;
  for (auto const& c : w.comms) {
    outs.push_back(std::make_unique<device_array<T>>(c.device(), 1));
    out_ptrs.push_back(outs.back()->ptr);
  }
  cascade::reduce_into(w.comms, Policy{}, parts, out_ptrs, init, op, Collective{});
  for (std::size_t i = 0; i < w.comms.size(); ++i) {
    {
      cascade::detail::scoped_device on(w.comms[i].device());
      CASCADE_CUDA_CHECK(cudaStreamSynchronize(w.comms[i].stream()));
    }
    check_value(outs[i]->read(), e, one_gpu);
  }
}

// fixed_policy alone: each default_policy instantiation compiles every tuned policy of its type and
// op, so the default runs only where named (float plus; the docs' examples take it too).
template <class Collective, class T, class Op>
void check_reduce_policies(dataset<T> const& d, T init, Op op, expectation<T> const& e) {
  check_reduce<Collective, fixed_policy>(d, init, op, e);
}

template <class T, class Op>
T host_fold(std::vector<T> const& v, T init, Op op) {
  T acc = init;
  for (T const& x : v) acc = op(acc, x);
  return acc;
}

std::int64_t per_rank_items() { return env_int("CASCADE_TEST_MAX_N", 300007) / 3; }

}  // namespace

// ---- GPU cases ----------------------------------------------------------------------------------------------

TEST_SUITE("gpu") {

TEST_CASE("integer ops: plus, multiplies, minimum, maximum (NCCL's ops and the all-gather), bit ops") {
  CASCADE_SEED_INFO();
  for (split s : all_splits) {
    CAPTURE(name_of(s));
    auto const ints = make_data<int>(s, per_rank_items(), 1, [](auto& rng) { return static_cast<int>(rng() % 2001) - 1000; });
    int const plus_exact = host_fold(ints.whole, 17, std::plus<>{});
    for (auto const& run : {check_reduce_policies<coll::automatic, int, cascade::plus>,
                            check_reduce_policies<coll::all_reduce, int, cascade::plus>,
                            check_reduce_policies<coll::all_gather, int, cascade::plus>,
                            check_reduce_policies<coll::nvlink, int, cascade::plus>})
      run(ints, 17, cascade::plus{}, {plus_exact});
    int const lo = host_fold(ints.whole, 5000, [](int a, int b) { return std::min(a, b); });
    check_reduce_policies<coll::automatic>(ints, 5000, cascade::minimum{}, expectation<int>{lo});
    check_reduce_policies<coll::all_gather>(ints, 5000, cascade::minimum{}, expectation<int>{lo});
    int const hi = host_fold(ints.whole, -5000, [](int a, int b) { return std::max(a, b); });
    check_reduce_policies<coll::all_reduce>(ints, -5000, cascade::maximum{}, expectation<int>{hi});
    // multiplies over uint64 wraps the same way everywhere (odd factors: the product stays odd)
    auto const odd = make_data<std::uint64_t>(s, per_rank_items() / 8, 2, [](auto& rng) { return static_cast<std::uint64_t>(rng() | 1); });
    std::uint64_t const prod = host_fold(odd.whole, std::uint64_t{3}, std::multiplies<>{});
    check_reduce_policies<coll::all_reduce>(odd, std::uint64_t{3}, cascade::multiplies{}, expectation<std::uint64_t>{prod});
    check_reduce_policies<coll::all_gather>(odd, std::uint64_t{3}, cascade::multiplies{}, expectation<std::uint64_t>{prod});
    // bit ops: no NCCL op, so automatic takes the all-gather
    auto const bits = make_data<unsigned>(s, per_rank_items(), 3, [](auto& rng) { return static_cast<unsigned>(rng()); });
    check_reduce_policies<coll::automatic>(bits, 0x5au, cascade::bit_xor{}, expectation<unsigned>{host_fold(bits.whole, 0x5au, std::bit_xor<>{})});
    check_reduce_policies<coll::automatic>(bits, ~0u, cascade::bit_and{}, expectation<unsigned>{host_fold(bits.whole, ~0u, std::bit_and<>{})});
  }
}

TEST_CASE("float and double: plus within the summation bound, minimum and maximum bitwise") {
  CASCADE_SEED_INFO();
  for (split s : all_splits) {
    CAPTURE(name_of(s));
    auto const f = make_data<float>(s, per_rank_items(), 4, [](auto& rng) {
      float const x = std::uniform_real_distribution<float>(0.5f, 2.0f)(rng);
      return (rng() & 1) ? x : -x;  // never zero: minimum and maximum then pick one bit pattern
    });
    long double exact = 1.5L, magnitude = 1.5L;
    for (float x : f.whole) exact += x, magnitude += std::fabs(x);
    // any order of n + ranks additions: at most (n + ranks) u sum |x| from the exact sum
    double const bound = (f.whole.size() + the_world().nranks + 1) * std::numeric_limits<float>::epsilon() * double(magnitude);
    for (auto const& run : {check_reduce_policies<coll::automatic, float, cascade::plus>,
                            check_reduce_policies<coll::all_reduce, float, cascade::plus>,
                            check_reduce_policies<coll::all_gather, float, cascade::plus>,
                            check_reduce_policies<coll::nvlink, float, cascade::plus>})
      run(f, 1.5f, cascade::plus{}, expectation<float>{static_cast<float>(exact), bound});
    check_reduce<coll::automatic, cascade::default_policy>(f, 1.5f, cascade::plus{},
                                                           expectation<float>{static_cast<float>(exact), bound});
    float const lo = host_fold(f.whole, INFINITY, [](float a, float b) { return b < a ? b : a; });
    check_reduce_policies<coll::automatic>(f, INFINITY, cascade::minimum{}, expectation<float>{lo});
    check_reduce_policies<coll::all_gather>(f, INFINITY, cascade::minimum{}, expectation<float>{lo});
    auto const g = make_data<double>(s, per_rank_items(), 5, [](auto& rng) { return std::uniform_real_distribution<double>(-1e6, 1e6)(rng); });
    double const lowest = -std::numeric_limits<double>::infinity();
    double const hi = host_fold(g.whole, lowest, [](double a, double b) { return a < b ? b : a; });
    check_reduce_policies<coll::automatic>(g, lowest, cascade::maximum{}, expectation<double>{hi});
    long double dsum = 0, dmag = 0;
    for (double x : g.whole) dsum += x, dmag += std::fabs(x);
    double const dbound = (g.whole.size() + the_world().nranks + 1) * std::numeric_limits<double>::epsilon() * double(dmag);
    check_reduce_policies<coll::automatic>(g, 0.0, cascade::plus{}, expectation<double>{static_cast<double>(dsum), dbound});
  }
}

TEST_CASE("minimum and maximum with NaN and signed zeros, argmin's first NaN: bitwise what one GPU gives") {
  CASCADE_SEED_INFO();
  for (split s : all_splits) {
    CAPTURE(name_of(s));
    // zeros of both signs everywhere, a few NaNs of random payload and sign (none in some shards)
    auto const f = make_data<float>(s, per_rank_items(), 11, [](auto& rng) {
      std::uint64_t const r = rng() % 1000;
      if (r == 0) {
        std::uint32_t const nan = 0x7f800001u | static_cast<std::uint32_t>(rng() & 0x807fffffu);
        float x;
        std::memcpy(&x, &nan, sizeof x);
        return x;
      }
      if (r < 300) return (r & 1) ? -0.0f : 0.0f;
      return static_cast<float>(static_cast<int>(rng() % 2001) - 1000);
    });
    bool nan = false;
    std::int64_t first_nan = -1;
    for (std::size_t k = 0; k < f.whole.size(); ++k)
      if (std::isnan(f.whole[k]) && !nan) nan = true, first_nan = static_cast<std::int64_t>(k);
    std::uint32_t const canonical = 0x7fffffffu;
    float canonical_nan;
    std::memcpy(&canonical_nan, &canonical, sizeof canonical_nan);
    // the IEEE minimum of the items: NaN if any, else the smallest with -0 below +0
    float lo = INFINITY, hi = -INFINITY;
    for (float x : f.whole) {
      if (std::isnan(x)) continue;
      if (x < lo || (x == lo && std::signbit(x))) lo = x;
      if (x > hi || (x == hi && !std::signbit(x))) hi = x;
    }
    check_reduce_policies<coll::automatic>(f, INFINITY, cascade::minimum{}, expectation<float>{nan ? canonical_nan : lo});
    check_reduce_policies<coll::all_gather>(f, -INFINITY, cuda::maximum<>{}, expectation<float>{nan ? canonical_nan : hi});
    check_reduce_policies<coll::nvlink>(f, -INFINITY, cuda::maximum<>{}, expectation<float>{nan ? canonical_nan : hi});
    if (!f.whole.empty() && nan) {
      world& w = the_world();
      auto shards = upload_shards(f);
      std::vector<cascade::indexed<float>> got(w.comms.size());
      on_each_rank([&](std::size_t i, cascade::communicator const& comm) {
        float const* first = shards[i]->ptr;
        got[i] = cascade::argmin(comm, fixed_policy{}, first, first + f.sizes[comm.rank()]);
      });
      for (auto const& g : got) CHECK(g.index == first_nan);
    }
  }
}

TEST_CASE("non-commutative ops keep rank order; an op with no identity") {
  CASCADE_SEED_INFO();
  for (split s : all_splits) {
    CAPTURE(name_of(s));
    auto const m = make_data<mat2>(s, per_rank_items() / 4, 6, [](auto& rng) { return mat2::random_invertible(rng); });
    auto const product = cascade::non_commutative(mat2_product{});
    mat2 const start{3, 1, 4, 1};
    expectation<mat2> const ordered{host_fold(m.whole, start, mat2_product{})};
    check_reduce_policies<coll::automatic>(m, start, product, ordered);
    check_reduce_policies<coll::nvlink>(m, start, product, ordered);
    auto const h = make_data<hashed>(s, per_rank_items() / 4, 7, [](auto& rng) { return hashed{rng() % 256, 1}; });
    hashed const empty{0, 0};
    check_reduce_policies<coll::all_gather>(h, empty, cascade::non_commutative(hash_concat{}),
                                            expectation<hashed>{host_fold(h.whole, empty, hash_concat{})});
    // keep_right has no identity: ranks start from "none", and the result is the last item (or init)
    auto const ints = make_data<int>(s, per_rank_items(), 8, [](auto& rng) { return static_cast<int>(rng() % 1000); });
    int const last = ints.whole.empty() ? -7 : ints.whole.back();
    check_reduce_policies<coll::automatic>(ints, -7, cascade::non_commutative(keep_right{}), expectation<int>{last});
  }
}

TEST_CASE("exact_plus and reproducible_plus: bitwise the one-GPU sum of the concatenated data") {
  CASCADE_SEED_INFO();
  for (split s : all_splits) {
    CAPTURE(name_of(s));
    // Magnitudes that grow along the data, so that the ranks' windows differ, and a cancellation.
    auto const f = make_data<float>(s, per_rank_items(), 11, [i = 0](auto& rng) mutable {
      float const x = std::ldexp(std::normal_distribution<float>(0.0f, 1.0f)(rng), (i++ / 4096) % 60 - 30);
      return (rng() % 97 == 0) ? 1e30f * ((rng() & 1) ? 1 : -1) : x;
    });
    std::vector<double> const fx(f.whole.begin(), f.whole.end());
    float const exact = cascade_test::exact_sum<float>(fx, 0.25);
    check_reduce<coll::automatic, fixed_policy>(f, 0.25f, cascade::exact_plus{}, expectation<float>{exact});
    check_reduce<coll::all_gather, atomic_policy>(f, 0.25f, cascade::exact_plus{}, expectation<float>{exact});
    check_reduce<coll::nvlink, atomic_policy>(f, 0.25f, cascade::exact_plus{}, expectation<float>{exact});
    float const binned = cascade_test::reproducible_sum<float, float>(fx, 0.25);
    check_reduce<coll::automatic, fixed_policy>(f, 0.25f, cascade::reproducible_plus{}, expectation<float>{binned});
    check_reduce<coll::automatic, atomic_policy>(f, 0.25f, cascade::reproducible_plus{}, expectation<float>{binned});
    auto const g = make_data<double>(s, per_rank_items() / 2, 12, [i = 0](auto& rng) mutable {
      return std::ldexp(std::normal_distribution<double>(0.0, 1.0)(rng), (i++ / 2048) % 400 - 200);
    });
    check_reduce<coll::automatic, fixed_policy>(g, -3.0, cascade::exact_plus{}, expectation<double>{cascade_test::exact_sum<double>(g.whole, -3.0)});
    check_reduce<coll::nvlink, fixed_policy>(g, -3.0, cascade::exact_plus{}, expectation<double>{cascade_test::exact_sum<double>(g.whole, -3.0)});
    check_reduce<coll::automatic, atomic_policy>(g, -3.0, cascade::reproducible_plus{},
                                                           expectation<double>{cascade_test::reproducible_sum<double, double>(g.whole, -3.0)});
  }
}

TEST_CASE("argmin and argmax: global positions, the first on ties") {
  CASCADE_SEED_INFO();
  world& w = the_world();
  for (split s : all_splits) {
    CAPTURE(name_of(s));
    auto const d = make_data<int>(s, per_rank_items(), 9, [](auto& rng) { return static_cast<int>(rng() % 50); });
    auto shards = upload_shards(d);
    std::int64_t lo_at = -1, hi_at = -1;
    for (std::size_t k = 0; k < d.whole.size(); ++k) {
      if (lo_at < 0 || d.whole[k] < d.whole[lo_at]) lo_at = static_cast<std::int64_t>(k);
      if (hi_at < 0 || d.whole[k] > d.whole[hi_at]) hi_at = static_cast<std::int64_t>(k);
    }
    std::vector<cascade::indexed<int>> lo(w.comms.size()), hi(w.comms.size()), lo_into(w.comms.size());
    std::vector<int> threw(w.comms.size(), 0);
    on_each_rank([&](std::size_t i, cascade::communicator const& comm) {
      int const* first = shards[i]->ptr;
      int const* last = first + d.sizes[comm.rank()];
      try {
        lo[i] = cascade::argmin(comm, fixed_policy{}, first, last);
        hi[i] = cascade::argmax(comm, fixed_policy{}, first, last);
      } catch (std::invalid_argument const&) {
        threw[i] = 1;
      }
      device_array<cascade::indexed<int>> out(comm.device(), 1);
      cascade::argmin_into(comm, fixed_policy{}, first, last, out.ptr);
      CASCADE_CUDA_CHECK(cudaStreamSynchronize(comm.stream()));
      lo_into[i] = out.read();
    });
    for (std::size_t i = 0; i < w.comms.size(); ++i) {
      CAPTURE(i);
      if (d.whole.empty()) {
        CHECK(threw[i] == 1);
        CHECK(lo_into[i].index == -1);
        CHECK(lo_into[i].value == std::numeric_limits<int>::max());
        continue;
      }
      CHECK(threw[i] == 0);
      CHECK(lo[i].index == lo_at);
      CHECK(lo[i].value == d.whole[lo_at]);
      CHECK(hi[i].index == hi_at);
      CHECK(hi[i].value == d.whole[hi_at]);
      CHECK(lo_into[i] == lo[i]);
    }
    if (w.one_process && !d.whole.empty()) {
      std::vector<cascade::shard<int const*>> parts;
      for (std::size_t i = 0; i < w.comms.size(); ++i) parts.push_back({shards[i]->ptr, shards[i]->ptr + d.sizes[i]});
      auto const a = cascade::argmin(w.comms, fixed_policy{}, parts);
      auto const b = cascade::argmax(w.comms, fixed_policy{}, parts);
      CHECK(a.index == lo_at);
      CHECK(b.index == hi_at);
    }
  }
}

TEST_CASE("transform_reduce: a sum of squares, and a struct accumulator through the all-gather") {
  CASCADE_SEED_INFO();
  world& w = the_world();
  auto const d = make_data<int>(split::unequal, per_rank_items(), 10, [](auto& rng) { return static_cast<int>(rng() % 100); });
  auto shards = upload_shards(d);
  long long squares = 0;
  for (int x : d.whole) squares += static_cast<long long>(x) * x;
  auto const square = [] __host__ __device__(int x) { return static_cast<long long>(x) * x; };
  std::vector<long long> got(w.comms.size());
  on_each_rank([&](std::size_t i, cascade::communicator const& comm) {
    int const* first = shards[i]->ptr;
    got[i] = cascade::transform_reduce(comm, fixed_policy{}, first, first + d.sizes[comm.rank()], 0ll, cascade::plus{}, square,
                                       coll::all_gather{});
  });
  for (long long g : got) CHECK(g == squares);
  if (w.one_process) {
    std::vector<cascade::shard<int const*>> parts;
    for (std::size_t i = 0; i < w.comms.size(); ++i) parts.push_back({shards[i]->ptr, shards[i]->ptr + d.sizes[i]});
    CHECK(cascade::transform_reduce(w.comms, fixed_policy{}, parts, 0ll, cascade::plus{}, square) == squares);
  }
}

TEST_CASE("more than 2^32 items in all, through counting iterators") {
  if (std::getenv("CASCADE_TEST_MAX_N") != nullptr) return;  // the sanitizers' runs: too long there
  world& w = the_world();
  std::int64_t const per = (std::int64_t{1} << 32) / w.nranks + 12345;  // beyond 2^32 in all
  std::int64_t const total = per * w.nranks;
  std::vector<std::uint64_t> sums(w.comms.size());
  std::vector<cascade::indexed<long long>> top(w.comms.size());
  on_each_rank([&](std::size_t i, cascade::communicator const& comm) {
    thrust::counting_iterator<long long> const first(per * comm.rank());
    sums[i] = cascade::reduce(comm, fixed_policy{}, first, first + per, std::uint64_t{0}, cascade::plus{});
    top[i] = cascade::argmax(comm, fixed_policy{}, first, first + per);
  });
  // 0 + 1 + ... + (total - 1), modulo 2^64 as the unsigned sum wraps
  auto const expected = static_cast<std::uint64_t>(static_cast<unsigned __int128>(total) * (total - 1) / 2);
  for (std::size_t i = 0; i < w.comms.size(); ++i) {
    CHECK(sums[i] == expected);
    CHECK(top[i].index == total - 1);
    CHECK(top[i].value == total - 1);
  }
}

// Several values a rank: value s is init op (rank 0's slice of s) op (rank 1's slice) ... Each rank's
// slices are made from the shared seed, so every rank knows the whole and the expected values.
template <class Collective, class T, class Op, class HostOp, class Make>
void check_several(std::int64_t k, T init, Op op, HostOp host_op, std::uint64_t salt, Make make, bool offsets) {
  world& w = the_world();
  CAPTURE(Collective::name);
  CAPTURE(k);
  CAPTURE(offsets);
  std::mt19937_64 rng(base_seed() ^ salt);
  // rank r: k segments; batched: one size each (0 for some ranks); segmented: lengths of their own
  std::vector<std::vector<std::int64_t>> lengths(w.nranks);
  std::vector<std::vector<T>> items(w.nranks);
  for (int r = 0; r < w.nranks; ++r) {
    std::int64_t const size = (rng() % 4 == 0) ? 0 : static_cast<std::int64_t>(rng() % 300);
    for (std::int64_t s = 0; s < k; ++s) lengths[r].push_back(offsets ? static_cast<std::int64_t>(rng() % 200) : size);
    for (auto n : lengths[r])
      for (std::int64_t j = 0; j < n; ++j) items[r].push_back(make(rng));
  }
  std::vector<T> expected(static_cast<std::size_t>(k), init);
  for (int r = 0; r < w.nranks; ++r) {
    std::size_t at = 0;
    for (std::int64_t s = 0; s < k; ++s)
      for (std::int64_t j = 0; j < lengths[r][s]; ++j) expected[s] = host_op(expected[s], items[r][at++]);
  }
  std::vector<std::vector<T>> got(w.comms.size());
  on_each_rank([&](std::size_t i, cascade::communicator const& comm) {
    cascade::detail::scoped_device on(comm.device());
    int const r = comm.rank();
    device_array<T> data(comm.device(), items[r], 0, items[r].size());
    device_array<T> out(comm.device(), static_cast<std::size_t>(std::max<std::int64_t>(k, 1)));
    if (offsets) {
      std::vector<std::int64_t> begins, ends;
      std::int64_t at = 0;
      for (auto n : lengths[r]) begins.push_back(at), at += n, ends.push_back(at);
      cascade::segmented_reduce_into(comm, segment_policy{}, data.ptr, begins.data(), ends.data(), k, out.ptr, init, op,
                                     Collective{});
    } else {
      cascade::batched_reduce_into(comm, segment_policy{}, data.ptr, k > 0 ? lengths[r][0] : 0, k, out.ptr, init, op,
                                   Collective{});
    }
    CASCADE_CUDA_CHECK(cudaStreamSynchronize(comm.stream()));
    for (std::int64_t s = 0; s < k; ++s) got[i].push_back(out.read(static_cast<std::size_t>(s)));
  });
  for (std::size_t i = 0; i < w.comms.size(); ++i) {
    CAPTURE(i);
    REQUIRE(got[i].size() == expected.size());
    for (std::size_t s = 0; s < expected.size(); ++s) {
      CAPTURE(s);
      CHECK(same_bits(got[i][s], expected[s]));
    }
  }
}

TEST_CASE("several values a rank: batched and segmented, each rank its slices, rank order, every collective") {
  CASCADE_SEED_INFO();
  auto const small_int = [](auto& rng) { return static_cast<int>(rng() % 2001) - 1000; };
  for (std::int64_t k : {std::int64_t{0}, std::int64_t{1}, std::int64_t{37}, std::int64_t{1000}}) {
    for (bool offsets : {false, true}) {
      check_several<coll::automatic>(k, 7, cascade::plus{}, std::plus<>{}, 31, small_int, offsets);
      check_several<coll::all_reduce>(k, 7, cascade::plus{}, std::plus<>{}, 32, small_int, offsets);
      check_several<coll::all_gather>(k, 7, cascade::plus{}, std::plus<>{}, 33, small_int, offsets);
      check_several<coll::automatic>(k, 0x5au, cascade::bit_xor{}, std::bit_xor<>{}, 34,
                                     [](auto& rng) { return static_cast<unsigned>(rng()); }, offsets);
      // non-commutative: each value keeps rank order (and the order within each slice)
      check_several<coll::automatic>(k, mat2{3, 1, 4, 1}, cascade::non_commutative(cascade::monoid(mat2_product{}, mat2::unit())),
                                     mat2_product{}, 35,
                                     [](auto& rng) { return mat2::random_invertible(rng); }, offsets);
    }
  }
}

// The axes form: rank r's shard is rows_r x mid x inner (row-major, rows_r its own, some 0); the
// reduced axes are 0 and, where `inner_too`, 2; out[j] (j over the kept mid axis, with inner where kept)
// folds rank 0's items first, each shard's in row-major order over the reduced axes.
template <class Collective, class T, class Op, class HostOp, class Make>
void check_several_axes(std::int64_t mid, std::int64_t inner, bool inner_too, T init, Op op, HostOp host_op,
                        std::uint64_t salt, Make make) {
  world& w = the_world();
  CAPTURE(Collective::name);
  CAPTURE(inner_too);
  std::mt19937_64 rng(base_seed() ^ salt);
  std::vector<std::int64_t> rows(w.nranks);
  std::vector<std::vector<T>> items(w.nranks);
  for (int r = 0; r < w.nranks; ++r) {
    rows[r] = (rng() % 5 == 0) ? 0 : static_cast<std::int64_t>(rng() % 40);
    for (std::int64_t i = 0; i < rows[r] * mid * inner; ++i) items[r].push_back(make(rng));
  }
  std::int64_t const outputs = inner_too ? mid : mid * inner;
  std::vector<T> expected(static_cast<std::size_t>(outputs), init);
  for (int r = 0; r < w.nranks; ++r)
    for (std::int64_t i = 0; i < rows[r]; ++i)
      for (std::int64_t j = 0; j < mid; ++j)
        for (std::int64_t k = 0; k < inner; ++k) {
          std::int64_t const o = inner_too ? j : j * inner + k;
          expected[o] = host_op(expected[o], items[r][(i * mid + j) * inner + k]);
        }
  // (the fold over reduced axes {0, 2} is row-major: for each j, i outer and k inner, as above)
  std::vector<std::vector<T>> got(w.comms.size());
  on_each_rank([&](std::size_t l, cascade::communicator const& comm) {
    cascade::detail::scoped_device on(comm.device());
    int const r = comm.rank();
    device_array<T> data(comm.device(), items[r], 0, items[r].size());
    device_array<T> out(comm.device(), static_cast<std::size_t>(outputs));
    auto const in = cascade::view(static_cast<T const*>(data.ptr), {rows[r], mid, inner});
    if (inner_too)
      cascade::reduce_axes_into(comm, segment_policy{}, in, cascade::axes{0, 2}, cascade::view(out.ptr, {mid}), init, op,
                                Collective{});
    else
      cascade::reduce_axes_into(comm, segment_policy{}, in, cascade::axes{0}, cascade::view(out.ptr, {mid, inner}), init, op,
                                Collective{});
    CASCADE_CUDA_CHECK(cudaStreamSynchronize(comm.stream()));
    for (std::int64_t o = 0; o < outputs; ++o) got[l].push_back(out.read(static_cast<std::size_t>(o)));
  });
  for (std::size_t l = 0; l < w.comms.size(); ++l)
    for (std::size_t o = 0; o < expected.size(); ++o) {
      CAPTURE(l);
      CAPTURE(o);
      CHECK(same_bits(got[l][o], expected[o]));
    }
}

TEST_CASE("several values a rank: the axes of each rank's shard (column sums of a row-sharded matrix)") {
  CASCADE_SEED_INFO();
  auto const small_int = [](auto& rng) { return static_cast<int>(rng() % 2001) - 1000; };
  for (bool inner_too : {false, true}) {
    check_several_axes<coll::automatic>(3, 5, inner_too, 7, cascade::plus{}, std::plus<>{}, 41, small_int);
    check_several_axes<coll::all_gather>(3, 5, inner_too, 7, cascade::plus{}, std::plus<>{}, 42, small_int);
    check_several_axes<coll::automatic>(4, 2, inner_too, mat2{3, 1, 4, 1},
                                        cascade::non_commutative(cascade::monoid(mat2_product{}, mat2::unit())),
                                        mat2_product{}, 43, [](auto& rng) { return mat2::random_invertible(rng); });
  }
}

TEST_CASE("collective::nvlink: the all-gather's bits call after call, graph replays, every finish") {
  CASCADE_SEED_INFO();
  world& w = the_world();
  auto const d = make_data<float>(split::unequal, per_rank_items(), 21, [](auto& rng) {
    return std::uniform_real_distribution<float>(-1.0f, 1.0f)(rng);
  });
  auto shards = upload_shards(d);
  if (!w.comms[0].has_nvlink()) {
    MESSAGE("no collective::nvlink here: checking that naming it throws");
    on_each_rank([&](std::size_t i, cascade::communicator const& comm) {
      float const* first = shards[i]->ptr;
      CHECK_THROWS_AS(cascade::reduce(comm, fixed_policy{}, first, first + d.sizes[comm.rank()], 0.0f, cascade::plus{},
                                      coll::nvlink{}),
                      std::invalid_argument);
    });
    return;
  }
  int const calls = 65;  // an odd count: both buffers, and the sequence's parity both ways
  std::vector<std::vector<float>> got(w.comms.size()), gathered(w.comms.size()), replayed(w.comms.size());
  on_each_rank([&](std::size_t i, cascade::communicator const& comm) {
    float const* first = shards[i]->ptr;
    float const* last = first + d.sizes[comm.rank()];
    for (int k = 0; k < calls; ++k) {
      // alternate policies (finishes): each stores its result once, where the exchange rides
      if (k % 3 == 0) got[i].push_back(cascade::reduce(comm, fixed_policy{}, first, last, 0.5f, cascade::plus{}, coll::nvlink{}));
      else if (k % 3 == 1) got[i].push_back(cascade::reduce(comm, atomic_policy{}, first, last, 0.5f, cascade::plus{}, coll::nvlink{}));
      else got[i].push_back(cascade::reduce(comm, cascade::default_policy{}, first, last, 0.5f, cascade::plus{}, coll::nvlink{}));
    }
    gathered[i].push_back(cascade::reduce(comm, fixed_policy{}, first, last, 0.5f, cascade::plus{}, coll::all_gather{}));
    // a graph of three calls, replayed: the sequence lives on the device, so replays stay in step
    cascade::detail::scoped_device on(comm.device());
    cudaStream_t stream;
    CASCADE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    device_array<float> out(comm.device(), 3);
    cascade::communicator const on_stream = comm.on(stream);
    cudaGraph_t graph;
    CASCADE_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    for (int k = 0; k < 3; ++k)
      cascade::reduce_into(on_stream, fixed_policy{}, first, last, out.ptr + k, 0.5f, cascade::plus{}, coll::nvlink{});
    CASCADE_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
    cudaGraphExec_t exec;
    CASCADE_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
    for (int replay = 0; replay < 5; ++replay) {
      CASCADE_CUDA_CHECK(cudaMemsetAsync(out.ptr, 0, 3 * sizeof(float), stream));
      CASCADE_CUDA_CHECK(cudaGraphLaunch(exec, stream));
      CASCADE_CUDA_CHECK(cudaStreamSynchronize(stream));
      for (int k = 0; k < 3; ++k) replayed[i].push_back(out.read(k));
    }
    CASCADE_CUDA_CHECK(cudaGraphExecDestroy(exec));
    CASCADE_CUDA_CHECK(cudaGraphDestroy(graph));
    CASCADE_CUDA_CHECK(cudaStreamDestroy(stream));
  });
  for (std::size_t i = 0; i < w.comms.size(); ++i) {
    CAPTURE(i);
    for (int k = 0; k < calls; ++k) {
      CAPTURE(k);
      // the fixed policy's fold is the all-gather's, bitwise; the others within the summation bound
      if (k % 3 == 0) CHECK(same_bits(got[i][k], gathered[i][0]));
      else CHECK(std::fabs(got[i][k] - gathered[i][0]) <= 1e-3f);
      CHECK(same_bits(got[i][k], got[0][k]));  // every rank, the same bits
    }
    for (float r : replayed[i]) CHECK(same_bits(r, gathered[i][0]));
  }
}

TEST_CASE("timeouts: a rank that never calls; every other throws distributed_error in time, aborted; then anew") {
  world& w = the_world();
  if (w.nranks < 2) return;  // no other rank to miss
  // Communicators of their own: the ones made here are aborted.
  auto const fresh = [&](char const* tag) {
    if (w.one_process) {
      std::vector<int> devices;
      for (auto const& c : w.comms) devices.push_back(c.device());
      return cascade::communicator::init_all(devices);
    }
    std::string const id_file = std::string(std::getenv("CASCADE_NCCL_ID_FILE")) + tag;
    int const rank = w.comms[0].rank();
    std::vector<cascade::communicator> made{cascade::communicator::init_rank(
        w.comms[0].device(), w.nranks, cascade::share_unique_id(id_file, rank), rank)};
    cascade::communicator::prepare_nvlink(made);
    return made;
  };
  std::vector<cascade::communicator> comms = fresh(".timeout");
  std::vector<std::unique_ptr<device_array<float>>> data;
  for (auto const& c : comms) data.push_back(std::make_unique<device_array<float>>(c.device(), std::vector<float>(1000, 0.0f), 0, 1000));
  auto const absent = w.nranks - 1;  // this rank never calls
  std::vector<double> waited(comms.size(), 0.0);
  std::vector<int> why(comms.size(), -1);
  auto const attempt = [&](std::size_t i, cascade::communicator const& comm) {
    if (comm.rank() == absent) return;
    cascade::detail::scoped_device on(comm.device());
    auto const t0 = std::chrono::steady_clock::now();
    try {
      float const* d = data[i]->ptr;
      (void)cascade::reduce(comm.with_timeout(std::chrono::milliseconds(500)), fixed_policy{}, d, d + 1000, 0.0f);
    } catch (cascade::distributed_error const& e) {
      why[i] = static_cast<int>(e.why());
      CHECK(e.rank() == comm.rank());
      CHECK(std::string(e.what()).find("rank " + std::to_string(comm.rank())) != std::string::npos);
    }
    waited[i] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  on_each(comms, attempt);
  for (std::size_t i = 0; i < comms.size(); ++i) {
    if (comms[i].rank() == absent) {
      comms[i].abort();  // the rank that left aborts its own
      continue;
    }
    CAPTURE(comms[i].rank());
    CHECK(why[i] == static_cast<int>(cascade::distributed_error::cause::timeout));
    CHECK(waited[i] < 5.0);
    MESSAGE("rank " << comms[i].rank() << " gave up after " << waited[i] << " s (timeout 0.5 s)");
    // aborted: the next call says so at once
    CHECK_THROWS_AS(cascade::reduce(comms[i], fixed_policy{}, data[i]->ptr, data[i]->ptr + 1000, 0.0f),
                    cascade::distributed_error);
  }
  comms.clear();
  // and a new communicator works
  std::vector<cascade::communicator> again = fresh(".again");
  std::vector<float> sums(again.size(), -1.0f);
  auto const sum = [&](std::size_t i, cascade::communicator const& comm) {
    cascade::detail::scoped_device on(comm.device());
    device_array<float> ones(comm.device(), std::vector<float>(10, 1.0f), 0, 10);
    sums[i] = cascade::reduce(comm, fixed_policy{}, ones.ptr, ones.ptr + 10, 0.0f);
  };
  on_each(again, sum);
  for (float s : sums) CHECK(s == 10.0f * w.nranks);
}

TEST_CASE("init_rank: a rank that never joins; the others throw distributed_error within the join timeout") {
  world& w = the_world();
  int const device = w.comms[0].device();
  cascade::detail::scoped_device on(device);
  // One more rank than will ever come: every rank here joins a communicator of nranks + 1.
  std::string const id_file = std::getenv("CASCADE_NCCL_ID_FILE") ? std::string(std::getenv("CASCADE_NCCL_ID_FILE")) + ".nojoin"
                                                                   : "/tmp/cascade-nojoin-" + std::to_string(::getpid()) + ".id";
  int const rank = w.one_process ? 0 : w.comms[0].rank();
  int const nranks = (w.one_process ? 1 : w.nranks) + 1;
  ncclUniqueId const id = cascade::share_unique_id(id_file, rank);
  auto const t0 = std::chrono::steady_clock::now();
  int why = -1;
  try {
    (void)cascade::communicator::init_rank(device, nranks, id, rank, nullptr, std::chrono::milliseconds(1000));
  } catch (cascade::distributed_error const& e) {
    why = static_cast<int>(e.why());
    CHECK(std::string(e.what()).find("did not all join") != std::string::npos);
  }
  double const waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(why == static_cast<int>(cascade::distributed_error::cause::timeout));
  CHECK(waited < 5.0);
  MESSAGE("rank " << rank << " gave up joining after " << waited << " s (join timeout 1 s)");
  if (rank == 0 && std::getenv("CASCADE_NCCL_ID_FILE") == nullptr) std::remove(id_file.c_str());
}

// One round of the kill check (scripts/multi-gpu-check.sh runs it 20 times, one process per GPU,
// CASCADE_TEST_KILL=round): the last rank leaves mid-loop (exits, as a crash would, with no goodbye);
// every other rank's next call throws distributed_error within the timeout, the communicator is
// aborted, the device memory is what it was before the communicator, and the ranks left make a new
// communicator and reduce with it. Even rounds go through collective::nvlink, odd ones NCCL's.
TEST_CASE("kill: a rank that dies mid-loop; the others throw in time, free what they hold, and go on") {
  char const* round_text = std::getenv("CASCADE_TEST_KILL");
  char const* id_file = std::getenv("CASCADE_NCCL_ID_FILE");
  if (round_text == nullptr || id_file == nullptr) return;  // only when the kill check runs it
  int const round = std::atoi(round_text);
  int const rank = env_int("CASCADE_RANK", 0), nranks = env_int("CASCADE_NRANKS", 1);
  REQUIRE(nranks >= 2);
  int const device = env_int("CASCADE_DEVICE", 0);
  CASCADE_CUDA_CHECK(cudaSetDevice(device));
  {  // what a process keeps once it has used NCCL (its kernels, its peers' mappings) and cascade's
     // scratch cache: a whole communicator's life, every rank still there, before measuring
    device_array<float> warm(device, std::vector<float>(4096, 1.0f), 0, 4096);
    auto first = cascade::communicator::init_rank(device, nranks, cascade::share_unique_id(std::string(id_file) + ".warm", rank), rank);
    cascade::communicator::prepare_nvlink(std::span<cascade::communicator const>(&first, 1));
    REQUIRE(cascade::reduce(first, fixed_policy{}, warm.ptr, warm.ptr + 4096, 0.0f) == 4096.0f * nranks);
    REQUIRE(cascade::reduce(first, fixed_policy{}, warm.ptr, warm.ptr + 4096, 0.0f, cascade::plus{}, coll::all_reduce{}) ==
            4096.0f * nranks);
  }
  std::size_t free_before = 0, free_after = 0, total = 0;
  auto const timeout = std::chrono::seconds(2);
  double waited = 0;
  int why = -1;
  CASCADE_CUDA_CHECK(cudaMemGetInfo(&free_before, &total));
  {
    device_array<float> ones(device, std::vector<float>(4096, 1.0f), 0, 4096);
    auto comm = cascade::communicator::init_rank(device, nranks, cascade::share_unique_id(id_file, rank), rank).with_timeout(timeout);
    cascade::communicator::prepare_nvlink(std::span<cascade::communicator const>(&comm, 1));
    bool const nvlink = round % 2 == 0 && comm.has_nvlink();
    auto const call = [&] {
      if (nvlink) return cascade::reduce(comm, fixed_policy{}, ones.ptr, ones.ptr + 4096, 0.0f, cascade::plus{}, coll::nvlink{});
      return cascade::reduce(comm, fixed_policy{}, ones.ptr, ones.ptr + 4096, 0.0f, cascade::plus{}, coll::all_reduce{});
    };
    int const calls_before_death = 50 + 7 * round;
    for (int k = 0;; ++k) {
      if (rank == nranks - 1 && k == calls_before_death) {
        std::printf("[cascade] kill round %d: rank %d leaves after %d calls (%s)\n", round, rank, k,
                    nvlink ? "collective::nvlink" : "collective::all_reduce");
        std::fflush(stdout);
        std::_Exit(0);
      }
      auto const t0 = std::chrono::steady_clock::now();
      try {
        float const s = call();
        REQUIRE(s == 4096.0f * nranks);
      } catch (cascade::distributed_error const& e) {
        waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        why = static_cast<int>(e.why());
        MESSAGE("kill round " << round << ", rank " << rank << " after " << k << " calls: threw in " << waited
                              << " s: " << std::string(e.what()));
        break;
      }
      REQUIRE(k < 100000);
    }
  }  // the aborted communicator and the data go
  CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
  CASCADE_CUDA_CHECK(cudaMemGetInfo(&free_after, &total));
  CHECK(why >= 0);
  CHECK(waited <= 10.0);
  CHECK(free_after == free_before);
  MESSAGE("device memory free before " << free_before << ", after " << free_after);
  // The ranks left go on: a communicator of their own.
  int const left = nranks - 1;
  auto again = cascade::communicator::init_rank(device, left, cascade::share_unique_id(std::string(id_file) + ".after", rank), rank);
  device_array<float> ones(device, std::vector<float>(10, 1.0f), 0, 10);
  CHECK(cascade::reduce(again, fixed_policy{}, ones.ptr, ones.ptr + 10, 0.0f) == 10.0f * left);
}

TEST_CASE("argument errors: a root out of range, mismatched lists, ranks out of order") {
  world& w = the_world();
  device_array<float> data(w.comms[0].device(), 4);
  float* const d = data.ptr;
  if (w.comms.size() == 1) {
    // Thrown before anything is enqueued, on this rank alone: no collective is left waiting.
    CHECK_THROWS_AS(cascade::reduce_into(w.comms[0], cascade::root{w.nranks}, fixed_policy{}, d, d + 4, d, 0.0f, cascade::plus{}),
                    std::invalid_argument);
    CHECK_THROWS_AS(cascade::reduce(w.comms[0], cascade::root{-1}, fixed_policy{}, d, d + 4, 0.0f, cascade::plus{}),
                    std::invalid_argument);
    CHECK_THROWS_AS(cascade::reduce(w.comms[0], fixed_policy{}, d + 4, d, 0.0f, cascade::plus{}), std::invalid_argument);
  }
  if (w.one_process) {
    std::vector<cascade::shard<float const*>> too_few;
    CHECK_THROWS_AS(cascade::reduce(w.comms, fixed_policy{}, too_few, 0.0f, cascade::plus{}), std::invalid_argument);
    if (w.comms.size() > 1) {
      std::vector<cascade::communicator> reversed(w.comms.rbegin(), w.comms.rend());
      std::vector<cascade::shard<float const*>> parts(w.comms.size(), cascade::shard<float const*>{d, d});
      CHECK_THROWS_AS(cascade::reduce(reversed, fixed_policy{}, parts, 0.0f, cascade::plus{}), std::invalid_argument);
    }
  }
}

}  // TEST_SUITE("gpu")

// ---- CPU cases: the pieces that need no GPU -------------------------------------------------------------------

TEST_SUITE("cpu") {

TEST_CASE("NCCL's types and ops: what collective::all_reduce takes") {
  using cascade::detail::is_nccl_builtin_v;
  static_assert(is_nccl_builtin_v<float, cascade::plus> && is_nccl_builtin_v<double, cascade::plus>);
  // NCCL's floating minimum and maximum drop NaN; cascade's propagate it: those meet through the all-gather
  static_assert(!is_nccl_builtin_v<double, cascade::maximum> && !is_nccl_builtin_v<float, cuda::minimum<>>);
  static_assert(!is_nccl_builtin_v<__half, cascade::minimum> && is_nccl_builtin_v<long long, cuda::maximum<>>);
  static_assert(is_nccl_builtin_v<int, cascade::minimum> && is_nccl_builtin_v<unsigned long long, cascade::multiplies>);
  static_assert(is_nccl_builtin_v<__half, cascade::plus> && is_nccl_builtin_v<__nv_bfloat16, cascade::plus>);
  static_assert(is_nccl_builtin_v<signed char, cascade::plus> && is_nccl_builtin_v<long, cascade::plus>);
  static_assert(is_nccl_builtin_v<float, cuda::std::plus<>> && is_nccl_builtin_v<int, cuda::minimum<>>);
  static_assert(!is_nccl_builtin_v<short, cascade::plus>, "NCCL has no 16-bit integers");
  static_assert(!is_nccl_builtin_v<bool, cascade::logical_and> && !is_nccl_builtin_v<unsigned, cascade::bit_xor>);
  static_assert(!is_nccl_builtin_v<int, decltype(cascade::non_commutative(cascade::plus{}))>);
  static_assert(!is_nccl_builtin_v<mat2, mat2_product>);
  CHECK(cascade::detail::nccl_type<long long>() == ncclInt64);
  CHECK(cascade::detail::nccl_type<unsigned char>() == ncclUint8);
  CHECK(cascade::detail::nccl_op<cuda::maximum<>, int>() == ncclMax);
  // automatic takes NCCL's op where it can, the all-gather elsewhere; no identity: maybe<T> partials
  using plain = cascade::detail::value_plan<float const*, cascade::detail::no_transform, float, cascade::plus, coll::automatic>;
  using gathered = cascade::detail::value_plan<float const*, cascade::detail::no_transform, float, cascade::plus, coll::all_gather>;
  using custom = cascade::detail::value_plan<int const*, cascade::detail::no_transform, int, keep_right, coll::automatic>;
  static_assert(plain::all_reduce && !gathered::all_reduce && !gathered::use_maybe);
  static_assert(!custom::all_reduce && custom::use_maybe && std::is_same_v<custom::partial, cascade::detail::maybe<int>>);
}

TEST_CASE("the fold of the ranks' partials: order, empty ranks, global indices") {
  using namespace cascade::detail;
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed());
  // maybe<T>: the empty ones are skipped, the others folded in order
  maybe_op<cascade::non_commutative_op<mat2_product>> const mop{cascade::non_commutative(mat2_product{})};
  for (int trial = 0; trial < 200; ++trial) {
    int const ranks = 1 + static_cast<int>(rng() % 9);
    std::vector<maybe<mat2>> slots(ranks);
    mat2 expected = mat2::unit();
    bool any = false;
    for (auto& s : slots) {
      s.has = rng() % 3 != 0;
      s.value = mat2::random_invertible(rng);
      if (s.has) expected = mat2_product{}(expected, s.value), any = true;
    }
    maybe<mat2> const r = fold_in_order(slots.data(), ranks, mop);
    CHECK(r.has == any);
    if (any) CHECK(r.value == expected);
  }
  // ranked<T>: shard indices become global; ties go to the first position
  for (int trial = 0; trial < 200; ++trial) {
    int const ranks = 1 + static_cast<int>(rng() % 9);
    std::vector<int> whole;
    std::vector<ranked<int>> slots(ranks);
    for (auto& s : slots) {
      std::int64_t const n = static_cast<std::int64_t>(rng() % 5);
      s = {{no_index, std::numeric_limits<int>::max()}, n};
      for (std::int64_t k = 0; k < n; ++k) {
        int const x = static_cast<int>(rng() % 4);
        whole.push_back(x);
        s.best = cascade::arg_min{}(s.best, cascade::indexed<int>{k, x});
      }
    }
    cascade::indexed<int> const got = ranked_result{}(fold_in_order(slots.data(), ranks, ranked_op<cascade::arg_min>{}));
    if (whole.empty()) {
      CHECK(got.index == -1);
      continue;
    }
    auto const at = std::min_element(whole.begin(), whole.end()) - whole.begin();
    CHECK(got.index == at);
    CHECK(got.value == whole[at]);
  }
}

TEST_CASE("share_unique_id: rank 0 writes the id, the others read the same bytes; stale and missing files") {
  char dir_template[] = "/tmp/cascade-id-test.XXXXXX";
  REQUIRE(mkdtemp(dir_template) != nullptr);
  std::string const path = std::string(dir_template) + "/nccl.id";
  ncclUniqueId read_back{};
  std::thread reader([&] { read_back = cascade::share_unique_id(path, 2, std::chrono::seconds(20)); });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the reader waits for the file
  ncclUniqueId const made = cascade::share_unique_id(path, 0);
  reader.join();
  CHECK(std::memcmp(&made, &read_back, sizeof made) == 0);
  // A file left by an earlier run: rank 0 refuses it rather than hand out a stale id.
  CHECK_THROWS_AS(cascade::share_unique_id(path, 0), std::invalid_argument);
  std::remove(path.c_str());
  // No rank 0: the others give up after the timeout, saying so.
  CHECK_THROWS_AS(cascade::share_unique_id(path, 1, std::chrono::milliseconds(30)), std::runtime_error);
  std::remove(dir_template);
}

TEST_CASE("launch_from_environment: each launcher's variables, the first set winning; what is wrong, named") {
  // Every launcher variable saved and cleared (the test itself may run under scripts/launch-ranks.sh), then
  // restored.
  std::vector<std::pair<std::string, std::optional<std::string>>> saved;
  for (auto const& l : cascade::detail::launchers)
    for (char const* name : {l.rank, l.size, l.local_rank}) {
      char const* v = std::getenv(name);
      saved.emplace_back(name, v ? std::optional<std::string>(v) : std::nullopt);
      unsetenv(name);
    }
  auto const message = [] {
    try {
      (void)cascade::launch_from_environment();
    } catch (std::invalid_argument const& e) {
      return std::string(e.what());
    }
    return std::string("no exception");
  };
  CHECK(message().find("no launcher's rank variable is set") != std::string::npos);
  CHECK(message().find("SLURM_PROCID") != std::string::npos);

  setenv("SLURM_PROCID", "5", 1), setenv("SLURM_NTASKS", "8", 1), setenv("SLURM_LOCALID", "1", 1);
  cascade::launch l = cascade::launch_from_environment();
  CHECK(l.rank == 5);
  CHECK(l.size == 8);
  CHECK(l.local_rank == 1);
  CHECK(std::string(l.launcher) == "Slurm");
  // torchrun under srun: torchrun's ranks, not Slurm's tasks
  setenv("RANK", "3", 1), setenv("WORLD_SIZE", "16", 1), setenv("LOCAL_RANK", "3", 1);
  l = cascade::launch_from_environment();
  CHECK((l.rank == 3 && l.size == 16 && l.local_rank == 3 && std::string(l.launcher) == "torchrun"));
  setenv("CASCADE_RANK", "1", 1), setenv("CASCADE_NRANKS", "2", 1), setenv("CASCADE_DEVICE", "1", 1);
  l = cascade::launch_from_environment();
  CHECK((l.rank == 1 && l.size == 2 && l.local_rank == 1));
  for (char const* name : {"CASCADE_RANK", "CASCADE_NRANKS", "CASCADE_DEVICE", "RANK", "WORLD_SIZE", "LOCAL_RANK"}) unsetenv(name);
  setenv("OMPI_COMM_WORLD_RANK", "0", 1), setenv("OMPI_COMM_WORLD_SIZE", "4", 1), setenv("OMPI_COMM_WORLD_LOCAL_RANK", "0", 1);
  CHECK(std::string(cascade::launch_from_environment().launcher) == "Open MPI");
  for (char const* name : {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK"}) unsetenv(name);
  setenv("PMI_RANK", "2", 1), setenv("PMI_SIZE", "3", 1), setenv("MPI_LOCALRANKID", "2", 1);
  l = cascade::launch_from_environment();
  CHECK((l.rank == 2 && l.size == 3 && l.local_rank == 2 && std::string(l.launcher) == "MPICH (Hydra)"));

  // what is wrong, named: a missing size or local rank, a word, a rank past the size
  unsetenv("MPI_LOCALRANKID");
  CHECK(message().find("PMI_RANK is set (MPICH (Hydra)) but MPI_LOCALRANKID is not") != std::string::npos);
  setenv("MPI_LOCALRANKID", "two", 1);
  CHECK(message().find("MPI_LOCALRANKID=two is not a number") != std::string::npos);
  setenv("MPI_LOCALRANKID", "0", 1), setenv("PMI_RANK", "3", 1);
  CHECK(message().find("PMI_RANK=3 is not a rank of PMI_SIZE=3") != std::string::npos);
  setenv("PMI_RANK", "-1", 1);
  CHECK(message().find("PMI_RANK=-1 is not a number") != std::string::npos);
  for (char const* name : {"PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID"}) unsetenv(name);
  // Slurm's, still set, answer again
  CHECK(std::string(cascade::launch_from_environment().launcher) == "Slurm");

  for (auto const& [name, value] : saved) {
    if (value) setenv(name.c_str(), value->c_str(), 1);
    else unsetenv(name.c_str());
  }
}

TEST_CASE("distributed_error: cause, rank and text; nccl_error is one") {
  cascade::distributed_error const e(cascade::distributed_error::cause::timeout, 3, "cascade::reduce on rank 3: late");
  CHECK(e.why() == cascade::distributed_error::cause::timeout);
  CHECK(e.rank() == 3);
  CHECK(std::string(e.what()) == "cascade::reduce on rank 3: late");
  cascade::nccl_error const n(ncclRemoteError, "x", 1);
  cascade::distributed_error const& as_base = n;
  CHECK(as_base.why() == cascade::distributed_error::cause::nccl);
  CHECK(as_base.rank() == 1);
  static_assert(cascade::collective::is_collective_v<cascade::collective::nvlink>);
}

TEST_CASE("nccl_error: NCCL's text and code") {
  cascade::nccl_error const e(ncclInvalidArgument,
                              cascade::detail::nccl_error_text(ncclInvalidArgument, "ncclAllReduce", nullptr));
  CHECK(e.code() == ncclInvalidArgument);
  CHECK(std::string(e.what()).find("ncclAllReduce failed: ") != std::string::npos);
  CHECK(std::string(e.what()).find(ncclGetErrorString(ncclInvalidArgument)) != std::string::npos);
  CHECK_THROWS_AS(cascade::detail::check_nccl(ncclSystemError, "ncclGroupEnd"), cascade::nccl_error);
  CHECK_NOTHROW(cascade::detail::check_nccl(ncclSuccess, "ncclGroupEnd"));
  CHECK_THROWS_AS(cascade::communicator(nullptr), std::invalid_argument);
}

}  // TEST_SUITE("cpu")
