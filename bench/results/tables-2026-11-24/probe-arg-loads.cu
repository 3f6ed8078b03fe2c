// Probe (issue 18, 2026-11-24, H200): argmin and minmax of int8 and half under fixed shapes, and
// with "rolling" loads (the next tile's vectors loaded as the current ones are folded:
// probe-arg-loads.patch, applied to cascade at c81ab49). Not part of the build:
//   git apply bench/results/tables-2026-11-24/probe-arg-loads.patch
//   nvcc -std=c++20 -arch=sm_90 -O3 --extended-lambda -Iinclude -DNDEBUG probe-arg-loads.cu -o probe
//   ./probe roll     (plain against rolling loads)    ./probe shapes   (plain loads, seven shapes)
// Times: CUDA events around each call, the variants in alternating runs, medians; cold after a
// 256 MB memset (L2 flushed), hot without one (the launch included: no spin kernel before).
#include <cascade/cascade.cuh>
#include <cuda_fp16.h>
#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

template <class U, class T, bool Roll>
struct mm_view : cascade::detail::minmax_input<U const*, T> {};
template <class U, class T, bool Roll>
struct am_view : cascade::detail::indexed_input<U const*, T> {};
namespace cascade::detail {
template <class U, class T, bool Roll>
struct vector_input<mm_view<U, T, Roll>> : vector_input<minmax_input<U const*, T>> {
  static constexpr bool rolling = Roll;
};
template <class U, class T, bool Roll>
struct vector_input<am_view<U, T, Roll>> : vector_input<indexed_input<U const*, T>> {
  static constexpr bool rolling = Roll;
};
}  // namespace cascade::detail

__global__ void ceiling_kernel(uint4 const* p, size_t n16, unsigned* out) {
  unsigned acc = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n16; i += size_t(gridDim.x) * blockDim.x) {
    uint4 v = __ldg(p + i);
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x12345678u) out[blockIdx.x] = acc;
}

static bool roll_mode = false;

struct variant {
  std::string name;
  std::function<void()> run;
  std::vector<float> cold, hot;
};

template <class U, class T, bool Roll, int B, int C>
void add(std::vector<variant>& vs, U const* d, long long n, void* out, bool minmax) {
  using P = cascade::policy<B, C, cascade::tree::shuffle, cascade::finish::flagged>;
  std::string nm = std::string(minmax ? "minmax" : "argmin") + (Roll ? " roll " : " plain ") + "<" +
                   std::to_string(B) + "," + std::to_string(C) + ">";
  if (minmax) {
    cascade::minmax_result<T> init{{cascade::detail::no_index, cascade::identity<cascade::minimum, T>::value()},
                                   {cascade::detail::no_index, cascade::identity<cascade::maximum, T>::value()}};
    vs.push_back({nm, [=] {
                    cascade::detail::dispatch_reduce_into(P{}, mm_view<U, T, Roll>{{d}}, n,
                                                          static_cast<cascade::minmax_result<T>*>(out), init,
                                                          cascade::arg_min_max{});
                  }});
  } else {
    cascade::indexed<T> init{cascade::detail::no_index, cascade::identity<cascade::minimum, T>::value()};
    vs.push_back({nm, [=] {
                    cascade::detail::dispatch_reduce_into(P{}, am_view<U, T, Roll>{{d}}, n,
                                                          static_cast<cascade::indexed<T>*>(out), init,
                                                          cascade::arg_min{});
                  }});
  }
}

