// cascade-rivals: every algorithm cascade ships against CUB's, on the same buffers, in alternating
// runs, hot and cold, at the sizes of the sweep (2^10..2^30 in steps of 2^2), with the read ceiling
// beside them:
//   reduce            reduce_into(default_policy) and non-deterministic cascade policies (finish::atomic)
//                     against DeviceReduce::Reduce: two-phase (temporary storage allocated outside the
//                     timed region) and, with CCCL >= 3.5, the single-phase env call in each determinism
//                     mode it accepts (run_to_run, not_guaranteed, gpu_to_gpu);
//   argmin, argmax    argmin_into/argmax_into(default_policy) against DeviceReduce::ArgMin/ArgMax;
//   minmax            minmax_into(default_policy) against DeviceReduce::Reduce with a min-max pair op
//                     (CUB has no public ArgMinMax);
//   transform_reduce  transform_reduce_into (sum of squares) against DeviceReduce::TransformReduce and
//                     against cascade's own reduce of the same bytes.
// Also, as rows that are not timings, what each library returns for ties and NaN.
// Built twice (bench/meson.build): against the toolkit's CCCL and against the newest (PyPI); every row
// records its CCCL. Every result is checked against CUB's; the exit status is 1 if any disagrees.
//
//   cascade-rivals [--out FILE] [--commit SHA] [--driver VERSION] [--families reduce,arg,transform]
//                  [--units reduce-float,arg-int8,...] [--min-log2 10] [--max-log2 30] [--step 2] [--repeats 3]
//                  [--arg-shapes]
//   cascade-rivals --cccl-version
#include <cascade/error.cuh>
#include <cuda/std/cstdint>
#include <cuda/std/version>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "measure/ceiling.cuh"
#include "measure/env.cuh"
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
#define RIVALS_DECLARE(family, item) void unit_##family##_##item(settings const&, cascade_bench::timer&, sink&);
RIVALS_UNITS(RIVALS_DECLARE)
#undef RIVALS_DECLARE

struct unit {
  char const* key;     // e.g. "reduce-float"
  char const* family;  // "reduce" (plus and minimum), "arg" (argmin, argmax, minmax) or "transform"
  void (*run)(settings const&, cascade_bench::timer&, sink&);
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

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? NAN : v[v.size() / 2];
}

std::string num(double x) {
  char b[32];
  if (!std::isfinite(x)) return "null";
  std::snprintf(b, sizeof b, "%.4f", x);
  return b;
}

std::string list(std::vector<double> const& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + num(v[i]);
  return s + "]";
}

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
  out.rows.push_back("{\"kind\": \"semantics\", \"family\": " + quoted(family) + ", \"item\": " + quoted(item) +
                     ", \"input\": " + quoted(input) + ", \"library\": " + quoted(library) +
                     ", \"cccl\": " + quoted(cccl_version()) + ", \"result\": " + quoted(result) + "}");
}

