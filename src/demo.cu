// cascade-demo: reduces a large random array with several policies and the default, checks each
// result against cub::DeviceReduce, and prints a table (policy, result, agrees with CUB, time, GB/s).
// Times are medians of CUDA-event-timed reduce_into calls (result stays on the device), hot L2.
//
//   cascade-demo [log2 n]      (default 2^28 items per type)
#include <cascade/cascade.cuh>
#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace {

constexpr int warmup_runs = 3;
constexpr int timed_runs = 25;

template <class F>
float median_ms(F&& launch) {
  cudaEvent_t start, stop;
  CASCADE_CUDA_CHECK(cudaEventCreate(&start));
  CASCADE_CUDA_CHECK(cudaEventCreate(&stop));
  for (int i = 0; i < warmup_runs; ++i) launch();
  std::vector<float> ms(timed_runs);
  for (float& t : ms) {
    CASCADE_CUDA_CHECK(cudaEventRecord(start));
    launch();
    CASCADE_CUDA_CHECK(cudaEventRecord(stop));
    CASCADE_CUDA_CHECK(cudaEventSynchronize(stop));
    CASCADE_CUDA_CHECK(cudaEventElapsedTime(&t, start, stop));
  }
  CASCADE_CUDA_CHECK(cudaEventDestroy(start));
  CASCADE_CUDA_CHECK(cudaEventDestroy(stop));
  std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
  return ms[ms.size() / 2];
}

template <class T>
T read_back(T const* d) {
  T h;
  CASCADE_CUDA_CHECK(cudaMemcpy(&h, d, sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

struct row {
  std::string policy;
  std::string result;
  bool agrees;
  float ms;
  double gbps;
};

// Input In, accumulator Acc. Integers must match CUB exactly; floating point within `rel_tol` of
// CUB's result relative to sum |x| (both are sums in different orders, so rounding differs).
template <class In, class Acc>
void run_type(char const* type_name, std::vector<In> const& h, double rel_tol, std::vector<row>& rows) {
  std::int64_t const n = static_cast<std::int64_t>(h.size());
  double const bytes = static_cast<double>(n) * sizeof(In);
  In* d_in = nullptr;
  Acc* d_out = nullptr;
  CASCADE_CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(In)));
  CASCADE_CUDA_CHECK(cudaMalloc(&d_out, sizeof(Acc)));
  CASCADE_CUDA_CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(In), cudaMemcpyHostToDevice));
  double sum_abs = 0;
  for (In x : h) sum_abs += std::abs(static_cast<double>(x));

  std::size_t temp_bytes = 0;
  CASCADE_CUDA_CHECK(cub::DeviceReduce::Reduce(nullptr, temp_bytes, d_in, d_out, n, cascade::plus{}, Acc(0)));
  void* d_temp = nullptr;
  CASCADE_CUDA_CHECK(cudaMalloc(&d_temp, temp_bytes));
  auto const cub_run = [&] {
    CASCADE_CUDA_CHECK(cub::DeviceReduce::Reduce(d_temp, temp_bytes, d_in, d_out, n, cascade::plus{}, Acc(0)));
  };
  float const cub_ms = median_ms(cub_run);
  cub_run();
  Acc const cub_result = read_back(d_out);

  auto const add_row = [&](std::string name, Acc result, float ms) {
    bool const agrees = std::is_integral_v<Acc>
                            ? result == cub_result
                            : std::abs(static_cast<double>(result) - static_cast<double>(cub_result)) <= rel_tol * sum_abs;
    char text[64];
    if constexpr (std::is_integral_v<Acc>) std::snprintf(text, sizeof text, "%lld", static_cast<long long>(result));
    else std::snprintf(text, sizeof text, "%.9g", static_cast<double>(result));
    rows.push_back({std::string(type_name) + "  " + name, text, agrees, ms, bytes / (ms * 1e-3) / 1e9});
  };
  add_row("cub::DeviceReduce (reference)", cub_result, cub_ms);

  auto const run_policy = [&](std::string name, auto policy, auto op) {
    float const ms = median_ms([&] { cascade::reduce_into(policy, d_in, d_in + n, d_out, Acc(0), op); });
    Acc const via_host = cascade::reduce(policy, d_in, d_in + n, Acc(0), op);  // the host-returning entry point too
    Acc const via_device = read_back(d_out);
    add_row(name, via_host == via_device ? via_host : via_device + Acc(1) /* flag a mismatch */, ms);
  };
  using namespace cascade;
  run_policy("default_policy", default_policy{}, plus{});
  run_policy("policy<128, 1, sequential, recursive>", policy<128, 1, tree::sequential, finish::recursive>{}, plus{});
  run_policy("policy<128, 2, sequential, recursive>", policy<128, 2, tree::sequential, finish::recursive>{}, plus{});
  run_policy("policy<256, 8, sequential, recursive>", policy<256, 8, tree::sequential, finish::recursive>{}, plus{});
  run_policy("policy<512, 16, sequential, recursive>", policy<512, 16, tree::sequential, finish::recursive>{}, plus{});
  run_policy("policy<1024, 4, sequential, recursive>", policy<1024, 4, tree::sequential, finish::recursive>{}, plus{});
  // The same sum, marked non-commutative: the order-preserving (blocked) layout and trees.
  run_policy("default_policy, non_commutative(plus)", default_policy{}, non_commutative(plus{}));
  run_policy("policy<256, 16, interleaved, last_block>, non_comm.", policy<256, 16, tree::interleaved, finish::last_block>{},
             non_commutative(plus{}));

  CASCADE_CUDA_CHECK(cudaFree(d_temp));
  CASCADE_CUDA_CHECK(cudaFree(d_out));
  CASCADE_CUDA_CHECK(cudaFree(d_in));
}

}  // namespace

