// bench/rivals/rivals.cuh: what the units of cascade-rivals share. A unit (unit.cu, built once per
// algorithm family and item type) lists, for each size, the calls that compete on the same buffers:
// cascade's and CUB's, CUB in every determinism mode the CCCL it is built against offers. The program
// (rivals.cu, an NVBench program) turns each call into a state of the unit's benchmark, checks every
// result against the first CUB call's and times them. The program is built twice from the same
// sources: against the toolkit's CCCL (cascade-rivals) and against the newest CCCL
// (cascade-rivals-newest, headers from PyPI, scripts/fetch-cccl.sh); each state records which CCCL.
#pragma once

#include <cuda/std/cstdint>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace rivals {

struct settings {
  int min_log2 = 10, max_log2 = 30, step = 1;
  bool arg_shapes = false;  // argmin also under a few fixed policies (block x coarse, finish::flagged)
  bool dry = false;         // only the names: no device memory, no calls (the program's axes)
};

// One call that competes: it enqueues its work on the legacy default stream and writes its result to
// the measurement's output slot.
struct contender {
  std::string name;     // e.g. "cascade::argmin_into(default_policy)" or "cub::DeviceReduce::ArgMin"
  std::string library;  // "cascade" or "cub"
  std::string mode;     // how it was called: "deterministic", "run_to_run (two-phase)", "not_guaranteed (env)", ...
  std::function<void()> call;
  bool checked = true;  // false: it computes something else (its result is not compared)
  // A result of its own layout (minmax's values only): how it agrees with the reference's and reads;
  // unset, the measurement's.
  std::function<bool(void const* mine, void const* reference)> agree;
  std::function<std::string(void const*)> format;
};

// One measurement: a family, a configuration, a size, and its rivals.
struct measurement {
  std::string family;  // "reduce", "argmin", "argmax", "minmax", "transform_reduce"
  std::string config;  // e.g. "float-plus", "int8"
  std::string item;    // the input's type
  long long n = 0;
  double bytes = 0;           // bytes of input read
  void const* items = nullptr;  // the input, for the read ceiling
  void* out = nullptr;          // every contender's result lands here
  std::size_t out_bytes = 0;
  std::vector<contender> contenders;
  std::size_t reference = 0;  // ratio = reference's time / each contender's (a CUB call)
  std::function<bool(void const*, void const*)> agree;  // two results (out_bytes each) agree
  std::function<std::string(void const*)> format;      // a result, for the report
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

// Records a row that is not a timing (what each library returns for ties and NaN).
void note(sink& out, std::string const& family, std::string const& item, std::string const& input,
          std::string const& library, std::string const& result);

// The CCCL the calling translation unit was compiled with, e.g. "3.5.0" (every unit of one program
// is built against the same CCCL).
std::string cccl_version();

// The sizes a unit builds measurements for, as settings say.
std::vector<long long> sizes(settings const& s);

}  // namespace rivals
