// Probe (not built by meson): where exact_plus's small-size time goes. Build and run on the GPU:
//   nvcc -std=c++20 -O3 -arch=sm_90 --extended-lambda --expt-relaxed-constexpr -I include \
//     bench/results/exact-retune-2026-11-25/floor_probe.cu -o floor_probe && ./floor_probe
// Times (CUDA events around each call: the launch included), medians of 301 alternating rounds.
#include <cascade/cascade.cuh>
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

struct st8 { long long a, b, c; int w; unsigned f; };
struct st8_plus {
  __host__ __device__ st8 operator()(st8 const& x, st8 const& y) const {
    return {x.a + y.a, x.b + y.b, x.c + y.c, x.w > y.w ? x.w : y.w, x.f | y.f};
  }
};
struct to_st8 {
  __host__ __device__ st8 operator()(float v) const {
    long long const u = static_cast<long long>(v * 1024.0f);
    return {u, u >> 3, u >> 7, 1, 0u};
  }
};
__global__ void empty_kernel() {}
__global__ void fill(float* p, long long n, float v, int random) {
  for (long long i = blockIdx.x * 256ll + threadIdx.x; i < n; i += 256ll * gridDim.x) {
    unsigned h = static_cast<unsigned>(i) * 2654435761u; h ^= h >> 13; h *= 0x5bd1e995u; h ^= h >> 15;
    p[i] = random ? (h & 0xffffff) / 16777216.0f : v;
  }
}

int main() {
  long long const max_n = 1ll << 22;
  float *rnd, *zero, *one, *out; st8* out8;
  cudaMalloc(&rnd, max_n * 4); cudaMalloc(&zero, max_n * 4); cudaMalloc(&one, max_n * 4);
  cudaMalloc(&out, 64); cudaMalloc(&out8, 64);
  fill<<<1024, 256>>>(rnd, max_n, 0, 1); fill<<<1024, 256>>>(zero, max_n, 0, 0); fill<<<1024, 256>>>(one, max_n, 1, 0);
  cudaDeviceSynchronize();
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  using p256 = cascade::policy<256, 8, cascade::tree::shuffle, cascade::finish::flagged>;
  using p512 = cascade::policy<512, 16, cascade::tree::shuffle, cascade::finish::flagged>;
  for (long long n : {1ll << 10, 1ll << 16, 1ll << 20, 1ll << 22}) {
    std::vector<std::pair<std::string, std::function<void()>>> c = {
      {"empty kernel", [] { empty_kernel<<<1, 32>>>(); }},
      {"plus default", [=] { cascade::reduce_into(cascade::default_policy{}, rnd, rnd + n, out, 0.0f, cascade::plus{}); }},
      {"plus <256,8>", [=] { cascade::reduce_into(p256{}, rnd, rnd + n, out, 0.0f, cascade::plus{}); }},
      {"exact default rnd", [=] { cascade::reduce_into(cascade::default_policy{}, rnd, rnd + n, out, 0.0f, cascade::exact_plus{}); }},
      {"exact <256,8> rnd", [=] { cascade::reduce_into(p256{}, rnd, rnd + n, out, 0.0f, cascade::exact_plus{}); }},
      {"exact <256,8> ones", [=] { cascade::reduce_into(p256{}, one, one + n, out, 0.0f, cascade::exact_plus{}); }},
      {"exact <256,8> zeros", [=] { cascade::reduce_into(p256{}, zero, zero + n, out, 0.0f, cascade::exact_plus{}); }},
      {"repro <256,8> rnd", [=] { cascade::reduce_into(p256{}, rnd, rnd + n, out, 0.0f, cascade::reproducible_plus{}); }},
      {"st8 plain <256,8>", [=] { cascade::transform_reduce_into(p256{}, rnd, rnd + n, out8, st8{0, 0, 0, 0, 0u}, st8_plus{}, to_st8{}); }},
      {"exact <512,16> rnd", [=] { cascade::reduce_into(p512{}, rnd, rnd + n, out, 0.0f, cascade::exact_plus{}); }},
      {"plus <512,16>", [=] { cascade::reduce_into(p512{}, rnd, rnd + n, out, 0.0f, cascade::plus{}); }},
      {"st8 plain <512,16>", [=] { cascade::transform_reduce_into(p512{}, rnd, rnd + n, out8, st8{0, 0, 0, 0, 0u}, st8_plus{}, to_st8{}); }},
    };
    std::vector<std::vector<float>> t(c.size());
    for (auto& [name, f] : c) for (int i = 0; i < 20; ++i) f();
    cudaDeviceSynchronize();
    for (int r = 0; r < 301; ++r)
      for (size_t k = 0; k < c.size(); ++k) {
        cudaEventRecord(e0); c[k].second(); cudaEventRecord(e1); cudaEventSynchronize(e1);
        float ms; cudaEventElapsedTime(&ms, e0, e1); t[k].push_back(ms * 1000);
      }
    for (size_t k = 0; k < c.size(); ++k) {
      std::sort(t[k].begin(), t[k].end());
      std::printf("n=2^%d %-22s %7.2f us (p10 %7.2f)\n", 63 - __builtin_clzll(n), c[k].first.c_str(), t[k][150], t[k][30]);
    }
  }
  std::printf("err %s\n", cudaGetErrorString(cudaGetLastError()));
}
