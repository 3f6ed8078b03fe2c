// cascade-tune: measures the policy space on this GPU for a type and op, prints the best policy for
// each size range, and writes the tuning table that cascade::default_policy dispatch reads.
//
//   cascade-tune --config float-plus [--config int32-minimum ...] | --all
//                [--min-log2 10] [--max-log2 30] [--step 1] [--tolerance 0.03] [--max-policies 3]
//                [--table include/cascade/tuning/sm90_h200.cuh [--min-gbs 4400]] [--out results.json]
//                [--commit SHA] [--driver VERSION]
//                [--from results.json]   (no GPU: the table again from an earlier run's measurements)
//
// For each size it times every candidate of the sweep (block size x coarse factor, tree x finish;
// src/measure/candidates.cu) hot and cold, scores it by sqrt(hot x cold), and reports the best. The
// table may only name candidates that keep operand order, take any type and wait for no other stream
// (candidates.cu's table_finish: finish last_block, cluster, flagged, recursive or two_pass). Each
// entry names at most `max-policies` distinct policies, since default_policy compiles every one of
// them into each call site: the set whose best member stays closest to the best eligible policy over
// all sizes (the sum of time ratios), then, size by size, a member within `tolerance` of the set's
// best, switching as rarely as it can. With --table it replaces that table's entries for the tuned
// (item size, op kind) keys and its strategy includes, and leaves the rest. A table serves one GPU class
// (tuning/table.cuh), named by the file (sm90_h100.cuh: class sm90_h100): the GPU's architecture and
// at least the bandwidth that a new table's --min-gbs gives (an existing table's stays); a new table
// gets the fallback that the committed tables have (fallback_policy below), and goes into
// tuning/gpus.cuh's list by hand. Results files are read and written with
// nlohmann-json (src/measure/results.cpp). --all tunes the keys the tables have: int8, half, float
// and double items, plus and minimum.
#include <cascade/error.cuh>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "measure/candidates.cuh"
#include "measure/env.cuh"
#include "measure/results.hpp"
#include "measure/timer.cuh"
#include "measure/workspace.cuh"

