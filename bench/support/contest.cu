// bench/support/contest.cu: the NVBench driver of contest.cuh's programs (cascade-rivals,
// cascade-bench, cascade-segmented, ...): the benchmarks a unit each, the checks, the timing of a state.
#include "contest.cuh"

#include <cascade/error.cuh>
#include <cuda/std/cstdint>
#include <cuda/std/version>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <stdexcept>

#include "measure/ceiling.cuh"
#include "nvbench_check.cuh"
#include "nvbench_hot.cuh"
#include "nvbench_program.cuh"

namespace contest {

std::string quoted(std::string const& s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  return q + "\"";
}

std::string cccl_version() {
  return std::to_string(CCCL_MAJOR_VERSION) + "." + std::to_string(CCCL_MINOR_VERSION) + "." +
         std::to_string(CCCL_PATCH_VERSION);
}

namespace {

std::string label(contender const& c) { return c.mode.empty() ? c.name : c.name + " [" + c.mode + "]"; }
std::string config_of(measurement const& m) { return m.family + "/" + m.config; }
constexpr char const* ceiling_label = "read ceiling";

// A measurement's results, from each contender's one call before any is timed.
struct checked {
  std::vector<bool> agrees;
  std::vector<std::string> results;
  // The read ceiling's launch, the best of four grids (none where its bytes are not a multiple of 16).
  std::optional<cascade_measure::read_launch> ceiling;
  // Each round's hot samples, a list per contender (empty for those not timed in the round's
  // alternation): taken at the round's first state that needs them.
  std::map<long long, std::vector<std::vector<double>>> hot, wall;
};

program& the_program() {
  static program p;
  return p;
}

// The unit whose states run now, with its buffers and measurements (NVBench runs one benchmark's
// states before the next's): built at its first state, freed when another unit's state comes.
struct live_unit {
  unit const* u = nullptr;
  std::unique_ptr<sink> out;
  std::map<std::pair<std::string, long long>, measurement const*> by_key;
  std::map<measurement const*, checked> checks;
  std::map<std::pair<std::string, std::string>, double> worst_ratio;  // (config, contender): hopeless ones
};

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
    u.build(false, *current.out);
    for (auto const& m : current.out->measurements) current.by_key[{config_of(m), m.n}] = &m;
    for (auto& row : current.out->notes) cascade_nvbench::notes().push_back(row);
  }
  return current;
}

std::vector<unsigned char> result_of(measurement const& m, contender const& c) {
  if (m.out != nullptr) CASCADE_CUDA_CHECK(cudaMemset(m.out, 0xA5, m.out_bytes));  // a poisoned slot
  c.call();
  CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
  if (c.result) return c.result();
  std::vector<unsigned char> r(m.out_bytes);
  CASCADE_CUDA_CHECK(cudaMemcpy(r.data(), m.out, m.out_bytes, cudaMemcpyDeviceToHost));
  return r;
}

checked& check(live_unit& lu, measurement const& m) {
  auto const found = lu.checks.find(&m);
  if (found != lu.checks.end()) return found->second;
  checked c;
  auto const reference = result_of(m, m.contenders[m.reference]);
  for (auto const& x : m.contenders) {  // each call once; one result held at a time beside the reference's
    bool const is_reference = &x == &m.contenders[m.reference];
    std::vector<unsigned char> const own = is_reference ? std::vector<unsigned char>{} : result_of(m, x);
    unsigned char const* mine = is_reference ? reference.data() : own.data();
    auto const& agree = x.agree ? x.agree : m.agree;
    auto const& format = x.format ? x.format : m.format;
    c.agrees.push_back(!x.checked || agree(mine, reference.data()));
    c.results.push_back(format(mine));
  }
  double const ceiling_bytes = m.ceiling_bytes > 0 ? m.ceiling_bytes : m.bytes;
  if (m.items != nullptr && std::fmod(ceiling_bytes, 16.0) == 0)
    c.ceiling = cascade_measure::best_read(cascade_nvbench::hot_timer(), m.items,
                                           static_cast<std::size_t>(ceiling_bytes), cascade_bench::mode::hot)
                    .first;
  return lu.checks[&m] = std::move(c);
}

