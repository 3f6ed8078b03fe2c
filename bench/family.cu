// cascade-family: count, count_if, min/max/minmax_element, inner_product, any_of and the device-held count
// (device_values.cuh) against their rivals in the same process, each beside cascade::reduce_into over the
// same bytes (the baseline: an algorithm built on reduce should read as fast as reduce), at 2^16..2^30 items:
//   count, count_if  int32 (== 7; odd), float (x < 0.5f): *_into against cub::DeviceReduce::TransformReduce
//   *_element        float, int32: *_element_into against DeviceReduce::ArgMin, ArgMax (minmax: both, two
//                    passes: CUB has no ArgMinMax); the baseline is reduce_into with minimum
//   inner_product    inner_product_into against TransformReduce over a zip iterator; the baseline reads 2n floats
//   any_of           is_nan over 2^28 and 2^30 floats, the first NaN at 1%, at 50%, none
//   device_count     one graph of reduce_into(device_count(d_n, 2^28)) replayed at 100 sizes, against a graph
//                    captured per size and the plain launch
// Device calls: CUDA events in alternating runs (timer.cuh), hot (behind the spin kernel: launch excluded,
// as nvbench), hot_idle (GPU idle first: launch included) and cold. The calls that return to the host,
// cascade's and Thrust's, alternate by the host clock. Results are checked against cascade's before timing
// (exact for counts and positions): a mismatch stops the program with status 1, except in device_count,
// where it is warned of, its rows marked, and the status is 1 at the end.
//
//   cascade-family [--out FILE] [--commit SHA] [--driver VERSION] [--max-log2 30] [--quick]
//                  [--cases count,element,inner_product,any_of,device_count,by_key,by_key_shapes]
#include <cascade/algorithm/reduce_by_key.cuh>
#include <cascade/cascade.cuh>
#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>
#include <cuda/std/version>
#include <thrust/count.h>
#include <thrust/execution_policy.h>
#include <thrust/extrema.h>
#include <thrust/inner_product.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/logical.h>
#include <thrust/reduce.h>
#include <thrust/tuple.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "measure/env.cuh"
#include "measure/fill.cuh"
#include "measure/timer.cuh"

namespace {

using cascade_bench::mode;
using reader_t = std::function<std::vector<double>()>;
cascade::default_policy const policy{};

struct is_odd { __host__ __device__ bool operator()(std::int32_t x) const { return (x & 1) != 0; } };
struct below_half { __host__ __device__ bool operator()(float x) const { return x < 0.5f; } };
struct is_seven { __host__ __device__ bool operator()(std::int32_t x) const { return x == 7; } };
struct is_nan { __host__ __device__ bool operator()(float x) const { return x != x; } };
template <class Pred, class T>  // CUB's count: 0 or 1 in 32 bits, as cascade counts below 2^32 items
struct as_count { Pred p; __host__ __device__ unsigned operator()(T x) const { return p(x) ? 1u : 0u; } };
struct product {
  __host__ __device__ float operator()(thrust::tuple<float, float> t) const {
    return thrust::get<0>(t) * thrust::get<1>(t);
  }
};

template <class T>
char const* item_name() { return std::is_same_v<T, float> ? "float" : "int32"; }
int log2_of(long long n) { return static_cast<int>(std::lround(std::log2(static_cast<double>(n)))); }
std::string num(double x, char const* format = "%.4f", char const* missing = "null") {
  char b[32];
  return std::isfinite(x) ? (std::snprintf(b, sizeof b, format, x), std::string(b)) : std::string(missing);
}
std::string quoted(std::string const& s) {
  std::string q = "\"";
  for (char c : s) q += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return q + "\"";
}
std::string text(std::vector<double> const& v) {
  std::string s;
  for (double x : v) s.append(s.empty() ? "" : " ").append(num(x, "%.9g", "nan"));
  return s;
}
std::vector<double> one(double x) { return {x}; }

// A result slot read back (bool as its byte, so that a poisoned slot shows).
template <class T>
double fetch(T const* p) {
  std::conditional_t<std::is_same_v<T, bool>, unsigned char, T> v;
  CASCADE_CUDA_CHECK(cudaMemcpy(&v, p, sizeof v, cudaMemcpyDeviceToHost));
  return static_cast<double>(v);
}
template <class T>
reader_t reader(T const* a, T const* b = nullptr) {
  return [a, b] { return b ? std::vector<double>{fetch(a), fetch(b)} : one(fetch(a)); };
}

struct contender {
  std::string name, library;
  std::function<void()> call;  // device calls enqueue on the legacy default stream, as timer.cuh wants
  reader_t read;               // empty: computes something else (the same-bytes bar), not compared
  double reads = 1;            // passes over the input, for GB/s
  bool gbps = true;            // false where the data decides the bytes read (any_of's early exit)
};

// A call that returns to the host, its result kept for the check.
template <class F>
contender to_host(std::string name, std::string library, F f) {
  auto const r = std::make_shared<std::vector<double>>();
  return {std::move(name), std::move(library), [r, f] { *r = f(); }, [r] { return *r; }};
}
template <class C, class T>
std::vector<contender> host_pair(std::string const& what, C cascade_call, T thrust_call) {
  return {to_host("cascade::" + what, "cascade", cascade_call), to_host("thrust::" + what, "thrust", thrust_call)};
}

struct measurement {
  measurement(std::string f, std::string c, std::string i, long long count, double b, bool e = true,
              std::vector<double> x = {})
      : family(std::move(f)), config(std::move(c)), item(std::move(i)), n(count), bytes(b), exact(e),
        expected(std::move(x)) {}
  std::string family, config, item;
  long long n;
  double bytes;                         // the input's
  bool exact;                           // false: float sums, compared within a loose relative bound
  std::vector<double> expected;         // empty: cascade's result is the reference
  std::vector<contender> device, host;  // [0]: cascade's, the reference of the ratios; host: cascade, Thrust
  bool held = false;  // device_count: a mismatch warns and marks the row; no lines of its own, no summary
};

struct settings {
  cascade_bench::options io;
  std::vector<std::string> cases;
  int max_log2 = 30, max_runs = 51;
  double budget_us = 2e5;
  bool wants(char const* c) const { return cases.empty() || std::find(cases.begin(), cases.end(), c) != cases.end(); }
};

struct family_bench {
  settings s;
  cascade_bench::timer t;
  unsigned char* out = nullptr;  // 16-byte result slots, poisoned before each check
  void* temp = nullptr;          // CUB's temporary storage, allocated outside the timed region
  std::size_t temp_bytes = 0;
  std::vector<std::string> rows, summary;
  int mismatches = 0;  // device_count's