namespace {

using namespace cascade_measure;

struct settings {
  cascade_bench::options io;
  std::vector<std::string> configs;
  int min_log2 = 10, max_log2 = 30, step = 1;
  double tolerance = 0.03;
  int max_policies = 3;
  int min_gbs = 0;
  std::string table_path, from_path;
};

settings parse(int argc, char** argv) {
  settings s;
  cascade_bench::cli line("cascade-tune",
                          "Measures the policy space on this GPU for each configuration and size and writes the\n"
                          "tuning table (--table); with --from, rewrites the table from earlier results, no GPU.");
  cascade_bench::add_options(line, s.io);
  line.flag("--all",
            [&s] {
              for (char const* k : {"int8-plus", "int8-minimum", "half-plus", "half-minimum", "float-plus",
                                    "float-minimum", "double-plus", "double-minimum"})
                s.configs.push_back(k);
            },
            "every configuration the table covers")
      .list("--config", &s.configs, "a configuration (or several, comma-separated), e.g. float-plus")
      .option("--min-log2", &s.min_log2, "smallest size, log2 (default 10)")
      .option("--max-log2", &s.max_log2, "largest size, log2 (default 30)")
      .option("--step", &s.step, "log2 step between sizes (default 1)")
      .option("--tolerance", &s.tolerance, "policies within this fraction of the best count as tied (default 0.03)")
      .option("--table", &s.table_path, "write the tuning table (a C++ header) here; its name names its GPU class")
      .option("--min-gbs", &s.min_gbs, "a new table's GPU class: the least peak memory bandwidth, GB/s (default 0)")
      .option("--max-policies", &s.max_policies, "most distinct policies a table may use (default 3)")
      .option("--from", &s.from_path, "read measurements from this results file instead of measuring");
  if (auto const status = line.parse(argc, argv)) std::exit(*status);
  s.step = std::max(1, s.step);
  s.max_policies = std::max(1, s.max_policies);
  return s;
}

struct chosen_range {
  long long max_n;  // -1: no bound
  candidate const* policy;
};

// The table entry: a set of at most max_policies eligible candidates whose best member at each size
// is, summed over sizes, closest to the best eligible candidate (time ratio); then, size by size, a
// member within `tolerance` of the set's best there, each kept over the longest run of sizes it can.
std::vector<chosen_range> choose_ranges(std::vector<candidate> const& all, std::vector<long long> const& sizes,
                                        std::vector<std::vector<double>> const& score, double tolerance,
                                        int max_policies) {
  std::size_t const m = sizes.size();
  std::vector<std::size_t> eligible;
  for (std::size_t k = 0; k < all.size(); ++k)
    if (all[k].table_eligible) eligible.push_back(k);
  std::vector<double> best(m, 1e300);
  for (std::size_t k : eligible)
    for (std::size_t i = 0; i < m; ++i) best[i] = std::min(best[i], score[k][i]);
  // Every subset of up to max_policies eligible candidates (a few thousand), scored by its loss.
  std::vector<std::size_t> chosen, current;
  double chosen_loss = 1e300;
  auto const loss_of = [&](std::vector<std::size_t> const& set) {
    double loss = 0;
    for (std::size_t i = 0; i < m; ++i) {
      double b = 1e300;
      for (std::size_t k : set) b = std::min(b, score[k][i]);
      loss += b / best[i];
    }
    return loss;
  };
  auto const search = [&](auto&& self, std::size_t from) -> void {
    if (!current.empty()) {
      double const loss = loss_of(current);
      if (loss < chosen_loss - 1e-9) chosen_loss = loss, chosen = current;
    }
    if (current.size() == static_cast<std::size_t>(max_policies)) return;
    for (std::size_t e = from; e < eligible.size(); ++e) {
      current.push_back(eligible[e]);
      self(self, e + 1);
      current.pop_back();
    }
  };
  search(search, 0);
  std::vector<double> set_best(m, 1e300);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t k : chosen) set_best[i] = std::min(set_best[i], score[k][i]);
  auto const ok = [&](std::size_t k, std::size_t i) { return score[k][i] <= set_best[i] * (1 + tolerance); };
  std::vector<chosen_range> out;
  for (std::size_t i = 0; i < m;) {
    std::size_t best_k = chosen.front(), best_end = i;
    double best_total = 1e300;
    for (std::size_t k : chosen) {
      if (!ok(k, i)) continue;
      std::size_t j = i;
      double total = 0;
      while (j < m && ok(k, j)) total += score[k][j] / set_best[j], ++j;
      if (j > best_end || (j == best_end && total < best_total)) best_k = k, best_end = j, best_total = total;
    }
    long long const bound =
        best_end >= m ? -1 : static_cast<long long>(std::sqrt(double(sizes[best_end - 1]) * double(sizes[best_end])));
    if (!out.empty() && out.back().policy == &all[best_k])
      out.back().max_n = bound;  // one policy, one range
    else
      out.push_back({bound, &all[best_k]});
    i = best_end;
  }
  return out;
}

// Measurements of an earlier run (--from) for one configuration: score[candidate][size] =
// sqrt(hot x cold) where a row of that candidate and size agreed with CUB, 1e300 elsewhere.
std::vector<std::vector<double>> read_scores(cascade_bench::tune_results const& earlier, std::string const& config,
                                             std::vector<candidate> const& all, std::vector<long long> const& sizes) {
  std::vector<std::vector<double>> score(all.size(), std::vector<double>(sizes.size(), 1e300));
  for (auto const& row : earlier.rows) {
    if (row.config != config || !row.agrees || std::isnan(row.hot_us) || std::isnan(row.cold_us)) continue;
    for (std::size_t k = 0; k < all.size(); ++k)
      for (std::size_t i = 0; i < sizes.size(); ++i)
        if (all[k].name == row.name && sizes[i] == row.n) score[k][i] = std::sqrt(row.hot_us * row.cold_us);
  }
  return score;
}

