// cascade-concurrency: what a reduction waits for when another stream is busy (docs/streams.md,
// "Concurrency"). Stream B runs a one-thread kernel for --busy-ms; stream A then runs a reduce_into of
// 2^20 floats with policy <256, 16, shuffle, Finish> (or default_policy) and the host waits for A.
// Each row says how long that took, and whether B was still running when A was done.
//
//   cascade-concurrency --first NAME [--prepared]   the first call of NAME's policy in this process
//                                                   (lazy loading; --prepared: cascade::prepare first)
//   cascade-concurrency                              every finish on a warm stream, then probes of
//                                                   finish::cooperative: a bare cooperative kernel of
//                                                   1 block, 1 per SM, and a full grid beside B, and a
//                                                   last_block call queued behind a waiting cooperative one
//   common: [--busy-ms MS] (default 50)
// Rows are JSON objects, one a line, after "row "; scripts/concurrency.sh runs every case in a fresh
// process and writes bench/results/concurrency-*.json.
#include <cascade/cascade.cuh>
#include <cooperative_groups.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "measure/env.cuh"

namespace {

using namespace cascade;
using clock_type = std::chrono::steady_clock;

__global__ void busy_kernel(unsigned long long nanoseconds) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  while (now - start < nanoseconds);
}

__global__ void bare_cooperative_kernel(int* out) {
  cooperative_groups::this_grid().sync();
  if (blockIdx.x == 0 && threadIdx.x == 0) *out = 1;
}

struct setup {
  float* d = nullptr;
  float* d_out = nullptr;
  int* d_flag = nullptr;
  long long n = 1 << 20;
  cudaStream_t a = nullptr, b = nullptr, c = nullptr;
  double busy_ms = 50;
  setup() {
    CASCADE_CUDA_CHECK(cudaMalloc(&d, sizeof(float) * n));
    CASCADE_CUDA_CHECK(cudaMemset(d, 0, sizeof(float) * n));
    CASCADE_CUDA_CHECK(cudaMalloc(&d_out, sizeof(float)));
    CASCADE_CUDA_CHECK(cudaMalloc(&d_flag, sizeof(int)));
    for (cudaStream_t* s : {&a, &b, &c}) CASCADE_CUDA_CHECK(cudaStreamCreateWithFlags(s, cudaStreamNonBlocking));
    busy_kernel<<<1, 1, 0, b>>>(1000);  // loaded before anything is timed
    CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
  }
  void start_busy() { busy_kernel<<<1, 1, 0, b>>>(static_cast<unsigned long long>(busy_ms * 1e6)); }
  // Runs f (which enqueues on A), waits for A; the time, and whether B was still busy then.
  template <class F>
  std::pair<double, bool> time_beside_busy(F f) {
    CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
    start_busy();
    auto const t0 = clock_type::now();
    f();
    CASCADE_CUDA_CHECK(cudaStreamSynchronize(a));
    double const ms = std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
    bool const b_busy = cudaStreamQuery(b) == cudaErrorNotReady;
    CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
    return {ms, b_busy};
  }
};

template <class Finish>
using bench_policy = policy<256, 16, tree::shuffle, Finish>;

struct finish_entry {
  char const* name;
  std::function<void(setup&, bool prepare_first)> prepare;
  std::function<void(setup&)> call;
};

template <class P>
finish_entry entry(char const* name) {
  return {name,
          [](setup& s, bool) { cascade::prepare(P{}.on(s.a), s.d, s.d + s.n, 0.0f, plus{}); },
          [](setup& s) { reduce_into(P{}.on(s.a), s.d, s.d + s.n, s.d_out, 0.0f, plus{}); }};
}

// Every finish of the registry (cascade/finish/all.cuh), then default_policy.
std::vector<finish_entry> finishes() {
  std::vector<finish_entry> all;
  cascade::detail::for_each_type(finish::compiled{}, [&](auto f) {
    using Finish = decltype(f);
    all.push_back(entry<bench_policy<Finish>>(Finish::name + std::string("finish::").size()));
  });
  all.push_back(entry<default_policy>("default"));
  return all;
}

std::string loading_mode() {
  char const* m = std::getenv("CUDA_MODULE_LOADING");
  return m != nullptr && *m != 0 ? m : "LAZY (default)";
}

