// default_policy's reduce: policy/default_policy.cuh reads every tuning table, and so every tree and finish
// they name (finish::cluster's cooperative groups too), but lean.py checks (nvcc -M) that it pulls in
// nothing of CUB: only tree::cub_block and cross_check need it, and no table names cub_block.
#include <cascade/policy/default_policy.cuh>

float sum(float const* d, long long n) { return cascade::reduce(d, d + n, 0.0f); }