// Times every candidate at every size on this GPU (hot and cold), prints the best per size, adds
// one JSON row per measurement, and returns score[candidate][size] = sqrt(hot x cold).
std::vector<std::vector<double>> measure_scores(std::optional<cascade_bench::timer>& timer, config const& c,
                                                std::size_t index, std::size_t count, std::vector<candidate> const& all,
                                                std::vector<long long> const& sizes, std::vector<std::string>& json) {
  cascade_bench::timer& t = *timer;
  workspace w(c, sizes.back(), 0x7E57ull + index);
  std::vector<std::vector<double>> score(all.size(), std::vector<double>(sizes.size(), 1e300));
  std::printf("\n%s: %zu candidates, sizes 2^%d..2^%d\n", c.key, all.size(),
              static_cast<int>(std::log2(double(sizes.front()))), static_cast<int>(std::log2(double(sizes.back()))));
  std::printf("%-6s %9s %9s  %-40s %9s %9s  %-40s\n", "n", "hot", "cold", "best", "hot", "cold", "best for the table");
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    long long const n = sizes[i];
    w.cub(n);
    auto const reference = w.read_out();
    std::size_t best = 0, best_eligible = 0;
    std::vector<timing> times(all.size());
    for (std::size_t k = 0; k < all.size(); ++k) {
      std::fprintf(stderr, "\r[%zu/%zu] %s n = 2^%d: %zu/%zu %-40s", index + 1, count, c.key,
                   static_cast<int>(std::log2(double(n))), k + 1, all.size(), all[k].name.c_str());
      candidate const& cand = all[k];
      times[k] = time_device_call(t, w, [&] { w.candidate(cand, n); }, reference, 51, 2e4);
      score[k][i] = times[k].agrees ? std::sqrt(times[k].hot_us * times[k].cold_us) : 1e300;
      if (score[k][i] < score[best][i]) best = k;
      if (cand.table_eligible && (!all[best_eligible].table_eligible || score[k][i] < score[best_eligible][i]))
        best_eligible = k;
      json.push_back(cascade_bench::to_json({c.key, n, cand.name, cand.group, cand.table_eligible, times[k].hot_us,
                                             times[k].cold_us, times[k].agrees}));
    }
    std::fprintf(stderr, "\r%100s\r", "");
    std::printf("2^%-4d %9.2f %9.2f  %-40s %9.2f %9.2f  %-40s\n", static_cast<int>(std::log2(double(n))),
                times[best].hot_us, times[best].cold_us, all[best].name.c_str(), times[best_eligible].hot_us,
                times[best_eligible].cold_us, all[best_eligible].name.c_str());
    std::fflush(stdout);
  }
  return score;
}

std::string entry_text(std::string const& gpu, config const& c, std::vector<chosen_range> const& ranges,
                       std::string const& where) {
  std::ostringstream o;
  char const* kind = std::string(c.op) == "plus" ? "sum" : "min_max";
  o << "// [entry " << c.item_bytes << " " << kind << "] tuned with " << c.key << " (" << c.item << " items, "
    << c.accumulator << " accumulator)\n// " << where << "\n";
  o << "template <>\nstruct table<" << gpu << ", " << c.item_bytes << ", op_kind::" << kind << "> {\n";
  o << "  using type = ranges<";
  for (std::size_t i = 0; i < ranges.size(); ++i)
    o << (i ? ",\n                      " : "") << "range<" << ranges[i].max_n << ", " << ranges[i].policy->spelling
      << ">";
  o << ">;\n};\n// [/entry]\n";
  return o.str();
}

// The policy of keys that have no entry of their own: the table's fallback, spelled as the committed
// tables spell it. It must be the spelling of a candidate the table may name (main checks), so that it comes
// from the same list and spelling rule as the entries (candidates.cu).
constexpr char const* fallback_policy =
    "policy<256, 16, tree::by_commutativity<tree::sequential, tree::shuffle>, finish::last_block>";

// The strategy headers a table needs: every tree and finish that the spellings name (a table may name
// any eligible candidate, and the fallback), one include each, finishes then trees, sorted.
std::string strategy_includes(std::vector<std::string> const& spellings) {
  std::set<std::string> headers;
  for (std::string const& spelling : spellings)
    for (char const* family : {"tree", "finish"}) {
      std::string const prefix = std::string(family) + "::";
      for (std::size_t at = spelling.find(prefix); at != std::string::npos; at = spelling.find(prefix, at + 1)) {
        std::size_t const begin = at + prefix.size();
        std::size_t const end = spelling.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_", begin);
        headers.insert(std::string(family) + "/" + spelling.substr(begin, end - begin) + ".cuh");
      }
    }
  std::string out;
  for (std::string const& h : headers) out += "#include \"../" + h + "\"\n";  // "finish/..." sorts before "tree/..."
  return out;
}

// A new table: its includes, its GPU class, the fallback and no entries yet.
std::string skeleton(std::string const& gpu, int arch, int min_gbs, std::string const& includes) {
  std::ostringstream o;
  o << "// cascade/tuning/" << gpu << ".cuh: the tuning table for GPUs of compute capability " << arch / 10 << "."
    << arch % 10 << " with at\n// least " << min_gbs << " GB/s of memory bandwidth, written by cascade-tune "
    << "(src/tune.cu). Each entry says which GPU\n// and results file it came from; keys with no entry of their own "
    << "use the fallback below.\n#pragma once\n\n"
    << includes << "#include \"table.cuh\"\n\nnamespace cascade::tuning {\n\n"
    << "using " << gpu << " = gpu_class<" << arch << ", " << min_gbs << ">;\n\n"
    << "// Fallback for keys without an entry.\ntemplate <int ItemBytes, op_kind Kind>\nstruct table<" << gpu
    << ", ItemBytes, Kind> {\n  using type =\n      ranges<range<-1, " << fallback_policy << ">>;\n};\n\n"
    << "// argmin's, argmax's and minmax's ops: the min_max entry, where there is no arg entry.\n"
    << "template <int ItemBytes>\nstruct table<" << gpu << ", ItemBytes, op_kind::arg> : table<" << gpu
    << ", ItemBytes, op_kind::min_max> {};\n\n"
    << "}  // namespace cascade::tuning\n";
  return o.str();
}

