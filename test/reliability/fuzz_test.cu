// Differential fuzzing against cub::DeviceReduce. One finishing strategy per executable
// (CASCADE_TEST_FINISH, from support/strategies.cuh); its policies are every tree that can feed it,
// in two shapes drawn from the policy space (block sizes 32..1024, coarse factors 1..32, odd ones
// too; the draw differs per finish), and each
// case draws a policy, a type and op, a size (tiny, around a tile boundary, or log-uniform up to
// 2^21), a start offset into a buffer (so 1-, 4- and 8-byte items start misaligned for vector
// loads), the call and the stream: reduce, reduce_into, reduce_into captured into a graph and replayed
// three times with other items between replays, or a prepared reduce_into beside a kernel that keeps
// another stream busy (which must still be running when the call is done, except for
// finish::cooperative, documented to wait for it). Every case must agree with CUB on the same items
// and with a host fold (exact for integers and integer-valued floats; double within the bound any
// evaluation order meets); the input buffer and the words around the output must be unchanged.
//
// On failure it prints the case; CASCADE_TEST_SEED=<seed> CASCADE_FUZZ_CASE=<k> replays case k alone.
// CASCADE_FUZZ_CASES sets how many run (default 1000); CASCADE_TEST_MAX_N caps the sizes.
//
// A second case fuzzes special values (docs/ops.md, "Semantics"): items and init drawn with NaNs of
// random payload and sign, zeros of both signs, infinities, the largest finite values and denormals,
// in random shares, through minimum, maximum, minimum_number, argmin, minmax, exact_plus and
// reproducible_plus; every case compares the drawn policy with default_policy bitwise, and with a
// fold written plainly here (support/exact_reference.cpp for exact_plus). CASCADE_FUZZ_SPECIAL_CASES
// sets how many (default 1500 a finish); CASCADE_FUZZ_SPECIAL_CASE=<k> replays case k.
//
// Both cases fold every result whose bits no scheduling can change (all but double sums under a
// finish or tree that adds with atomics) into a digest, printed with the figures. With a fixed seed
// (the fuzz_digest_* tests: CASCADE_TEST_SEED and the case counts of reliability/fuzz_digests.txt)
// the digest must equal the one recorded there: a change meant to keep behaviour (a refactor) that
// moves one rounding in one case fails it.
#include <doctest/doctest.h>

#include <cascade/cascade.cuh>
#include <thrust/device_vector.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "support/busy.cuh"
#include "support/exact_reference.hpp"
#include "support/ieee_reference.hpp"
#include "support/references.cuh"
#include "support/seed.hpp"
#include "support/strategies.cuh"

#ifndef CASCADE_FUZZ_DIGESTS  // test/meson.build gives the source tree's path
#define CASCADE_FUZZ_DIGESTS "test/reliability/fuzz_digests.txt"
#endif

#if !defined(CASCADE_TEST_FINISH_INDEX) || !defined(CASCADE_TEST_FINISH)
#error "define CASCADE_TEST_FINISH_INDEX and CASCADE_TEST_FINISH, e.g. -DCASCADE_TEST_FINISH_INDEX=5 -DCASCADE_TEST_FINISH=flagged"
#endif

