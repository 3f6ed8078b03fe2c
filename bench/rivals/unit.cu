// bench/rivals/unit.cu: one unit of cascade-rivals, built once per algorithm family and item type
// (bench/meson.build) with RIVALS_FAMILY (reduce, arg or transform) and RIVALS_FAMILY_IS_<family>,
// RIVALS_ITEM (the C++ type) and RIVALS_ITEM_NAME (its short name) defined, so the many kernels
// compile in parallel and each unit compiles only its family's.
#include <cascade/cascade.cuh>
#include <cub/device/device_reduce.cuh>
#include <cuda/functional>
#include <cuda/std/functional>
#include <cuda/std/tuple>
#include <cuda_fp16.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#if CUB_VERSION >= 300500
#include <cuda/execution>
#define RIVALS_CUB_ENV 1  // determinism levels through an environment argument, single-phase calls
#else
#define RIVALS_CUB_ENV 0
#endif

#include "measure/fill.cuh"
#include "previous_table.cuh"
#include "rivals.cuh"

#if !defined(RIVALS_FAMILY) || !defined(RIVALS_ITEM) || !defined(RIVALS_ITEM_NAME)
#error "unit.cu is built once per unit, with RIVALS_FAMILY, RIVALS_ITEM and RIVALS_ITEM_NAME defined"
#endif
#define RIVALS_PASTE3(a, b, c) a##_##b##_##c
#define RIVALS_UNIT(family, item) RIVALS_PASTE3(unit, family, item)
#define RIVALS_STRING2(x) #x
#define RIVALS_STRING(x) RIVALS_STRING2(x)