// The GPU class a table's text declares (`using sm90_h100 = gpu_class<90, 0>;`): {arch, min_gbs}, or
// {0, 0} when it declares none.
std::pair<int, int> declared_class(std::string const& text, std::string const& gpu) {
  std::string const open = "using " + gpu + " = gpu_class<";
  std::size_t const at = text.find(open);
  if (at == std::string::npos) return {0, 0};
  int arch = 0, min_gbs = 0;
  if (std::sscanf(text.c_str() + at + open.size(), "%d, %d>", &arch, &min_gbs) != 2) return {0, 0};
  return {arch, min_gbs};
}

// The class a table file serves is named by the file: include/cascade/tuning/sm90_h100.cuh -> sm90_h100.
std::string class_of_path(std::string const& path) {
  std::size_t const slash = path.find_last_of('/');
  std::string name = path.substr(slash == std::string::npos ? 0 : slash + 1);
  if (std::size_t const dot = name.find('.'); dot != std::string::npos) name.resize(dot);
  bool ok = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0]));
  for (char ch : name) ok = ok && (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_');
  return ok ? name : std::string();
}

// Replaces the table's strategy includes (its block of lines that start `#include "../`) with
// `includes`, so that a table that names a new strategy includes it.
std::string with_includes(std::string text, std::string const& includes) {
  std::string const line = "#include \"../";
  std::size_t const first = text.find(line);
  if (first == std::string::npos) return text;
  std::size_t end = first;
  while (end < text.size() && text.compare(end, line.size(), line) == 0) {
    std::size_t const newline = text.find('\n', end);
    end = newline == std::string::npos ? text.size() : newline + 1;
  }
  text.replace(first, end - first, includes);
  return text;
}