namespace {

using namespace cascade_test;
namespace tree = cascade::tree;
using finish = cascade::detail::at_t<CASCADE_TEST_FINISH_INDEX, finishes>;
static_assert(std::string_view(finish::name).ends_with(CASCADE_TEST_STR(CASCADE_TEST_FINISH)),
              "test/meson.build's finish names and support/strategies.cuh's lists disagree");
// The bare name ("recursive"): it seeds the shapes below, as it always has.
constexpr char const* finish_name = CASCADE_TEST_STR(CASCADE_TEST_FINISH);

// Every tree of the registry (and the test tree's toy) that can feed this finish.
using fuzz_trees = trees_for<finish>;
constexpr int tree_count = static_cast<int>(fuzz_trees::size);
template <class... Ts>
constexpr auto per_thread_flags(cascade::detail::type_list<Ts...>) {
  return std::array<bool, sizeof...(Ts)>{Ts::per_thread_results...};
}
constexpr auto per_thread_tree = per_thread_flags(fuzz_trees{});
// The test tree's toy keeps a slot a thread whatever the type: exact_plus's 48-byte state at 1024
// threads does not fit a block's shared memory there (cascade's shared-memory trees share slots).
template <class... Ts>
constexpr auto toy_flags(cascade::detail::type_list<Ts...>) {
  return std::array<bool, sizeof...(Ts)>{std::is_same_v<Ts, toy_serial_tree>...};
}
constexpr auto toy_tree = toy_flags(fuzz_trees{});
// Two shapes a tree; one where the build only compile-checks the fuzz (scripts/test.sh without a GPU:
// -Dmerge-units=true defines CASCADE_FUZZ_SHAPES=1), as its cases run only on a GPU, where both are
// built (the merged fuzz unit was CI's largest: 394 s of a 2-core machine's 1256-s build).
#ifndef CASCADE_FUZZ_SHAPES
#define CASCADE_FUZZ_SHAPES 2
#endif
constexpr int shapes_per_tree = CASCADE_FUZZ_SHAPES;
constexpr int policy_count = tree_count * shapes_per_tree;
// Where the build only compile-checks the fuzz (one shape), every other tree, and the special-value
// kinds for the first policy alone: its cases never run there. With a GPU, every policy, and the
// special-value kinds for each tree's first shape.
constexpr bool compiled_policy(int i) { return shapes_per_tree == 2 || (i / shapes_per_tree) % 2 == 0; }
constexpr bool special_policy(int i) { return shapes_per_tree == 2 ? i % shapes_per_tree == 0 : i == 0; }

constexpr unsigned name_hash(char const* s) {
  unsigned h = 2166136261u;
  for (; *s != 0; ++s) h = (h ^ static_cast<unsigned char>(*s)) * 16777619u;
  return h;
}

// The shape of policy i, drawn at compile time from the finish's name: any block size, any coarse
// factor from the list, so every finish gets other shapes.
constexpr int coarse_choices[] = {1, 2, 3, 4, 5, 8, 16, 32};
constexpr unsigned shape_draw(int i) {
  unsigned x = name_hash(finish_name) + 0x9e3779b9u * static_cast<unsigned>(i + 1);
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  return x;
}
constexpr int block_of(int i) { return 32 << (shape_draw(i) % 6); }
constexpr int coarse_of(int i) { return coarse_choices[(shape_draw(i) >> 8) % 8]; }

template <int I>
using policy_at =
    cascade::policy<block_of(I), coarse_of(I), cascade::detail::at_t<I / shapes_per_tree, fuzz_trees>, finish>;

// The types and ops a case can draw.
enum class kind { int32_plus, int8_plus, float_plus, double_plus, int64_max, count };
constexpr char const* kind_names[] = {"int32 plus", "int8 items, int accumulator, plus", "float plus (integer values)",
                                      "double plus", "int64 maximum"};

// The random buffers cases take windows of, on the host and the device.
struct buffers {
  long long capacity = 0;  // items each holds
  std::vector<int> i32;
  std::vector<std::int8_t> i8;
  std::vector<float> f32;
  std::vector<double> f64;
  std::vector<std::int64_t> i64;
  thrust::device_vector<int> d_i32;
  thrust::device_vector<std::int8_t> d_i8;
  thrust::device_vector<float> d_f32;
  thrust::device_vector<double> d_f64;
  thrust::device_vector<std::int64_t> d_i64;

