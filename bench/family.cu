// cascade-family: count, count_if, min/max/minmax_element, inner_product, any_of, reduce_by_key and the
// device-held count (device_values.cuh) against their rivals in the same process, each beside
// cascade::reduce_into over the same bytes (the baseline: an algorithm built on reduce should read as fast as
// reduce), at 2^16..2^30 items. One unit (an NVBench benchmark) a case:
//   count          count_if (int32 odd; float x < 0.5f) and count (int32 == 7): *_into against
//                  cub::DeviceReduce::TransformReduce
//   element        min/max/minmax_element, float and int32: *_element_into against DeviceReduce::ArgMin, ArgMax
//                  (minmax: both, two passes: CUB has no ArgMinMax); the baseline is reduce_into with minimum
//   inner_product  inner_product_into against TransformReduce over a zip iterator; the baseline reads 2n floats
//   any_of         is_nan over 2^28 and 2^30 floats, the first NaN at 1%, at 50%, none
//   by_key         reduce_by_key_into of float values under int32 keys in runs of mean length 1, 8, 64, 1024
//                  and power-law lengths, 2^20..2^28 pairs, against CUB's ReduceByKey (by_key_shapes: also
//                  under 5 more block shapes)
//   device_count   one graph of reduce_into(device_count(d_n, 2^28)) replayed at 100 sizes, against a graph
//                  captured per size and the plain launch
// Each of them also in its host-returning form (cascade::count, ...) against Thrust's. The driver is
// bench/support/contest.cu's: axes Contender, Round (0 only), Elements (the sizes) and Config ("count_if/odd",
// "min_element/float", ...); every result checked once against cascade's *_into call's (exact for counts and
// positions; any_of's against the NaN's presence), then timed: the device calls' hot in alternating runs and
// NVBench's cold and batch; the host-returning calls by the host clock in alternating runs (hot, launch
// included) and NVBench's synchronous cold; the read ceiling of each input beside them. Rows carry
// "clock": "gpu" or "host" as before. Ratios are against cascade's *_into call, host-returning calls' too.
//
//   cascade-family [--cases count,element,inner_product,any_of,device_count,by_key,by_key_shapes]
//                  [--max-log2 30] [--quick] [--units ...] [NVBench's options: --json FILE, ...]
//   scripts/nvbench-run.sh build-bench/bench/cascade-family OUT.json [--cases ...]
// --cases selects units as --units does (by_key_shapes: the by_key unit under its 5 more shapes); --quick:
// sizes up to 2^20.
#include <cascade/algorithm/reduce_by_key.cuh>
#include <cascade/cascade.cuh>
#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>
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
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "measure/fill.cuh"
#include "support/contest.cuh"
#include "support/nvbench_program.cuh"

