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
// The driver is bench/support/contest.cu's. A benchmark's axes: Contender (each call of the unit,
// "name [mode]", and "read ceiling": a 16-byte streaming read of the same bytes), Round (0..2),
// Elements (2^10..2^30 every 2^2; any power of two from 2^10 to 2^30 may be asked for) and Config
// (e.g. "reduce/float-plus", "minmax/float"). The first axis varies fastest, so the contenders of one
// size take turns, round after round; ratios against the reference (the first CUB call) are taken
// round by round when the results are read (scripts/results_io.py, contest_rows). Every state's call
// is checked once against the reference's result (a disagreement fails the state and the program's
// exit status), then timed: cascade's hot (bench/support/nvbench_hot.cuh: every call of the size in
// alternating runs, c0, c1, ..., c0, c1, ..., at the round's first state, as cascade's timer takes
// rivals) and NVBench's cold (51 samples) and batch, state by state. What each library returns for
// ties and NaN goes to --notes. Built twice
// (bench/meson.build): against the toolkit's CCCL and against the newest (PyPI); every state records
// its CCCL.
//
//   cascade-rivals [--families reduce,arg,transform,exact] [--units reduce-float,arg-int8,...]
//                  [--arg-shapes] [--notes FILE] [NVBench's options: --json FILE, -a Round=[0:4], ...]
//   scripts/nvbench-run.sh build-bench/bench/cascade-rivals OUT.json --families reduce,arg
//   cascade-rivals --versions
#include <string>
#include <vector>

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

std::vector<long long> sizes(settings const& s) {
  std::vector<long long> v;
  for (int lg = s.min_log2; lg <= s.max_log2; lg += s.step) v.push_back(1ll << lg);
  return v;
}

void note(sink& out, std::string const& family, std::string const& item, std::string const& input,
          std::string const& library, std::string const& result) {
  using contest::quoted;
  contest::note(out, "{\"kind\": \"semantics\", \"family\": " + quoted(family) + ", \"item\": " + quoted(item) +
                         ", \"input\": " + quoted(input) + ", \"library\": " + quoted(library) +
                         ", \"cccl\": " + quoted(cccl_version()) + ", \"result\": " + quoted(result) + "}");
}

namespace {

settings& program_settings() {
  static settings s;
  return s;
}

contest::program make() {
  contest::program p;
  p.name = "cascade-rivals";
  // a unit's build with the program's settings, dry or not
  auto const unit = [](char const* key, char const* family, void (*build)(settings const&, sink&)) {
    return contest::unit{key, family, [build](bool dry, sink& out) {
                           settings s = program_settings();
                           s.dry = dry;
                           build(s, out);
                         }};
  };
#define RIVALS_ENTRY(family, item) unit(#family "-" #item, #family, &unit_##family##_##item),
  p.units = {RIVALS_UNITS(RIVALS_ENTRY)};
#undef RIVALS_ENTRY
  for (int lg = 10; lg <= 30; lg += 2) p.elements.push_back(1ll << lg);
  p.options = [](std::vector<std::string>& args) {
    program_settings().arg_shapes = cascade_nvbench::take_flag(args, "--arg-shapes");
  };
  return p;
}

[[maybe_unused]] bool const declared = contest::declare(&make);

}  // namespace

}  // namespace rivals
