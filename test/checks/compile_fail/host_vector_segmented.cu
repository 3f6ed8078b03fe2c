// expect: cascade: the input is a host container's iterator (std::vector's?)
#include <cascade/segmented_reduce.cuh>
#include <vector>
void f(std::vector<int> const& v, int const* offsets, int* out) {
  cascade::segmented_reduce(cascade::default_policy{}, v.begin(), offsets, offsets + 1, 4, out, 0, cascade::plus{});
}
int main() { return 0; }