int main(int argc, char** argv) {
  int device_count = 0;
  if (cudaGetDeviceCount(&device_count) != cudaSuccess || device_count == 0) {
    std::printf("cascade-demo: a CUDA GPU is required to run the demo, and none is available.\n");
    return 2;
  }
  int const log2_n = argc > 1 ? std::atoi(argv[1]) : 28;
  if (log2_n < 1 || log2_n > 32) {
    std::fprintf(stderr, "usage: cascade-demo [log2 n in 1..32]\n");
    return 2;
  }
  std::int64_t const n = std::int64_t(1) << log2_n;
  cudaDeviceProp prop;
  CASCADE_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("cascade-demo on %s (sm_%d%d), n = 2^%d items, median of %d timed runs, hot L2\n", prop.name,
              prop.major, prop.minor, log2_n, timed_runs);

  std::uint64_t state = 0x9E3779B97F4A7C15ull;  // a fixed, printed seed keeps the demo reproducible
  auto next = [&] {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    return state;
  };
  std::vector<row> rows;
  {
    std::vector<float> h(n);
    for (auto& x : h) x = static_cast<float>(next() >> 40) / static_cast<float>(1 << 24);  // [0, 1)
    run_type<float, float>("float", h, 1e-5, rows);
  }
  {
    std::vector<int> h(n);
    for (auto& x : h) x = static_cast<int>(next() % 2001) - 1000;  // [-1000, 1000]
    run_type<int, long long>("int->int64", h, 0, rows);
  }

  std::printf("\n%-52s %20s %8s %10s %10s\n", "type  policy", "result", "= CUB", "time (us)", "GB/s");
  int disagreements = 0;
  for (row const& r : rows) {
    std::printf("%-52s %20s %8s %10.1f %10.1f\n", r.policy.c_str(), r.result.c_str(), r.agrees ? "yes" : "NO",
                r.ms * 1e3, r.gbps);
    disagreements += !r.agrees;
  }
  std::printf("\nfloat rows agree when within 1e-5 * sum|x| of CUB (sums in different orders round differently);"
              " integer rows must match exactly.\n%s\n",
              disagreements == 0 ? "every row agrees with CUB" : "SOME ROWS DISAGREE WITH CUB");
  return disagreements == 0 ? 0 : 1;
}
