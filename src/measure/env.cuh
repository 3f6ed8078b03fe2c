// src/measure/env.cuh: what a results file records about where it was measured.
#pragma once

#include <cascade/detail/runtime/device.cuh>
#include <cascade/error.cuh>

#if __has_include(<cuda/std/version>)  // nvcc's include path has it; results.cpp's host compiler may not
#include <cuda/std/version>            // CCCL_{MAJOR,MINOR,PATCH}_VERSION
#endif

#include "cli.hpp"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

namespace cascade_bench {

// The command line every bench program takes: [--out FILE] [--commit SHA] [--driver VERSION].
struct options {
  std::string out_path, commit = "unknown", driver = "unknown";
};

inline void add_options(cli& line, options& o) {
  line.option("--out", &o.out_path, "write the results as JSON to this file")
      .option("--commit", &o.commit, "the cascade commit to record")
      .option("--driver", &o.driver, "the NVIDIA driver version to record");
}

// Parses the command line of a program that takes only the options above; exits on --help or an error.
inline options parse_options(int argc, char** argv, char const* program, char const* summary) {
  options o;
  cli line(program, summary);
  add_options(line, o);
  if (auto const status = line.parse(argc, argv)) std::exit(*status);
  return o;
}

// False, after one line saying so, when there is no CUDA GPU.
inline bool have_gpu(char const* program) {
  int count = 0;
  if (cudaGetDeviceCount(&count) == cudaSuccess && count > 0) return true;
  std::printf("%s: a CUDA GPU is required, and none is available.\n", program);
  return false;
}

struct environment {
  std::string gpu, date;
  int sm_count = 0, cc_major = 0, cc_minor = 0, driver = 0, runtime = 0;
  double l2_mb = 0;
  int memory_gbs = 0;  // peak memory bandwidth (cascade::detail::peak_memory_gbs); 0: not recorded
  // How the program was built, as its translation unit saw it: the CCCL its CUB and Thrust came from,
  // and whether NDEBUG was defined (without it, CCCL's assertions are compiled into CUB's kernels and
  // cascade's alike, which changes both times). Empty: not recorded (files written before these were).
  std::string cccl, assertions;
};

inline environment read_environment() {
  environment e;
  cudaDeviceProp prop;
  CASCADE_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  e.gpu = prop.name;
  e.sm_count = prop.multiProcessorCount;
  e.cc_major = prop.major;
  e.cc_minor = prop.minor;
  e.l2_mb = prop.l2CacheSize / 1e6;
  int clock_khz = 0, bus_bits = 0;
  CASCADE_CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, 0));
  CASCADE_CUDA_CHECK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0));
  e.memory_gbs = cascade::detail::peak_memory_gbs(clock_khz, bus_bits);
  CASCADE_CUDA_CHECK(cudaDriverGetVersion(&e.driver));
  CASCADE_CUDA_CHECK(cudaRuntimeGetVersion(&e.runtime));
  char buf[32];
  std::time_t const now = std::time(nullptr);
  std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&now));
  e.date = buf;
#ifdef CCCL_MAJOR_VERSION
  e.cccl = std::to_string(CCCL_MAJOR_VERSION) + "." + std::to_string(CCCL_MINOR_VERSION) + "." +
           std::to_string(CCCL_PATCH_VERSION);
#endif
#ifdef NDEBUG
  e.assertions = "off (NDEBUG)";
#else
  e.assertions = "on (no NDEBUG)";
#endif
  return e;
}

// Writes a results file (JSON): the environment, the driver and commit of `o`, how it was measured,
// and the rows, each one JSON object (one line each in the file, so that files diff and grep by row).
// Returns false, after saying why, when the file cannot be written or a row is not a JSON object (such
// a row is kept in the file as a string). Defined in results.cpp, with nlohmann-json.
bool write_results(std::string const& path, environment const& e, options const& o, char const* method,
                   std::vector<std::string> const& rows);

}  // namespace cascade_bench
