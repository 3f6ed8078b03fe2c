// expect: cascade needs C++20: compile with -std=c++20
// std: c++17
#include <cascade/cascade.cuh>
int main() { return 0; }