// What a state is, for the results: hidden from NVBench's tables, in its JSON.
void describe(nvbench::state& state, measurement const& m, std::string const& name, std::string const& library,
              std::string const& mode, std::string const& result, char const* agrees, std::string const& fields) {
  auto& s = state.add_summary("cascade/row");
  s.set_string("name", "Row");
  s.set_string("hide", "what the state is");
  s.set_string("description", "family, config, item, bytes, name, library, mode, reference, result, agrees, cccl, ...");
  s.set_string("value", "{\"family\": " + quoted(m.family) + ", \"config\": " + quoted(m.config) +
                            ", \"item\": " + quoted(m.item) + ", \"bytes\": " + std::to_string(m.bytes) +
                            ", \"name\": " + quoted(name) + ", \"library\": " + quoted(library) +
                            ", \"mode\": " + quoted(mode) + ", \"reference\": " +
                            quoted(label(m.contenders[m.reference])) + ", \"result\": " + quoted(result) +
                            ", \"agrees\": " + agrees + ", \"cccl\": " + quoted(cccl_version()) + m.fields + fields +
                            "}");
}

// The hot samples of the i-th contender (alternating or to_host), from the round's alternating runs
// of every contender of the measurement timed the same way. The read ceiling is not among them: at
// 2^24 4-byte items, just over L2, a call's hot time depends on what read the buffer before it, and
// CUB's two-phase reduce took 19.0 us after the ceiling's kernel where it takes 21.6 after another
// reduce (docs/notes/nvbench-harness.md).
std::vector<double> const& group_samples(checked& c, measurement const& m, long long round, std::size_t i) {
  bool const wall = m.contenders[i].how == timing::to_host;
  auto& rounds = wall ? c.wall : c.hot;
  auto found = rounds.find(round);
  if (found == rounds.end()) {
    std::vector<std::function<void()>> calls;
    std::vector<std::size_t> at;
    for (std::size_t k = 0; k < m.contenders.size(); ++k)
      if (m.contenders[k].how == m.contenders[i].how) calls.push_back(m.contenders[k].call), at.push_back(k);
    // calls that return to the host: by the host's clock, the device idle before each run
    auto samples = wall ? cascade_nvbench::hot_timer().wall_group_samples_us_budget(calls)
                        : cascade_nvbench::hot_group_samples(calls);
    std::vector<std::vector<double>> all(m.contenders.size());
    for (std::size_t k = 0; k < at.size(); ++k) all[at[k]] = std::move(samples[k]);
    found = rounds.emplace(round, std::move(all)).first;
  }
  return found->second[i];
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? NAN : v[v.size() / 2];
}

template <class Call>
void time_state(nvbench::state& state, measurement const& m, std::vector<double> const& hot, Call const& call,
                bool sync = false) {
  // The calls enqueue on the legacy default stream: NVBench's events, flush and blocking kernel too.
  state.set_cuda_stream(nvbench::make_cuda_stream_view(cudaStream_t{}));
  state.add_element_count(m.n);
  state.add_global_memory_reads(static_cast<std::size_t>(m.bytes));
  cascade_nvbench::add_hot_samples(state, hot);
  if (sync) state.exec(nvbench::exec_tag::sync, [&](nvbench::launch&) { call(); });
  else state.exec([&](nvbench::launch&) { call(); });
}

void run_state(nvbench::state& state) {
  auto& p = the_program();
  std::string const& key = state.get_benchmark().get_name();
  auto const u = std::find_if(p.units.begin(), p.units.end(), [&](unit const& x) { return key == x.key; });
  if (u == p.units.end()) return state.skip("no unit " + key);
  auto& lu = live(*u);
  auto const found = lu.by_key.find({state.get_string("Config"), state.get_int64("Elements")});
  if (found == lu.by_key.end()) return state.skip("no measurement of this configuration and size");
  measurement const& m = *found->second;
  std::string const who = state.get_string("Contender");
  long long const round = state.get_int64("Round");
  auto& c = check(lu, m);
  if (who == ceiling_label) {
    if (!c.ceiling) return state.skip("the ceiling reads 16-byte loads: bytes not a multiple of 16");
    auto const& ceiling = *c.ceiling;
    describe(state, m, ceiling_label, "ceiling", std::to_string(ceiling.blocks_per_sm) + " blocks of 512 an SM", "",
             "null", "");
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
      if (round == p.rounds.front()) return cascade_nvbench::disagree(state, why);
      return state.skip("DISAGREES: " + why);
    }
    std::vector<double> hot;
    if (x.how == timing::alone) {
      if (round != p.rounds.front()) return state.skip("timed in the first round only");
      auto& worst = lu.worst_ratio.try_emplace({m.config, who}, 1e300).first->second;
      if (worst < p.hopeless_below)
        return state.skip("over " + std::to_string(static_cast<int>(1 / p.hopeless_below)) +
                          "x slower than the reference at a smaller size");
      hot = cascade_nvbench::hot_timer().samples_us_budget(x.call, cascade_bench::mode::hot, 51, 1e4);
      worst = std::min(worst, median(group_samples(c, m, round, m.reference)) / median(hot));
    } else {
      hot = group_samples(c, m, round, i);
    }
    describe(state, m, x.name, x.library, x.mode, c.results[i], x.checked ? "true" : "null",
             x.fields + (x.how == timing::to_host ? ", \"hot_clock\": \"host\"" : ""));
    return time_state(state, m, hot, x.call, x.how == timing::to_host);
  }
  state.skip("not a contender of this measurement");
}

