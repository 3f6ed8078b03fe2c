#include <cascade/cascade.cuh>

#include <cstdio>
#include <vector>

int main() {
  std::vector<int> host(1 << 20);
  for (int i = 0; i < static_cast<int>(host.size()); ++i) host[i] = i % 7;

  int* d = nullptr;
  cudaMalloc(&d, host.size() * sizeof(int));
  cudaMemcpy(d, host.data(), host.size() * sizeof(int), cudaMemcpyHostToDevice);

  // The default policy, then one picked by hand: 256 threads, 8 items each, sequential tree,
  // recursive finish.
  int total = cascade::reduce(d, d + host.size(), 0);
  using policy = cascade::policy<256, 8, cascade::tree::sequential, cascade::finish::recursive>;
  int largest = cascade::reduce(policy{}, d, d + host.size(), 0, cascade::maximum{});

  std::printf("sum %d, max %d\n", total, largest);
  cudaFree(d);
  return total == 3145722 && largest == 6 ? 0 : 1;
}
