// bench/support/contest.cuh: what cascade's rival benchmarks are made of, for one NVBench driver
// (contest.cu) that every such program links. A program is a list of units; a unit (built on first
// use, freed when another unit's states come) makes measurements; a measurement is one input and the
// calls that compete on it (cascade's, CUB's, ...), every result landing in one output slot. The
// driver declares one NVBench benchmark a unit, axes Contender, Round, Elements and Config, checks
// every call's result against the reference's once (a disagreement skips the state, with the reason,
// and sets the exit status), and times each state: cascade's hot (support/nvbench_hot.cuh; every
// alternating contender of the measurement in alternating runs, at the round's first state) and
// NVBench's cold and batch. Each state records what it is as a summary (tag cascade/row), which
// scripts/results_io.py reads back into rows.
#pragma once

#include <cascade/error.cuh>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace contest {

// How a contender's hot time is taken.
enum class timing {
  alternating,  // in alternating runs with every other alternating contender of its measurement (rivals)
  alone,        // its own runs, in round 0 only (a policy sweep's hundreds of candidates)
  to_host,      // it returns its result to the host: the host's clock, the device idle first, in
                // alternating runs with the measurement's other to_host contenders; NVBench times it
                // synchronously (no batch)
};

// One call that competes: it enqueues its work on the legacy default stream and writes its result to
// the measurement's output slot.
struct contender {
  std::string name;     // e.g. "cascade::argmin_into(default_policy)" or "cub::DeviceReduce::ArgMin"
  std::string library;  // "cascade", "cub", "thrust"
  std::string mode;     // how it was called: "deterministic", "run_to_run (two-phase)", "" ...
  std::function<void()> call;
  bool checked = true;  // false: it computes something else (its result is not compared)
  // A result of its own layout (minmax's values only): how it agrees with the reference's and reads;
  // unset, the measurement's.
  std::function<bool(void const* mine, void const* reference)> agree;
  std::function<std::string(void const*)> format;
  timing how = timing::alternating;
  std::string fields;  // more JSON fields for its rows, each as `, "key": value`
  // Where its result is not in the measurement's slot (a call that returns to the host keeps it): its
  // bytes, read after the call; unset, the slot's out_bytes.
  std::function<std::vector<unsigned char>()> result;
};

// One measurement: a family, a configuration, a size, and its rivals.
struct measurement {
  std::string family;  // "reduce", "argmin", "segmented", ...
  std::string config;  // e.g. "float-plus", "segments of 16"
  std::string item;    // the input's type
  long long n = 0;     // items read
  double bytes = 0;    // bytes read
  // The read ceiling reads ceiling_bytes (0: bytes) from `items` (none where that is not a multiple of 16).
  void const* items = nullptr;
  double ceiling_bytes = 0;
  void* out = nullptr;  // every contender's result lands here (unless it says where: contender::result)
  std::size_t out_bytes = 0;
  std::vector<contender> contenders;
  std::size_t reference = 0;  // ratio = reference's time / each contender's (a CUB call)
  std::function<bool(void const*, void const*)> agree;  // two results (out_bytes each) agree
  std::function<std::string(void const*)> format;      // a result, for the report
  std::string fields;  // more JSON fields for its rows, each as `, "key": value`
};

// What a unit adds to: its measurements, what they point into (kept until the unit is done with), and
// rows that are not timings.
struct sink {
  std::vector<measurement> measurements;
  std::vector<std::shared_ptr<void>> kept;
  std::vector<std::string> notes;  // JSON objects

  void add(measurement m) { measurements.push_back(std::move(m)); }
  // A T that lives as long as the sink: the buffers the measurements' calls point into.
  template <class T, class... Args>
  T& keep(Args&&... args) {
    auto p = std::make_shared<T>(std::forward<Args>(args)...);
    kept.push_back(p);
    return *p;
  }
};

// n Ts of device memory, freed with it (a unit keeps its buffers in its sink: sink::keep).
template <class T>
struct device_array {
  T* data = nullptr;
  std::size_t size = 0;
  explicit device_array(std::size_t n) : size(n) { CASCADE_CUDA_CHECK(cudaMalloc(&data, (n ? n : 1) * sizeof(T))); }
  ~device_array() { cudaFree(data); }
  device_array(device_array const&) = delete;
  device_array& operator=(device_array const&) = delete;
};

// A unit builds its measurements; `dry`: only their names (no device memory, no calls), from which
// the driver learns the axes before NVBench reads the command line.
struct unit {
  std::string key;     // the benchmark's name, e.g. "reduce-float"
  std::string family;  // what --families selects by
  std::function<void(bool dry, sink&)> build;
  bool by_default = true;  // false: run only when --families, --units or -b names it
};

struct program {
  std::string name;  // "cascade-rivals"
  std::vector<unit> units;
  // The Elements axis when the command line does not set it (empty: every size the units measure).
  std::vector<long long> elements;
  std::vector<long long> rounds = {0, 1, 2};
  // A program's own options, taken out of the command line (cascade_nvbench::take_option) before the
  // units are built dry.
  std::function<void(std::vector<std::string>& args)> options;
  // An `alone` contender whose hot ratio to the reference fell below this at a smaller size of the
  // same configuration is not timed at larger ones (seed kernels 50x slower than CUB at 2^30).
  double hopeless_below = 0;
};

// Declares `make()`'s program to the driver (once, from a static initializer): its options are read
// and its benchmarks declared before NVBench reads the command line. --families A,B and --units X,Y
// select units (an unknown name is an error); without them or -b, the units run by_default.
bool declare(program (*make)());

// Records a row that is not a timing.
inline void note(sink& out, std::string json_object) { out.notes.push_back(std::move(json_object)); }

// A JSON string literal of `s`.
std::string quoted(std::string const& s);

// The CCCL the driver was built with, e.g. "3.5.0" (every unit of a program is built against it).
std::string cccl_version();

}  // namespace contest
