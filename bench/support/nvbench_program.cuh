// bench/support/nvbench_program.cuh: what cascade's NVBench programs add to NVBench's main()
// (nvbench_main.cu, linked into each), for what a results file needs and NVBench does not give:
//   PROGRAM --versions    one line of JSON: the CUDA runtime and driver API versions and the CCCL the
//                         program was built with (scripts/nvbench-run.sh adds them, the commit and
//                         the driver to NVBench's JSON);
//   PROGRAM --notes FILE  rows that are not timings (what each library returns for ties and NaN, ...)
//                         as a JSON list, beside NVBench's --json (scripts/nvbench-run.sh merges them);
// a program's own options, taken out of the command line before NVBench reads it (before_parse());
// and an exit status of 1 when any state's result disagreed with its reference (nvbench_check.cuh), as the
// other bench programs do: NVBench reports such a state as skipped, with the reason.
#pragma once

#include <nvbench/nvbench.cuh>

#include <cuda/std/version>
#include <cuda_runtime_api.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace cascade_nvbench {

inline int print_versions() {
  int runtime = 0, driver = 0;
  cudaRuntimeGetVersion(&runtime);
  cudaDriverGetVersion(&driver);
  return std::printf("{\"cuda_runtime\": %d, \"cuda_driver_api\": %d, \"cccl\": \"%d.%d.%d\"}\n", runtime, driver,
                     CCCL_MAJOR_VERSION, CCCL_MINOR_VERSION, CCCL_PATCH_VERSION) < 0;
}

// Rows that are not timings, each a JSON object.
inline std::vector<std::string>& notes() {
  static std::vector<std::string> rows;
  return rows;
}

// What a program runs before NVBench reads the command line: it takes its own options out of `args`
// and may add benchmarks whose axes it learns at run time. Set once, by a static initializer.
using args_hook = void (*)(std::vector<std::string>& args);
inline args_hook& before_parse() {
  static args_hook hook = nullptr;
  return hook;
}

// What a program frees before main() returns (device memory it holds in statics), while the CUDA
// runtime is certainly still up: called last to first.
inline std::vector<void (*)()>& before_exit() {
  static std::vector<void (*)()> hooks;
  return hooks;
}

// `--name VALUE` taken out of args: VALUE, or `otherwise` when absent.
inline std::string take_option(std::vector<std::string>& args, std::string const& name, std::string otherwise = {}) {
  for (std::size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == name) {
      otherwise = args[i + 1];
      args.erase(args.begin() + static_cast<std::ptrdiff_t>(i), args.begin() + static_cast<std::ptrdiff_t>(i) + 2);
      break;
    }
  return otherwise;
}

// `--name` taken out of args: whether it was there.
inline bool take_flag(std::vector<std::string>& args, std::string const& name) {
  for (std::size_t i = 0; i < args.size(); ++i)
    if (args[i] == name) {
      args.erase(args.begin() + static_cast<std::ptrdiff_t>(i));
      return true;
    }
  return false;
}

// `--name A,B,C` taken out of args: its items (none when absent).
inline std::vector<std::string> take_list(std::vector<std::string>& args, std::string const& name) {
  std::string const list = take_option(args, name);
  std::vector<std::string> items;
  for (std::size_t at = 0; at < list.size();) {
    std::size_t end = list.find(',', at);
    if (end == std::string::npos) end = list.size();
    if (end > at) items.push_back(list.substr(at, end - at));
    at = end + 1;
  }
  return items;
}

inline bool write_notes(std::string const& path) {
  std::ofstream f(path);
  f << "[";
  for (std::size_t i = 0; i < notes().size(); ++i) f << (i ? ",\n " : "\n ") << notes()[i];
  f << "\n]\n";
  return static_cast<bool>(f);
}

}  // namespace cascade_nvbench

namespace cascade_nvbench {

// cascade's measurement settings for a benchmark (the command line overrides them): 51 cold samples,
// as many runs as cascade's own timer takes, rather than NVBench's default of sampling until the noise
// is under 0.5% (at least 0.5 s a state); batches of 10 ms rather than 0.5 s. Thousands of states
// then run in minutes.
inline nvbench::benchmark_base& cascade_settings(nvbench::benchmark_base& b) {
  return b.set_stopping_criterion("sample-count")
      .set_criterion_param_int64("target-samples", 51)
      .set_batch_target_time(0.01);
}

}  // namespace cascade_nvbench