namespace {

using contest::contender;
using contest::device_array;
using contest::measurement;
using contest::sink;
using contest::timing;

cascade::default_policy const policy{};

struct settings {
  std::vector<std::string> cases;  // --cases: empty, every unit (by_key without its extra shapes)
  int max_log2 = 30;
  bool shapes = false;  // by_key also under 5 more block shapes (by_key_shapes)
};
settings& program_settings() {
  static settings s;
  return s;
}

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

// A result as every contender gives it, whatever its slot's type: up to two numbers (a count, a position, a
// sum; minmax's two positions), none for the baselines, which compute something else.
struct values {
  int size = 0;
  double v[2] = {0, 0};
};
using result_fn = std::function<std::vector<unsigned char>()>;
std::vector<unsigned char> bytes_of(values const& x) {
  std::vector<unsigned char> b(sizeof x);
  std::memcpy(b.data(), &x, sizeof x);
  return b;
}
values values_at(void const* p) {
  values x;
  std::memcpy(&x, p, sizeof x);
  return x;
}
values one(double x) { return {1, {x, 0}}; }
std::string text(values const& x) {
  std::string s;
  char b[32];
  for (int i = 0; i < x.size; ++i) std::snprintf(b, sizeof b, "%.9g", x.v[i]), s.append(i ? " " : "").append(b);
  return s;
}
// Exact for counts and positions; float sums within a loose relative bound.
bool close(values const& got, values const& want, bool exact) {
  if (got.size != want.size) return false;
  for (int i = 0; i < want.size; ++i)
    if (exact ? got.v[i] != want.v[i] : !(std::fabs(got.v[i] - want.v[i]) <= 1e-4 * std::fabs(want.v[i]) + 1e-6))
      return false;
  return true;
}

// A result slot read back (bool as its byte, so that a poisoned slot shows).
template <class T>
double fetch(T const* p) {
  std::conditional_t<std::is_same_v<T, bool>, unsigned char, T> v;
  CASCADE_CUDA_CHECK(cudaMemcpy(&v, p, sizeof v, cudaMemcpyDeviceToHost));
  return static_cast<double>(v);
}
template <class T>
result_fn reader(T const* a, T const* b = nullptr) {
  return [a, b] {
    values x = one(fetch(a));
    if (b) x.v[x.size++] = fetch(b);
    return bytes_of(x);
  };
}

char const* const gpu_clock = ", \"clock\": \"gpu\"";

contender device_call(std::string name, std::function<void()> call, result_fn result, std::string fields = {}) {
  contender c{std::move(name), "cascade", "", std::move(call)};
  c.fields = gpu_clock + fields;
  c.result = std::move(result);
  return c;
}
// A baseline: reduce_into over the same bytes, its result not compared.
contender baseline(std::string name, std::function<void()> call) {
  contender c = device_call(std::move(name), std::move(call), [] { return bytes_of(values{}); });
  c.checked = false;
  return c;
}
// A call that returns to the host, its result kept for the check.
template <class F>
contender to_host(std::string name, std::string library, F f) {
  auto const r = std::make_shared<values>();
  contender c{std::move(name), std::move(library), "", [r, f] { *r = f(); }};
  c.how = timing::to_host;
  c.fields = ", \"clock\": \"host\"";
  c.result = [r] { return bytes_of(*r); };
  return c;
}
template <class C, class T>
void host_pair(measurement& m, std::string const& what, C cascade_call, T thrust_call) {
  m.contenders.push_back(to_host("cascade::" + what, "cascade", cascade_call));
  m.contenders.push_back(to_host("thrust::" + what, "thrust", thrust_call));
}

// CUB's temporary storage, allocated outside the timed region and grown as a unit's measurements are made:
// the calls read where it is when they run.
struct scratch {
  void* temp = nullptr;
  std::size_t bytes = 0;
  scratch() = default;
  scratch(scratch const&) = delete;
  scratch& operator=(scratch const&) = delete;
  ~scratch() { cudaFree(temp); }
};

// What a unit's build shares: its sink, the result slots (16 bytes each, poisoned before each check) and
// CUB's storage; dry, none of them, and the calls (never made) point at nothing.
struct builder {
  bool dry;
  sink& out;
  unsigned char* slots = nullptr;
  scratch* cub_temp = nullptr;

  builder(bool d, sink& o) : dry(d), out(o) {
    if (dry) return;
    slots = out.keep<device_array<unsigned char>>(256).data;
    cub_temp = &out.keep<scratch>();
  }
  template <class T>
  T* slot(int k) const { return slots ? reinterpret_cast<T*>(slots + 16 * k) : nullptr; }
  template <class T>
  T* array(long long n) { return dry ? nullptr : out.keep<device_array<T>>(static_cast<std::size_t>(n)).data; }
  std::vector<long long> sizes() const {
    std::vector<long long> v;
    for (int lg : {16, 20, 24, 28, 30})
      if (lg <= program_settings().max_log2) v.push_back(1ll << lg);
    return v;
  }

  // `items`: the input the read ceiling reads (bytes of it); the reference is the first contender (cascade's).
  measurement make(std::string family, std::string config, std::string item, long long n, double bytes,
                   void const* items, bool exact = true) const {
    measurement m;
    m.family = std::move(family), m.config = std::move(config), m.item = std::move(item);
    m.n = n, m.bytes = bytes;
    m.items = bytes >= 16 ? items : nullptr;
    m.out = slots, m.out_bytes = 256;
    m.agree = [exact](void const* mine, void const* reference) {
      return close(values_at(mine), values_at(reference), exact);
    };
    m.format = [](void const* p) { return text(values_at(p)); };
    return m;
  }