  explicit family_bench(settings const& x) : s(x) { CASCADE_CUDA_CHECK(cudaMalloc(&out, 256)); }
  ~family_bench() { cudaFree(out), cudaFree(temp); }
  template <class T>
  T* slot(int k) const { return reinterpret_cast<T*>(out + 16 * k); }
  std::vector<long long> sizes() const {
    std::vector<long long> v;
    for (int lg : {16, 20, 24, 28, 30})
      if (lg <= s.max_log2) v.push_back(1ll << lg);
    return v;
  }

  // A two-phase CUB call, f(temp, bytes) -> cudaError_t, its storage sized here.
  template <class F>
  contender cub(std::string name, F f, reader_t read, double reads = 1) {
    std::size_t bytes = 0;
    CASCADE_CUDA_CHECK(f(nullptr, bytes));
    if (bytes > temp_bytes) cudaFree(temp), CASCADE_CUDA_CHECK(cudaMalloc(&temp, bytes)), temp_bytes = bytes;
    return {std::move(name), "cub", [this, f] { std::size_t b = temp_bytes; CASCADE_CUDA_CHECK(f(temp, b)); },
            std::move(read), reads};
  }

  // t3, r3: this call's and the reference's hot, hot_idle and cold medians.
  void record(measurement const& m, contender const& c, contender const& ref, char const* clock, double const* t3,
              double const* r3, std::vector<double> const& got, bool agrees) {
    double const bytes = m.bytes * c.reads, rated = c.gbps && clock[0] == 'g' ? bytes : NAN;
    rows.push_back(
        "{\"kind\": \"timing\", \"family\": " + quoted(m.family) + ", \"config\": " + quoted(m.config) +
        ", \"item\": " + quoted(m.item) + ", \"n\": " + std::to_string(m.n) + ", \"bytes\": " + num(bytes) +
        ", \"name\": " + quoted(c.name) + ", \"library\": " + quoted(c.library) + ", \"clock\": " + quoted(clock) +
        ", \"cccl\": " + quoted(std::to_string(CCCL_MAJOR_VERSION) + "." + std::to_string(CCCL_MINOR_VERSION) + "." +
                                std::to_string(CCCL_PATCH_VERSION)) +
        ", \"hot_us\": " + num(t3[0]) + ", \"hot_idle_us\": " + num(t3[1]) + ", \"cold_us\": " + num(t3[2]) +
        ", \"hot_gbps\": " + num(rated / t3[0] / 1e3) + ", \"cold_gbps\": " + num(rated / t3[2] / 1e3) +
        ", \"reference\": " + quoted(ref.name) + ", \"ratio_hot\": " + num(r3[0] / t3[0]) +
        ", \"ratio_hot_idle\": " + num(r3[1] / t3[1]) + ", \"ratio_cold\": " + num(r3[2] / t3[2]) +
        ", \"result\": " + quoted(text(got)) + ", \"agrees\": " + (!c.read ? "null" : agrees ? "true" : "false") + "}");
    if (m.held) return;
    char line[320];
    int const at = std::snprintf(line, sizeof line, "%-14s %-8s %-5s 2^%-2d %-44s", m.family.c_str(),
                                 m.config.c_str(), m.item.c_str(), log2_of(m.n), c.name.c_str());
    std::printf("%s %9s %9s %9s %7s\n", line, num(t3[0], "%.2f", "-").c_str(), num(t3[1], "%.2f", "-").c_str(),
                num(t3[2], "%.2f", "-").c_str(), num(rated / t3[0] / 1e3, "%.0f", "-").c_str());
    if (&c == &ref) return;
    std::snprintf(line + at, sizeof line - at, " %6s %6s %6s", num(r3[0] / t3[0], "%.3f", "-").c_str(),
                  num(r3[1] / t3[1], "%.3f", "-").c_str(), num(r3[2] / t3[2], "%.3f", "-").c_str());
    summary.push_back(line);
  }