namespace rivals {

// This unit's own names (not an anonymous namespace: -Dmerge-units=true builds every unit in one
// translation unit, this file included once each).
#define RIVALS_UNIT_IMPL(family, item) RIVALS_PASTE3(impl, family, item)
namespace RIVALS_UNIT_IMPL(RIVALS_FAMILY, RIVALS_ITEM_NAME) {

using item = RIVALS_ITEM;
char const* const item_name = RIVALS_STRING(RIVALS_ITEM_NAME);

// Items that accumulate in a wider type: int8 in int32, half in float (as the sweep measures them).
using accumulator = std::conditional_t<std::is_same_v<item, std::int8_t>, std::int32_t,
                                       std::conditional_t<std::is_same_v<item, __half>, float, item>>;

template <class T>
std::string text(T x) {
  if constexpr (std::is_same_v<T, __half>)
    return std::to_string(__half2float(x));
  else if constexpr (std::is_integral_v<T>)
    return std::to_string(static_cast<long long>(x));
  else {
    char b[48];
    std::snprintf(b, sizeof b, "%.9g", static_cast<double>(x));
    return b;
  }
}

template <class T>
bool same_value(T a, T b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// Two accumulators (out_bytes each) agree: exactly, or for floating-point sums (Close) within 1e-5
// (float) or 1e-10 (double) relative, since the rounding follows the order of the additions.
template <bool Close>
bool accumulators_agree(void const* pa, void const* pb) {
  accumulator a, c;
  std::memcpy(&a, pa, sizeof a);
  std::memcpy(&c, pb, sizeof c);
  if constexpr (std::is_integral_v<accumulator> || !Close) {
    return same_value(a, c);
  } else {
    double const tolerance = sizeof(accumulator) == 4 ? 1e-5 : 1e-10;
    return std::abs(double(a) - double(c)) <= tolerance * std::abs(double(c)) + 1e-30;
  }
}

template <class A = accumulator>  // a template: the arg units do not use it
std::string format_accumulator(void const* p) {
  A a;
  std::memcpy(&a, p, sizeof a);
  return text(a);
}

// The device buffers of a unit: the items (the largest size that fits), an output slot and the
// temporary storage of CUB's two-phase calls (allocated here, outside any timed region).
struct buffers {
  item* items = nullptr;
  void* out = nullptr;
  void* temp = nullptr;
  std::size_t temp_bytes = 0;
  long long max_n = 0;
  accumulator* partials = nullptr;  // a slot per block, for the decomposition of reduce's time

  bool dry = false;  // settings::dry: nothing allocated, the calls never made

  buffers(settings const& s, std::size_t bytes_per_item, unsigned long long seed) : dry(s.dry) {
    max_n = 1ll << s.max_log2;
    if (dry) return;
    std::size_t free_bytes = 0, total = 0;
    CASCADE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
    int lg = s.max_log2;
    while (lg > s.min_log2 && double(1ll << lg) * double(bytes_per_item) > 0.6 * double(free_bytes)) lg -= s.step;
    max_n = 1ll << lg;
    CASCADE_CUDA_CHECK(cudaMalloc(&items, static_cast<std::size_t>(max_n) * sizeof(item)));
    cascade_measure::fill(items, max_n, seed);
    CASCADE_CUDA_CHECK(cudaMalloc(&out, 256));
    CASCADE_CUDA_CHECK(cudaMalloc(&partials, (1 << 20) * sizeof(accumulator)));
  }
  ~buffers() {
    cudaFree(partials);
    cudaFree(items);
    cudaFree(out);
    cudaFree(temp);
  }
  buffers(buffers const&) = delete;
  buffers& operator=(buffers const&) = delete;
  void reserve_temp(std::size_t bytes) {
    if (bytes <= temp_bytes || dry) return;
    cudaFree(temp);
    CASCADE_CUDA_CHECK(cudaMalloc(&temp, bytes));
    temp_bytes = bytes;
  }
  std::vector<long long> sizes_of(settings const& s) const {
    std::vector<long long> v;
    for (long long n : rivals::sizes(s))
      if (n <= max_n) v.push_back(n);
    return v;
  }
  // A measurement over the first n items, every contender's result (out_bytes) landing in `out`.
  measurement measurement_of(std::string family, std::string config, long long n, std::size_t out_bytes) const {
    measurement m;
    m.family = std::move(family);
    m.config = std::move(config);
    m.item = item_name;
    m.n = n;
    m.bytes = double(n) * sizeof(item);
    m.items = items;
    m.out = out;
    m.out_bytes = out_bytes;
    return m;
  }
};

#if defined(RIVALS_FAMILY_IS_reduce)
// ---------------------------------------------------------------------------------------------------
// reduce: plus and minimum.

// The blocks' partials, one slot each, and nothing more: the kernel of a single-pass finish without
// the finish.
template <class A>
struct slot_sink {
  A* partials;
  __device__ void operator()(A const& v) const { partials[blockIdx.x] = v; }
};

template <class Policy, class Offset>
void partials_only(item const* in, Offset n, accumulator* partials) {
  namespace detail = cascade::detail;
  constexpr auto kernel = &detail::reduce_tiles_kernel<Policy::block_size, Policy::coarse_factor,
                                                       typename Policy::tree_type, accumulator, item const*, Offset,
                                                       cascade::plus, slot_sink<accumulator>>;
  unsigned const grid = detail::filled_grid<kernel, Policy>(detail::current_device(), n);
  detail::launch_reduce_tiles<Policy, accumulator>(in, n, cascade::plus{}, slot_sink<accumulator>{partials}, grid,
                                                   nullptr);
}

template <class Policy>
void add_decomposition(measurement& m, buffers& b, long long n) {
  item const* const in = b.items;
  auto* const d_out = static_cast<accumulator*>(b.out);
  std::string const shape = "<" + std::to_string(Policy::block_size) + ", " + std::to_string(Policy::coarse_factor);
  m.contenders.push_back({"cascade::reduce_into(" + shape + ", shuffle, flagged>)", "cascade", "with finish::flagged",
                          [in, d_out, n] {
                            cascade::reduce_into(Policy{}, in, in + n, d_out, accumulator(0), cascade::plus{});
                          }});
  auto* const partials = b.partials;
  m.contenders.push_back({"cascade " + shape + ", shuffle> kernel, partials only", "cascade", "no finish",
                          [in, n, partials] {
                            // cascade's offsets: 32-bit below 2^31 items (detail/dispatch.cuh)
                            if (n < (1ll << 31))
                              partials_only<Policy>(in, static_cast<cuda::std::uint32_t>(n), partials);
                            else partials_only<Policy>(in, static_cast<cuda::std::uint64_t>(n), partials);
                          },
                          false});
}

// Each GPU class's table on this GPU (tuned_policy), and the table they replaced: which table serves
// this GPU best, measured in the same alternating runs.
template <class CascadeOp, class... Classes>
void add_tables(measurement& m, item const* in, accumulator* d_out, long long n, accumulator init,
                cascade::tuning::gpu_list<Classes...>) {
  auto const add = [&](auto policy, char const* name) {
    m.contenders.push_back({std::string("cascade::reduce_into(tuned_policy<") + name + ">)", "cascade",
                            "deterministic (one table)", [policy, in, d_out, n, init] {
                              cascade::reduce_into(policy, in, in + n, d_out, init, CascadeOp{});
                            }});
  };
  static_assert(sizeof...(Classes) == 2, "add_tables names sm90_h100 and sm90_h200: name the new class too");
  add(cascade::tuned_policy<cascade::tuning::sm90_h100>{}, "sm90_h100");
  add(cascade::tuned_policy<cascade::tuning::sm90_h200>{}, "sm90_h200");
  add(cascade::tuned_policy<cascade::tuning::sm90_previous>{}, "sm90_previous");
}

template <class CascadeOp, class CubOp>
void reduce_op(settings const& s, sink& out, buffers& b, char const* op_name) {
  constexpr bool is_plus = std::is_same_v<CascadeOp, cascade::plus>;
  accumulator const init = cascade::identity<CascadeOp, accumulator>::value();
  accumulator* const d_out = static_cast<accumulator*>(b.out);
  item const* const in = b.items;
  std::size_t bytes = 0;
  CASCADE_CUDA_CHECK(cub::DeviceReduce::Reduce(nullptr, bytes, in, d_out, b.max_n, CubOp{}, init));
  b.reserve_temp(bytes);
  for (long long n : b.sizes_of(s)) {
    measurement m = b.measurement_of("reduce", std::string(item_name) + "-" + op_name, n, sizeof(accumulator));
    m.contenders.push_back({"cub::DeviceReduce::Reduce", "cub", "run_to_run (two-phase)", [&b, in, d_out, n, init] {
                              std::size_t bytes = b.temp_bytes;
                              CASCADE_CUDA_CHECK(cub::DeviceReduce::Reduce(b.temp, bytes, in, d_out, n, CubOp{}, init));
                            }});
#if RIVALS_CUB_ENV
    namespace determinism = cuda::execution::determinism;
    m.contenders.push_back({"cub::DeviceReduce::Reduce", "cub", "run_to_run (env)", [in, d_out, n, init] {
                              auto const env = cuda::execution::require(determinism::run_to_run);
                              CASCADE_CUDA_CHECK(cub::DeviceReduce::Reduce(in, d_out, n, CubOp{}, init, env));
                            }});
    if constexpr (is_plus) {  // for other ops CUB falls back to run_to_run
      m.contenders.push_back({"cub::DeviceReduce::Reduce", "cub", "not_guaranteed (env)", [in, d_out, n, init] {
                                auto const env = cuda::execution::require(determinism::not_guaranteed);
                                CASCADE_CUDA_CHECK(cub::DeviceReduce::Reduce(in, d_out, n, CubOp{}, init, env));
                              }});
    }
    if constexpr (is_plus && std::is_floating_point_v<item>) {  // float and double only
      m.contenders.push_back({"cub::DeviceReduce::Reduce", "cub", "gpu_to_gpu (env)", [in, d_out, n, init] {
                                auto const env = cuda::execution::require(determinism::gpu_to_gpu);
                                CASCADE_CUDA_CHECK(cub::DeviceReduce::Reduce(in, d_out, n, CubOp{}, init, env));
                              }});
    }
#endif
    m.contenders.push_back({"cascade::reduce_into(default_policy)", "cascade", "deterministic", [in, d_out, n, init] {
                              cascade::reduce_into(cascade::default_policy{}, in, in + n, d_out, init, CascadeOp{});
                            }});
    add_tables<CascadeOp>(m, in, d_out, n, init, cascade::tuning::tuned_gpus{});
    if constexpr (is_plus) {
      // Not deterministic for floating point (blocks add in any order): the rivals of not_guaranteed.
      using atomic_256 = cascade::policy<256, 16, cascade::tree::shuffle, cascade::finish::atomic>;
      using atomic_1024 = cascade::policy<1024, 16, cascade::tree::shuffle, cascade::finish::atomic>;
      m.contenders.push_back({"cascade::reduce_into(<256, 16, shuffle, atomic>)", "cascade", "not deterministic",
                              [in, d_out, n, init] {
                                cascade::reduce_into(atomic_256{}, in, in + n, d_out, init, CascadeOp{});
                              }});
      m.contenders.push_back({"cascade::reduce_into(<1024, 16, shuffle, atomic>)", "cascade", "not deterministic",
                              [in, d_out, n, init] {
                                cascade::reduce_into(atomic_1024{}, in, in + n, d_out, init, CascadeOp{});
                              }});
    }
    if constexpr (is_plus && std::is_same_v<item, float>) {
      // Where default_policy's time goes (float sums only): its two shapes for 2^15..2^30 with
      // finish::flagged, and the same kernel with no finish at all (each block stores its partial).
      add_decomposition<cascade::policy<512, 8, cascade::tree::shuffle, cascade::finish::flagged>>(m, b, n);
      add_decomposition<cascade::policy<1024, 16, cascade::tree::shuffle, cascade::finish::flagged>>(m, b, n);
    }
    m.agree = &accumulators_agree<is_plus>;
    m.format = &format_accumulator<>;
    out.add(std::move(m));
  }
}

void run_reduce(settings const& s, sink& out) {
  auto& b = out.keep<buffers>(s, sizeof(item), 0x5EED0000ull + sizeof(item) * 7 + std::is_integral_v<item>);
  reduce_op<cascade::plus, cuda::std::plus<accumulator>>(s, out, b, "plus");
  reduce_op<cascade::minimum, cuda::minimum<accumulator>>(s, out, b, "minimum");
}

#elif defined(RIVALS_FAMILY_IS_arg)
// ---------------------------------------------------------------------------------------------------
// argmin, argmax, minmax.

using indexed = cascade::indexed<item>;
using both = cascade::minmax_result<item>;

// CUB's rival of minmax: DeviceReduce::Reduce over {i, x[i]} pairs with this op (first index on ties,
// as ArgMin and ArgMax).
struct minmax_pair_op {
  __host__ __device__ both operator()(both const& a, both const& b) const {
    both r = a;
    if (b.min.value < a.min.value || (!(a.min.value < b.min.value) && b.min.index < a.min.index)) r.min = b.min;
    if (a.max.value < b.max.value || (!(b.max.value < a.max.value) && b.max.index < a.max.index)) r.max = b.max;
    return r;
  }
};
struct to_pair {
  item const* p;
  __host__ __device__ both operator()(std::int64_t i) const {
    indexed const x{i, p[i]};
    return {x, x};
  }
};

both minmax_init() {
  return {{std::numeric_limits<std::int64_t>::max(), cascade::identity<cascade::minimum, item>::value()},
          {std::numeric_limits<std::int64_t>::max(), cascade::identity<cascade::maximum, item>::value()}};
}

bool same_indexed(indexed const& a, indexed const& b) { return a.index == b.index && same_value(a.value, b.value); }
std::string text_indexed(indexed const& a) { return "{" + std::to_string(a.index) + ", " + text(a.value) + "}"; }

// argmin or argmax (Max) against CUB's.
template <bool Max>
contender cub_arg(buffers& b, item const* in, long long n) {
  auto* const slot = static_cast<indexed*>(b.out);
  return {Max ? "cub::DeviceReduce::ArgMax" : "cub::DeviceReduce::ArgMin", "cub", "run_to_run (two-phase)",
          [&b, in, slot, n] {
            std::size_t bytes = b.temp_bytes;
            if constexpr (Max)
              CASCADE_CUDA_CHECK(cub::DeviceReduce::ArgMax(b.temp, bytes, in, &slot->value, &slot->index, n));
            else
              CASCADE_CUDA_CHECK(cub::DeviceReduce::ArgMin(b.temp, bytes, in, &slot->value, &slot->index, n));
          }};
}

void cub_minmax(buffers& b, item const* in, long long n) {
  std::size_t bytes = b.temp_bytes;
  auto const pairs = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), to_pair{in});
  CASCADE_CUDA_CHECK(
      cub::DeviceReduce::Reduce(b.temp, bytes, pairs, static_cast<both*>(b.out), n, minmax_pair_op{}, minmax_init()));
}

// argmin under fixed shapes (--arg-shapes): which block size and items a thread serve the arg
// algorithms, whose accumulators ({index, value}) take more registers than reduce's.
template <int Block, int Vectors>
void add_arg_shape(measurement& m, item const* in, long long n, void* out) {
  constexpr int coarse = Vectors * static_cast<int>(16 / sizeof(item));
  using shape = cascade::policy<Block, coarse, cascade::tree::shuffle, cascade::finish::flagged>;
  auto* const slot = static_cast<indexed*>(out);
  m.contenders.push_back({"cascade::argmin_into(<" + std::to_string(Block) + ", " + std::to_string(coarse) +
                              ", shuffle, flagged>)",
                          "cascade", "deterministic (fixed shape)",
                          [in, slot, n] { cascade::argmin_into(shape{}, in, in + n, slot); }});
}

void run_arg(settings const& s, sink& out) {
  auto& b = out.keep<buffers>(s, sizeof(item), 0xA4600000ull + sizeof(item) * 7 + std::is_integral_v<item>);
  item const* const in = b.items;
  {
    std::size_t bytes = 0, most = 0;
    auto* const slot = static_cast<indexed*>(b.out);
    CASCADE_CUDA_CHECK(cub::DeviceReduce::ArgMin(nullptr, bytes, in, &slot->value, &slot->index, b.max_n));
    most = bytes;
    CASCADE_CUDA_CHECK(cub::DeviceReduce::ArgMax(nullptr, bytes, in, &slot->value, &slot->index, b.max_n));
    most = std::max(most, bytes);
    auto const pairs = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), to_pair{in});
    CASCADE_CUDA_CHECK(cub::DeviceReduce::Reduce(nullptr, bytes, pairs, static_cast<both*>(b.out), b.max_n,
                                           minmax_pair_op{}, minmax_init()));
    b.reserve_temp(std::max(most, bytes));
  }
  auto const base = [&](char const* family, long long n, std::size_t out_bytes) {
    return b.measurement_of(family, item_name, n, out_bytes);
  };
  for (long long n : b.sizes_of(s)) {
    for (int which = 0; which < 2; ++which) {
      bool const max = which == 1;
      measurement m = base(max ? "argmax" : "argmin", n, sizeof(indexed));
      m.contenders.push_back(max ? cub_arg<true>(b, in, n) : cub_arg<false>(b, in, n));
      auto* const slot = static_cast<indexed*>(b.out);
      if (max)
        m.contenders.push_back({"cascade::argmax_into(default_policy)", "cascade", "deterministic", [in, slot, n] {
                                  cascade::argmax_into(cascade::default_policy{}, in, in + n, slot);
                                }});
      else
        m.contenders.push_back({"cascade::argmin_into(default_policy)", "cascade", "deterministic", [in, slot, n] {
                                  cascade::argmin_into(cascade::default_policy{}, in, in + n, slot);
                                }});
      if (!max && s.arg_shapes) {
        add_arg_shape<256, 2>(m, in, n, b.out);
        add_arg_shape<256, 4>(m, in, n, b.out);
        add_arg_shape<256, 8>(m, in, n, b.out);
        add_arg_shape<512, 2>(m, in, n, b.out);
        add_arg_shape<512, 4>(m, in, n, b.out);
        add_arg_shape<512, 8>(m, in, n, b.out);
      }
      m.agree = [](void const* pa, void const* pb) {
        indexed a, c;
        std::memcpy(&a, pa, sizeof a);
        std::memcpy(&c, pb, sizeof c);
        return same_indexed(a, c);
      };
      m.format = [](void const* p) {
        indexed a;
        std::memcpy(&a, p, sizeof a);
        return text_indexed(a);
      };
      out.add(std::move(m));
    }
    measurement m = base("minmax", n, sizeof(both));
    m.contenders.push_back({"cub::DeviceReduce::Reduce (min-max pair op)", "cub", "run_to_run (two-phase)",
                            [&b, in, n] { cub_minmax(b, in, n); }});
    m.contenders.push_back({"cascade::minmax_into(default_policy)", "cascade", "deterministic", [&b, in, n] {
                              cascade::minmax_into(cascade::default_policy{}, in, in + n, static_cast<both*>(b.out));
                            }});
    // The values alone, as torch.aminmax and CuPy's (x.min(), x.max()) return them: the comparable
    // call for those (scripts/python_rivals_tables.py), one {min, max} tuple a call.
    using values = cuda::std::tuple<item, item>;
    m.contenders.push_back({"cascade::reduce_fused_into(default_policy, minimum, maximum)", "cascade",
                            "deterministic (values only)",
                            [&b, in, n] {
                              cascade::reduce_fused_into(cascade::default_policy{}, in, in + n,
                                                         static_cast<values*>(b.out), cascade::minimum{},
                                                         cascade::maximum{});
                            }});
    m.contenders.back().agree = [](void const* pa, void const* pb) {
      values a;
      both c;
      std::memcpy(&a, pa, sizeof a);
      std::memcpy(&c, pb, sizeof c);
      return same_value(cuda::std::get<0>(a), c.min.value) && same_value(cuda::std::get<1>(a), c.max.value);
    };
    m.contenders.back().format = [](void const* p) {
      values a;
      std::memcpy(&a, p, sizeof a);
      return "{min " + text(cuda::std::get<0>(a)) + ", max " + text(cuda::std::get<1>(a)) + "}";
    };
    m.agree = [](void const* pa, void const* pb) {
      both a, c;
      std::memcpy(&a, pa, sizeof a);
      std::memcpy(&c, pb, sizeof c);
      return same_indexed(a.min, c.min) && same_indexed(a.max, c.max);
    };
    m.format = [](void const* p) {
      both a;
      std::memcpy(&a, p, sizeof a);
      return "{min " + text_indexed(a.min) + ", max " + text_indexed(a.max) + "}";
    };
    out.add(std::move(m));
  }

  // What each returns for ties and NaN (not timings): 1000 items.
  if (s.dry) return;
  std::vector<std::pair<std::string, std::vector<float>>> inputs;
  inputs.push_back({"all equal (1000 x 1)", std::vector<float>(1000, 1.0f)});
  {
    std::vector<float> v(1000);
    for (int i = 0; i < 1000; ++i) v[i] = static_cast<float>(i % 10);  // 0..9 repeated: min at 0, 10, ...; max at 9
    inputs.push_back({"0..9 repeated 100 times", v});
  }
  if constexpr (!std::is_integral_v<item>) {
    float const nan = std::numeric_limits<float>::quiet_NaN();
    std::vector<float> v(1000);
    for (int i = 0; i < 1000; ++i) v[i] = static_cast<float>(i % 100);
    auto first = v, middle = v, all = std::vector<float>(1000, nan);
    first[0] = nan;
    middle[500] = nan;
    inputs.push_back({"NaN at 0, then i % 100", first});
    inputs.push_back({"i % 100 with NaN at 500", middle});
    inputs.push_back({"all NaN", all});
  }
  item* d = nullptr;
  CASCADE_CUDA_CHECK(cudaMalloc(&d, 1000 * sizeof(item)));
  for (auto const& [label, values] : inputs) {
    std::vector<item> h(values.size());
    for (std::size_t i = 0; i < h.size(); ++i) h[i] = static_cast<item>(values[i]);
    CASCADE_CUDA_CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(item), cudaMemcpyHostToDevice));
    auto* const slot = static_cast<indexed*>(b.out);
    auto const read_indexed = [&] {
      indexed r;
      CASCADE_CUDA_CHECK(cudaMemcpy(&r, slot, sizeof r, cudaMemcpyDeviceToHost));
      return text_indexed(r);
    };
    cub_arg<false>(b, d, 1000).call();
    std::string cub_text = "argmin " + read_indexed();
    cub_arg<true>(b, d, 1000).call();
    cub_text += ", argmax " + read_indexed();
    cub_minmax(b, d, 1000);
    both r;
    CASCADE_CUDA_CHECK(cudaMemcpy(&r, b.out, sizeof r, cudaMemcpyDeviceToHost));
    cub_text += ", minmax (Reduce, pair op) {" + text_indexed(r.min) + ", " + text_indexed(r.max) + "}";
    note(out, "arg", item_name, label, "cub", cub_text);
    auto const lo = cascade::argmin(cascade::default_policy{}, d, d + 1000);
    auto const hi = cascade::argmax(cascade::default_policy{}, d, d + 1000);
    auto const mm = cascade::minmax(cascade::default_policy{}, d, d + 1000);
    note(out, "arg", item_name, label, "cascade",
         "argmin " + text_indexed(lo) + ", argmax " + text_indexed(hi) + ", minmax {" + text_indexed(mm.min) + ", " +
             text_indexed(mm.max) + "}");
  }
  cudaFree(d);
}

