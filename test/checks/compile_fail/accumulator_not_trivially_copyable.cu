// expect: must be trivially copyable and default constructible
#include <cascade/cascade.cuh>
#include <string>
struct text { std::string s; text operator+(text const& o) const { return {s + o.s}; } };
void f(text const* d) { cascade::reduce(d, d + 1, text{}); }
int main() { return 0; }
