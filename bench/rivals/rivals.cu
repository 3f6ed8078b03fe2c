// cascade-rivals: every algorithm cascade ships against CUB's, on the same buffers, as NVBench
// benchmarks, one a unit (an algorithm family and an item type: reduce-float, arg-int8, ...):
//   reduce            reduce_into(default_policy), each GPU class's table and non-deterministic
//                     cascade policies (finish::atomic) against DeviceReduce::Reduce: two-phase
//                     (temporary storage allocated outside the timed region) and, with CCCL >= 3.5, the
//                     single-phase env call in each determinism mode it accepts;
//   argmin, argmax    argmin_into/argmax_into(default_policy) against DeviceReduce::ArgMin/ArgMax;
//   minmax            minmax_into(default_policy) against DeviceReduce::Reduce with a min-max pair op
//                     (CUB has no public ArgMinMax);
//   transform_reduce  transform_reduce_into (sum of squares) against DeviceReduce::TransformReduce and
//                     against cascade's own reduce of the same bytes;
//   exact             exact_plus and reproducible_plus against CUB's sum in each determinism mode.
// A benchmark's axes: Contender (each call of the unit, "name [mode]", and "read ceiling": a 16-byte
// streaming read of the same bytes), Round (0..2), Elements (2^10..2^30 every 2^2; any power of two
// from 2^10 to 2^30 may be asked for) and Config (e.g. "reduce/float-plus", "minmax/float"). The first
// axis varies fastest, so the contenders of one size take turns, round after round; ratios against
// the reference (the first CUB call) are taken round by round when the results are read
// (scripts/results_io.py, rivals_rows). Every state's call is checked once against the reference's
// result (a disagreement fails the state and the program's exit status), then timed: cascade's hot
// (bench/support/nvbench_hot.cuh: every call of the size in alternating runs, c0, c1, ..., c0, c1,
// ..., at the round's first state, as cascade's timer takes rivals) and NVBench's cold (51 samples)
// and batch, state by state. What each library returns for ties and NaN goes to --notes. Built twice
// (bench/meson.build): against the toolkit's CCCL and against the newest (PyPI); every state records
// its CCCL.
//
//   cascade-rivals [--families reduce,arg,transform,exact] [--units reduce-float,arg-int8,...]
//                  [--arg-shapes] [--notes FILE] [NVBench's options: --json FILE, -a Round=[0:4], ...]
//   scripts/nvbench-run.sh build-bench/bench/cascade-rivals OUT.json --families reduce,arg
//   cascade-rivals --versions
#include <nvbench/nvbench.cuh>

#include <cascade/error.cuh>
#include <cuda/std/cstdint>
#include <cuda/std/version>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "measure/ceiling.cuh"
#include "support/nvbench_check.cuh"
#include "support/nvbench_hot.cuh"
#include "support/nvbench_program.cuh"
#include "rivals.cuh"

