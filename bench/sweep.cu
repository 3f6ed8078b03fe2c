// cascade-bench: the full sweep. For each configuration (float, double, int32, int64, int8 -> int32,
// half -> float; plus and minimum) and each size 2^10..2^30 in steps of 2^2, on the same buffers:
// cub::DeviceReduce, cascade::default_policy, every preset and the policy sweep (block size x coarse
// factor, tree x finish) with reduce_into; thrust::reduce and cascade::reduce returning to the host;
// and the streaming-read ceiling. Hot and cold, CUDA events (host clock for the calls that return to
// the host), medians; default_policy and CUB are
// measured `--repeats` times in alternating runs (CUB, default, CUB, ...), and their ratio is the
// median of the per-repeat ratios; thrust::reduce and cascade::reduce alternate the same way.
// Every result is checked against CUB's. Writes a JSON results file and prints a short table.
//
//   cascade-bench [--out FILE] [--commit SHA] [--driver VERSION] [--configs float-plus,int32-plus]
//                 [--min-log2 10] [--max-log2 30] [--step 2] [--repeats 5] [--sweep 0|1]
#include <cascade/error.cuh>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "measure/candidates.cuh"
#include "measure/ceiling.cuh"
#include "measure/env.cuh"
#include "measure/timer.cuh"
#include "measure/workspace.cuh"

namespace {

using namespace cascade_measure;
using cascade_bench::timer;
using cascade_bench::mode;

struct settings {
  cascade_bench::options io;
  std::vector<std::string> configs;
  int min_log2 = 10, max_log2 = 30, step = 2, repeats = 5;
  bool sweep = true;
};

settings parse(int argc, char** argv) {
  settings s;
  int sweep = 1;
  cascade_bench::cli line("cascade-bench",
                          "default_policy against cub::DeviceReduce, thrust::reduce and the read ceiling, every preset\n"
                          "and the policy sweep, for each configuration and size (GPU time hot and cold; to the host).");
  cascade_bench::add_options(line, s.io);
  line.list("--configs", &s.configs, "configurations to measure, e.g. float-plus,int8-minimum (default: all)")
      .option("--min-log2", &s.min_log2, "smallest size, log2 (default 10)")
      .option("--max-log2", &s.max_log2, "largest size, log2 (default 30)")
      .option("--step", &s.step, "log2 step between sizes (default 2)")
      .option("--repeats", &s.repeats, "repeats of the alternating CUB/cascade runs (default 5)")
      .option("--sweep", &sweep, "1: also the presets and the policy sweep; 0: only the rivals (default 1)");
  if (auto const status = line.parse(argc, argv)) std::exit(*status);
  s.sweep = sweep != 0;
  s.repeats = std::max(1, s.repeats);
  s.step = std::max(1, s.step);
  for (auto const& k : s.configs) {
    bool known = false;
    for (auto const& c : configs()) known = known || c.key == k;
    if (!known) {
      std::fprintf(stderr, "cascade-bench: unknown configuration %s (see --help)\n", k.c_str());
      std::exit(2);
    }
  }
  if (s.configs.empty())
    for (auto const& c : configs()) s.configs.push_back(c.key);
  return s;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? NAN : v[v.size() / 2];
}

std::string json_list(std::vector<double> const& v) {
  std::string s = "[";
  char buf[32];
  for (std::size_t i = 0; i < v.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%s%.3f", i ? ", " : "", v[i]);
    s += buf;
  }
  return s + "]";
}

struct row {
  std::string config, name, group, policy;
  long long n = 0;
  double bytes = 0;
  double hot_us = NAN, cold_us = NAN, ratio_hot = NAN, ratio_cold = NAN;  // ratio: CUB's time / this one's
  bool agrees = true;
  std::string extra;  // more JSON fields, each starting with ", "
};

std::string to_json(row const& r, config const& c) {
  char buf[1024];
  auto const num = [](double x) {
    char b[32];
    if (std::isnan(x)) return std::string("null");
    std::snprintf(b, sizeof b, "%.4f", x);
    return std::string(b);
  };
  int const size = std::snprintf(buf, sizeof buf,
                "{\"config\": \"%s\", \"item\": \"%s\", \"accumulator\": \"%s\", \"op\": \"%s\", \"n\": %lld, "
                "\"name\": \"%s\", \"group\": \"%s\", \"policy\": \"%s\", \"hot_us\": %s, \"cold_us\": %s, "
                "\"hot_gbps\": %s, \"cold_gbps\": %s, \"cub_ratio_hot\": %s, \"cub_ratio_cold\": %s, \"agrees\": %s",
                r.config.c_str(), c.item, c.accumulator, c.op, r.n, r.name.c_str(), r.group.c_str(), r.policy.c_str(),
                num(r.hot_us).c_str(), num(r.cold_us).c_str(), num(r.bytes / r.hot_us / 1e3).c_str(),
                num(r.bytes / r.cold_us / 1e3).c_str(), num(r.ratio_hot).c_str(), num(r.ratio_cold).c_str(),
                r.agrees ? "true" : "false");
  // The fixed fields fit the buffer; the extra ones (lists of repeats) need not, so they are appended.
  return std::string(buf, size > 0 && size < int(sizeof buf) ? size : 0) + r.extra + "}";
}

}  // namespace

