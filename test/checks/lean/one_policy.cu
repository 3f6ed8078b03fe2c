// A file that names its own policy: the policy, the entry points, one tree and one finish. lean.py
// checks (nvcc -M) that this pulls in no other tree or finish, nothing of tuning/ or default_policy,
// and nothing of CUB or cooperative groups.
#include <cascade/finish/last_block.cuh>
#include <cascade/policy/policy.cuh>
#include <cascade/reduce.cuh>
#include <cascade/tree/shuffle.cuh>

using my_policy = cascade::policy<256, 8, cascade::tree::shuffle, cascade::finish::last_block>;

float sum(float const* d, long long n) { return cascade::reduce(my_policy{}, d, d + n, 0.0f); }