namespace rivals {

// The units, one per algorithm family and item type (unit.cu, built once for each; bench/meson.build).
#if RIVALS_FEW  // -Dmerge-units=true, a build that only compile-checks: bench/meson.build's rivals_few
#define RIVALS_UNITS(X) \
  X(reduce, float) X(reduce, int8) X(reduce, half) X(arg, double) X(transform, half) X(exact, double)
#else
#define RIVALS_UNITS(X)                                                                                       \
  X(reduce, float) X(reduce, double) X(reduce, int32) X(reduce, int64) X(reduce, int8) X(reduce, half)         \
  X(arg, float) X(arg, double) X(arg, int32) X(arg, int8) X(arg, half)                                        \
  X(transform, float) X(transform, double) X(transform, half) X(exact, float) X(exact, double)
#endif
#define RIVALS_DECLARE(family, item) void unit_##family##_##item(settings const&, sink&);
RIVALS_UNITS(RIVALS_DECLARE)
#undef RIVALS_DECLARE

struct unit {
  char const* key;     // e.g. "reduce-float"
  char const* family;  // "reduce" (plus and minimum), "arg" (argmin, argmax, minmax), "transform", "exact"
  void (*build)(settings const&, sink&);
};

std::vector<unit> const& units() {
#define RIVALS_ENTRY(family, item) {#family "-" #item, #family, &unit_##family##_##item},
  static std::vector<unit> const all = {RIVALS_UNITS(RIVALS_ENTRY)};
#undef RIVALS_ENTRY
  return all;
}

std::string cccl_version() {
  return std::to_string(CCCL_MAJOR_VERSION) + "." + std::to_string(CCCL_MINOR_VERSION) + "." +
         std::to_string(CCCL_PATCH_VERSION);
}

std::vector<long long> sizes(settings const& s) {
  std::vector<long long> v;
  for (int lg = s.min_log2; lg <= s.max_log2; lg += s.step) v.push_back(1ll << lg);
  return v;
}

namespace {

std::string quoted(std::string const& s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  return q + "\"";
}

}  // namespace

void note(sink& out, std::string const& family, std::string const& item, std::string const& input,
          std::string const& library, std::string const& result) {
  out.notes.push_back("{\"kind\": \"semantics\", \"family\": " + quoted(family) + ", \"item\": " + quoted(item) +
                     ", \"input\": " + quoted(input) + ", \"library\": " + quoted(library) +
                     ", \"cccl\": " + quoted(cccl_version()) + ", \"result\": " + quoted(result) + "}");
}

namespace {

std::string label(contender const& c) { return c.name + " [" + c.mode + "]"; }
std::string config_of(measurement const& m) { return m.family + "/" + m.config; }
constexpr char const* ceiling_label = "read ceiling";

// A measurement's results, from each contender's one call before any is timed.
struct checked {
  std::vector<bool> agrees;
  std::vector<std::string> results;
  // The read ceiling's launch, the best of four grids (none where the bytes are not a multiple of 16).
  std::optional<cascade_measure::read_launch> ceiling;
  // Each round's hot samples, a list per contender: taken in alternating runs at the round's first
  // state (support/nvbench_hot.cuh, hot_group_samples).
  std::map<long long, std::vector<std::vector<double>>> hot;
};

// The unit whose states run now, with its buffers and measurements (NVBench runs one benchmark's
// states before the next's): built at its first state, freed when another unit's state comes.
struct live_unit {
  unit const* u = nullptr;
  std::unique_ptr<sink> out;
  std::map<std::pair<std::string, long long>, measurement const*> by_key;
  std::map<measurement const*, checked> checks;
};

settings& program_settings() {
  static settings s;
  return s;
}

live_unit& current_unit() {
  static live_unit current;
  return current;
}

live_unit& live(unit const& u) {
  auto& current = current_unit();
  if (current.u == nullptr) cascade_nvbench::before_exit().push_back([] { current_unit() = live_unit{}; });
  if (current.u != &u) {
    current = live_unit{};
    current.u = &u;
    current.out = std::make_unique<sink>();
    u.build(program_settings(), *current.out);
    for (auto const& m : current.out->measurements) current.by_key[{config_of(m), m.n}] = &m;
    for (auto& row : current.out->notes) cascade_nvbench::notes().push_back(row);
  }
  return current;
}

checked& check(live_unit& lu, measurement const& m) {
  auto const found = lu.checks.find(&m);
  if (found != lu.checks.end()) return found->second;
  checked c;
  std::size_t const k = m.contenders.size();
  std::vector<std::vector<unsigned char>> results(k, std::vector<unsigned char>(m.out_bytes));
  for (std::size_t i = 0; i < k; ++i) {  // each call once, into a poisoned slot
    CASCADE_CUDA_CHECK(cudaMemset(m.out, 0xA5, m.out_bytes));
    m.contenders[i].call();
    CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
    CASCADE_CUDA_CHECK(cudaMemcpy(results[i].data(), m.out, m.out_bytes, cudaMemcpyDeviceToHost));
  }
  for (std::size_t i = 0; i < k; ++i) {
    auto const& agree = m.contenders[i].agree ? m.contenders[i].agree : m.agree;
    auto const& format = m.contenders[i].format ? m.contenders[i].format : m.format;
    c.agrees.push_back(!m.contenders[i].checked || agree(results[i].data(), results[m.reference].data()));
    c.results.push_back(format(results[i].data()));
  }
  if (std::fmod(m.bytes, 16.0) == 0)
    c.ceiling = cascade_measure::best_read(cascade_nvbench::hot_timer(), m.items, static_cast<std::size_t>(m.bytes),
                                           cascade_bench::mode::hot)
                    .first;
  return lu.checks[&m] = std::move(c);
}

// What a state is, for the results: hidden from NVBench's tables, in its JSON.
void describe(nvbench::state& state, measurement const& m, std::string const& name, std::string const& library,
              std::string const& mode, std::string const& result, char const* agrees) {
  auto& s = state.add_summary("cascade/rivals/row");
  s.set_string("name", "Row");
  s.set_string("hide", "cascade-rivals' description of the state");
  s.set_string("description", "family, config, item, bytes, name, library, mode, reference, result, agrees, cccl");
  s.set_string("value", "{\"family\": " + quoted(m.family) + ", \"config\": " + quoted(m.config) +
                            ", \"item\": " + quoted(m.item) + ", \"bytes\": " + std::to_string(m.bytes) +
                            ", \"name\": " + quoted(name) + ", \"library\": " + quoted(library) +
                            ", \"mode\": " + quoted(mode) + ", \"reference\": " +
                            quoted(label(m.contenders[m.reference])) + ", \"result\": " + quoted(result) +
                            ", \"agrees\": " + agrees + ", \"cccl\": " + quoted(cccl_version()) + "}");
}

// The hot samples of the state's call (the i-th contender), from the round's alternating runs of
// every contender of the measurement. The read ceiling is not among them: at 2^24 4-byte items, just
// over L2, a call's hot time depends on what read the buffer before it, and CUB's two-phase reduce took
// 19.0 us after the ceiling's kernel where it takes 21.6 after another reduce (docs/notes/nvbench-harness.md).
std::vector<double> const& hot_samples(checked& c, measurement const& m, long long round, std::size_t i) {
  auto found = c.hot.find(round);
  if (found == c.hot.end()) {
    std::vector<std::function<void()>> calls;
    for (auto const& x : m.contenders) calls.push_back(x.call);
    found = c.hot.emplace(round, cascade_nvbench::hot_group_samples(calls)).first;
  }
  return found->second[i];
}

template <class Call>
void time_state(nvbench::state& state, measurement const& m, std::vector<double> const& hot, Call const& call) {
  // The calls enqueue on the legacy default stream: NVBench's events, flush and blocking kernel too.
  state.set_cuda_stream(nvbench::make_cuda_stream_view(cudaStream_t{}));
  state.add_element_count(m.n);
  state.add_global_memory_reads(static_cast<std::size_t>(m.bytes));
  cascade_nvbench::add_hot_samples(state, hot);
  state.exec([&](nvbench::launch&) { call(); });
}

void run_state(nvbench::state& state) {
  std::string const& key = state.get_benchmark().get_name();
  auto const u = std::find_if(units().begin(), units().end(), [&](unit const& x) { return key == x.key; });
  if (u == units().end()) return state.skip("no unit " + key);
  auto& lu = live(*u);
  auto const found = lu.by_key.find({state.get_string("Config"), state.get_int64("Elements")});
  if (found == lu.by_key.end()) return state.skip("no measurement of this size (2^10..2^30, as device memory allows)");
  measurement const& m = *found->second;
  std::string const who = state.get_string("Contender");
  long long const round = state.get_int64("Round");
  auto& c = check(lu, m);
  if (who == ceiling_label) {
    if (!c.ceiling) return state.skip("the ceiling reads 16-byte loads: bytes not a multiple of 16");
    auto const& ceiling = *c.ceiling;
    describe(state, m, ceiling_label, "ceiling", std::to_string(ceiling.blocks_per_sm) + " blocks of 512 an SM", "",
             "null");
    return time_state(state, m, cascade_nvbench::hot_timer().samples_us_budget(ceiling, cascade_bench::mode::hot),
                      ceiling);
  }
  for (std::size_t i = 0; i < m.contenders.size(); ++i) {
    auto const& x = m.contenders[i];
    if (label(x) != who) continue;
    if (!c.agrees[i]) {
      std::string const why = m.family + " " + m.config + " n=" + std::to_string(m.n) + ": " + who + " gives " +
                              c.results[i] + ", " + label(m.contenders[m.reference]) + " gives " +
                              c.results[m.reference];
      if (round == 0) return cascade_nvbench::disagree(state, why);
      return state.skip("DISAGREES: " + why);
    }
    describe(state, m, x.name, x.library, x.mode, c.results[i], x.checked ? "true" : "null");
    return time_state(state, m, hot_samples(c, m, round, i), x.call);
  }
  state.skip("not a contender of this measurement");
}

struct unit_benchmark {
  void operator()(nvbench::state& state, nvbench::type_list<>) { run_state(state); }
};

// Before NVBench reads the command line: the program's own options, then one benchmark a unit, its
// axes from the unit's measurements built without memory (settings::dry).
void register_units(std::vector<std::string>& args) {
  {
    // CUB's single-phase (env) calls allocate their temporary storage with cudaMallocAsync from the
    // device's default pool. Its default release threshold (0) hands the memory back at every
    // synchronization, and mapping it again costs 10-40 us of GPU time per call and slows the next
    // call's first touches (measured 2026-11-24 on an H200): the CUDA guide's advice for allocations in
    // a loop is to keep it, as here.
    cudaMemPool_t pool;
    CASCADE_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
    cuda::std::uint64_t keep = ~cuda::std::uint64_t{0};
    CASCADE_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
  }
  auto& s = program_settings();
  s.arg_shapes = cascade_nvbench::take_flag(args, "--arg-shapes");
  auto const split = [](std::string const& list) {
    std::vector<std::string> v;
    for (std::size_t b = 0; b < list.size();) {
      std::size_t e = list.find(',', b);
      if (e == std::string::npos) e = list.size();
      if (e > b) v.push_back(list.substr(b, e - b));
      b = e + 1;
    }
    return v;
  };
  auto const families = split(cascade_nvbench::take_option(args, "--families"));
  auto const only = split(cascade_nvbench::take_option(args, "--units"));
  // A name that matches nothing would leave no -b, and NVBench would run every benchmark.
  for (auto const& x : only)
    if (std::none_of(units().begin(), units().end(), [&](unit const& u) { return x == u.key; }))
      throw std::invalid_argument("cascade-rivals: unknown unit " + x + " (the units: --list)");
  for (auto const& x : families)
    if (std::none_of(units().begin(), units().end(), [&](unit const& u) { return x == u.family; }))
      throw std::invalid_argument("cascade-rivals: unknown family " + x + " (reduce, arg, transform, exact)");
  for (auto const& u : units()) {
    settings dry = s;
    dry.dry = true;
    sink names;
    u.build(dry, names);
    std::vector<std::string> configs, contenders;
    auto const add = [](std::vector<std::string>& v, std::string const& x) {
      if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
    };
    for (auto const& m : names.measurements) {
      add(configs, config_of(m));
      for (auto const& c : m.contenders) add(contenders, label(c));
    }
    contenders.push_back(ceiling_label);
    cascade_nvbench::cascade_settings(nvbench::benchmark_manager::get()
                                          .add(std::make_unique<nvbench::benchmark<unit_benchmark>>())
                                          .set_name(u.key)
                                          .add_string_axis("Contender", contenders)
                                          .add_int64_axis("Round", {0, 1, 2})
                                          .add_int64_power_of_two_axis("Elements", nvbench::range(10, 30, 2))
                                          .add_string_axis("Config", configs));
    bool const wanted = only.empty() ? !families.empty() && std::find(families.begin(), families.end(), u.family) !=
                                                                families.end()
                                     : std::find(only.begin(), only.end(), u.key) != only.end();
    if (wanted) args.insert(args.end(), {"-b", u.key});
  }
}

[[maybe_unused]] bool const registered = (cascade_nvbench::before_parse() = &register_units, true);

}  // namespace

}  // namespace rivals