  explicit buffers(long long items) : capacity(items) {
    std::mt19937_64 rng(base_seed() ^ 0xf022);
    std::uniform_int_distribution<int> ints(-1000, 1000), small(-4, 4), bytes(-128, 127);
    std::uniform_real_distribution<double> reals(-1, 1);
    std::uniform_int_distribution<std::int64_t> wide(INT64_MIN / 2, INT64_MAX / 2);
    i32.resize(items), i8.resize(items), f32.resize(items), f64.resize(items), i64.resize(items);
    for (long long i = 0; i < items; ++i) {
      i32[i] = ints(rng);  // |sum| < 2^31 at the largest n
      i8[i] = static_cast<std::int8_t>(bytes(rng));
      f32[i] = static_cast<float>(small(rng));  // partial sums stay below 2^24: exact in any order
      f64[i] = reals(rng);
      i64[i] = wide(rng);
    }
    d_i32 = i32, d_i8 = i8, d_f32 = f32, d_f64 = f64, d_i64 = i64;
  }
};

template <class U, class T>
struct convert {
  __host__ __device__ T operator()(U x) const { return static_cast<T>(x); }
};

enum class call { reduce, reduce_into, captured, beside_busy };
constexpr char const* call_names[] = {"reduce", "reduce_into", "reduce_into captured, 3 replays",
                                      "prepared reduce_into beside a busy stream"};

struct fuzz_case {
  int policy = 0;
  kind type = kind::int32_plus;
  long long n = 0, offset = 0;
  call how = call::reduce;
  bool own_stream = false;  // reduce and reduce_into; the others always run on the runner's stream
  std::uint64_t init_bits = 0;
};

std::uint64_t mix(std::uint64_t x) {  // splitmix64: case k's generator from (seed, k)
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

constexpr long long tile_of(int i) { return static_cast<long long>(block_of(i)) * coarse_of(i); }
template <std::size_t... I>
constexpr std::array<long long, sizeof...(I)> tiles(std::index_sequence<I...>) {
  return {tile_of(static_cast<int>(I))...};
}
constexpr auto policy_tiles = tiles(std::make_index_sequence<policy_count>{});

fuzz_case draw(std::uint64_t case_seed, long long max_n) {
  std::mt19937_64 rng(case_seed);
  auto uniform = [&](long long lo, long long hi) { return std::uniform_int_distribution<long long>(lo, hi)(rng); };
  fuzz_case c;
  do c.policy = static_cast<int>(uniform(0, policy_count - 1));
  while (!compiled_policy(c.policy));
  c.type = static_cast<kind>(uniform(0, static_cast<int>(kind::count) - 1));
  long long const tile = policy_tiles[c.policy];
  long long const r = uniform(0, 99);
  if (r < 15) {
    constexpr long long tiny[] = {0, 1, 2, 3, 31, 32, 33};
    c.n = tiny[uniform(0, 6)];
  } else if (r < 50) {  // a tile boundary: one tile, a few, about the resident grid, random
    long long const ks[] = {1, 2, 3, 132, 264, uniform(1, 64), uniform(1, 4096)};
    c.n = ks[uniform(0, 6)] * tile + uniform(-1, 1);
  } else {
    c.n = static_cast<long long>(std::exp2(std::uniform_real_distribution<double>(0, std::log2(double(max_n)))(rng)));
  }
  c.n = std::clamp(c.n, 0ll, max_n);
  if (per_thread_tree[c.policy / shapes_per_tree])
    c.n = std::min(c.n, 1ll << 17);  // tree::none: one atomic a thread; beyond, contention costs minutes
  c.offset = uniform(0, 63);
  long long const h = uniform(0, 99);
  c.how = h < 40 ? call::reduce : h < 80 ? call::reduce_into : h < 92 ? call::captured : call::beside_busy;
  c.own_stream = c.how == call::captured || c.how == call::beside_busy || uniform(0, 1) == 1;
  c.init_bits = rng();
  return c;
}

template <int I>
std::string policy_text() {
  using P = policy_at<I>;
  return "policy<" + std::to_string(P::block_size) + ", " + std::to_string(P::coarse_factor) + ", " +
         P::tree_type::name + ", " + P::finish_type::name + ">";
}

template <std::size_t... I>
std::string policy_text(int i, std::index_sequence<I...>) {
  std::string s;
  ((static_cast<int>(I) == i ? void(s = policy_text<static_cast<int>(I)>()) : void()), ...);
  return s;
}

std::string describe(fuzz_case const& c, long long k) {
  return "fuzz case " + std::to_string(k) + ": " + policy_text(c.policy, std::make_index_sequence<policy_count>{}) +
         ", " + kind_names[static_cast<int>(c.type)] + ", n = " + std::to_string(c.n) +
         ", offset = " + std::to_string(c.offset) + " items, " + call_names[static_cast<int>(c.how)] + ", " +
         (c.own_stream ? "own stream" : "default stream") + "; replay: CASCADE_TEST_SEED=" +
         std::to_string(base_seed()) + " CASCADE_FUZZ_CASE=" + std::to_string(k);
}

// FNV-1a over the bytes of results: what a fixed-seed run is compared by.
struct digest {
  std::uint64_t value = 0xcbf29ce484222325ull;
  template <class T>
  void add(T const& x) {
    unsigned char bytes[sizeof(T)];
    std::memcpy(bytes, &x, sizeof(T));
    for (unsigned char b : bytes) value = (value ^ b) * 0x100000001b3ull;
  }
};

// Whether P's result over T has the same bits in every run: not for floating sums when blocks or
// threads add with atomics, in whatever order they arrive (float_plus adds integer values: exact).
template <class P, class T>
constexpr bool same_bits_every_run() {
  return !(std::is_same_v<T, double> && (!P::finish_type::deterministic || P::tree_type::per_thread_results));
}

struct runner {
  buffers& in;
  cudaStream_t stream;  // non-blocking
  cudaStream_t busy;    // non-blocking: the other work of beside_busy cases
  int* busy_done;
  long long waited_not = 0;  // beside_busy cases done while the busy kernel still ran
  digest results;            // of every result same_bits_every_run

  // One case of policy P over items U folded into T with op: cascade against CUB and the host fold,
  // then the input and the output's neighbours unchanged.
  template <class P, class U, class T, class Op>
  void check(fuzz_case const& c, std::vector<U> const& host, thrust::device_vector<U> const& device, T init, Op op) {
    U const* first = thrust::raw_pointer_cast(device.data()) + c.offset;
    auto const policy = P{}.on(c.own_stream ? stream : cudaStream_t{});
    T got{};
    T const sentinel = static_cast<T>(0x5a);
    thrust::device_vector<T> out(3, sentinel);  // [guard | result | guard]
    T* const d_out = thrust::raw_pointer_cast(out.data()) + 1;
    std::vector<U> const window(host.begin() + c.offset, host.begin() + c.offset + c.n);
    if (c.how == call::reduce) {
      got = cascade::reduce(policy, first, first + c.n, init, op);
    } else if (c.how == call::reduce_into) {
      cascade::reduce_into(policy, first, first + c.n, d_out, init, op);
      CASCADE_CUDA_CHECK(cudaStreamSynchronize(policy.stream()));
      got = out[1];
    } else if (c.how == call::captured) {
      got = captured(c, host, policy, init, op, d_out);
    } else {
      cascade::prepare(policy, first, first + c.n, init, op);
      CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
      launch_busy(50, busy_done, static_cast<int>(c.n % 1000), busy);
      cascade::reduce_into(policy, first, first + c.n, d_out, init, op);
      CASCADE_CUDA_CHECK(cudaStreamSynchronize(policy.stream()));
      cudaError_t const other = cudaStreamQuery(busy);
      CASCADE_CUDA_CHECK(cudaStreamSynchronize(busy));
      if (!P::finish_type::waits_for_other_streams && timing_checks()) CHECK(other == cudaErrorNotReady);
      waited_not += other == cudaErrorNotReady;
      int token = -1;
      CASCADE_CUDA_CHECK(cudaMemcpy(&token, busy_done, sizeof(int), cudaMemcpyDeviceToHost));
      CHECK(token == static_cast<int>(c.n % 1000));
      got = out[1];
    }
    CHECK(out[0] == sentinel);
    CHECK(out[2] == sentinel);
    if constexpr (same_bits_every_run<P, T>()) results.add(got);
    // cub::DeviceReduce on the same items, converted as cascade converts them
    auto const converted = thrust::make_transform_iterator(first, convert<U, T>{});
    T const cub = cub_reduce(converted, c.n, init, op);
    check_result(window, init, op, got);
    check_result(window, init, op, cub);
    // the input, and the items around the window, byte for byte
    std::vector<U> after(host.size());
    thrust::copy(device.begin(), device.end(), after.begin());
    CHECK(std::memcmp(after.data(), host.data(), sizeof(U) * host.size()) == 0);
  }

  // got against the host fold of items: exact, or for double within the bound any order meets
  template <class U, class T, class Op>
  static void check_result(std::vector<U> const& items, T init, Op op, T got) {
    auto const expected = host_fold(items, init, op);
    if constexpr (std::is_floating_point_v<T> && sizeof(T) == 8) {
      long double sum_abs = std::fabs(static_cast<long double>(init));
      for (U x : items) sum_abs += std::fabs(static_cast<long double>(x));
      long double const bound = sum_error_bound<T>(sum_abs, static_cast<int>(items.size() + 1));
      CHECK(std::fabs(static_cast<long double>(got) - expected) <= bound);
    } else {
      CHECK(got == static_cast<T>(expected));
    }
  }

  // reduce_into captured (global mode) over a copy of the window, replayed three times: the window,
  // the window one item on (copied in between, ordered before the replay), the window again. The
  // last replay's result comes back; the first two are checked here.
  template <class P, class U, class T, class Op>
  T captured(fuzz_case const& c, std::vector<U> const& host, P const& policy, T init, Op op, T* d_out) {
    thrust::device_vector<U> copy(c.n + 1);  // never empty
    U* const items = thrust::raw_pointer_cast(copy.data());
    CASCADE_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    std::string failure;
    try {
      cascade::reduce_into(policy, items, items + c.n, d_out, init, op);
    } catch (std::exception const& e) {
      failure = e.what();
    }
    cudaGraph_t graph = nullptr;
    cudaError_t const ended = cudaStreamEndCapture(stream, &graph);
    REQUIRE_MESSAGE(failure.empty(), failure);
    CASCADE_CUDA_CHECK(ended);
    cudaGraphExec_t exec = nullptr;
    CASCADE_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
    CASCADE_CUDA_CHECK(cudaGraphDestroy(graph));
    T got{};
    for (long long shift : {0, 1, 0}) {
      U const* window = host.data() + c.offset + shift;  // offset + 1 + n fits: the buffers hold 64 more
      CASCADE_CUDA_CHECK(cudaMemcpyAsync(items, window, sizeof(U) * c.n, cudaMemcpyHostToDevice, stream));
      CASCADE_CUDA_CHECK(cudaGraphLaunch(exec, stream));
      CASCADE_CUDA_CHECK(cudaMemcpyAsync(&got, d_out, sizeof(T), cudaMemcpyDeviceToHost, stream));
      CASCADE_CUDA_CHECK(cudaStreamSynchronize(stream));
      if (shift == 1) check_result(std::vector<U>(window, window + c.n), init, op, got);
    }
    CASCADE_CUDA_CHECK(cudaGraphExecDestroy(exec));
    return got;
  }

  template <int I>
  void run(fuzz_case const& c) {
    if constexpr (compiled_policy(I)) run_compiled<I>(c);
  }

  template <int I>
  void run_compiled(fuzz_case const& c) {
    using P = policy_at<I>;
    std::int64_t const bits = static_cast<std::int64_t>(c.init_bits >> 1);
    switch (c.type) {
      case kind::int32_plus: check<P>(c, in.i32, in.d_i32, static_cast<int>(bits % 1000), cascade::plus{}); break;
      case kind::int8_plus: check<P>(c, in.i8, in.d_i8, static_cast<int>(bits % 100), cascade::plus{}); break;
      case kind::float_plus: check<P>(c, in.f32, in.d_f32, static_cast<float>(bits % 9 - 4), cascade::plus{}); break;
      case kind::double_plus: check<P>(c, in.f64, in.d_f64, static_cast<double>(bits % 1000) / 7, cascade::plus{}); break;
      case kind::int64_max: check<P>(c, in.i64, in.d_i64, std::int64_t(INT64_MIN) + bits % 3, cascade::maximum{}); break;
      default: FAIL("unknown kind");
    }
  }

  template <std::size_t... I>
  void run(fuzz_case const& c, std::index_sequence<I...>) {
    ((static_cast<int>(I) == c.policy ? run<static_cast<int>(I)>(c) : void()), ...);
  }
};

// ---- special values --------------------------------------------------------------------------

enum class special { float_min, double_max, half_min_number, float_argmin, double_minmax, double_exact,
                     float_reproducible, count };
constexpr char const* special_names[] = {"float minimum", "double maximum", "__half minimum_number", "float argmin",
                                         "double minmax", "double exact_plus", "float reproducible_plus"};
// What this finish takes: no 16- or 32-byte pairs for finish::atomic, no exact sums for finish::host.
constexpr bool special_allowed(special k) {
  bool const arg = k == special::float_argmin || k == special::double_minmax;
  bool const exact = k == special::double_exact || k == special::float_reproducible;
  return !(arg && std::is_same_v<finish, cascade::finish::atomic>) && !(exact && std::is_same_v<finish, cascade::finish::host>);
}

// One special-value case: the policy, the kind, the size, the shares of special values.
struct special_case {
  int policy = 0;
  special kind = special::float_min;
  long long n = 0;
  double nan_share = 0, zero_share = 0, edge_share = 0;
  bool into = false;  // reduce_into on a stream of its own, else reduce
};

special_case draw_special(std::uint64_t case_seed, long long max_n) {
  std::mt19937_64 rng(case_seed);
  auto uniform = [&](long long lo, long long hi) { return std::uniform_int_distribution<long long>(lo, hi)(rng); };
  special_case c;
  do c.policy = static_cast<int>(uniform(0, policy_count - 1));
  while (!special_policy(c.policy));
  do c.kind = static_cast<special>(uniform(0, static_cast<int>(special::count) - 1));
  while (!special_allowed(c.kind) ||
         (toy_tree[c.policy / shapes_per_tree] && (c.kind == special::double_exact || c.kind == special::float_reproducible)));
  long long const r = uniform(0, 99);
  long long const tile = policy_tiles[c.policy];
  c.n = r < 20   ? uniform(1, 40)
        : r < 50 ? std::max(1ll, uniform(1, 8) * tile + uniform(-1, 1))
                 : static_cast<long long>(std::exp2(std::uniform_real_distribution<double>(0, std::log2(double(max_n)))(rng)));
  c.n = std::clamp(c.n, 1ll, max_n);
  if (per_thread_tree[c.policy / shapes_per_tree]) c.n = std::min(c.n, 1ll << 15);
  constexpr double nan_shares[] = {0, 0, 1e-4, 1e-2, 0.3, 1};
  c.nan_share = nan_shares[uniform(0, 5)];
  if (c.kind == special::double_exact || c.kind == special::float_reproducible) c.nan_share /= 100;  // mostly finite
  c.zero_share = uniform(0, 3) == 0 ? 0.5 : 0.02;
  c.edge_share = uniform(0, 2) == 0 ? 0.2 : 0.002;
  c.into = uniform(0, 3) == 0;
  return c;
}

// Items of T: NaNs of random payload and sign, zeros of both signs, infinities, the largest finite
// values, denormals, and ordinary values in [-1000, 1000].
template <class T>
std::vector<T> special_items(std::mt19937_64& rng, long long n, special_case const& c) {
  using B = bits_t<T>;
  constexpr int mantissa = std::is_same_v<T, double> ? 52 : std::is_same_v<T, float> ? 23 : 10;
  B const sign = B(1) << (8 * sizeof(T) - 1);
  B const all_ones = static_cast<B>(~sign & ~((B(1) << mantissa) - 1));
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<T> xs(static_cast<std::size_t>(n));
  for (auto& x : xs) {
    double const r = unit(rng);
    B const s = (rng() & 1) ? sign : B(0);
    if (r < c.nan_share) {
      B payload = static_cast<B>(rng() & ((B(1) << mantissa) - 1));
      x = of_bits<T>(static_cast<B>(s | all_ones | (payload == 0 ? B(1) : payload)));
    } else if (r < c.nan_share + c.zero_share) {
      x = of_bits<T>(s);
    } else if (r < c.nan_share + c.zero_share + c.edge_share) {
      int const kind = static_cast<int>(rng() % 4);  // inf, the largest, a denormal, the smallest normal
      B const m = kind == 0 ? all_ones : kind == 1 ? static_cast<B>(all_ones - 1) : kind == 2 ? static_cast<B>(1 + rng() % 5) : (B(1) << mantissa);
      x = of_bits<T>(static_cast<B>(s | m));
    } else {
      x = static_cast<T>(static_cast<float>(unit(rng) * 2000 - 1000));
    }
  }
  return xs;
}

struct special_runner {
  cudaStream_t stream;
  long long mismatches = 0;  // against default_policy: what must be 0
  long long ran = 0, with_nan = 0;
  digest results;  // of every result (all are policy-independent)

  // init op items under P and under default_policy, bitwise; want: the plain fold's bits
  template <class P, class T, class Op>
  void check_fold(special_case const& c, std::vector<T> const& xs, T init, Op op, bits_t<T> want) {
    thrust::device_vector<T> d(xs.begin(), xs.end());
    T const* first = thrust::raw_pointer_cast(d.data());
    long long const n = c.n;
    auto const run = [&](auto policy) {
      if (!c.into) return cascade::reduce(policy, first, first + n, init, op);
      thrust::device_vector<T> out(1);
      cascade::reduce_into(policy.on(stream), first, first + n, thrust::raw_pointer_cast(out.data()), init, op);
      CASCADE_CUDA_CHECK(cudaStreamSynchronize(stream));
      return static_cast<T>(out[0]);
    };
    T const got = run(P{}), by_default = run(cascade::default_policy{});
    results.add(got);
    mismatches += bits(got) != bits(by_default);
    CHECK(bits(got) == bits(by_default));
    CHECK(bits(got) == want);
  }

  template <int I>
  void run(special_case const& c, std::uint64_t seed) {
    if constexpr (special_policy(I)) run_special<I>(c, seed);
  }

  template <int I>
  void run_special(special_case const& c, std::uint64_t seed) {
    using P = policy_at<I>;
    std::mt19937_64 rng(seed);
    ++ran;
    switch (c.kind) {
      case special::float_min: {
        auto const xs = special_items<float>(rng, c.n + 1, c);
        std::vector<float> const items(xs.begin() + 1, xs.end());
        with_nan += reference_extremum(xs[0], items, false, false) == canonical_nan<float>();
        check_fold<P>(c, items, xs[0], cascade::minimum{}, reference_extremum(xs[0], items, false, false));
        break;
      }
      case special::double_max: {
        auto const xs = special_items<double>(rng, c.n + 1, c);
        std::vector<double> const items(xs.begin() + 1, xs.end());
        with_nan += reference_extremum(xs[0], items, true, false) == canonical_nan<double>();
        check_fold<P>(c, items, xs[0], cuda::maximum<>{}, reference_extremum(xs[0], items, true, false));
        break;
      }
      case special::half_min_number: {
        auto const xs = special_items<__half>(rng, c.n + 1, c);
        std::vector<__half> const items(xs.begin() + 1, xs.end());
        check_fold<P>(c, items, xs[0], cascade::minimum_number{}, reference_extremum(xs[0], items, false, true));
        break;
      }
      case special::float_argmin:
      case special::double_minmax:
        if constexpr (special_allowed(special::float_argmin)) {
          if (c.kind == special::float_argmin) check_arg<P, float>(c, rng);
          else check_arg<P, double>(c, rng);
        }
        break;
      case special::double_exact:
      case special::float_reproducible:
        if constexpr (special_allowed(special::double_exact) && !toy_tree[I / shapes_per_tree]) {
          if (c.kind == special::double_exact) check_exact<P, double, cascade::exact_plus>(c, rng);
          else check_exact<P, float, cascade::reproducible_plus>(c, rng);
        }
        break;
      default: FAIL("unknown special kind");
    }
  }

  template <class P, class T>
  void check_arg(special_case const& c, std::mt19937_64& rng) {
    auto const xs = special_items<T>(rng, c.n, c);
    thrust::device_vector<T> d(xs.begin(), xs.end());
    T const* first = thrust::raw_pointer_cast(d.data());
    std::int64_t const lo = reference_arg(xs, false), hi = reference_arg(xs, true);
    with_nan += nan_of(xs[lo]);
    if constexpr (std::is_same_v<T, float>) {
      auto const got = cascade::argmin(P{}, first, first + c.n);
      auto const by_default = cascade::argmin(cascade::default_policy{}, first, first + c.n);
      bool const same = got.index == by_default.index && bits(got.value) == bits(by_default.value);
      results.add(got.index), results.add(got.value);
      mismatches += !same;
      CHECK(same);
      CHECK(got.index == lo);
      CHECK(bits(got.value) == bits(xs[lo]));
    } else {
      auto const got = cascade::minmax(P{}, first, first + c.n);
      auto const by_default = cascade::minmax(cascade::default_policy{}, first, first + c.n);
      bool const same = got.min.index == by_default.min.index && got.max.index == by_default.max.index &&
                        bits(got.min.value) == bits(by_default.min.value) &&
                        bits(got.max.value) == bits(by_default.max.value);
      results.add(got.min.index), results.add(got.min.value), results.add(got.max.index), results.add(got.max.value);
      mismatches += !same;
      CHECK(same);
      CHECK(got.min.index == lo);
      CHECK(got.max.index == hi);
    }
  }

  template <class P, class T, class Op>
  void check_exact(special_case const& c, std::mt19937_64& rng) {
    auto const xs = special_items<T>(rng, c.n + 1, c);
    std::vector<T> const items(xs.begin() + 1, xs.end());
    T const init = nan_of(xs[0]) || std::isinf(xs[0]) ? T(0.5) : xs[0];
    thrust::device_vector<T> d(items.begin(), items.end());
    T const* first = thrust::raw_pointer_cast(d.data());
    T const got = cascade::reduce(P{}, first, first + c.n, init, Op{});
    T const by_default = cascade::reduce(cascade::default_policy{}, first, first + c.n, init, Op{});
    results.add(got);
    bool const same = bits(got) == bits(by_default);
    mismatches += !same;
    CHECK(same);
    with_nan += std::isnan(got);
    if constexpr (std::is_same_v<Op, cascade::exact_plus>) {
      T const want = exact_sum<T>(std::vector<double>(items.begin(), items.end()), double(init));
      CHECK((bits(got) == bits(want) || (std::isnan(got) && std::isnan(want))));
    }
  }

  template <std::size_t... I>
  void run(special_case const& c, std::uint64_t seed, std::index_sequence<I...>) {
    ((static_cast<int>(I) == c.policy ? run<static_cast<int>(I)>(c, seed) : void()), ...);
  }
};

long long env_or(char const* name, long long fallback) {
  char const* s = std::getenv(name);
  return s != nullptr ? std::atoll(s) : fallback;
}

// The run's key in reliability/fuzz_digests.txt: finish, test, seed, cases, largest n, SM count (the
// grid, and so a double sum's grouping, follows it).
std::string digest_key(char const* test, long long cases, long long max_n) {
  int device = 0, sms = 0;
  CASCADE_CUDA_CHECK(cudaGetDevice(&device));
  CASCADE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return std::string(finish_name) + " " + test + " " + std::to_string(base_seed()) + " " + std::to_string(cases) + " " +
         std::to_string(max_n) + " " + std::to_string(sms);
}

// The run's digest against the recorded one for its key, where there is one: the line to record
// otherwise (a fixed-seed run of code whose behaviour is the reference).
void check_digest(std::string const& key, digest const& d) {
  std::ostringstream hex;
  hex << std::hex << d.value;
  char const* path = std::getenv("CASCADE_FUZZ_DIGESTS_FILE");  // meson's, where the tree is now
  std::ifstream file(path != nullptr ? path : CASCADE_FUZZ_DIGESTS);
  std::string line;
  while (std::getline(file, line)) {
    if (line.rfind(key + " ", 0) != 0) continue;
    std::string const recorded = line.substr(key.size() + 1);
    INFO("fuzz digest of ", key, ": ", hex.str(), ", recorded ", recorded);
    CHECK(recorded == hex.str());
    return;
  }
  MESSAGE("[figures] fuzz digest, no record: ", key, " ", hex.str());
}

}  // namespace

TEST_SUITE("gpu") {

TEST_CASE("differential fuzz against cub::DeviceReduce") {
  CASCADE_SEED_INFO();
  long long const max_n = std::min(env_or("CASCADE_TEST_MAX_N", (1ll << 21) + 64), (1ll << 21) + 64);
  long long const cases = env_or("CASCADE_FUZZ_CASES", 1000);
  long long const only = env_or("CASCADE_FUZZ_CASE", -1);
  buffers in(max_n + 64);
  cudaStream_t stream = nullptr, busy = nullptr;
  CASCADE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  CASCADE_CUDA_CHECK(cudaStreamCreateWithFlags(&busy, cudaStreamNonBlocking));
  thrust::device_vector<int> busy_done(1, 0);
  runner r{in, stream, busy, thrust::raw_pointer_cast(busy_done.data())};
  long long per_call[4] = {};
  long long ran = 0, items = 0;
  for (long long k = only >= 0 ? only : 0; k < (only >= 0 ? only + 1 : cases); ++k) {
    fuzz_case const c = draw(mix(base_seed() ^ mix(static_cast<std::uint64_t>(k))), max_n);
    std::string const text = describe(c, k);
    INFO(text);
    r.run(c, std::make_index_sequence<policy_count>{});
    ++ran, items += c.n, ++per_call[static_cast<int>(c.how)];
  }
  if (only < 0) check_digest(digest_key("fuzz", cases, max_n), r.results);
  CASCADE_CUDA_CHECK(cudaStreamDestroy(stream));
  CASCADE_CUDA_CHECK(cudaStreamDestroy(busy));
  MESSAGE("[figures] fuzz ", std::string(finish::name), ": ", ran, " cases over ", policy_count, " policies, ", items,
          " items; ", per_call[0], " reduce, ", per_call[1], " reduce_into, ", per_call[2], " captured (3 replays each), ",
          per_call[3], " beside a busy stream (", r.waited_not, " done while it still ran)");
}


TEST_CASE("special values: every policy against default_policy and a plain fold, bitwise") {
  CASCADE_SEED_INFO();
  long long const max_n = std::min(env_or("CASCADE_TEST_MAX_N", 1ll << 16), 1ll << 16);
  long long const cases = env_or("CASCADE_FUZZ_SPECIAL_CASES", 1500);
  long long const only = env_or("CASCADE_FUZZ_SPECIAL_CASE", -1);
  cudaStream_t stream = nullptr;
  CASCADE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  special_runner r{stream};
  long long per_kind[static_cast<int>(special::count)] = {};
  for (long long k = only >= 0 ? only : 0; k < (only >= 0 ? only + 1 : cases); ++k) {
    std::uint64_t const seed = mix(base_seed() ^ mix(0x5bec1a1ull + static_cast<std::uint64_t>(k)));
    special_case const c = draw_special(seed, max_n);
    INFO("special-value case ", k, ": ", policy_text(c.policy, std::make_index_sequence<policy_count>{}), ", ",
         special_names[static_cast<int>(c.kind)], ", n = ", c.n, ", NaN share ", c.nan_share, ", zero share ",
         c.zero_share, ", edge share ", c.edge_share, c.into ? ", reduce_into" : ", reduce",
         "; replay: CASCADE_TEST_SEED=", base_seed(), " CASCADE_FUZZ_SPECIAL_CASE=", k);
    r.run(c, seed ^ 0xda7a, std::make_index_sequence<policy_count>{});
    ++per_kind[static_cast<int>(c.kind)];
  }
  if (only < 0) check_digest(digest_key("special", cases, max_n), r.results);
  CASCADE_CUDA_CHECK(cudaStreamDestroy(stream));
  std::string kinds;
  for (int k = 0; k < static_cast<int>(special::count); ++k)
    kinds += std::string(k ? ", " : "") + std::to_string(per_kind[k]) + " " + special_names[k];
  MESSAGE("[figures] special-value fuzz ", std::string(finish::name), ": ", r.ran, " cases (", kinds, "), ", r.with_nan,
          " with a NaN result, ", r.mismatches, " policy-dependent results");
  CHECK(r.mismatches == 0);
}

}  // TEST_SUITE("gpu")