#elif defined(RIVALS_FAMILY_IS_transform)
// ---------------------------------------------------------------------------------------------------
// transform_reduce: the sum of squares, against CUB's TransformReduce and against cascade's plain
// reduce of the same items (the bar: within 3% of it).

struct square {
  __host__ __device__ accumulator operator()(item x) const {
    auto const y = static_cast<accumulator>(x);
    return y * y;
  }
};

void run_transform(settings const& s, sink& out) {
  auto& b = out.keep<buffers>(s, sizeof(item), 0x7A450000ull + sizeof(item));
  item const* const in = b.items;
  auto* const d_out = static_cast<accumulator*>(b.out);
  {
    std::size_t bytes = 0;
    CASCADE_CUDA_CHECK(cub::DeviceReduce::TransformReduce(nullptr, bytes, in, d_out, b.max_n,
                                                    cuda::std::plus<accumulator>{}, square{}, accumulator(0)));
    b.reserve_temp(bytes);
  }
  for (long long n : b.sizes_of(s)) {
    measurement m = b.measurement_of("transform_reduce", std::string(item_name) + "-sum-of-squares", n,
                                     sizeof(accumulator));
    m.contenders.push_back({"cub::DeviceReduce::TransformReduce", "cub", "run_to_run (two-phase)", [&b, in, d_out, n] {
                              std::size_t bytes = b.temp_bytes;
                              CASCADE_CUDA_CHECK(cub::DeviceReduce::TransformReduce(b.temp, bytes, in, d_out, n,
                                                                              cuda::std::plus<accumulator>{}, square{},
                                                                              accumulator(0)));
                            }});
    m.contenders.push_back({"cascade::transform_reduce_into(default_policy)", "cascade", "deterministic",
                            [in, d_out, n] {
                              cascade::transform_reduce_into(cascade::default_policy{}, in, in + n, d_out,
                                                             accumulator(0), cascade::plus{}, square{});
                            }});
    // The same bytes reduced without the transform: a different result, so not compared.
    m.contenders.push_back({"cascade::reduce_into(default_policy) of the items", "cascade", "plain reduce, same bytes",
                            [in, d_out, n] {
                              cascade::reduce_into(cascade::default_policy{}, in, in + n, d_out, accumulator(0),
                                                   cascade::plus{});
                            },
                            false});
    m.agree = &accumulators_agree<true>;
    m.format = &format_accumulator<>;
    out.add(std::move(m));
  }
}