void row(char const* what, char const* name, char const* mode, double ms, bool b_busy, double busy_ms,
         char const* extra = "") {
  std::printf(
      "row {\"case\": \"%s\", \"finish\": \"%s\", \"mode\": \"%s\", \"module_loading\": \"%s\", \"ms\": %.3f, "
      "\"busy_ms\": %.1f, \"other_stream_still_busy\": %s%s}\n",
      what, name, mode, loading_mode().c_str(), ms, busy_ms, b_busy ? "true" : "false", extra);
}

}  // namespace

int main(int argc, char** argv) {
  std::string first;
  bool prepared = false;
  double busy_ms = 50;
  cascade_bench::cli line("cascade-concurrency",
                          "How long a reduction takes beside a busy kernel of another stream (scripts/concurrency.sh\n"
                          "runs each case in a fresh process).");
  line.option("--first", &first, "time only the first call of this configuration (as a fresh process sees it)")
      .flag("--prepared", &prepared, "with --first: cascade::prepare it before the busy kernel starts")
      .option("--busy-ms", &busy_ms, "how long the other stream's kernel runs (default 50)");
  if (auto const status = line.parse(argc, argv)) return *status;
  if (!cascade_bench::have_gpu("cascade-concurrency")) return 0;
  setup s;
  s.busy_ms = busy_ms;
  auto const list = finishes();

  if (!first.empty()) {  // one first call, in a fresh process
    for (auto const& f : list) {
      if (first != f.name) continue;
      double prepare_ms = 0;
      if (prepared) {
        auto const t0 = clock_type::now();
        f.prepare(s, true);
        prepare_ms = std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
      }
      auto const [ms, b_busy] = s.time_beside_busy([&] { f.call(s); });
      char extra[64];
      std::snprintf(extra, sizeof extra, ", \"prepare_ms\": %.3f", prepare_ms);
      row("first call", f.name, prepared ? "prepared" : "unprepared", ms, b_busy, busy_ms, extra);
      return 0;
    }
    std::fprintf(stderr, "cascade-concurrency: no finish named %s\n", first.c_str());
    return 2;
  }

  for (auto const& f : list) {  // warm: a call with B idle first
    f.call(s);
    CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
    auto const [ms, b_busy] = s.time_beside_busy([&] { f.call(s); });
    row("warm call", f.name, "warm", ms, b_busy, busy_ms);
  }

  // finish::cooperative: is it co-residency? A bare cooperative kernel of growing grids beside B.
  int per_sm = 0, sms = 0;
  CASCADE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, bare_cooperative_kernel, 256, 0));
  CASCADE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  for (int grid : {1, sms, per_sm * sms}) {
    void* args[] = {&s.d_flag};
    auto const launch = [&] {
      CASCADE_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void const*>(&bare_cooperative_kernel),
                                                     dim3(grid), dim3(256), args, 0, s.a));
    };
    launch();  // loaded, warm
    auto const [ms, b_busy] = s.time_beside_busy(launch);
    char extra[96];
    std::snprintf(extra, sizeof extra, ", \"grid\": %d, \"resident_grid\": %d", grid, per_sm * sms);
    row("bare cooperative kernel", "cooperative", "warm", ms, b_busy, busy_ms, extra);
  }
  // Does a cooperative launch that waits hold up kernels of a third stream enqueued after it?
  {
    auto const coop = bench_policy<finish::cooperative>{};
    auto const last = bench_policy<finish::last_block>{};
    CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
    s.start_busy();
    reduce_into(coop.on(s.c), s.d, s.d + s.n, s.d_out + 0, 0.0f, plus{});  // waits for B
    auto const t0 = clock_type::now();
    reduce_into(last.on(s.a), s.d, s.d + s.n, s.d_out, 0.0f, plus{});
    CASCADE_CUDA_CHECK(cudaStreamSynchronize(s.a));
    double const ms = std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
    bool const b_busy = cudaStreamQuery(s.b) == cudaErrorNotReady;
    CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
    row("last_block behind a waiting cooperative call on a third stream", "last_block", "warm", ms, b_busy, busy_ms);
  }
  return 0;
}
