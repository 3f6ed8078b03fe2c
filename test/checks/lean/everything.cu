// Everything cascade.cuh has (every algorithm, policy, tree and finish, the tables), and lean.py checks
// (nvcc -M) that it pulls in nothing of CUB: cross_check.cuh and tree/cub_block.cuh, which need it,
// have their own includes.
#include <cascade/cascade.cuh>

float sum(float const* d, long long n) { return cascade::reduce(d, d + n, 0.0f); }