// Replaces (or adds) the entry for `key` ("4 sum") in the table text.
std::string with_entry(std::string text, std::string const& key, std::string const& entry) {
  std::string const open = "// [entry " + key + "]";
  std::size_t const at = text.find(open);
  if (at != std::string::npos) {
    std::size_t const close = text.find("// [/entry]\n", at);
    text.replace(at, close + 12 - at, entry);
    return text;
  }
  std::size_t const end = text.rfind("}  // namespace cascade::tuning");
  text.insert(end, entry + "\n");
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  settings const s = parse(argc, argv);
  if (s.configs.empty()) {
    std::fprintf(stderr, "cascade-tune: name a configuration (--config KEY, or --all); the keys are:");
    for (auto const& c : configs()) std::fprintf(stderr, " %s", c.key);
    std::fprintf(stderr, "\n");
    return 1;
  }
  // The configurations and their candidates (the sweep's shapes and strategies), before anything is measured.
  std::vector<config const*> tuned;
  std::vector<std::vector<candidate>> candidates_of;
  for (std::string const& key : s.configs) {
    config const* c = find_config(key);
    if (c == nullptr) {
      std::fprintf(stderr, "cascade-tune: unknown configuration %s\n", key.c_str());
      return 1;
    }
    tuned.push_back(c);
    std::vector<candidate>& all = candidates_of.emplace_back();
    for (auto& k : c->candidates())
      if (k.group == "shape" || k.group == "strategy") all.push_back(k);
  }
  std::vector<std::string> spellings{fallback_policy};
  bool fallback_is_candidate = false;
  for (auto const& all : candidates_of)
    for (auto const& k : all)
      if (k.table_eligible) {
        spellings.push_back(k.spelling);
        fallback_is_candidate = fallback_is_candidate || k.spelling == fallback_policy;
      }
  if (!fallback_is_candidate) {
    std::fprintf(stderr, "cascade-tune: the fallback %s is no candidate a table may name (src/measure/candidates.cu)\n",
                 fallback_policy);
    return 1;
  }

  bool const measure = s.from_path.empty();
  if (measure && !cascade_bench::have_gpu("cascade-tune")) return 2;
  cascade_bench::environment env;
  std::string driver = s.io.driver, commit = s.io.commit;
  cascade_bench::tune_results earlier;
  if (measure) {
    env = cascade_bench::read_environment();
  } else {
    try {
      earlier = cascade_bench::read_tune_results(s.from_path);
    } catch (std::runtime_error const& e) {
      std::fprintf(stderr, "%s\n", e.what());
      return 1;
    }
    env = earlier.env;
    driver = earlier.driver;
    commit = earlier.commit;
  }
  int const arch = env.cc_major * 10 + env.cc_minor;
  if (!s.table_path.empty() && arch == 0) {
    std::fprintf(stderr, "cascade-tune: %s names no compute capability, so no table can be written\n",
                 s.from_path.c_str());
    return 1;
  }
  std::optional<cascade_bench::timer> t;
  if (measure) t.emplace();
  std::vector<std::string> json;
  std::string table_text;
  std::string const gpu = class_of_path(s.table_path);
  if (!s.table_path.empty()) {
    if (gpu.empty()) {
      std::fprintf(stderr, "cascade-tune: %s: a table's file name names its GPU class (e.g. sm90_h100.cuh), so it "
                   "must be a C++ identifier\n", s.table_path.c_str());
      return 1;
    }
    std::string const includes = strategy_includes(spellings);
    std::ifstream in(s.table_path);
    std::stringstream ss;
    ss << in.rdbuf();
    table_text = in ? with_includes(ss.str(), includes) : skeleton(gpu, arch, s.min_gbs, includes);
    auto const [class_arch, class_gbs] = declared_class(table_text, gpu);
    if (class_arch != arch) {
      std::fprintf(stderr, "cascade-tune: %s declares no GPU class %s of compute capability %d.%d (the GPU "
                   "measured); name a table of this architecture, or a new file\n",
                   s.table_path.c_str(), gpu.c_str(), arch / 10, arch % 10);
      return 1;
    }
    if (env.memory_gbs > 0 && env.memory_gbs < class_gbs) {
      std::fprintf(stderr, "cascade-tune: %s serves GPUs with at least %d GB/s, and %s has %d; name another "
                   "table\n", s.table_path.c_str(), class_gbs, env.gpu.c_str(), env.memory_gbs);
      return 1;
    }
  }

  for (std::size_t ci = 0; ci < tuned.size(); ++ci) {
    config const* c = tuned[ci];
    std::vector<candidate> const& all = candidates_of[ci];
    std::vector<long long> sizes;
    for (int lg = s.min_log2; lg <= s.max_log2; lg += s.step) sizes.push_back(1ll << lg);
    std::vector<std::vector<double>> score(all.size(), std::vector<double>(sizes.size(), 1e300));
    if (measure) {
      score = measure_scores(t, *c, ci, tuned.size(), all, sizes, json);
    } else {
      std::printf("\n%s: %zu candidates, measurements from %s\n", c->key, all.size(), s.from_path.c_str());
      score = read_scores(earlier, c->key, all, sizes);
    }
    auto const ranges = choose_ranges(all, sizes, score, s.tolerance, s.max_policies);
    std::printf("%s: the table's ranges (at most %d policies; within %.0f%% of the best of them at each size)\n",
                c->key, s.max_policies, 100 * s.tolerance);
    long long lo = 0;
    for (auto const& r : ranges) {
      std::printf("  n in [%lld, %s]: %s\n", lo, r.max_n < 0 ? "inf" : std::to_string(r.max_n).c_str(),
                  r.policy->spelling.c_str());
      lo = r.max_n + 1;
    }
    if (!s.table_path.empty()) {
      std::string const results = measure ? s.io.out_path : s.from_path;
      std::string const where = env.gpu + " (driver " + driver + "), " + env.date + ", cascade " + commit + ": " +
                                (results.empty() ? std::string("no results file") : results);
      char const* kind = std::string(c->op) == "plus" ? "sum" : "min_max";
      table_text =
          with_entry(table_text, std::to_string(c->item_bytes) + " " + kind, entry_text(gpu, *c, ranges, where));
    }
  }
  if (!s.table_path.empty()) {
    std::ofstream out(s.table_path);
    out << table_text;
    std::printf("wrote %s\n", s.table_path.c_str());
  }
  if (measure && !s.io.out_path.empty()) {
    std::string const method =
        "reduce_into on the same buffers; CUDA events, the call queued behind a spin kernel (hot) or the L2 "
        "flush (cold) so that host launch time is excluded; median of up to 51 runs (fewer for long calls); score = sqrt(hot x cold); results checked against CUB";
    if (!cascade_bench::write_results(s.io.out_path, env, s.io, method.c_str(), json)) return 1;
  }
  return 0;
}