int main(int argc, char** argv) {
  settings const s = parse(argc, argv);
  if (!cascade_bench::have_gpu("cascade-bench")) return 2;
  auto const env = cascade_bench::read_environment();
  std::size_t free_bytes = 0, total_bytes = 0;
  CASCADE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  timer t;
  std::vector<std::string> json;
  std::vector<std::string> table;
  int disagreements = 0, default_disagreements = 0;
  double ceiling_gbps = 0;

  for (std::size_t ci = 0; ci < s.configs.size(); ++ci) {
    config const* c = find_config(s.configs[ci]);
    if (c == nullptr) {
      std::fprintf(stderr, "cascade-bench: unknown configuration %s\n", s.configs[ci].c_str());
      return 1;
    }
    int max_log2 = s.max_log2;
    while (max_log2 > s.min_log2 && (double(1ll << max_log2) * c->item_bytes) > 0.6 * double(free_bytes))
      max_log2 -= s.step;
    workspace w(*c, 1ll << max_log2, 0x5EED0000ull + ci);
    std::vector<candidate> const all = c->candidates();
    std::vector<double> worst_ratio(all.size(), 1.0);  // skips hopeless seed kernels at larger sizes

    for (int lg = s.min_log2; lg <= max_log2; lg += s.step) {
      long long const n = 1ll << lg;
      double const bytes = double(n) * c->item_bytes;
      std::fprintf(stderr, "\r[%zu/%zu] %-14s n = 2^%-2d ...            ", ci + 1, s.configs.size(), c->key, lg);
      w.cub(n);
      auto const reference = w.read_out();
      auto const candidate_call = [&](candidate const& k) { return [&w, &k, n] { w.candidate(k, n); }; };

      // default_policy and CUB, in alternating runs, `repeats` times.
      candidate const& def = all.front();
      std::vector<double> cub_hot, cub_cold, cub_idle, def_hot, def_cold, def_idle, r_hot, r_cold, r_idle;
      bool def_agrees = true;
      for (int rep = 0; rep < s.repeats; ++rep) {
        auto const [cub, d] = time_device_pair(t, w, [&] { w.cub(n); }, candidate_call(def), reference, 51, 1e5, true);
        cub_hot.push_back(cub.hot_us), cub_cold.push_back(cub.cold_us), cub_idle.push_back(cub.hot_idle_us);
        def_hot.push_back(d.hot_us), def_cold.push_back(d.cold_us), def_idle.push_back(d.hot_idle_us);
        r_hot.push_back(cub.hot_us / d.hot_us), r_cold.push_back(cub.cold_us / d.cold_us);
        r_idle.push_back(cub.hot_idle_us / d.hot_idle_us);
        def_agrees = def_agrees && d.agrees;
      }
      double const cub_h = median(cub_hot), cub_c = median(cub_cold);
      row cub_row{
          c->key, "cub::DeviceReduce",
          "cub",  "",
          n,      bytes,
          cub_h,  cub_c,
          1.0,    1.0,
          true,   ", \"hot_idle_us\": " + std::to_string(median(cub_idle)) + ", \"cub_ratio_hot_idle\": 1.0" +
                      ", \"hot_repeats_us\": " + json_list(cub_hot) + ", \"cold_repeats_us\": " +
                      json_list(cub_cold) + ", \"hot_idle_repeats_us\": " + json_list(cub_idle)};
      json.push_back(to_json(cub_row, *c));
      row def_row{c->key,
                  "default_policy",
                  "default",
                  "",
                  n,
                  bytes,
                  median(def_hot),
                  median(def_cold),
                  median(r_hot),
                  median(r_cold),
                  def_agrees,
                  ", \"hot_idle_us\": " + std::to_string(median(def_idle)) +
                      ", \"cub_ratio_hot_idle\": " + std::to_string(median(r_idle)) +
                      ", \"hot_repeats_us\": " + json_list(def_hot) + ", \"cold_repeats_us\": " + json_list(def_cold) +
                      ", \"hot_idle_repeats_us\": " + json_list(def_idle) + ", \"ratio_hot_idle_repeats\": " +
                      json_list(r_idle) +
                      ", \"ratio_hot_repeats\": " + json_list(r_hot) +
                      ", \"ratio_cold_repeats\": " + json_list(r_cold)};
      json.push_back(to_json(def_row, *c));
      if (!def_agrees) ++default_disagreements;

      // To the host: thrust::reduce against cascade::reduce (default_policy).
      std::vector<unsigned char> h(c->ops().accumulator_bytes), h2(h.size());
      auto const thrust_call = [&] { w.ops().thrust_reduce(w.items(), n, h.data()); };
      auto const to_host_call = [&] { w.ops().cascade_reduce(w.items(), n, h2.data()); };
      auto const [th_hot, ch_hot] = t.median_wall_pair_us_budget(thrust_call, to_host_call, false, 51, 1e5);
      auto const [th_cold, ch_cold] = t.median_wall_pair_us_budget(thrust_call, to_host_call, true, 51, 1e5);
      bool const thrust_agrees = w.ops().agrees(h.data(), reference.data());
      bool const host_agrees = w.ops().agrees(h2.data(), reference.data());
      json.push_back(to_json({c->key, "thrust::reduce", "thrust", "", n, bytes, th_hot, th_cold, cub_h / th_hot,
                              cub_c / th_cold, thrust_agrees, ""},
                             *c));
      json.push_back(to_json({c->key, "cascade::reduce (to host)", "to_host", "", n, bytes, ch_hot, ch_cold,
                              cub_h / ch_hot, cub_c / ch_cold, host_agrees,
                              ", \"thrust_ratio_hot\": " + std::to_string(th_hot / ch_hot) +
                                  ", \"thrust_ratio_cold\": " + std::to_string(th_cold / ch_cold)},
                             *c));
      if (!host_agrees) ++default_disagreements;

      // The read ceiling for this many bytes.
      if (std::fmod(bytes, 16.0) == 0) {
        double const hot = best_read_ceiling_us(t, w.items(), static_cast<std::size_t>(bytes), mode::hot);
        double const cold = best_read_ceiling_us(t, w.items(), static_cast<std::size_t>(bytes), mode::cold);
        json.push_back(to_json(
            {c->key, "read ceiling", "ceiling", "", n, bytes, hot, cold, cub_h / hot, cub_c / cold, true, ""}, *c));
        if (lg == 30 && c->item_bytes == 4) ceiling_gbps = std::max(ceiling_gbps, bytes / cold / 1e3);
      }

      // Presets and the sweep.
      std::string best_name;
      double best_score = 1e300;
      for (std::size_t k = 1; k < all.size() && s.sweep; ++k) {
        candidate const& cand = all[k];
        if (worst_ratio[k] < 0.02) continue;  // over 50x slower than CUB at a smaller size
        std::fprintf(stderr, "\r[%zu/%zu] %-14s n = 2^%-2d %3zu/%zu %-40s", ci + 1, s.configs.size(), c->key, lg, k,
                     all.size() - 1, cand.name.c_str());
        timing const r = time_device_call(t, w, candidate_call(cand), reference, 51, 1e4);
        row x{c->key,
              cand.name,
              cand.group,
              cand.spelling,
              n,
              bytes,
              r.hot_us,
              r.cold_us,
              cub_h / r.hot_us,
              cub_c / r.cold_us,
              r.agrees,
              ", \"block_size\": " + std::to_string(cand.block_size) +
                  ", \"coarse_factor\": " + std::to_string(cand.coarse_factor) + ", \"tree\": \"" + cand.tree +
                  "\", \"finish\": \"" + cand.finish + "\""};
        json.push_back(to_json(x, *c));
        if (!r.agrees) ++disagreements;
        worst_ratio[k] = std::min(worst_ratio[k], std::min(x.ratio_hot, x.ratio_cold));
        double const score = std::sqrt(r.hot_us * r.cold_us);
        if (r.agrees && score < best_score) best_score = score, best_name = cand.name;
      }
      char line[320];
      std::snprintf(line, sizeof line, "%-14s 2^%-2d %9.2f %9.2f %9.2f %9.2f %6.2fx %6.2fx %6.2fx %6.2fx %6.2fx  %s",
                    c->key, lg, cub_h, median(def_hot), cub_c, median(def_cold), median(r_hot), median(r_cold),
                    median(r_idle), th_hot / ch_hot, th_cold / ch_cold, best_name.c_str());
      table.push_back(line);
    }
  }
  std::fprintf(stderr, "\r%100s\r", "");

  std::printf("%s (%d SMs, %.0f MB L2), CUDA runtime %d, driver %s, %s\n", env.gpu.c_str(), env.sm_count, env.l2_mb,
              env.runtime, s.io.driver.c_str(), env.date.c_str());
  std::printf(
      "reduce_into, medians (us, GPU time); default and CUB: median of %d repeats of alternating runs; ratio = CUB / "
      "default (idle: hot with the launch included); host = thrust::reduce / cascade::reduce (wall, hot and cold)\n",
      s.repeats);
  std::printf("%-14s %-4s %9s %9s %9s %9s %7s %7s %7s %7s %7s  %s\n", "config", "n", "CUB hot", "def hot", "CUB cold",
              "def cold", "hot", "cold", "idle", "host h", "host c", "best in sweep (sqrt hot x cold)");
  for (auto const& l : table) std::printf("%s\n", l.c_str());
  if (ceiling_gbps > 0) std::printf("read ceiling at 2^30 x 4 bytes: %.0f GB/s\n", ceiling_gbps);
  std::printf("%d sweep rows disagree with CUB (known: float atomics without a tree); default_policy: %d\n",
              disagreements, default_disagreements);

  if (!s.io.out_path.empty()) {
    std::string method =
        "reduce_into into device memory; CUDA events around each call, queued behind a 300 us spin kernel "
        "(hot; cold: the L2 flush, then the spin), so the host's launch time is excluded (hot_idle: the GPU "
        "idle before the start event, so the launch is included); warm-up runs; median of up to "
        "51 runs (fewer, down to 5, when one run is long); cold = L2 flushed by a memset of 2x L2 "
        "before each run; default_policy and cub::DeviceReduce (temp storage allocated outside the "
        "timed region) measured " +
        std::to_string(s.repeats) +
        " times, each in alternating runs (CUB, default, CUB, ...), ratio = median of per-repeat CUB/default "
        "ratios; thrust::reduce and "
        "cascade::reduce return to the host and are timed, in alternating runs, by the host clock (steady_clock) from the call "
        "to its return, the device idle before each run; every result checked against CUB; read ceiling = best "
        "of 4 grid sizes of a 16-byte streaming-read kernel";
    if (!cascade_bench::write_results(s.io.out_path, env, s.io, method.c_str(), json)) return 1;
  }
  return default_disagreements == 0 ? 0 : 1;
}