void measure(cascade_bench::timer& t, settings const& s, measurement const& m, sink& out) {
  std::size_t const k = m.contenders.size();
  // Results first: each call once, into a poisoned slot, against the reference's.
  std::vector<std::vector<unsigned char>> results(k, std::vector<unsigned char>(m.out_bytes));
  for (std::size_t i = 0; i < k; ++i) {
    CASCADE_CUDA_CHECK(cudaMemset(m.out, 0xA5, m.out_bytes));
    m.contenders[i].call();
    CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
    CASCADE_CUDA_CHECK(cudaMemcpy(results[i].data(), m.out, m.out_bytes, cudaMemcpyDeviceToHost));
  }
  std::vector<bool> agrees(k);
  for (std::size_t i = 0; i < k; ++i) {
    auto const& agree = m.contenders[i].agree ? m.contenders[i].agree : m.agree;
    auto const& format = m.contenders[i].format ? m.contenders[i].format : m.format;
    agrees[i] = !m.contenders[i].checked || agree(results[i].data(), results[m.reference].data());
    if (!agrees[i]) {
      ++out.disagreements;
      std::fprintf(stderr, "\n%s %s n=%lld: %s (%s) gives %s, %s gives %s\n", m.family.c_str(), m.config.c_str(), m.n,
                   m.contenders[i].name.c_str(), m.contenders[i].mode.c_str(), format(results[i].data()).c_str(),
                   m.contenders[m.reference].name.c_str(), m.format(results[m.reference].data()).c_str());
    }
  }

  // The read ceiling for these bytes (16-byte loads: sizes that are a multiple of 16 bytes).
  double ceiling_hot = NAN, ceiling_cold = NAN;
  if (std::fmod(m.bytes, 16.0) == 0) {
    auto const bytes = static_cast<std::size_t>(m.bytes);
    ceiling_hot = cascade_measure::best_read_ceiling_us(t, m.items, bytes, cascade_bench::mode::hot);
    ceiling_cold = cascade_measure::best_read_ceiling_us(t, m.items, bytes, cascade_bench::mode::cold);
  }

  // Times: `repeats` rounds, each hot then cold, every contender in alternating runs.
  std::vector<std::function<void()>> calls;
  for (auto const& c : m.contenders) calls.push_back(c.call);
  std::vector<std::vector<double>> hot(k), cold(k), ratio_hot(k), ratio_cold(k);
  for (int r = 0; r < s.repeats; ++r) {
    auto const h = t.median_group_us_budget(calls, cascade_bench::mode::hot, 51, 2e5);
    auto const c = t.median_group_us_budget(calls, cascade_bench::mode::cold, 51, 2e5);
    for (std::size_t i = 0; i < k; ++i) {
      hot[i].push_back(h[i]), cold[i].push_back(c[i]);
      ratio_hot[i].push_back(h[m.reference] / h[i]), ratio_cold[i].push_back(c[m.reference] / c[i]);
    }
  }

  std::string const cccl = cccl_version();
  std::string line;
  char buf[160];
  std::snprintf(buf, sizeof buf, "%-16s %-14s 2^%-2d", m.family.c_str(), m.config.c_str(),
                static_cast<int>(std::lround(std::log2(double(m.n)))));
  line = buf;
  for (std::size_t i = 0; i < k; ++i) {
    auto const& c = m.contenders[i];
    double const h = median(hot[i]), co = median(cold[i]);
    out.rows.push_back(
        "{\"kind\": \"timing\", \"family\": " + quoted(m.family) + ", \"config\": " + quoted(m.config) +
        ", \"item\": " + quoted(m.item) + ", \"n\": " + std::to_string(m.n) + ", \"bytes\": " + num(m.bytes) +
        ", \"name\": " + quoted(c.name) + ", \"library\": " + quoted(c.library) + ", \"mode\": " + quoted(c.mode) +
        ", \"cccl\": " + quoted(cccl) + ", \"hot_us\": " + num(h) + ", \"cold_us\": " + num(co) +
        ", \"hot_gbps\": " + num(m.bytes / h / 1e3) + ", \"cold_gbps\": " + num(m.bytes / co / 1e3) +
        ", \"ceiling_hot_us\": " + num(ceiling_hot) + ", \"ceiling_cold_us\": " + num(ceiling_cold) +
        ", \"reference\": " + quoted(m.contenders[m.reference].name + " " + m.contenders[m.reference].mode) +
        ", \"ratio_hot\": " + num(median(ratio_hot[i])) + ", \"ratio_cold\": " + num(median(ratio_cold[i])) +
        ", \"hot_repeats_us\": " + list(hot[i]) + ", \"cold_repeats_us\": " + list(cold[i]) +
        ", \"result\": " + quoted((c.format ? c.format : m.format)(results[i].data())) +
        ", \"agrees\": " + (!c.checked ? "null" : agrees[i] ? "true" : "false") +
        "}");
    std::snprintf(buf, sizeof buf, " | %s %s %.2f/%.2f", c.library == "cascade" ? "cascade" : "cub", c.mode.c_str(),
                  h, co);
    line += buf;
  }
  std::snprintf(buf, sizeof buf, " | ceiling %.2f/%.2f", ceiling_hot, ceiling_cold);
  out.table.push_back(line + buf);
}

}  // namespace rivals