#elif defined(RIVALS_FAMILY_IS_exact)
// ---------------------------------------------------------------------------------------------------
// exact: cascade::exact_plus and reproducible_plus (the same bits under every policy) against CUB's
// sum in each determinism mode (gpu_to_gpu, CCCL's reproducible sum, where the CCCL has it) and
// cascade's plain sum, plus a few fixed shapes of each (which the default policy's entries chose
// from). Results agree within the float tolerance: exact_plus is the correctly rounded sum,
// reproducible_plus within its bound of it, CUB's and the plain sum are not.

template <int Block, int Coarse, class Op>
void add_exact_shape(measurement& m, item const* in, item* d_out, long long n) {
  using shape = cascade::policy<Block, Coarse, cascade::tree::shuffle, cascade::finish::flagged>;
  constexpr bool exact = std::is_same_v<Op, cascade::exact_plus>;
  m.contenders.push_back({"cascade::reduce_into(<" + std::to_string(Block) + ", " + std::to_string(Coarse) +
                              ", shuffle, flagged>, " + (exact ? "exact_plus)" : "reproducible_plus)"),
                          "cascade", exact ? "exact" : "reproducible", [in, d_out, n] {
                            cascade::reduce_into(shape{}, in, in + n, d_out, item(0), Op{});
                          }});
}

