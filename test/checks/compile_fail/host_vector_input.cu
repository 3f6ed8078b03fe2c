// expect: cascade: the input is a host container's iterator (std::vector's?)
#include <cascade/finish/recursive.cuh>
#include <cascade/reduce.cuh>
#include <cascade/tree/shuffle.cuh>
#include <vector>
using p = cascade::policy<256, 4, cascade::tree::shuffle, cascade::finish::recursive>;
int f(std::vector<int> const& v) { return cascade::reduce(p{}, v.begin(), v.end(), 0); }
int main() { return 0; }
