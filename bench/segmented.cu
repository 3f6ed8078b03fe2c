// cascade-segmented: segmented sums of 2^26 floats (--log2-items) in segments of one size each (1, 4,
// 16, 64, 256, 1K, 16K, 1M), offsets as a device array of int32 (begin = offsets, end = offsets + 1),
// against cub::DeviceSegmentedReduce::Sum in the same process: every cascade segment owner under
// <256, 4> (segment::blocks <256, 8>), cascade's segmented default, and batched_reduce's default
// (no offsets array). Hot and cold (L2 flushed), medians of alternating runs (src/measure/timer.cuh);
// the read ceiling reads the items' and the offsets' bytes. Every result is checked against CUB's.
//
//   cascade-segmented [--out FILE] [--commit SHA] [--driver VERSION]
#include <cascade/cascade.cuh>
#include <cub/device/device_segmented_reduce.cuh>

#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "measure/ceiling.cuh"
#include "measure/env.cuh"
#include "measure/fill.cuh"
#include "measure/timer.cuh"

namespace {

struct contender {
  std::string name;
  std::function<void()> run;
};

template <class Owner, int B, int C>
contender owner_contender(float const* in, int const* off, long long segments, float* out) {
  using policy = cascade::segmented_policy<Owner, B, C>;
  return {std::string("cascade ") + Owner::name + " <" + std::to_string(B) + ", " + std::to_string(C) + ">",
          [=] { cascade::segmented_reduce(policy{}, in, off, off + 1, segments, out, 0.0f, cascade::plus{}); }};
}

}  // namespace

