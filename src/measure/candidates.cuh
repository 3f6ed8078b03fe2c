// src/measure/candidates.cuh: the policies the bench and the tuner measure, behind one signature.
//
// One list per measured configuration (item type, accumulator type, op); each list is compiled in a
// translation unit of its own (candidates.cu, built once per configuration), so the many kernel
// instantiations build in parallel and only once for both programs.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <vector>

namespace cascade_measure {

// reduce_into(policy.on(stream), first, first + n, d_out, init, op) with the configuration's types.
using runner = void (*)(void const* first, long long n, void* d_out, void const* init, cudaStream_t stream);

struct candidate {
  std::string name;   // how tables and reports show it, e.g. "<256, 16, shuffle, last_block>" or a preset's name
  std::string group;  // "default", "preset", "shape" (block x coarse) or "strategy" (tree x finish)
  int block_size = 0, coarse_factor = 0;  // 0 for default_policy
  std::string tree, finish;
  // Whether a tuning table may name it: an order-preserving finish that takes any type, and a tree
  // that keeps order or is wrapped in tree::by_commutativity; `spelling` is its C++ type then.
  bool table_eligible = false;
  std::string spelling;
  runner run = nullptr;
};

// What the measuring programs need to know of a configuration's types, behind untyped pointers.
struct typed_ops {
  std::size_t item_bytes = 0, accumulator_bytes = 0;
  // Seeded pseudo-random items on the device: integers in [-1000, 1000] ([-100, 100] for int8),
  // floating point in [0, 1).
  void (*fill)(void* d_items, long long n, unsigned long long seed) = nullptr;
  void (*identity)(void* init) = nullptr;  // the op's identity, the init every measured call uses
  std::size_t (*cub_temp_bytes)(long long n) = nullptr;
  void (*cub_reduce)(void* d_temp, std::size_t temp_bytes, void const* d_items, long long n, void* d_out,
                     cudaStream_t stream) = nullptr;
  void (*thrust_reduce)(void const* d_items, long long n, void* h_out) = nullptr;   // to the host
  void (*cascade_reduce)(void const* d_items, long long n, void* h_out) = nullptr;  // default_policy, to the host
  // Whether two results agree: exactly for integers and min, within 1e-5 (float) or 1e-10 (double)
  // relative for sums.
  bool (*agrees)(void const* a, void const* b) = nullptr;
  std::string (*format)(void const* value) = nullptr;
};

// The configurations: item type, accumulator type, op. `key` names them on command lines and in files.
struct config {
  char const* key;  // e.g. "float-plus"
  char const* item;  // "float", "double", "int32", "int64", "int8", "half"
  char const* accumulator;
  char const* op;  // "plus" or "minimum"
  int item_bytes;
  std::vector<candidate> (*candidates)();
  typed_ops (*ops)();
};

std::vector<config> const& configs();
config const* find_config(std::string const& key);  // nullptr when unknown

}  // namespace cascade_measure
