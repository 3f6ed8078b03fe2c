// bench/rivals/rivals.cuh: what the units of cascade-rivals share. A unit (unit.cu, built once per
// algorithm family and item type) lists, for each size, the calls that compete on the same buffers:
// cascade's and CUB's, CUB in every determinism mode the CCCL it is built against offers. measure()
// checks each call's result against the first CUB call's, times them all in alternating runs, and
// records one JSON row per call (rivals.cu). The program is built twice from the same sources: against
// the toolkit's CCCL (cascade-rivals) and against the newest CCCL (cascade-rivals-newest, headers from
// PyPI, scripts/fetch-cccl.sh); each row says which CCCL it was built with.
#pragma once

#include <cascade/error.cuh>
#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "measure/timer.cuh"

namespace rivals {

struct settings {
  int min_log2 = 10, max_log2 = 30, step = 2, repeats = 3;
};

// One call that competes: it enqueues its work on the legacy default stream and writes its result to
// the measurement's output slot.
struct contender {
  std::string name;     // e.g. "cascade::argmin_into(default_policy)" or "cub::DeviceReduce::ArgMin"
  std::string library;  // "cascade" or "cub"
  std::string mode;     // how it was called: "deterministic", "run_to_run (two-phase)", "not_guaranteed (env)", ...
  std::function<void()> call;
  bool checked = true;  // false: it computes something else (its result is not compared)
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

// What the units add to: JSON rows, lines of the printed table, and the count of results that
// disagree with CUB's.
struct sink {
  std::vector<std::string> rows, table;
  int disagreements = 0;
};

// Checks, times (hot and cold, `repeats` times in alternating runs) and records one measurement.
void measure(cascade_bench::timer& t, settings const& s, measurement const& m, sink& out);

// Records a row that is not a timing (what each library returns for ties and NaN).
void note(sink& out, std::string const& family, std::string const& item, std::string const& input,
          std::string const& library, std::string const& result);

// The CCCL the calling translation unit was compiled with, e.g. "3.5.0" (every unit of one program
// is built against the same CCCL).
std::string cccl_version();

// The sizes of the sweep, as settings say.
std::vector<long long> sizes(settings const& s);

// Seeded pseudo-random items: integers in [-1000, 1000] ([-100, 100] for 1-byte types), floating
// point in [0, 1) with 24 bits (so many equal values: argmin's ties are real).
template <class T>
__global__ void fill_kernel(T* d, long long n, unsigned long long seed) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    unsigned long long x = (static_cast<unsigned long long>(i) + 1) * 0x9E3779B97F4A7C15ull ^ seed;  // splitmix64
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    x ^= x >> 31;
    if constexpr (cuda::std::is_integral_v<T>)
      d[i] = static_cast<T>(static_cast<long long>(x % (sizeof(T) == 1 ? 201 : 2001)) - (sizeof(T) == 1 ? 100 : 1000));
    else
      d[i] = static_cast<T>(static_cast<float>(x >> 40) / static_cast<float>(1 << 24));
  }
}

template <class T>
void fill(T* d, long long n, unsigned long long seed) {
  fill_kernel<<<4096, 256>>>(d, n, seed);
  CASCADE_CUDA_CHECK(cudaGetLastError());
  CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace rivals
