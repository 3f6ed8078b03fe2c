// cascade-bench: the full sweep. For each configuration (float, double, int32, int64, int8 -> int32,
// half -> float; plus and minimum) and each size 2^10..2^30 every 2^2, on the same buffers:
// cub::DeviceReduce, cascade::default_policy, every preset and the policy sweep (block size x coarse
// factor, tree x finish) with reduce_into; thrust::reduce and cascade::reduce returning to the host;
// and the streaming-read ceiling. An NVBench program on bench/support/contest.cu: one benchmark a
// configuration (its key: float-plus, int8-minimum, ...), Contender a call, Round 0..2, Elements the
// size. Every result is checked against CUB's, then timed: CUB and default_policy in alternating runs
// each round (cascade's hot), thrust::reduce and cascade::reduce by the host's clock in alternating
// runs, the presets and the sweep once each (round 0), NVBench's cold and batch for all. A sweep
// policy over 50x slower than CUB at a smaller size is not timed at larger ones (the slides' first
// kernels at 2^30); float atomics without a tree are timed unchecked (their sums follow arrival order).
// scripts/perf_tables.py and scripts/plot.py read the results.
//
//   cascade-bench [--units float-plus,int32-plus] [--no-sweep] [NVBench's options: --json FILE, ...]
//   scripts/nvbench-run.sh build-bench/bench/cascade-bench OUT.json [--no-sweep]
#include <cascade/error.cuh>

#include <memory>
#include <string>
#include <vector>

#include "measure/candidates.cuh"
#include "measure/workspace.cuh"
#include "support/contest.cuh"
#include "support/nvbench_program.cuh"

namespace {

using namespace cascade_measure;
using contest::contender;
using contest::quoted;

bool& with_sweep() {  // --no-sweep: only CUB, the default, the calls to the host and the ceiling
  static bool sweep = true;
  return sweep;
}

std::string group_field(std::string const& group) { return ", \"group\": " + quoted(group); }

void build(config const& c, std::size_t index, bool dry, contest::sink& out) {
  // the largest size that fits in 60% of the free device memory
  int max_log2 = 30;
  if (!dry) {
    std::size_t free_bytes = 0, total_bytes = 0;
    CASCADE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    while (max_log2 > 10 && double(1ll << max_log2) * c.item_bytes > 0.6 * double(free_bytes)) --max_log2;
  }
  workspace const* w = dry ? nullptr : &out.keep<workspace>(c, 1ll << max_log2, 0x5EED0000ull + index);
  std::vector<candidate> const& all = out.keep<std::vector<candidate>>(c.candidates());  // the calls point into it
  auto const ops = c.ops();
  for (int lg = 10; lg <= max_log2; ++lg) {
    long long const n = 1ll << lg;
    contest::measurement m;
    m.family = "reduce";
    m.config = c.key;
    m.item = c.item;
    m.n = n;
    m.bytes = double(n) * c.item_bytes;
    m.out_bytes = ops.accumulator_bytes;
    if (w) m.items = w->items(), m.out = w->out();
    m.fields = ", \"accumulator\": " + quoted(c.accumulator) + ", \"op\": " + quoted(c.op);
    m.agree = ops.agrees;
    m.format = ops.format;
    m.contenders.push_back({"cub::DeviceReduce", "cub", "", [w, n] { w->cub(n); }});
    m.contenders.back().fields = group_field("cub");
    m.contenders.push_back({"default_policy", "cascade", "", [w, &all, n] { w->candidate(all.front(), n); }});
    m.contenders.back().fields = group_field("default");
    // To the host: thrust::reduce against cascade::reduce (default_policy), each result kept for the check.
    for (bool thrust : {true, false}) {
      auto const result = std::make_shared<std::vector<unsigned char>>(ops.accumulator_bytes);
      contender x{thrust ? "thrust::reduce" : "cascade::reduce (to host)", thrust ? "thrust" : "cascade", "",
                  [w, n, result, thrust] {
                    auto const& o = w->ops();
                    (thrust ? o.thrust_reduce : o.cascade_reduce)(w->items(), n, result->data());
                  }};
      x.how = contest::timing::to_host;
      x.result = [result] { return *result; };
      x.fields = group_field(thrust ? "thrust" : "to_host");
      m.contenders.push_back(std::move(x));
    }
    // The presets and the sweep (candidates.cu), each on its own. Float atomics without a tree
    // (tree::none) add in arrival order: their sum differs from CUB's by design, in the last bits and,
    // past 2^24 of one thread's adds into a float, by far (docs/strategies.md): timed, not checked.
    bool const float_sum = std::string(c.op) == "plus" && (std::string(c.accumulator) == "float" ||
                                                           std::string(c.accumulator) == "double");
    for (std::size_t k = 1; k < all.size() && with_sweep(); ++k) {
      candidate const& x = all[k];
      contender y{x.name, "cascade", "", [w, &x, n] { w->candidate(x, n); }};
      y.how = contest::timing::alone;
      y.checked = !(float_sum && x.tree == "none");
      y.fields = group_field(x.group) + ", \"policy\": " + quoted(x.spelling) +
                 ", \"block_size\": " + std::to_string(x.block_size) +
                 ", \"coarse_factor\": " + std::to_string(x.coarse_factor) + ", \"tree\": " + quoted(x.tree) +
                 ", \"finish\": " + quoted(x.finish);
      m.contenders.push_back(std::move(y));
    }
    out.add(std::move(m));
  }
}

contest::program make() {
  contest::program p;
  p.name = "cascade-bench";
  for (std::size_t i = 0; i < configs().size(); ++i) {
    config const& c = configs()[i];
    p.units.push_back({c.key, "reduce", [&c, i](bool dry, contest::sink& out) { build(c, i, dry, out); }});
  }
  for (int lg = 10; lg <= 30; lg += 2) p.elements.push_back(1ll << lg);
  p.hopeless_below = 0.02;
  p.options = [](std::vector<std::string>& args) { with_sweep() = !cascade_nvbench::take_flag(args, "--no-sweep"); };
  return p;
}

[[maybe_unused]] bool const declared = contest::declare(&make);

}  // namespace
