// src/measure/ceiling.cu: the streaming read kernel that bounds every reduction from above.
#include <cascade/error.cuh>

#include <algorithm>

#include "ceiling.cuh"

namespace cascade_measure {

namespace {

__global__ void __launch_bounds__(512) read_kernel(uint4 const* p, std::size_t count, unsigned* sink) {
  unsigned acc = 0;
  std::size_t const stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < count; i += 4 * stride) {  // four loads in flight per thread
    uint4 const a = __ldg(p + i), b = __ldg(p + i + stride), c = __ldg(p + i + 2 * stride),
                d = __ldg(p + i + 3 * stride);
    acc ^= a.x ^ a.y ^ a.z ^ a.w ^ b.x ^ b.y ^ b.z ^ b.w ^ c.x ^ c.y ^ c.z ^ c.w ^ d.x ^ d.y ^ d.z ^ d.w;
  }
  for (; i < count; i += stride) {
    uint4 const a = __ldg(p + i);
    acc ^= a.x ^ a.y ^ a.z ^ a.w;
  }
  if (acc == 0x9E3779B9u) sink[blockIdx.x] = acc;  // almost never taken; keeps the loads
}

unsigned* sink() {
  static unsigned* s = [] {
    unsigned* p = nullptr;
    CASCADE_CUDA_CHECK(cudaMalloc(&p, sizeof(unsigned) * 1024 * 64));
    return p;
  }();
  return s;
}

}  // namespace

read_launch::read_launch(void const* d_, std::size_t bytes_, int blocks_per_sm_)
    : d(d_), bytes(bytes_), blocks_per_sm(blocks_per_sm_) {
  int device = 0, sms = 0;
  CASCADE_CUDA_CHECK(cudaGetDevice(&device));
  CASCADE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  grid = static_cast<unsigned>(std::min<std::size_t>(sms * blocks_per_sm, (bytes / 16 + 511) / 512));
  sink();  // allocated before any timed run
}

void read_launch::operator()() const {
  read_kernel<<<grid, 512>>>(static_cast<uint4 const*>(d), bytes / 16, sink());
  CASCADE_CUDA_CHECK(cudaGetLastError());
}

double read_ceiling_us(cascade_bench::timer& t, void const* d, std::size_t bytes, cascade_bench::mode m,
                       int blocks_per_sm) {
  return t.median_us_budget(read_launch(d, bytes, blocks_per_sm), m, 51, 1e5);
}

std::pair<read_launch, double> best_read(cascade_bench::timer& t, void const* d, std::size_t bytes,
                                         cascade_bench::mode m) {
  std::pair<read_launch, double> best{{}, 1e300};
  for (int per_sm : {2, 4, 8, 16}) {
    read_launch const launch(d, bytes, per_sm);
    double const us = t.median_us_budget(launch, m, 51, 1e5);
    if (us < best.second) best = {launch, us};
  }
  return best;
}

double best_read_ceiling_us(cascade_bench::timer& t, void const* d, std::size_t bytes, cascade_bench::mode m) {
  return best_read(t, d, bytes, m).second;
}

}  // namespace cascade_measure