float med(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <class U>
void run_type(char const* tname, U* d, void* out, void* flush, size_t flush_bytes, unsigned* cw, int sms) {
  for (int lg : roll_mode ? std::vector<int>{20, 24, 26, 28, 30} : std::vector<int>{22, 26, 28, 30}) {
    long long n = 1ll << lg;
    std::vector<variant> vs;
    size_t n16 = n * sizeof(U) / 16;
    vs.push_back({"ceiling", [=] { ceiling_kernel<<<sms * 4, 512>>>(reinterpret_cast<uint4 const*>(d), n16, cw); }});
    for (bool mm : {false, true}) {
      if (roll_mode) {
        add<U, U, false, 512, 64>(vs, d, n, out, mm);
        add<U, U, true, 512, 64>(vs, d, n, out, mm);
        add<U, U, false, 256, 64>(vs, d, n, out, mm);
        add<U, U, true, 256, 64>(vs, d, n, out, mm);
        add<U, U, false, 512, 32 * (int)(2 / sizeof(U))>(vs, d, n, out, mm);
        add<U, U, true, 512, 32 * (int)(2 / sizeof(U))>(vs, d, n, out, mm);
        add<U, U, true, 256, 128>(vs, d, n, out, mm);
        continue;
      }
      if (!mm && sizeof(U) == 2) continue;
      add<U, U, false, 128, 64>(vs, d, n, out, mm);
      add<U, U, false, 256, 32>(vs, d, n, out, mm);
      add<U, U, false, 256, 64>(vs, d, n, out, mm);
      add<U, U, false, 256, 128>(vs, d, n, out, mm);
      add<U, U, false, 512, 32>(vs, d, n, out, mm);
      add<U, U, false, 512, 64>(vs, d, n, out, mm);
      add<U, U, false, 1024, 32>(vs, d, n, out, mm);
    }
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    for (auto& v : vs) v.run();
    cudaDeviceSynchronize();
    int reps = lg >= 30 ? 7 : 15;
    for (int r = 0; r < reps; ++r)
      for (auto& v : vs) {
        for (int cold = 0; cold < 2; ++cold) {
          if (cold) cudaMemsetAsync(flush, 0, flush_bytes);
          cudaEventRecord(a);
          v.run();
          cudaEventRecord(b);
          cudaEventSynchronize(b);
          float ms;
          cudaEventElapsedTime(&ms, a, b);
          (cold ? v.cold : v.hot).push_back(ms * 1000);
        }
      }
    float ch = med(vs[0].hot), cc = med(vs[0].cold);
    for (auto& v : vs)
      std::printf("%-5s 2^%d %-26s hot %8.2f cold %8.2f  of ceiling cold %5.1f%%  hot %5.1f%%\n", tname, lg,
                  v.name.c_str(), med(v.hot), med(v.cold), 100 * cc / med(v.cold), 100 * ch / med(v.hot));
    std::fflush(stdout);
    if (cudaGetLastError() != cudaSuccess) std::printf("CUDA error\n");
  }
}

__global__ void fill8(signed char* p, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    unsigned x = unsigned(i) * 2654435761u ^ unsigned(i >> 32) * 40503u;
    x ^= x >> 13; x *= 0x5bd1e995u; x ^= x >> 15;
    p[i] = static_cast<signed char>(x);
  }
}
__global__ void fillh(__half* p, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    unsigned x = unsigned(i) * 2654435761u ^ unsigned(i >> 32) * 40503u;
    x ^= x >> 13; x *= 0x5bd1e995u; x ^= x >> 15;
    p[i] = __float2half((x % 20001) / 10.0f - 1000.0f);
  }
}

int main(int argc, char** argv) {
  roll_mode = argc > 1 && std::string(argv[1]) == "roll";
  int sms;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  size_t bytes = size_t(1) << 31;
  void* d;
  cudaMalloc(&d, bytes);
  void* out;
  cudaMalloc(&out, 256);
  unsigned* cw;
  cudaMalloc(&cw, 4 << 20);
  size_t flush_bytes = 256 << 20;
  void* flush;
  cudaMalloc(&flush, flush_bytes);
  fill8<<<1024, 256>>>(static_cast<signed char*>(d), bytes);
  run_type("int8", static_cast<signed char*>(d), out, flush, flush_bytes, cw, sms);
  fillh<<<1024, 256>>>(static_cast<__half*>(d), bytes / 2);
  run_type("half", static_cast<__half*>(d), out, flush, flush_bytes, cw, sms);
  return 0;
}