int main(int argc, char** argv) {
  using namespace rivals;
  // --cccl-version: which CCCL this program was built with, alone (scripts/rivals.sh names files by it).
  if (argc == 2 && std::string(argv[1]) == "--cccl-version") return std::printf("%s\n", cccl_version().c_str()) < 0;
  settings s;
  cascade_bench::options io;
  std::vector<std::string> families, only;
  cascade_bench::cli line("cascade-rivals",
                          "every cascade algorithm against CUB's (every determinism mode this CCCL offers), hot and "
                          "cold, on the same buffers in alternating runs, with the read ceiling (GPU time).");
  cascade_bench::add_options(line, io);
  line.list("--families", &families, "reduce, arg (argmin, argmax, minmax), transform, exact (default: all)")
      .list("--units", &only, "units to run, e.g. reduce-float,arg-int8 (default: all of the families)")
      .option("--min-log2", &s.min_log2, "smallest size, log2 (default 10)")
      .option("--max-log2", &s.max_log2, "largest size, log2 (default 30)")
      .option("--step", &s.step, "log2 step between sizes (default 2)")
      .option("--repeats", &s.repeats, "rounds of alternating runs, each hot and cold (default 3)")
      .flag("--arg-shapes", [&s] { s.arg_shapes = true; },
            "argmin also under fixed policies: 256 and 512 threads, 2, 4 and 8 vectors a thread, finish::flagged");
  if (auto const status = line.parse(argc, argv)) return *status;
  s.repeats = std::max(1, s.repeats);
  s.step = std::max(1, s.step);
  for (auto const& u : only) {
    bool known = false;
    for (auto const& x : units()) known = known || u == x.key;
    if (!known) {
      std::fprintf(stderr, "cascade-rivals: unknown unit %s (see --help)\n", u.c_str());
      return 2;
    }
  }
  if (!cascade_bench::have_gpu("cascade-rivals")) return 2;
  auto const env = cascade_bench::read_environment();
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
  cascade_bench::timer t;
  sink out;
  for (auto const& u : units()) {
    bool const wanted = only.empty() ? families.empty() || std::find(families.begin(), families.end(), u.family) !=
                                                               families.end()
                                     : std::find(only.begin(), only.end(), u.key) != only.end();
    if (!wanted) continue;
    std::fprintf(stderr, "%s ...\n", u.key);
    u.run(s, t, out);
  }
  std::printf("%s (%d SMs, %.0f MB L2), CUDA runtime %d, driver %s, CCCL %s, %s\n", env.gpu.c_str(), env.sm_count,
              env.l2_mb, env.runtime, io.driver.c_str(), cccl_version().c_str(), env.date.c_str());
  std::printf("medians of %d rounds, us hot/cold (GPU time)\n", s.repeats);
  for (auto const& l : out.table) std::printf("%s\n", l.c_str());
  std::printf("%d results disagree with CUB's\n", out.disagreements);
  if (!io.out_path.empty()) {
    std::string const method =
        "every contender of one measurement on the same buffers, in alternating runs (c0, c1, ..., c0, c1, ...), "
        "CUDA events around each call, queued behind a 300 us spin kernel (hot) or a memset of 2x L2 and the spin "
        "(cold), so the host's launch is excluded; up to 51 runs (fewer, down to 5, when a run is long), " +
        std::to_string(s.repeats) +
        " rounds each hot and cold; times are the median over rounds of each round's median, ratios the median of "
        "per-round ratios (reference's time / the contender's); two-phase CUB calls get their temporary storage "
        "outside the timed region, env (single-phase) CUB calls allocate it with cudaMallocAsync from the default "
        "pool, whose release threshold is set to keep its memory; "
        "cascade's calls use its scratch pool; every result checked against the reference (a CUB call); read ceiling "
        "= best of 4 grid sizes of a 16-byte streaming-read kernel; cccl = the CCCL this program was built with";
    if (!cascade_bench::write_results(io.out_path, env, io, method.c_str(), out.rows)) return 1;
  }
  return out.disagreements == 0 ? 0 : 1;
}
