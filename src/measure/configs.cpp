// src/measure/configs.cpp: the measured configurations (item type, accumulator type, op), each with
// the candidate list that its own build of candidates.cu defines.
#include <string>

#include "candidates.cuh"

namespace cascade_measure {

#define CASCADE_CONFIG(name) \
  std::vector<candidate> candidates_##name(); \
  typed_ops ops_##name();
CASCADE_CONFIG(float_plus)
CASCADE_CONFIG(float_minimum)
CASCADE_CONFIG(double_plus)
CASCADE_CONFIG(double_minimum)
CASCADE_CONFIG(int32_plus)
CASCADE_CONFIG(int32_minimum)
CASCADE_CONFIG(int64_plus)
CASCADE_CONFIG(int64_minimum)
CASCADE_CONFIG(int8_plus)
CASCADE_CONFIG(int8_minimum)
CASCADE_CONFIG(half_plus)
CASCADE_CONFIG(half_minimum)
#undef CASCADE_CONFIG

std::vector<config> const& configs() {
  static std::vector<config> const all = {
      {"float-plus", "float", "float", "plus", 4, &candidates_float_plus, &ops_float_plus},
      {"float-minimum", "float", "float", "minimum", 4, &candidates_float_minimum, &ops_float_minimum},
      {"double-plus", "double", "double", "plus", 8, &candidates_double_plus, &ops_double_plus},
      {"double-minimum", "double", "double", "minimum", 8, &candidates_double_minimum, &ops_double_minimum},
      {"int32-plus", "int32", "int32", "plus", 4, &candidates_int32_plus, &ops_int32_plus},
      {"int32-minimum", "int32", "int32", "minimum", 4, &candidates_int32_minimum, &ops_int32_minimum},
      {"int64-plus", "int64", "int64", "plus", 8, &candidates_int64_plus, &ops_int64_plus},
      {"int64-minimum", "int64", "int64", "minimum", 8, &candidates_int64_minimum, &ops_int64_minimum},
      {"int8-plus", "int8", "int32", "plus", 1, &candidates_int8_plus, &ops_int8_plus},
      {"int8-minimum", "int8", "int32", "minimum", 1, &candidates_int8_minimum, &ops_int8_minimum},
      {"half-plus", "half", "float", "plus", 2, &candidates_half_plus, &ops_half_plus},
      {"half-minimum", "half", "float", "minimum", 2, &candidates_half_minimum, &ops_half_minimum},
  };
  return all;
}

config const* find_config(std::string const& key) {
  for (auto const& c : configs())
    if (key == c.key) return &c;
  return nullptr;
}

}  // namespace cascade_measure
