// expect: include <cascade/policy/default_policy.cuh>
// alone: tests a missing include, which the shared compile's includes would supply
#include <cascade/reduce.cuh>
// reduce with default_policy where only reduce.cuh is included: policy/policy.cuh declares default_policy (the
// segmented calls need no table), but its reduce dispatch is in policy/default_policy.cuh, with the tables.
float f(float const* d) { return cascade::reduce(cascade::default_policy{}, d, d + 1, 0.0f); }
int main() { return 0; }
