// cascade-finishes: every finishing strategy beside cub::DeviceReduce at 2^10, 2^16, 2^20 and 2^28
// float items (plus), with policy <256, 8, shuffle, Finish>; reduce_into, the result stays on the
// device. An NVBench program on bench/support/contest.cu: one benchmark ("finishes"), Contender a
// finish (or CUB, the reference), Elements the size, three rounds; every result checked against
// CUB's, then timed: cascade's hot (every call of a size in alternating runs) and NVBench's cold
// and batch. scripts/finishes_tables.py reads the results.
//
//   cascade-finishes [NVBench's options: --json FILE, -a Elements[pow2]=16, ...]
//   scripts/nvbench-run.sh build-bench/bench/cascade-finishes OUT.json
#include <cascade/cascade.cuh>

#include <cstdio>
#include <cstring>
#include <string>

#include "support/contest.cuh"
#include "support/input.cuh"

namespace {

using cascade_bench::device_input;

void build(bool dry, contest::sink& out) {
  for (int log2_n : {10, 16, 20, 28}) {
    long long const n = 1ll << log2_n;
    device_input<float>* in = dry ? nullptr : &out.keep<device_input<float>>(n);
    contest::measurement m;
    m.family = "finish";
    m.config = "float-plus";
    m.item = "float";
    m.n = n;
    m.bytes = static_cast<double>(n) * sizeof(float);
    if (in) m.items = in->d, m.out = in->d_out;
    m.out_bytes = sizeof(float);
    m.contenders.push_back({"cub::DeviceReduce::Reduce", "cub", "", [in] { in->cub_sum(); }});
    // every finish of the registry (cascade/finish/all.cuh)
    cascade::detail::for_each_type(cascade::finish::compiled{}, [&](auto f) {
      using policy = cascade::policy<256, 8, cascade::tree::shuffle, decltype(f)>;
      std::string const finish = decltype(f)::name + std::string("finish::").size();
      m.contenders.push_back({"cascade::reduce_into(<256, 8, shuffle, " + finish + ">)", "cascade", "",
                              [in] {
                                cascade::reduce_into(policy{}, in->d, in->d + in->n, in->d_out, 0.0f, cascade::plus{});
                              },
                              true, {}, {}, contest::timing::alternating, ", \"finish\": " + contest::quoted(finish)});
    });
    m.agree = [in](void const* mine, void const* reference) {
      float a, b;
      std::memcpy(&a, mine, sizeof a);
      std::memcpy(&b, reference, sizeof b);
      return in->agrees(a, b);
    };
    m.format = [](void const* p) {
      float x;
      std::memcpy(&x, p, sizeof x);
      char text[32];
      std::snprintf(text, sizeof text, "%.9g", static_cast<double>(x));
      return std::string(text);
    };
    out.add(std::move(m));
  }
}

contest::program make() {
  contest::program p;
  p.name = "cascade-finishes";
  p.units = {{"finishes", "finish", &build}};
  return p;
}

[[maybe_unused]] bool const declared = contest::declare(&make);

}  // namespace
