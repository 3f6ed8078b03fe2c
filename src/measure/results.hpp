// src/measure/results.hpp: cascade-tune's rows of a results file, written and read back (--from).
// The file itself (environment, method, rows) is write_results' (env.cuh); both are read and written
// with nlohmann-json in results.cpp, which only the host compiler sees.
#pragma once

#include <string>
#include <vector>

#include "env.cuh"

namespace cascade_bench {

// One measurement of cascade-tune: one candidate's times at one size of one configuration.
struct tune_row {
  std::string config;  // e.g. "float-plus"
  long long n = 0;
  std::string name, group;  // the candidate's (candidates.cuh)
  bool table_eligible = false;
  double hot_us = 0, cold_us = 0;  // microseconds, kept to 3 decimals; NaN (null in the file) if not measured
  bool agrees = false;
};

// The row as one JSON object, for write_results.
std::string to_json(tune_row const& row);

// A results file of cascade-tune: where it was measured, by which driver and cascade commit, and its rows.
struct tune_results {
  environment env;
  std::string driver, commit;
  std::vector<tune_row> rows;
};

// Reads a results file that cascade-tune wrote (this version's or an earlier one's: the keys are the
// same). Throws std::runtime_error, naming the file, when it cannot be read or is not such a file.
tune_results read_tune_results(std::string const& path);

}  // namespace cascade_bench
