// cascade-finishes: every finishing strategy beside cub::DeviceReduce at 2^10, 2^16, 2^20 and 2^28
// float items (plus), hot and cold, with policy <256, 8, shuffle, Finish>; reduce_into, the result
// stays on the device. Every timed result is checked against CUB. Writes a JSON results file.
//
//   cascade-finishes [--out FILE] [--commit SHA] [--driver VERSION]
#include <cascade/cascade.cuh>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "measure/env.cuh"
#include "support/input.cuh"
#include "measure/timer.cuh"

namespace {

using namespace cascade;
using cascade_bench::device_input;
using cascade_bench::timer;

struct row {
  std::string name;
  long long n;
  double hot_us, cold_us, cub_hot_us, cub_cold_us;
  bool agrees;
};

template <class Finish>
row measure(timer& t, device_input<float>& in, char const* name, double cub_hot, double cub_cold, float cub_result) {
  using P = policy<256, 8, tree::shuffle, Finish>;
  auto const run = [&] { reduce_into(P{}, in.d, in.d + in.n, in.d_out, 0.0f, plus{}); };
  double const hot = t.median_us(run, cascade_bench::mode::hot);
  double const cold = t.median_us(run, cascade_bench::mode::cold);
  run();
  return {name, in.n, hot, cold, cub_hot, cub_cold, in.agrees(in.read_out(), cub_result)};
}

}  // namespace

int main(int argc, char** argv) {
  auto const options = cascade_bench::parse_options(
      argc, argv, "cascade-finishes", "Every finishing strategy beside CUB, float sums at 2^10, 2^16, 2^20 and 2^28.");
  if (!cascade_bench::have_gpu("cascade-finishes")) return 2;
  auto const env = cascade_bench::read_environment();
  timer t;
  std::vector<row> rows;
  for (int log2_n : {10, 16, 20, 28}) {
    device_input<float> in(1ll << log2_n);
    double const cub_hot = t.median_us([&] { in.cub_sum(); }, cascade_bench::mode::hot);
    double const cub_cold = t.median_us([&] { in.cub_sum(); }, cascade_bench::mode::cold);
    in.cub_sum();
    float const cub_result = in.read_out();
    // every finish of the registry (cascade/finish/all.cuh)
    cascade::detail::for_each_type(finish::compiled{}, [&](auto f) {
      using Finish = decltype(f);
      rows.push_back(measure<Finish>(t, in, Finish::name + std::string("finish::").size(), cub_hot, cub_cold, cub_result));
    });
  }
  std::printf("%s (%d SMs), CUDA runtime %d, driver %s, %s\n", env.gpu.c_str(), env.sm_count, env.runtime,
              options.driver.c_str(), env.date.c_str());
  std::printf("float plus, policy <256, 8, shuffle, finish>, reduce_into; medians of 51 (us); ratio = CUB / cascade\n");
  std::printf("%-12s %6s %9s %9s %7s | %9s %9s %7s\n", "finish", "log2 n", "hot", "CUB hot", "ratio", "cold",
              "CUB cold", "ratio");
  bool all_agree = true;
  for (auto const& r : rows) {
    all_agree = all_agree && r.agrees;
    std::printf("%-12s %6d %9.1f %9.1f %6.2fx | %9.1f %9.1f %6.2fx%s\n", r.name.c_str(),
                static_cast<int>(std::log2(static_cast<double>(r.n))), r.hot_us, r.cub_hot_us, r.cub_hot_us / r.hot_us,
                r.cold_us, r.cub_cold_us, r.cub_cold_us / r.cold_us, r.agrees ? "" : "  DISAGREES WITH CUB");
  }
  if (!options.out_path.empty()) {
    std::vector<std::string> json;
    char buf[320];
    for (auto const& r : rows) {
      std::snprintf(buf, sizeof buf,
                    "{\"finish\": \"%s\", \"n\": %lld, \"hot_us\": %.3f, \"cold_us\": %.3f, \"cub_hot_us\": %.3f, "
                    "\"cub_cold_us\": %.3f, \"agrees_with_cub\": %s}",
                    r.name.c_str(), r.n, r.hot_us, r.cold_us, r.cub_hot_us, r.cub_cold_us, r.agrees ? "true" : "false");
      json.push_back(buf);
    }
    if (!cascade_bench::write_results(options.out_path, env, options,
                                      "float plus, policy <256, 8, shuffle, finish>; CUDA events around reduce_into and "
                                      "cub::DeviceReduce::Reduce (temp storage allocated outside), 5 warm-up runs, median "
                                      "of 51; cold = L2 flushed by a memset of 2x L2 before each run",
                                      json))
      return 1;
  }
  std::printf("%s\n", all_agree ? "every result agrees with CUB" : "SOME RESULTS DISAGREE WITH CUB");
  return all_agree ? 0 : 1;
}