  // A two-phase CUB call, f(temp, bytes) -> cudaError_t, its storage sized here.
  template <class F>
  contender cub(std::string name, F f, result_fn result, std::string fields = {}) {
    if (!dry) {
      std::size_t bytes = 0;
      CASCADE_CUDA_CHECK(f(nullptr, bytes));
      if (bytes > cub_temp->bytes) {
        CASCADE_CUDA_CHECK(cudaFree(cub_temp->temp));
        cub_temp->temp = nullptr;
        CASCADE_CUDA_CHECK(cudaMalloc(&cub_temp->temp, bytes));
        cub_temp->bytes = bytes;
      }
    }
    scratch* const s = cub_temp;
    contender c{std::move(name), "cub", "", [s, f] {
                  std::size_t b = s->bytes;
                  CASCADE_CUDA_CHECK(f(s->temp, b));
                }};
    c.fields = gpu_clock + fields;
    c.result = std::move(result);
    return c;
  }
};

// The inputs as before: int32 and float items from the same seeds (fill.cuh: item i depends on i alone, so
// a shorter buffer holds the same first items).
template <class T>
T* filled(builder& b, long long n) {
  T* const d = b.array<T>(n);
  if (d) cascade_measure::fill(d, n, std::is_same_v<T, float> ? 0xFA41'0002ull : 0xFA41'0001ull);
  return d;
}

// count (ByValue: == 7) or count_if.
template <bool ByValue, class T, class Pred>
void count_case(builder& b, T const* d, char const* config, Pred pred) {
  for (long long n : b.sizes()) {
    measurement m = b.make(ByValue ? "count" : "count_if", config, item_name<T>(), n, double(n) * sizeof(T), d);
    auto* const cnt = b.slot<std::int64_t>(0);
    auto* const sum = b.slot<T>(1);
    auto* const cub_cnt = b.slot<unsigned>(2);
    m.contenders.push_back(device_call(ByValue ? "cascade::count_into" : "cascade::count_if_into", [=] {
      if constexpr (ByValue) cascade::count_into(policy, d, d + n, cnt, T(7));
      else cascade::count_if_into(policy, d, d + n, cnt, pred);
    }, reader(cnt)));
    m.contenders.push_back(baseline("cascade::reduce_into (plus, same bytes)",
                                    [=] { cascade::reduce_into(policy, d, d + n, sum, T(0), cascade::plus{}); }));
    m.contenders.push_back(b.cub("cub::DeviceReduce::TransformReduce", [=](void* temp, std::size_t& bytes) {
      return cub::DeviceReduce::TransformReduce(temp, bytes, d, cub_cnt, n, cuda::std::plus<unsigned>{},
                                                as_count<Pred, T>{pred}, 0u);
    }, reader(cub_cnt)));
    if constexpr (ByValue)
      host_pair(m, "count", [=] { return one(double(cascade::count(policy, d, d + n, T(7)))); },
                [=] { return one(double(thrust::count(thrust::device, d, d + n, T(7)))); });
    else
      host_pair(m, "count_if", [=] { return one(double(cascade::count_if(policy, d, d + n, pred))); },
                [=] { return one(double(thrust::count_if(thrust::device, d, d + n, pred))); });
    b.out.add(std::move(m));
  }
}

void count_unit(bool dry, sink& out) {
  builder b(dry, out);
  long long const max_n = 1ll << program_settings().max_log2;
  std::int32_t const* const ints = filled<std::int32_t>(b, max_n);
  float const* const floats = filled<float>(b, max_n);
  count_case<false>(b, ints, "odd", is_odd{});
  count_case<false>(b, floats, "x<0.5", below_half{});
  count_case<true>(b, ints, "==7", is_seven{});
}

// min_element's or max_element's (Max) calls: cascade's, CUB's, cascade's to the host, Thrust's.
template <bool Max, class T>
std::vector<contender> extremum_calls(builder& b, T const* d, long long n) {
  auto* const pos = b.slot<std::int64_t>(Max);
  auto* const value = b.slot<T>(2 + Max);
  auto* const index = b.slot<std::int64_t>(4 + Max);
  std::string const what = Max ? "max_element" : "min_element";
  return {device_call("cascade::" + what + "_into", [=] {
            if constexpr (Max) cascade::max_element_into(policy, d, d + n, pos);
            else cascade::min_element_into(policy, d, d + n, pos);
          }, reader(pos)),
          b.cub(Max ? "cub::DeviceReduce::ArgMax" : "cub::DeviceReduce::ArgMin", [=](void* temp, std::size_t& bytes) {
            return Max ? cub::DeviceReduce::ArgMax(temp, bytes, d, value, index, n)
                       : cub::DeviceReduce::ArgMin(temp, bytes, d, value, index, n);
          }, reader(index)),
          to_host("cascade::" + what, "cascade", [=] {
            return one(double((Max ? cascade::max_element(policy, d, d + n)
                                   : cascade::min_element(policy, d, d + n)) - d));
          }),
          to_host("thrust::" + what, "thrust", [=] {
            return one(double((Max ? thrust::max_element(thrust::device, d, d + n)
                                   : thrust::min_element(thrust::device, d, d + n)) - d));
          })};
}

enum class extremum { min, max, minmax };

template <extremum E, class T>
void element_case(builder& b, T const* d) {
  for (long long n : b.sizes()) {
    measurement m = b.make(E == extremum::min ? "min_element" : E == extremum::max ? "max_element" : "minmax_element",
                           item_name<T>(), item_name<T>(), n, double(n) * sizeof(T), d);
    auto const lo = extremum_calls<false>(b, d, n), hi = extremum_calls<true>(b, d, n);
    if constexpr (E != extremum::minmax) {
      m.contenders = E == extremum::min ? lo : hi;
    } else {
      auto* const pos = b.slot<std::int64_t>(0);  // min at slot 0, max at slot 1
      m.contenders.push_back(device_call("cascade::minmax_element_into",
                                         [=] { cascade::minmax_element_into(policy, d, d + n, pos, pos + 2); },
                                         reader(pos, pos + 2)));
      // Two passes over the input: the row's bytes are one pass's, as the measurement's.
      contender both_cub = lo[1];
      both_cub.name = "cub::DeviceReduce::ArgMin + ArgMax";
      both_cub.call = [l = lo[1].call, h = hi[1].call] { l(), h(); };
      both_cub.result = reader(b.slot<std::int64_t>(4), b.slot<std::int64_t>(5));
      both_cub.fields = std::string(gpu_clock) + ", \"passes\": 2";
      m.contenders.push_back(std::move(both_cub));
      // Thrust keeps the first largest too (thrust/system/cuda/detail/extrema.h), unlike std.
      auto const both = [d](auto r) { return values{2, {double(r.first - d), double(r.second - d)}}; };
      host_pair(m, "minmax_element", [=] { return both(cascade::minmax_element(policy, d, d + n)); },
                [=] { return both(thrust::minmax_element(thrust::device, d, d + n)); });
    }
    auto* const least = b.slot<T>(6);
    m.contenders.insert(m.contenders.begin() + 1, baseline("cascade::reduce_into (minimum, same bytes)", [=] {
      cascade::reduce_into(policy, d, d + n, least, cascade::identity<cascade::minimum, T>::value(),
                           cascade::minimum{});
    }));
    b.out.add(std::move(m));
  }
}

void element_unit(bool dry, sink& out) {
  builder b(dry, out);
  long long const max_n = 1ll << program_settings().max_log2;
  float const* const floats = filled<float>(b, max_n);
  std::int32_t const* const ints = filled<std::int32_t>(b, max_n);
  element_case<extremum::min>(b, floats), element_case<extremum::max>(b, floats);
  element_case<extremum::minmax>(b, floats);
  element_case<extremum::min>(b, ints), element_case<extremum::max>(b, ints), element_case<extremum::minmax>(b, ints);
}

void inner_product_unit(bool dry, sink& out) {
  builder b(dry, out);
  float const* const f = filled<float>(b, 2ll << program_settings().max_log2);
  for (long long n : b.sizes()) {
    float const *const x = f, *const y = f + n;  // adjacent: the baseline reads the same 2n floats
    measurement m = b.make("inner_product", "x.y", "float", n, 2.0 * double(n) * sizeof(float), f, false);
    auto* const dot = b.slot<float>(0);
    auto* const sum = b.slot<float>(1);
    auto* const cub_dot = b.slot<float>(2);
    m.contenders.push_back(device_call("cascade::inner_product_into",
                                       [=] { cascade::inner_product_into(policy, x, x + n, y, dot, 0.0f); },
                                       reader(dot)));
    m.contenders.push_back(baseline("cascade::reduce_into (plus, same 2n floats)",
                                    [=] { cascade::reduce_into(policy, f, f + 2 * n, sum, 0.0f, cascade::plus{}); }));
    m.contenders.push_back(b.cub("cub::DeviceReduce::TransformReduce (zip)", [=](void* temp, std::size_t& bytes) {
      return cub::DeviceReduce::TransformReduce(temp, bytes, thrust::make_zip_iterator(x, y), cub_dot, n,
                                                cuda::std::plus<float>{}, product{}, 0.0f);
    }, reader(cub_dot)));
    host_pair(m, "inner_product", [=] { return one(cascade::inner_product(policy, x, x + n, y, 0.0f)); },
              [=] { return one(thrust::inner_product(thrust::device, x, x + n, y, 0.0f)); });
    out.add(std::move(m));
  }
}

// The first NaN at 1% and at 50% of the input, and none. Every measurement lives until the unit is done, so
// each NaN case has its own copy of the items (the old program planted the NaN in place and restored it).
void any_of_unit(bool dry, sink& out) {
  builder b(dry, out);
  int const max_log2 = program_settings().max_log2;
  float* const base = filled<float>(b, 1ll << max_log2);
  // A smoke run (max_log2 < 28) measures 2^max_log2 items, still past early_exit_min_items.
  for (long long n : std::set<long long>{1ll << std::min(28, max_log2), 1ll << std::min(30, max_log2)}) {
    for (int percent : {1, 50, 0}) {
      float* f = base;
      if (percent) {
        f = b.array<float>(n);
        float const nan = NAN;
        if (f) CASCADE_CUDA_CHECK(cudaMemcpy(f, base, n * sizeof(float), cudaMemcpyDeviceToDevice));
        if (f) CASCADE_CUDA_CHECK(cudaMemcpy(f + n * percent / 100, &nan, sizeof nan, cudaMemcpyHostToDevice));
      }
      std::string const config = percent ? "nan@" + std::to_string(percent) + "%" : "no-nan";
      measurement m = b.make("any_of", config, "float", n, double(n) * sizeof(float), f);
      values const expected = one(percent ? 1.0 : 0.0);  // checked against this rather than cascade's
      m.agree = [expected](void const* mine, void const*) { return close(values_at(mine), expected, true); };
      auto* const flag = b.slot<bool>(0);
      auto* const sum = b.slot<float>(1);
      // With a NaN the data decides the bytes read: GB/s of the full input's bytes mean nothing (reads_all).
      m.contenders.push_back(device_call("cascade::any_of_into",
                                         [=] { cascade::any_of_into(policy, f, f + n, flag, is_nan{}); }, reader(flag),
                                         percent ? ", \"reads_all\": false" : ""));
      m.contenders.push_back(baseline("cascade::reduce_into (plus, full read)",
                                      [=] { cascade::reduce_into(policy, f, f + n, sum, 0.0f, cascade::plus{}); }));
      host_pair(m, "any_of", [=] { return one(cascade::any_of(policy, f, f + n, is_nan{})); },
                [=] { return one(thrust::any_of(thrust::device, f, f + n, is_nan{})); });
      out.add(std::move(m));
    }
  }
}

// reduce_by_key of float values under int32 keys in runs of mean length 1, 8, 64, 1024 (geometric) and
// power-law lengths (2^U(0,17)), 2^20, 2^22, ..., 2^28 pairs (both designs: the keys are counted first from
// 2^24), against CUB's ReduceByKey and Thrust's. Bytes: the pairs read; the outputs written (8 bytes a run)
// follow from the row's result, the run count. With `shapes`, each size also runs under other block sizes
// and pairs a thread (by_key_shapes).
void by_key_unit(bool dry, sink& out) {
  builder b(dry, out);
  bool const shapes = program_settings().shapes;
  long long const max_n = 1ll << std::min(program_settings().max_log2, 28);
  // 2 max_n values: the read ceiling reads the pairs' 8 bytes each from one buffer.
  float const* const values_in = filled<float>(b, 2 * max_n);
  std::int32_t* const keys_out = b.array<std::int32_t>(max_n);
  float* const sums = b.array<float>(max_n);
  std::mt19937_64 rng(0xB7'0001ull);  // the keys of every case from one generator, in this order
  for (int mean : {1, 8, 64, 1024, 0}) {
    std::int32_t* const keys = b.array<std::int32_t>(max_n);
    if (!dry) {
      std::vector<std::int32_t> host(max_n);
      std::int32_t key = 0;
      for (long long i = 0; i < max_n;) {
        long long len = 1;
        if (mean > 1) len = 1 + std::geometric_distribution<long long>(1.0 / mean)(rng);
        if (mean == 0)
          len = std::max(1ll, static_cast<long long>(
                                  std::pow(2.0, std::uniform_real_distribution<double>(0, 17)(rng))));
        for (long long j = 0; j < len && i < max_n; ++j) host[i++] = key;
        ++key;
      }
      CASCADE_CUDA_CHECK(cudaMemcpy(keys, host.data(), max_n * sizeof(std::int32_t), cudaMemcpyHostToDevice));
    }
    std::string const config = mean ? "mean=" + std::to_string(mean) : std::string("power-law");
    for (int lg : {20, 22, 24, 26, 28}) {
      long long const n = 1ll << lg;
      if (n > max_n) continue;
      measurement m = b.make("reduce_by_key", config, "i32/f32", n, 8.0 * double(n), values_in);
      auto* const count = b.slot<long long>(0);
      auto* const cub_count = b.slot<long long>(1);
      m.contenders.push_back(device_call("cascade::reduce_by_key_into", [=] {
        cascade::reduce_by_key_into(policy, keys, keys + n, values_in, keys_out, sums, count);
      }, reader(count)));
      m.contenders.push_back(b.cub("cub::DeviceReduce::ReduceByKey", [=](void* temp, std::size_t& bytes) {
        return cub::DeviceReduce::ReduceByKey(temp, bytes, keys, keys_out, values_in, sums, cub_count,
                                              cuda::std::plus<float>{}, n);
      }, reader(cub_count)));
      if (shapes) {
        int slot = 2;
        auto const shape = [&](auto p, char const* name) {
          auto* const c = b.slot<long long>(slot++);
          m.contenders.push_back(device_call(std::string("cascade::reduce_by_key_into ") + name, [=] {
            cascade::reduce_by_key_into(p, keys, keys + n, values_in, keys_out, sums, c);
          }, reader(c)));
        };
        using tree = cascade::tree::shuffle;
        using finish = cascade::finish::last_block;
        shape(cascade::policy<128, 16, tree, finish>{}, "<128,16>");
        shape(cascade::policy<256, 8, tree, finish>{}, "<256,8>");
        shape(cascade::policy<256, 12, tree, finish>{}, "<256,12>");
        shape(cascade::policy<256, 20, tree, finish>{}, "<256,20>");
        shape(cascade::policy<512, 12, tree, finish>{}, "<512,12>");
      }
      host_pair(m, "reduce_by_key", [=] {
        auto const e = cascade::reduce_by_key(policy, keys, keys + n, values_in, keys_out, sums);
        return one(double(e.first - keys_out));
      }, [=] {
        auto const e = thrust::reduce_by_key(thrust::device, keys, keys + n, values_in, keys_out, sums);
        return one(double(e.first - keys_out));
      });
      out.add(std::move(m));
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

// device_count's graphs and the count they read, freed with the unit.
struct held_graphs {
  cudaStream_t stream = nullptr;  // capture only: the graphs are launched on the legacy stream
  std::vector<cudaGraphExec_t> execs;
  long long written = -1;  // what *d_n holds
  held_graphs() { CASCADE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking)); }
  held_graphs(held_graphs const&) = delete;
  held_graphs& operator=(held_graphs const&) = delete;
  ~held_graphs() {
    for (auto e : execs) cudaGraphExecDestroy(e);
    cudaStreamDestroy(stream);
  }
  template <class Enqueue>
  cudaGraphExec_t capture(Enqueue&& enqueue) {
    cudaGraph_t g;
    cudaGraphExec_t e;
    CASCADE_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    enqueue();
    CASCADE_CUDA_CHECK(cudaStreamEndCapture(stream, &g));
    CASCADE_CUDA_CHECK(cudaGraphInstantiate(&e, g, 0));
    CASCADE_CUDA_CHECK(cudaGraphDestroy(g));
    execs.push_back(e);
    return e;
  }
};

// One graph captured with the count on the device, replayed at every size, against a graph captured at each
// size (both replays: their difference is the held count's alone) and the plain launch; results within float
// rounding of the held graph's. *d_n is written at a size's first call, the check's (untimed): NVBench runs
// one size's states together (Contender is the fastest axis), so the timed replays find it written already.
void device_count_unit(bool dry, sink& out) {
  builder b(dry, out);
  long long const max_n = 1ll << std::min(28, program_settings().max_log2);
  float const* const f = filled<float>(b, max_n);
  std::int64_t* const d_n = b.array<std::int64_t>(1);  // not a result slot: the checks poison those
  float* const sums = b.slot<float>(0);  // held, per-size graph, stream: sums, sums + 4, sums + 8 (slots 0-2)
  held_graphs* const g = dry ? nullptr : &out.keep<held_graphs>();
  cudaGraphExec_t held = nullptr;
  if (g)
    held = g->capture([&] {
      cascade::reduce_into(policy.on(g->stream), f, cascade::device_count(d_n, max_n), sums, 0.0f, cascade::plus{});
    });
  std::string const config = "max_n=2^" + std::to_string(log2_of(max_n));
  for (long long n : held_sizes(max_n)) {
    cudaGraphExec_t sized = nullptr;
    if (g)
      sized = g->capture(
          [&] { cascade::reduce_into(policy.on(g->stream), f, f + n, sums + 4, 0.0f, cascade::plus{}); });
    measurement m = b.make("device_count", config, "float", n, n * 4.0, f, false);
    m.contenders.push_back(device_call("graph: reduce_into(device_count(d_n, max_n))", [=] {
      if (g->written != n) {
        std::int64_t const count = n;
        CASCADE_CUDA_CHECK(cudaMemcpy(d_n, &count, sizeof count, cudaMemcpyHostToDevice));
        g->written = n;
      }
      CASCADE_CUDA_CHECK(cudaGraphLaunch(held, 0));
    }, reader(sums)));
    m.contenders.push_back(device_call("graph: reduce_into(d, d + n), captured per size",
                                       [=] { CASCADE_CUDA_CHECK(cudaGraphLaunch(sized, 0)); }, reader(sums + 4)));
    m.contenders.push_back(device_call("stream: reduce_into(d, d + n)", [=] {
      cascade::reduce_into(policy, f, f + n, sums + 8, 0.0f, cascade::plus{});
    }, reader(sums + 8)));
    out.add(std::move(m));
  }
}

void take_options(std::vector<std::string>& args) {
  auto& s = program_settings();
  s.cases = cascade_nvbench::take_list(args, "--cases");
  std::vector<std::string> const known = {"count", "element", "inner_product", "any_of", "device_count", "by_key",
                                          "by_key_shapes"};
  for (auto const& c : s.cases)
    if (std::find(known.begin(), known.end(), c) == known.end())
      throw std::invalid_argument("cascade-family: unknown case " + c +
                                  " (count, element, inner_product, any_of, device_count, by_key, by_key_shapes)");
  s.shapes = std::find(s.cases.begin(), s.cases.end(), "by_key_shapes") != s.cases.end();
  std::string const lg = cascade_nvbench::take_option(args, "--max-log2", "30");
  s.max_log2 = std::atoi(lg.c_str());
  if (s.max_log2 < 16 || s.max_log2 > 30)
    throw std::invalid_argument("cascade-family: --max-log2 must be 16..30, not " + lg);
  if (cascade_nvbench::take_flag(args, "--quick")) s.max_log2 = std::min(s.max_log2, 20);
  // Before the dry builds fix the sizes: the largest unit's buffers (any_of's items and its NaN cases' copies,
  // 14 bytes an item) in 60% of the free memory. The driver has made CUDA calls by now; the builds dry may not.
  std::size_t free_bytes = 0, total_bytes = 0;
  CASCADE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  while (s.max_log2 > 16 && 14.0 * double(1ll << s.max_log2) > 0.6 * double(free_bytes)) --s.max_log2;
  // --cases selects units as --units does: the driver takes --units after this.
  if (s.cases.empty()) return;
  std::string units = cascade_nvbench::take_option(args, "--units");
  for (auto const& c : s.cases)
    units += (units.empty() ? "" : ",") + (c == "by_key_shapes" ? std::string("by_key") : c);
  args.push_back("--units");
  args.push_back(units);
}

contest::program make() {
  contest::program p;
  p.name = "cascade-family";
  p.units = {{"count", "count", &count_unit},
             {"element", "element", &element_unit},
             {"inner_product", "inner_product", &inner_product_unit},
             {"any_of", "any_of", &any_of_unit},
             {"by_key", "by_key", &by_key_unit},
             {"device_count", "device_count", &device_count_unit}};
  p.rounds = {0};  // one run, as the program took before
  p.options = &take_options;
  return p;
}

[[maybe_unused]] bool const declared = contest::declare(&make);

}  // namespace