  // Checks every call against cascade's (or the expected) result, then times them: the device calls'
  // hot, hot_idle and cold medians, returned.
  std::vector<std::vector<double>> measure(measurement const& m) {
    std::fprintf(stderr, "%s %s %s n=%lld ...\n", m.family.c_str(), m.config.c_str(), m.item.c_str(), m.n);
    std::vector<contender const*> all;
    for (auto const* v : {&m.device, &m.host})
      for (auto const& c : *v) all.push_back(&c);
    std::vector<std::vector<double>> got;
    for (auto const* c : all) {
      CASCADE_CUDA_CHECK(cudaMemset(out, 0xA5, 256));
      c->call();
      CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
      got.push_back(c->read ? c->read() : std::vector<double>{});
    }
    std::vector<double> const want = m.expected.empty() ? got[0] : m.expected;
    std::vector<bool> agrees(all.size(), true);
    for (std::size_t k = 0; k < all.size(); ++k) {
      bool ok = !all[k]->read || got[k].size() == want.size();
      for (std::size_t i = 0; ok && all[k]->read && i < want.size(); ++i)
        ok = m.exact ? got[k][i] == want[i] : std::fabs(got[k][i] - want[i]) <= 1e-4 * std::fabs(want[i]) + 1e-6;
      if (ok) continue;
      std::fprintf(stderr, "cascade-family: %s%s %s %s n=%lld: %s gives %s, expected %s\n", m.held ? "WARNING: " : "",
                   m.family.c_str(), m.config.c_str(), m.item.c_str(), m.n, all[k]->name.c_str(),
                   text(got[k]).c_str(), text(want).c_str());
      if (!m.held) std::exit(1);
      agrees[k] = false, ++mismatches;
    }
    std::vector<std::function<void()>> calls;
    for (auto const& c : m.device) calls.push_back(c.call);
    std::vector<std::vector<double>> us;
    for (mode x : {mode::hot, mode::hot_idle, mode::cold})
      us.push_back(t.median_group_us_budget(calls, x, s.max_runs, s.budget_us));
    double const ref[3] = {us[0][0], us[1][0], us[2][0]};
    for (std::size_t k = 0; k < m.device.size(); ++k) {
      double const t3[3] = {us[0][k], us[1][k], us[2][k]};
      record(m, m.device[k], m.device[0], "gpu", t3, ref, got[k], agrees[k]);
    }
    if (m.host.empty()) return us;
    // Host clock, as the sweep times thrust::reduce: these calls wait for their result, so there is no
    // launch-free figure; hot_idle_us is the warm call, cold_us the call after an L2 flush.
    auto const [ch, th] = t.median_wall_pair_us_budget(m.host[0].call, m.host[1].call, false, s.max_runs, s.budget_us);
    auto const [cc, tc] = t.median_wall_pair_us_budget(m.host[0].call, m.host[1].call, true, s.max_runs, s.budget_us);
    double const c3[3] = {NAN, ch, cc}, t3[3] = {NAN, th, tc};
    std::size_t const k = m.device.size();
    record(m, m.host[0], m.host[0], "host", c3, c3, got[k], agrees[k]);
    record(m, m.host[1], m.host[0], "host", t3, c3, got[k + 1], agrees[k + 1]);
    return us;
  }
};

// count (ByValue: == 7) or count_if.
template <bool ByValue, class T, class Pred>
void count_case(family_bench& b, T const* d, char const* config, Pred pred) {
  for (long long n : b.sizes()) {
    measurement m{ByValue ? "count" : "count_if", config, item_name<T>(), n, double(n) * sizeof(T)};
    auto* const cnt = b.slot<std::int64_t>(0);
    auto* const sum = b.slot<T>(1);
    auto* const cub_cnt = b.slot<unsigned>(2);
    m.device.push_back({ByValue ? "cascade::count_into" : "cascade::count_if_into", "cascade", [=] {
                          if constexpr (ByValue) cascade::count_into(policy, d, d + n, cnt, T(7));
                          else cascade::count_if_into(policy, d, d + n, cnt, pred);
                        }, reader(cnt)});
    m.device.push_back({"cascade::reduce_into (plus, same bytes)", "cascade",
                        [=] { cascade::reduce_into(policy, d, d + n, sum, T(0), cascade::plus{}); }, {}});
    m.device.push_back(b.cub("cub::DeviceReduce::TransformReduce", [=](void* temp, std::size_t& bytes) {
      return cub::DeviceReduce::TransformReduce(temp, bytes, d, cub_cnt, n, cuda::std::plus<unsigned>{},
                                                as_count<Pred, T>{pred}, 0u);
    }, reader(cub_cnt)));
    if constexpr (ByValue)
      m.host = host_pair("count", [=] { return one(cascade::count(policy, d, d + n, T(7))); },
                         [=] { return one(thrust::count(thrust::device, d, d + n, T(7))); });
    else
      m.host = host_pair("count_if", [=] { return one(cascade::count_if(policy, d, d + n, pred)); },
                         [=] { return one(thrust::count_if(thrust::device, d, d + n, pred)); });
    b.measure(m);
  }
}

// min_element's or max_element's (Max) calls: cascade's, CUB's, cascade's to the host, Thrust's.
template <bool Max, class T>
std::vector<contender> extremum_calls(family_bench& b, T const* d, long long n) {
  auto* const pos = b.slot<std::int64_t>(Max);
  auto* const value = b.slot<T>(2 + Max);
  auto* const index = b.slot<std::int64_t>(4 + Max);
  std::string const what = Max ? "max_element" : "min_element";
  return {{"cascade::" + what + "_into", "cascade", [=] {
             if constexpr (Max) cascade::max_element_into(policy, d, d + n, pos);
             else cascade::min_element_into(policy, d, d + n, pos);
           }, reader(pos)},
          b.cub(Max ? "cub::DeviceReduce::ArgMax" : "cub::DeviceReduce::ArgMin", [=](void* temp, std::size_t& bytes) {
            return Max ? cub::DeviceReduce::ArgMax(temp, bytes, d, value, index, n)
                       : cub::DeviceReduce::ArgMin(temp, bytes, d, value, index, n);
          }, reader(index)),
          to_host("cascade::" + what, "cascade", [=] {
            return one((Max ? cascade::max_element(policy, d, d + n) : cascade::min_element(policy, d, d + n)) - d);
          }),
          to_host("thrust::" + what, "thrust", [=] {
            return one((Max ? thrust::max_element(thrust::device, d, d + n)
                            : thrust::min_element(thrust::device, d, d + n)) - d);
          })};
}

enum class extremum { min, max, minmax };

template <extremum E, class T>
void element_case(family_bench& b, T const* d) {
  for (long long n : b.sizes()) {
    measurement m{E == extremum::min ? "min_element" : E == extremum::max ? "max_element" : "minmax_element",
                  item_name<T>(), item_name<T>(), n, double(n) * sizeof(T)};
    auto const lo = extremum_calls<false>(b, d, n), hi = extremum_calls<true>(b, d, n);
    if constexpr (E != extremum::minmax) {
      auto const& c = E == extremum::min ? lo : hi;
      m.device = {c[0], c[1]}, m.host = {c[2], c[3]};
    } else {
      auto* const pos = b.slot<std::int64_t>(0);  // min at slot 0, max at slot 1
      m.device = {{"cascade::minmax_element_into", "cascade",
                   [=] { cascade::minmax_element_into(policy, d, d + n, pos, pos + 2); }, reader(pos, pos + 2)},
                  {"cub::DeviceReduce::ArgMin + ArgMax", "cub", [lo, hi] { lo[1].call(), hi[1].call(); },
                   [lo, hi] { return std::vector<double>{lo[1].read()[0], hi[1].read()[0]}; }, 2}};
      // Thrust keeps the first largest too (thrust/system/cuda/detail/extrema.h), unlike std.
      auto const both = [d](auto r) { return std::vector<double>{double(r.first - d), double(r.second - d)}; };
      m.host = host_pair("minmax_element", [=] { return both(cascade::minmax_element(policy, d, d + n)); },
                         [=] { return both(thrust::minmax_element(thrust::device, d, d + n)); });
    }
    auto* const least = b.slot<T>(6);
    m.device.insert(m.device.begin() + 1, contender{"cascade::reduce_into (minimum, same bytes)", "cascade", [=] {
      cascade::reduce_into(policy, d, d + n, least, cascade::identity<cascade::minimum, T>::value(),
                           cascade::minimum{});
    }, {}});
    b.measure(m);
  }
}

void inner_product_case(family_bench& b, float const* f) {
  for (long long n : b.sizes()) {
    float const *const x = f, *const y = f + n;  // adjacent: the baseline reads the same 2n floats
    measurement m{"inner_product", "x.y", "float", n, 2.0 * double(n) * sizeof(float), false};
    auto* const dot = b.slot<float>(0);
    auto* const sum = b.slot<float>(1);
    auto* const cub_dot = b.slot<float>(2);
    m.device.push_back({"cascade::inner_product_into", "cascade",
                        [=] { cascade::inner_product_into(policy, x, x + n, y, dot, 0.0f); }, reader(dot)});
    m.device.push_back({"cascade::reduce_into (plus, same 2n floats)", "cascade",
                        [=] { cascade::reduce_into(policy, f, f + 2 * n, sum, 0.0f, cascade::plus{}); }, {}});
    m.device.push_back(b.cub("cub::DeviceReduce::TransformReduce (zip)", [=](void* temp, std::size_t& bytes) {
      return cub::DeviceReduce::TransformReduce(temp, bytes, thrust::make_zip_iterator(x, y), cub_dot, n,
                                                cuda::std::plus<float>{}, product{}, 0.0f);
    }, reader(cub_dot)));
    m.host = host_pair("inner_product", [=] { return one(cascade::inner_product(policy, x, x + n, y, 0.0f)); },
                       [=] { return one(thrust::inner_product(thrust::device, x, x + n, y, 0.0f)); });
    b.measure(m);
  }
}

// reduce_by_key of float values under int32 keys in runs of mean length 1, 8, 64, 1024 (geometric) and
// power-law lengths (2^U(0,17)), 2^20, 2^22, ..., 2^28 pairs (both designs: the keys are counted first
// from 2^24): against CUB's ReduceByKey and Thrust's. Bytes: the
// pairs read; the outputs written (8 bytes a run) are in the row's result beside the run count.
// With `shapes`, each size also runs under other block sizes and pairs a thread (by_key_shapes).
void by_key_case(family_bench& b, float const* values, bool shapes) {
  long long const max_n = std::min(1ll << std::min(b.s.max_log2, 28), 1ll << 28);
  std::int32_t *keys = nullptr, *keys_out = nullptr;
  float* sums = nullptr;
  CASCADE_CUDA_CHECK(cudaMalloc(&keys, max_n * sizeof(std::int32_t)));
  CASCADE_CUDA_CHECK(cudaMalloc(&keys_out, max_n * sizeof(std::int32_t)));
  CASCADE_CUDA_CHECK(cudaMalloc(&sums, max_n * sizeof(float)));
  std::mt19937_64 rng(0xB7'0001ull);
  for (int mean : {1, 8, 64, 1024, 0}) {
    std::vector<std::int32_t> host(max_n);
    std::int32_t key = 0;
    for (long long i = 0; i < max_n;) {
      long long len = 1;
      if (mean > 1) len = 1 + std::geometric_distribution<long long>(1.0 / mean)(rng);
      if (mean == 0) len = std::max(1ll, static_cast<long long>(std::pow(2.0, std::uniform_real_distribution<double>(0, 17)(rng))));
      for (long long j = 0; j < len && i < max_n; ++j) host[i++] = key;
      ++key;
    }
    CASCADE_CUDA_CHECK(cudaMemcpy(keys, host.data(), max_n * sizeof(std::int32_t), cudaMemcpyHostToDevice));
    std::string const config = mean ? "mean=" + std::to_string(mean) : std::string("power-law");
    for (int lg : {20, 22, 24, 26, 28}) {
      long long const n = 1ll << lg;
      if (n > max_n) continue;
      measurement m{"reduce_by_key", config, "i32/f32", n, 8.0 * double(n)};
      auto* const count = b.slot<long long>(0);
      auto* const cub_count = b.slot<long long>(1);
      m.device.push_back({"cascade::reduce_by_key_into", "cascade", [=] {
        cascade::reduce_by_key_into(policy, keys, keys + n, values, keys_out, sums, count);
      }, reader(count)});
      m.device.push_back(b.cub("cub::DeviceReduce::ReduceByKey", [=](void* temp, std::size_t& bytes) {
        return cub::DeviceReduce::ReduceByKey(temp, bytes, keys, keys_out, values, sums, cub_count,
                                              cuda::std::plus<float>{}, n);
      }, reader(cub_count)));
      if (shapes) {
        int slot = 2;
        auto const shape = [&](auto p, char const* name) {
          auto* const c = b.slot<long long>(slot++);
          m.device.push_back({std::string("cascade::reduce_by_key_into ") + name, "cascade", [=] {
            cascade::reduce_by_key_into(p, keys, keys + n, values, keys_out, sums, c);
          }, reader(c)});
        };
        using tree = cascade::tree::shuffle;
        using finish = cascade::finish::last_block;
        shape(cascade::policy<128, 16, tree, finish>{}, "<128,16>");
        shape(cascade::policy<256, 8, tree, finish>{}, "<256,8>");
        shape(cascade::policy<256, 12, tree, finish>{}, "<256,12>");
        shape(cascade::policy<256, 20, tree, finish>{}, "<256,20>");
        shape(cascade::policy<512, 12, tree, finish>{}, "<512,12>");
      }
      m.host = host_pair("reduce_by_key", [=] {
        auto const e = cascade::reduce_by_key(policy, keys, keys + n, values, keys_out, sums);
        return one(double(e.first - keys_out));
      }, [=] {
        auto const e = thrust::reduce_by_key(thrust::device, keys, keys + n, values, keys_out, sums);
        return one(double(e.first - keys_out));
      });
      b.measure(m);
    }
  }
  cudaFree(keys), cudaFree(keys_out), cudaFree(sums);
}

// The first NaN at 1% and at 50% of the input (the item restored after), and none.
void any_of_case(family_bench& b, float* f) {
  // A smoke run (max_log2 < 28) measures 2^max_log2 items, still past early_exit_min_items.
  for (long long n : std::set<long long>{1ll << std::min(28, b.s.max_log2), 1ll << std::min(30, b.s.max_log2)}) {
    for (int percent : {1, 50, 0}) {
      long long const at = n * percent / 100;
      float saved = 0, nan = NAN;
      if (percent) CASCADE_CUDA_CHECK(cudaMemcpy(&saved, f + at, sizeof saved, cudaMemcpyDeviceToHost));
      if (percent) CASCADE_CUDA_CHECK(cudaMemcpy(f + at, &nan, sizeof nan, cudaMemcpyHostToDevice));
      std::string const config = percent ? "nan@" + std::to_string(percent) + "%" : "no-nan";
      measurement m{"any_of", config, "float", n, double(n) * sizeof(float), true, {percent ? 1.0 : 0.0}};
      auto* const flag = b.slot<bool>(0);
      auto* const sum = b.slot<float>(1);
      m.device.push_back({"cascade::any_of_into", "cascade",
                          [=] { cascade::any_of_into(policy, f, f + n, flag, is_nan{}); }, reader(flag), 1, !percent});
      m.device.push_back({"cascade::reduce_into (plus, full read)", "cascade",
                          [=] { cascade::reduce_into(policy, f, f + n, sum, 0.0f, cascade::plus{}); }, {}});
      m.host = host_pair("any_of", [=] { return one(cascade::any_of(policy, f, f + n, is_nan{})); },
                         [=] { return one(thrust::any_of(thrust::device, f, f + n, is_nan{})); });
      b.measure(m);
      if (percent) CASCADE_CUDA_CHECK(cudaMemcpy(f + at, &saved, sizeof saved, cudaMemcpyHostToDevice));
    }
  }
}

// 0, 1, the powers of two up to max_n, and log-uniform sizes (seeded), 100 in all.
std::vector<long long> held_sizes(long long max_n) {
  std::set<long long> s{0, 1};
  for (long long k = 2; k <= max_n; k *= 2) s.insert(k);
  std::mt19937_64 rng(0xFA4111ull);
  std::uniform_real_distribution<double> lg(0, std::log2(double(max_n)));
  while (s.size() < 100) s.insert(std::llround(std::exp2(lg(rng))));
  return {s.begin(), s.end()};
}

// One graph captured with the count on the device, replayed at every size, against a graph captured at
// each size (both replays: their difference is the held count's alone) and the plain launch. Returns
// how many results disagree with the held graph's (each warned of, its row marked).
int device_count_case(family_bench& b, float const* f) {
  long long const max_n = 1ll << std::min(28, b.s.max_log2);
  std::int64_t* d_n = nullptr;  // not a result slot: the checks poison those
  CASCADE_CUDA_CHECK(cudaMalloc(&d_n, sizeof *d_n));
  float* const out = b.slot<float>(0);  // held, per-size graph, stream: out, out + 4, out + 8 (slots 0-2)
  cudaStream_t s;
  CASCADE_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  auto const capture = [&](auto&& enqueue) {
    cudaGraph_t g;
    cudaGraphExec_t e;
    CASCADE_CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    enqueue();
    CASCADE_CUDA_CHECK(cudaStreamEndCapture(s, &g));
    CASCADE_CUDA_CHECK(cudaGraphInstantiate(&e, g, 0));
    CASCADE_CUDA_CHECK(cudaGraphDestroy(g));
    return e;
  };
  cudaGraphExec_t const held = capture(
      [&] { cascade::reduce_into(policy.on(s), f, cascade::device_count(d_n, max_n), out, 0.0f, cascade::plus{}); });
  std::string const config = "max_n=2^" + std::to_string(log2_of(max_n));
  std::printf("\ndevice_count, %s, us: hot (launch excluded) | launch included\n%-10s %9s %9s %8s %9s | %9s %9s %8s "
              "%9s\n", config.c_str(), "n", "held", "per-size", "diff", "stream", "held", "per-size", "diff", "stream");
  double max_diff = 0, max_diff_idle = 0;
  long long max_at = 0;
  int const before = b.mismatches;
  for (long long n : held_sizes(max_n)) {
    std::int64_t const count = n;
    CASCADE_CUDA_CHECK(cudaMemcpyAsync(d_n, &count, sizeof count, cudaMemcpyHostToDevice, 0));
    CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
    cudaGraphExec_t const sized =
        capture([&] { cascade::reduce_into(policy.on(s), f, f + n, out + 4, 0.0f, cascade::plus{}); });
    measurement m{"device_count", config, "float", n, n * 4.0, false};
    m.held = true;
    m.device = {{"graph: reduce_into(device_count(d_n, max_n))", "cascade",
                 [=] { CASCADE_CUDA_CHECK(cudaGraphLaunch(held, 0)); }, reader(out)},
                {"graph: reduce_into(d, d + n), captured per size", "cascade",
                 [=] { CASCADE_CUDA_CHECK(cudaGraphLaunch(sized, 0)); }, reader(out + 4)},
                {"stream: reduce_into(d, d + n)", "cascade",
                 [=] { cascade::reduce_into(policy, f, f + n, out + 8, 0.0f, cascade::plus{}); }, reader(out + 8)}};
    int const wrong = b.mismatches;
    auto const us = b.measure(m);
    double const diff = us[0][0] - us[0][1], diff_idle = us[1][0] - us[1][1];
    if (std::fabs(diff) > std::fabs(max_diff)) max_diff = diff, max_at = n;
    if (std::fabs(diff_idle) > std::fabs(max_diff_idle)) max_diff_idle = diff_idle;
    std::printf("%-10lld %9.2f %9.2f %+8.2f %9.2f | %9.2f %9.2f %+8.2f %9.2f%s\n", n, us[0][0], us[0][1], diff,
                us[0][2], us[1][0], us[1][1], diff_idle, us[1][2], b.mismatches != wrong ? "  DISAGREES" : "");
    CASCADE_CUDA_CHECK(cudaGraphExecDestroy(sized));
  }
  CASCADE_CUDA_CHECK(cudaGraphExecDestroy(held));
  CASCADE_CUDA_CHECK(cudaStreamDestroy(s));
  cudaFree(d_n);
  char line[320];
  std::snprintf(line, sizeof line, "device_count %s: held graph - per-size graph, largest |difference| %+.2f us hot "
                "(n = %lld), %+.2f us launch included; %d calls disagree", config.c_str(), max_diff, max_at,
                max_diff_idle, b.mismatches - before);
  b.summary.push_back(line);
  b.rows.push_back("{\"kind\": \"summary\", \"family\": \"device_count\", \"config\": " + quoted(config) +
                   ", \"max_diff_hot_us\": " + num(max_diff) + ", \"at_n\": " + std::to_string(max_at) +
                   ", \"max_diff_hot_idle_us\": " + num(max_diff_idle) + "}");
  return b.mismatches - before;
}

settings parse(int argc, char** argv) {
  settings s;
  bool quick = false;
  cascade_bench::cli line("cascade-family",
                          "count, count_if, *_element, inner_product, any_of and the device-held count against CUB,\n"
                          "Thrust and cascade's reduce of the same bytes (GPU time hot, launch included and cold).");
  cascade_bench::add_options(line, s.io);
  line.list("--cases", &s.cases, "count, element, inner_product, any_of, device_count, by_key, by_key_shapes\n"
                               "(by_key under 5 more block shapes; default: all but by_key_shapes)")
      .option("--max-log2", &s.max_log2, "largest size, log2, 16..30 (default 30; device_count stops at 28)")
      .flag("--quick", &quick, "a smoke run: sizes up to 2^20, at most 11 runs a median");
  if (auto const status = line.parse(argc, argv)) std::exit(*status);
  std::vector<std::string> const known = {"count", "element", "inner_product", "any_of", "device_count", "by_key",
                                           "by_key_shapes"};
  for (auto const& c : s.cases)
    if (std::find(known.begin(), known.end(), c) == known.end())
      std::fprintf(stderr, "cascade-family: unknown case %s (see --help)\n", c.c_str()), std::exit(2);
  if (s.max_log2 < 16 || s.max_log2 > 30)
    std::fprintf(stderr, "cascade-family: --max-log2 must be 16..30 (see --help)\n"), std::exit(2);
  if (quick) s.max_log2 = std::min(s.max_log2, 20), s.max_runs = 11, s.budget_us = 2e4;
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  settings s = parse(argc, argv);
  if (!cascade_bench::have_gpu("cascade-family")) return 2;
  auto const env = cascade_bench::read_environment();
  std::size_t free_bytes = 0, total_bytes = 0;
  CASCADE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  // The ints and 2 max_n floats (inner_product's two arrays) in 60% of the free memory.
  while (s.max_log2 > 16 && 12.0 * double(1ll << s.max_log2) > 0.6 * double(free_bytes)) --s.max_log2;
  long long const max_n = 1ll << s.max_log2;
  std::int32_t* ints = nullptr;
  float* floats = nullptr;
  CASCADE_CUDA_CHECK(cudaMalloc(&ints, max_n * sizeof(std::int32_t)));
  CASCADE_CUDA_CHECK(cudaMalloc(&floats, 2 * max_n * sizeof(float)));
  cascade_measure::fill(ints, max_n, 0xFA41'0001ull);
  cascade_measure::fill(floats, 2 * max_n, 0xFA41'0002ull);
  std::int32_t const* const ci = ints;
  float const* const cf = floats;
  int status = 0;
  {
    family_bench b(s);
    std::printf("%-14s %-8s %-5s %-4s %-44s %9s %9s %9s %7s\n", "family", "config", "item", "n", "call", "hot us",
                "incl us", "cold us", "GB/s");
    if (s.wants("count")) {
      count_case<false>(b, ci, "odd", is_odd{});
      count_case<false>(b, cf, "x<0.5", below_half{});
      count_case<true>(b, ci, "==7", is_seven{});
    }
    if (s.wants("element")) {
      element_case<extremum::min>(b, cf), element_case<extremum::max>(b, cf), element_case<extremum::minmax>(b, cf);
      element_case<extremum::min>(b, ci), element_case<extremum::max>(b, ci), element_case<extremum::minmax>(b, ci);
    }
    if (s.wants("inner_product")) inner_product_case(b, cf);
    if (s.wants("any_of")) any_of_case(b, floats);
    if (s.wants("by_key") || s.wants("by_key_shapes")) by_key_case(b, cf, std::count(s.cases.begin(), s.cases.end(), "by_key_shapes") > 0);
    if (s.wants("device_count")) status = device_count_case(b, cf) == 0 ? 0 : 1;

    std::printf("\n%s (%d SMs, %.0f MB L2), CUDA runtime %d, driver %s, CCCL %s, %s\n", env.gpu.c_str(), env.sm_count,
                env.l2_mb, env.runtime, s.io.driver.c_str(), env.cccl.c_str(), env.date.c_str());
    std::printf("cascade time / rival time, medians (below 1: cascade faster); Thrust rows: to-host calls, host clock\n"
                "%-14s %-8s %-5s %-4s %-44s %6s %6s %6s\n", "family", "config", "item", "n", "rival", "hot", "incl",
                "cold");
    for (auto const& l : b.summary) std::printf("%s\n", l.c_str());
    std::string const method =
        "calls of one measurement on the same buffers in alternating runs, up to 51 (5 when long); clock gpu: CUDA "
        "events, hot_us behind a 300 us spin kernel (launch excluded), hot_idle_us GPU idle first (launch included), "
        "cold_us after a 2x L2 memset; clock host (to-host calls, cascade and Thrust alternating): host clock, device "
        "idle first, hot_idle_us warm, cold_us flushed; CUB's temporary storage allocated outside the timed region; "
        "results checked against cascade's; ratio = reference (cascade) time / this row's; GB/s = input bytes x "
        "passes / hot time; device_count: graph replays on the legacy stream, *d_n written before each size's runs";
    if (!s.io.out_path.empty() && !cascade_bench::write_results(s.io.out_path, env, s.io, method.c_str(), b.rows))
      status = 1;
  }
  cudaFree(ints);
  cudaFree(floats);
  return status;
}
