// expect: cascade: the input is a host container's iterator (std::vector's?)
#include <cascade/arg_reduce.cuh>
#include <cascade/finish/recursive.cuh>
#include <cascade/tree/shuffle.cuh>
#include <vector>
using p = cascade::policy<256, 4, cascade::tree::shuffle, cascade::finish::recursive>;
long long f(std::vector<float> const& v) { return cascade::argmin(p{}, v.rbegin(), v.rend()).index; }
int main() { return 0; }