struct unit_benchmark {
  void operator()(nvbench::state& state, nvbench::type_list<>) { run_state(state); }
};

std::vector<nvbench::int64_t> as_int64(std::vector<long long> const& v) { return {v.begin(), v.end()}; }

bool is_power_of_two(long long x) { return x > 0 && (x & (x - 1)) == 0; }

// Before NVBench reads the command line: the program's own options, then one benchmark a unit, its
// axes from the unit's measurements built dry.
void declare_units(std::vector<std::string>& args) {
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
  auto& p = the_program();
  if (p.options) p.options(args);
  auto const families = cascade_nvbench::take_list(args, "--families");
  auto const only = cascade_nvbench::take_list(args, "--units");
  std::string known_families;
  for (auto const& u : p.units)
    if (known_families.find(u.family) == std::string::npos)
      known_families.append(known_families.empty() ? "" : ", ").append(u.family);
  // A name that matches nothing would leave no -b, and NVBench would run every benchmark.
  for (auto const& x : only)
    if (std::none_of(p.units.begin(), p.units.end(), [&](unit const& u) { return x == u.key; }))
      throw std::invalid_argument(p.name + ": unknown unit " + x + " (the units: --list)");
  for (auto const& x : families)
    if (std::none_of(p.units.begin(), p.units.end(), [&](unit const& u) { return x == u.family; }))
      throw std::invalid_argument(p.name + ": unknown family " + x + " (" + known_families + ")");
  bool const chosen = !families.empty() || !only.empty() || std::any_of(args.begin(), args.end(), [](auto const& a) {
                        return a == "-b" || a == "--benchmark";
                      });
  bool const some_not_by_default =
      std::any_of(p.units.begin(), p.units.end(), [](unit const& x) { return !x.by_default; });
  for (auto const& u : p.units) {
    sink names;
    u.build(true, names);
    std::vector<std::string> configs, contenders;
    std::vector<long long> elements = p.elements;
    auto const add = [](auto& v, auto const& x) {
      if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
    };
    for (auto const& m : names.measurements) {
      add(configs, config_of(m));
      if (p.elements.empty()) add(elements, m.n);
      for (auto const& c : m.contenders) add(contenders, label(c));
    }
    std::sort(elements.begin(), elements.end());
    contenders.push_back(ceiling_label);
    auto& b = cascade_nvbench::cascade_settings(nvbench::benchmark_manager::get()
                                                    .add(std::make_unique<nvbench::benchmark<unit_benchmark>>())
                                                    .set_name(u.key)
                                                    .add_string_axis("Contender", contenders)
                                                    .add_int64_axis("Round", as_int64(p.rounds)));
    if (std::all_of(elements.begin(), elements.end(), is_power_of_two)) {
      std::vector<nvbench::int64_t> lg;
      for (long long n : elements) lg.push_back(static_cast<long long>(std::log2(static_cast<double>(n))));
      b.add_int64_power_of_two_axis("Elements", lg);
    } else {
      b.add_int64_axis("Elements", as_int64(elements));
    }
    b.add_string_axis("Config", configs);
    // unchosen, with every unit by default: no -b, NVBench runs them all
    bool const wanted = !chosen        ? some_not_by_default && u.by_default
                        : only.empty() ? std::find(families.begin(), families.end(), u.family) != families.end()
                                       : std::find(only.begin(), only.end(), u.key) != only.end();
    if (wanted) args.insert(args.end(), {"-b", u.key});
  }
}

}  // namespace

bool declare(program (*make)()) {
  the_program() = make();
  cascade_nvbench::before_parse() = &declare_units;
  return true;
}

}  // namespace contest