template <class Op>
void add_exact_shapes(measurement& m, item const* in, item* d_out, long long n) {
  add_exact_shape<128, 16, Op>(m, in, d_out, n);
  add_exact_shape<256, 8, Op>(m, in, d_out, n);
  add_exact_shape<256, 16, Op>(m, in, d_out, n);
  add_exact_shape<256, 32, Op>(m, in, d_out, n);
  add_exact_shape<512, 8, Op>(m, in, d_out, n);
  add_exact_shape<512, 16, Op>(m, in, d_out, n);
  add_exact_shape<512, 32, Op>(m, in, d_out, n);
}

void run_exact(settings const& s, sink& out) {
  static_assert(std::is_floating_point_v<item>, "the exact family runs over float and double");
  auto& b = out.keep<buffers>(s, sizeof(item), 0x5EED0000ull + sizeof(item) * 7);
  item* const d_out = static_cast<item*>(b.out);
  item const* const in = b.items;
  std::size_t bytes = 0;
  CASCADE_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, in, d_out, b.max_n));
  b.reserve_temp(bytes);
  for (long long n : b.sizes_of(s)) {
    measurement m = b.measurement_of("exact", std::string(item_name) + "-exact", n, sizeof(item));
    m.contenders.push_back({"cub::DeviceReduce::Sum", "cub", "run_to_run (two-phase)", [&b, in, d_out, n] {
                              std::size_t bytes = b.temp_bytes;
                              CASCADE_CUDA_CHECK(cub::DeviceReduce::Sum(b.temp, bytes, in, d_out, n));
                            }});
#if RIVALS_CUB_ENV
    namespace determinism = cuda::execution::determinism;
    m.contenders.push_back({"cub::DeviceReduce::Sum", "cub", "gpu_to_gpu (env)", [in, d_out, n] {
                              auto const env = cuda::execution::require(determinism::gpu_to_gpu);
                              CASCADE_CUDA_CHECK(cub::DeviceReduce::Sum(in, d_out, n, env));
                            }});
    m.contenders.push_back({"cub::DeviceReduce::Sum", "cub", "not_guaranteed (env)", [in, d_out, n] {
                              auto const env = cuda::execution::require(determinism::not_guaranteed);
                              CASCADE_CUDA_CHECK(cub::DeviceReduce::Sum(in, d_out, n, env));
                            }});
#endif
    m.contenders.push_back({"cascade::reduce_into(default_policy, plus)", "cascade", "deterministic", [in, d_out, n] {
                              cascade::reduce_into(cascade::default_policy{}, in, in + n, d_out, item(0),
                                                   cascade::plus{});
                            }});
    m.contenders.push_back({"cascade::reduce_into(default_policy, exact_plus)", "cascade", "exact", [in, d_out, n] {
                              cascade::reduce_into(cascade::default_policy{}, in, in + n, d_out, item(0),
                                                   cascade::exact_plus{});
                            }});
    m.contenders.push_back({"cascade::reduce_into(default_policy, reproducible_plus)", "cascade", "reproducible",
                            [in, d_out, n] {
                              cascade::reduce_into(cascade::default_policy{}, in, in + n, d_out, item(0),
                                                   cascade::reproducible_plus{});
                            }});
    if (s.arg_shapes) {  // --arg-shapes: also both ops under fixed shapes
      add_exact_shapes<cascade::exact_plus>(m, in, d_out, n);
      add_exact_shapes<cascade::reproducible_plus>(m, in, d_out, n);
    }
    m.agree = &accumulators_agree<true>;
    m.format = &format_accumulator<>;
    out.add(std::move(m));
  }
}

#else
#error "RIVALS_FAMILY_IS_reduce, _arg, _transform or _exact: one of them, as RIVALS_FAMILY says"
#endif

}  // namespace impl_<family>_<item>

#define RIVALS_RUN2(family) run_##family
#define RIVALS_RUN(family) RIVALS_RUN2(family)
void RIVALS_UNIT(RIVALS_FAMILY, RIVALS_ITEM_NAME)(settings const& s, sink& out) {
  RIVALS_UNIT_IMPL(RIVALS_FAMILY, RIVALS_ITEM_NAME)::RIVALS_RUN(RIVALS_FAMILY)(s, out);
}

}  // namespace rivals
