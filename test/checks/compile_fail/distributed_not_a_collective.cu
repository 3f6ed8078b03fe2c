// expect: no instance of overloaded function "cascade::reduce" matches the argument list
#include <cascade/distributed/reduce.cuh>
#include <cascade/finish/recursive.cuh>
#include <cascade/tree/shuffle.cuh>
using p = cascade::policy<256, 4, cascade::tree::shuffle, cascade::finish::recursive>;
struct all_gather {};  // not a tag of cascade::collective
float f(cascade::communicator const& c, float const* d) { return cascade::reduce(c, p{}, d, d + 1, 0.0f, cascade::plus{}, all_gather{}); }
int main() { return 0; }