int main(int argc, char** argv) {
  auto const opts = cascade_bench::parse_options(argc, argv, "cascade-segmented",
                                                 "segmented sums against cub::DeviceSegmentedReduce");
  if (!cascade_bench::have_gpu("cascade-segmented")) return 0;
  long long const items = 1ll << 26;
  float* in = nullptr;
  int* off = nullptr;
  float *out = nullptr, *ref = nullptr;
  void* ceiling_buffer = nullptr;
  CASCADE_CUDA_CHECK(cudaMalloc(&in, items * sizeof(float)));
  CASCADE_CUDA_CHECK(cudaMalloc(&off, (items + 1) * sizeof(int)));
  CASCADE_CUDA_CHECK(cudaMalloc(&out, items * sizeof(float)));
  CASCADE_CUDA_CHECK(cudaMalloc(&ref, items * sizeof(float)));
  CASCADE_CUDA_CHECK(cudaMalloc(&ceiling_buffer, items * (sizeof(float) + sizeof(int)) + 64));
  cascade_measure::fill(in, items, 0x5E6ull);
  cascade_bench::timer t;
  std::vector<std::string> rows;
  std::printf("%-10s %-34s %10s %10s %9s %9s %s\n", "segment", "contender", "hot us", "cold us", "GB/s", "ceil%",
              "vs CUB (hot)");
  for (long long size : {1ll, 4ll, 16ll, 64ll, 256ll, 1024ll, 16384ll, 1ll << 20}) {
    long long const segments = items / size;
    std::vector<int> h(segments + 1);
    for (long long s = 0; s <= segments; ++s) h[s] = static_cast<int>(s * size);
    CASCADE_CUDA_CHECK(cudaMemcpy(off, h.data(), h.size() * sizeof(int), cudaMemcpyHostToDevice));
    std::size_t temp_bytes = 0;
    CASCADE_CUDA_CHECK(cub::DeviceSegmentedReduce::Sum(nullptr, temp_bytes, in, ref, segments, off, off + 1));
    void* temp = nullptr;
    CASCADE_CUDA_CHECK(cudaMalloc(&temp, temp_bytes + 1));
    std::vector<contender> cs;
    cs.push_back({"cub::DeviceSegmentedReduce::Sum", [=] {
                    std::size_t bytes = temp_bytes;
                    CASCADE_CUDA_CHECK(cub::DeviceSegmentedReduce::Sum(temp, bytes, in, ref, segments, off, off + 1));
                  }});
    cs.push_back({"cascade default_policy", [=] {
                    cascade::segmented_reduce(cascade::default_policy{}, in, off, off + 1, segments, out, 0.0f,
                                              cascade::plus{});
                  }});
    cs.push_back({"cascade batched_reduce default_policy", [=] {
                    cascade::batched_reduce(cascade::default_policy{}, in, size, segments, out, 0.0f, cascade::plus{});
                  }});
    if (size <= 1024) cs.push_back(owner_contender<cascade::segment::thread, 256, 4>(in, off, segments, out));
    cs.push_back(owner_contender<cascade::segment::warp<4>, 256, 4>(in, off, segments, out));
    cs.push_back(owner_contender<cascade::segment::warp<8>, 256, 4>(in, off, segments, out));
    cs.push_back(owner_contender<cascade::segment::warp<16>, 256, 4>(in, off, segments, out));
    cs.push_back(owner_contender<cascade::segment::warp<32>, 256, 4>(in, off, segments, out));
    cs.push_back(owner_contender<cascade::segment::block, 256, 4>(in, off, segments, out));
    cs.push_back(owner_contender<cascade::segment::blocks, 256, 8>(in, off, segments, out));
    // Agreement with CUB's results, within float rounding of sums of `size` items.
    cs[0].run();
    std::vector<float> want(segments), got(segments);
    CASCADE_CUDA_CHECK(cudaMemcpy(want.data(), ref, segments * sizeof(float), cudaMemcpyDeviceToHost));
    std::vector<bool> agrees(cs.size(), true);
    for (std::size_t k = 1; k < cs.size(); ++k) {
      CASCADE_CUDA_CHECK(cudaMemset(out, 0xff, segments * sizeof(float)));
      cs[k].run();
      CASCADE_CUDA_CHECK(cudaMemcpy(got.data(), out, segments * sizeof(float), cudaMemcpyDeviceToHost));
      for (long long s = 0; s < segments; ++s)
        if (!(std::fabs(got[s] - want[s]) <= 1e-5f * static_cast<float>(size) * (1.0f + std::fabs(want[s])))) {
          agrees[k] = false;
          std::printf("  %s disagrees at segment %lld: %.9g, CUB %.9g\n", cs[k].name.c_str(), s, got[s], want[s]);
          break;
        }
    }
    double const bytes = static_cast<double>(items) * sizeof(float) + static_cast<double>(segments + 1) * sizeof(int);
    std::size_t const ceiling_bytes = (static_cast<std::size_t>(bytes) + 15) / 16 * 16;
    std::vector<std::function<void()>> calls;
    for (auto& c : cs) calls.push_back(c.run);
    std::vector<double> hot = t.median_group_us_budget(calls, cascade_bench::mode::hot, 31, 3e5);
    std::vector<double> cold = t.median_group_us_budget(calls, cascade_bench::mode::cold, 31, 3e5);
    double const ceil_hot = cascade_measure::best_read_ceiling_us(t, ceiling_buffer, ceiling_bytes, cascade_bench::mode::hot);
    double const ceil_cold = cascade_measure::best_read_ceiling_us(t, ceiling_buffer, ceiling_bytes, cascade_bench::mode::cold);
    for (std::size_t k = 0; k < cs.size(); ++k) {
      std::printf("%-10lld %-34s %10.1f %10.1f %9.0f %8.0f%% %.2fx%s\n", size, cs[k].name.c_str(), hot[k], cold[k],
                  bytes / cold[k] / 1e3, 100 * ceil_cold / cold[k], hot[0] / hot[k], agrees[k] ? "" : "  DISAGREES");
      char row[1024];
      std::snprintf(row, sizeof row,
                    "{\"kind\": \"timing\", \"family\": \"segmented\", \"item\": \"float\", \"items\": %lld, "
                    "\"segment_size\": %lld, \"segments\": %lld, \"bytes\": %.0f, \"name\": \"%s\", \"hot_us\": %.3f, "
                    "\"cold_us\": %.3f, \"ceiling_hot_us\": %.3f, \"ceiling_cold_us\": %.3f, \"ratio_hot\": %.4f, "
                    "\"ratio_cold\": %.4f, \"agrees\": %s}",
                    items, size, segments, bytes, cs[k].name.c_str(), hot[k], cold[k], ceil_hot, ceil_cold,
                    hot[0] / hot[k], cold[0] / cold[k], agrees[k] ? "true" : "false");
      rows.push_back(row);
    }
    cudaFree(temp);
  }
  int const ok = opts.out_path.empty() ||
                 cascade_bench::write_results(opts.out_path, cascade_bench::read_environment(), opts,
                                              "hot and cold medians of alternating runs (timer.cuh), CUB's two-phase "
                                              "temporary storage allocated outside the timed region",
                                              rows);
  cudaFree(in);
  cudaFree(off);
  cudaFree(out);
  cudaFree(ref);
  cudaFree(ceiling_buffer);
  return ok ? 0 : 1;
}
