// cascade-segmented: segmented sums of 2^26 floats in segments of one size each (1, 4, 16, 64, 256,
// 1K, 16K, 1M), then in segments of power-law lengths (P(L) ~ L^-alpha on [1, 2^20], alpha such that
// the mean is 32; seeded), offsets as a device array of int32 (begin = offsets, end = offsets + 1),
// against cub::DeviceSegmentedReduce::Sum in the same process: every cascade segment owner under
// <256, 4> (segment::blocks and segment::binned <256, 8>, segment::tiles <256, 16>), cascade's segmented
// default (also with a segment_lengths hint of the size, and at 16 and 16K a wrong one), and, for fixed sizes, batched_reduce's default
// and CUB's fixed-size Sum (CUB >= 3.2; neither reads an offsets array); from 4K items, segment::block
// under three more shapes and segment::blocks under <256, 16>. Hot and cold (L2 flushed), medians of alternating
// runs (src/measure/timer.cuh); the read ceiling reads the items' and the offsets' bytes. Every result
// is checked against CUB's. Built twice: cascade-segmented against the toolkit's CUB and, where
// .deps/cccl holds it, cascade-segmented-newest against the newest CCCL; every row records the
// CUB_VERSION it was built with (scripts/plot_segmented.py draws the files).
//
//   cascade-segmented [--out FILE] [--commit SHA] [--driver VERSION]
// CASCADE_SEGMENTED_ONLY=<case> (a segment size, or power-law) runs that case alone: for a profiler.
#include <cascade/cascade.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cub/version.cuh>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
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

// Every segment owner: thread and thread_vectors (where `with_thread`), warp<4..32>; block, blocks and binned
// <256, 8>; tiles <256, 16>. binned and tiles only where their headers are there (they came after this bench).
void add_owners(std::vector<contender>& cs, float const* in, int const* off, long long segments, float* out,
                bool with_thread) {
  if (with_thread) cs.push_back(owner_contender<cascade::segment::thread, 256, 4>(in, off, segments, out));
#if __has_include(<cascade/segment/thread_vectors.cuh>)
  if (with_thread) cs.push_back(owner_contender<cascade::segment::thread_vectors, 256, 4>(in, off, segments, out));
#endif
  cs.push_back(owner_contender<cascade::segment::warp<4>, 256, 4>(in, off, segments, out));
  cs.push_back(owner_contender<cascade::segment::warp<8>, 256, 4>(in, off, segments, out));
  cs.push_back(owner_contender<cascade::segment::warp<16>, 256, 4>(in, off, segments, out));
  cs.push_back(owner_contender<cascade::segment::warp<32>, 256, 4>(in, off, segments, out));
  cs.push_back(owner_contender<cascade::segment::block, 256, 8>(in, off, segments, out));
  cs.push_back(owner_contender<cascade::segment::blocks, 256, 8>(in, off, segments, out));
#if __has_include(<cascade/segment/binned.cuh>)
  cs.push_back(owner_contender<cascade::segment::binned, 256, 8>(in, off, segments, out));
#endif
#if __has_include(<cascade/segment/tiles.cuh>)
  cs.push_back(owner_contender<cascade::segment::tiles, 256, 16>(in, off, segments, out));
#endif
}

// Power-law segment lengths: P(L) proportional to L^-alpha for L in [1, max_length], alpha solved
// (bisection) so that the distribution's mean is `mean`; lengths drawn by inverse CDF (a table of the
// cumulative weights, binary search) until they add up to `items`, the last one cut to what is left.
// The uniforms are stratified: the first items / mean draws take one each from [i, i + 1) / (items /
// mean), in an order shuffled by the seed (each is still uniform, and the order random), so that the
// lengths follow the distribution closely and the realised mean stays near `mean` (independent draws
// stray by +-5% between seeds: the tail is heavy); independent draws follow where those fall short.
// mt19937_64(seed), 53-bit uniforms, a Fisher-Yates shuffle of its own: host-only and deterministic,
// the same offsets on every machine.
struct power_law_lengths {
  double alpha = 0;
  std::vector<int> offsets;  // segments + 1 of them, from 0 to items
  long long max_length = 0;  // the longest drawn (after the cut)
};

// The mean of P(L) ~ L^-alpha on [1, max_length], summed from the smallest terms up.
double power_law_mean(double alpha, long long max_length) {
  double weights = 0, moment = 0;
  for (long long l = max_length; l >= 1; --l) {
    double const w = std::exp(-alpha * std::log(static_cast<double>(l)));
    weights += w;
    moment += w * static_cast<double>(l);
  }
  return moment / weights;
}

power_law_lengths make_power_law(long long items, double mean, long long max_length, std::uint64_t seed) {
  power_law_lengths r;
  double lo = 0.0, hi = 4.0;  // the mean falls as alpha grows: 2^19.5 at 0, about 1.1 at 4
  for (int i = 0; i < 60; ++i) {
    double const mid = 0.5 * (lo + hi);
    (power_law_mean(mid, max_length) > mean ? lo : hi) = mid;
  }
  r.alpha = 0.5 * (lo + hi);
  std::vector<double> cdf(static_cast<std::size_t>(max_length));
  double total = 0;
  for (long long l = 1; l <= max_length; ++l)
    cdf[static_cast<std::size_t>(l - 1)] = total += std::exp(-r.alpha * std::log(static_cast<double>(l)));
  std::mt19937_64 rng(seed);
  auto const uniform = [&] { return static_cast<double>(rng() >> 11) * 0x1.0p-53; };
  auto const length_at = [&](double u) {  // u in [0, 1)
    long long const l = (std::upper_bound(cdf.begin(), cdf.end(), u * total) - cdf.begin()) + 1;
    return std::min(l, max_length);
  };
  long long const strata = static_cast<long long>(static_cast<double>(items) / mean);
  std::vector<long long> order(static_cast<std::size_t>(strata));
  for (long long i = 0; i < strata; ++i) order[static_cast<std::size_t>(i)] = i;
  for (long long i = strata - 1; i > 0; --i)
    std::swap(order[static_cast<std::size_t>(i)], order[static_cast<std::size_t>(rng() % static_cast<std::uint64_t>(i + 1))]);
  r.offsets.push_back(0);
  long long at = 0;
  for (long long k = 0; at < items; ++k) {
    double const u = k < strata ? (static_cast<double>(order[static_cast<std::size_t>(k)]) + uniform()) /
                                      static_cast<double>(strata)
                                : uniform();
    long long const len = std::min(length_at(u), items - at);
    at += len;
    r.max_length = std::max(r.max_length, len);
    r.offsets.push_back(static_cast<int>(at));
  }
  return r;
}

// CUB_VERSION (e.g. 300500) as "3.5.0".
std::string cub_version_text(int v) {
  return std::to_string(v / 100000) + "." + std::to_string(v / 100 % 1000) + "." + std::to_string(v % 100);
}

}  // namespace

int main(int argc, char** argv) {
  auto const opts = cascade_bench::parse_options(argc, argv, "cascade-segmented",
                                                 "segmented sums against cub::DeviceSegmentedReduce");
  if (!cascade_bench::have_gpu("cascade-segmented")) return 0;
  int const cub_version = CUB_VERSION;
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
  std::printf("cascade-segmented: 2^26 floats, built with CUB %s (CUB_VERSION %d)\n", cub_version_text(cub_version).c_str(),
              cub_version);
  std::printf("%-10s %-34s %10s %10s %9s %9s %s\n", "segment", "contender", "hot us", "cold us", "GB/s", "ceil%",
              "vs CUB (hot)");

  // One case: the offsets `h` (segments + 1 of them) to the device, every contender checked against
  // CUB (per segment, within float rounding of a sum of that segment's items) and timed; `label` heads
  // the printed lines, `lengths_json` (the row's fields that describe the lengths) goes in every row.
  auto measure = [&](std::vector<int> const& h, char const* label, std::string const& lengths_json,
                     auto&& add_contenders) {
    long long const segments = static_cast<long long>(h.size()) - 1;
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
    add_contenders(cs, segments);
    cs[0].run();
    std::vector<float> want(segments), got(segments);
    CASCADE_CUDA_CHECK(cudaMemcpy(want.data(), ref, segments * sizeof(float), cudaMemcpyDeviceToHost));
    std::vector<bool> agrees(cs.size(), true);
    for (std::size_t k = 1; k < cs.size(); ++k) {
      CASCADE_CUDA_CHECK(cudaMemset(out, 0xff, segments * sizeof(float)));
      cs[k].run();
      CASCADE_CUDA_CHECK(cudaMemcpy(got.data(), out, segments * sizeof(float), cudaMemcpyDeviceToHost));
      for (long long s = 0; s < segments; ++s) {
        float const len = static_cast<float>(h[s + 1] - h[s]);
        if (!(std::fabs(got[s] - want[s]) <= 1e-5f * len * (1.0f + std::fabs(want[s])))) {
          agrees[k] = false;
          std::printf("  %s disagrees at segment %lld (%d items): %.9g, CUB %.9g\n", cs[k].name.c_str(), s,
                      h[s + 1] - h[s], got[s], want[s]);
          break;
        }
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
      std::printf("%-10s %-34s %10.1f %10.1f %9.0f %8.0f%% %.2fx%s\n", label, cs[k].name.c_str(), hot[k], cold[k],
                  bytes / cold[k] / 1e3, 100 * ceil_cold / cold[k], hot[0] / hot[k], agrees[k] ? "" : "  DISAGREES");
      char row[2048];
      std::snprintf(row, sizeof row,
                    "{\"kind\": \"timing\", \"family\": \"segmented\", \"item\": \"float\", \"items\": %lld, "
                    "%s, \"segments\": %lld, \"cub_version\": %d, \"bytes\": %.0f, \"name\": \"%s\", "
                    "\"hot_us\": %.3f, \"cold_us\": %.3f, \"ceiling_hot_us\": %.3f, \"ceiling_cold_us\": %.3f, "
                    "\"ratio_hot\": %.4f, \"ratio_cold\": %.4f, \"agrees\": %s}",
                    items, lengths_json.c_str(), segments, cub_version, bytes, cs[k].name.c_str(), hot[k], cold[k],
                    ceil_hot, ceil_cold, hot[0] / hot[k], cold[0] / cold[k], agrees[k] ? "true" : "false");
      rows.push_back(row);
    }
    cudaFree(temp);
  };

  char const* const only = std::getenv("CASCADE_SEGMENTED_ONLY");
  auto const wanted = [&](std::string const& label) { return only == nullptr || label == only; };
  for (long long size : {1ll, 4ll, 8ll, 10ll, 16ll, 32ll, 64ll, 256ll, 1024ll, 16384ll, 1ll << 20}) {
    if (!wanted(std::to_string(size))) continue;
    long long const segments = items / size;
    std::vector<int> h(segments + 1);
    for (long long s = 0; s <= segments; ++s) h[s] = static_cast<int>(s * size);
    std::string const label = std::to_string(size);
    std::string const lengths = "\"lengths\": \"fixed\", \"segment_size\": " + std::to_string(size) +
                                ", \"mean_length\": " + std::to_string(size) + ", \"max_length\": " + std::to_string(size);
    void* fixed_temp = nullptr;
    measure(h, label.c_str(), lengths, [&](std::vector<contender>& cs, long long n) {
#if CUB_VERSION >= 300200  // the fixed-size overloads: no offsets read, as batched_reduce
      std::size_t fixed_bytes = 0;
      CASCADE_CUDA_CHECK(cub::DeviceSegmentedReduce::Sum(nullptr, fixed_bytes, in, out, n, static_cast<int>(size)));
      CASCADE_CUDA_CHECK(cudaMalloc(&fixed_temp, fixed_bytes + 1));
      cs.push_back({"cub::DeviceSegmentedReduce::Sum (fixed size)", [=] {
                      std::size_t bytes = fixed_bytes;
                      CASCADE_CUDA_CHECK(
                          cub::DeviceSegmentedReduce::Sum(fixed_temp, bytes, in, out, n, static_cast<int>(size)));
                    }});
#endif
      cs.push_back({"cascade batched_reduce default_policy", [=] {
                      cascade::batched_reduce(cascade::default_policy{}, in, size, n, out, 0.0f, cascade::plus{});
                    }});
#if __has_include(<cascade/segment/lengths.cuh>)
      cs.push_back({"cascade default_policy, segment_lengths::about(size)", [=] {
                      cascade::segmented_reduce_into(cascade::default_policy{}, in, off, off + 1, n, out, 0.0f,
                                                     cascade::plus{}, cascade::segment_lengths::about(size));
                    }});
      if (size == 16 || size == 16384) {  // what a wrong hint costs: short said of long segments, and long of short
        long long const wrong = size == 16 ? 16384 : 1;
        cs.push_back({"cascade default_policy, segment_lengths::about(" + std::to_string(wrong) + ") (wrong)", [=] {
                        cascade::segmented_reduce_into(cascade::default_policy{}, in, off, off + 1, n, out, 0.0f,
                                                       cascade::plus{}, cascade::segment_lengths::about(wrong));
                      }});
      }
#endif
      add_owners(cs, in, off, n, out, size <= 1024);
      if (size >= 4096) {  // one block a segment, under other shapes than the default's
        cs.push_back(owner_contender<cascade::segment::block, 256, 16>(in, off, n, out));
        cs.push_back(owner_contender<cascade::segment::block, 512, 8>(in, off, n, out));
        cs.push_back(owner_contender<cascade::segment::block, 128, 16>(in, off, n, out));
        cs.push_back(owner_contender<cascade::segment::blocks, 256, 16>(in, off, n, out));
      }
    });
    cudaFree(fixed_temp);
  }

  // Variable lengths: a power law with mean 32 and segments of up to 2^20 items (a few of them; about
  // two million segments in all). Every owner, the thread owner too: slow on the longest, but honest.
  if (wanted("power-law")) {
    long long const longest = 1ll << 20;
    double const mean = 32;
    std::uint64_t const seed = 0x5E6D'0001ull;
    power_law_lengths const pl = make_power_law(items, mean, longest, seed);
    long long const segments = static_cast<long long>(pl.offsets.size()) - 1;
    double const realised = static_cast<double>(items) / static_cast<double>(segments);
    std::printf("power-law lengths: P(L) ~ L^-alpha on [1, %lld], alpha %.6f (mean %.0f), seed 0x%llx: %lld "
                "segments, realised mean %.3f, longest %lld\n",
                longest, pl.alpha, mean, static_cast<unsigned long long>(seed), segments, realised, pl.max_length);
    char lengths[512];
    std::snprintf(lengths, sizeof lengths,
                  "\"lengths\": \"power-law\", \"segment_size\": 0, \"mean_length\": %.4f, \"max_length\": %lld, "
                  "\"alpha\": %.6f, \"target_mean\": %.1f, \"length_bound\": %lld, \"seed\": %llu",
                  realised, pl.max_length, pl.alpha, mean, longest, static_cast<unsigned long long>(seed));
    measure(pl.offsets, "power-law", lengths,
            [&](std::vector<contender>& cs, long long n) { add_owners(cs, in, off, n, out, true); });
  }

  std::string const method = "hot and cold medians of alternating runs (timer.cuh), CUB's two-phase temporary "
                             "storage allocated outside the timed region; CUB " +
                             cub_version_text(cub_version);
  int const ok = opts.out_path.empty() ||
                 cascade_bench::write_results(opts.out_path, cascade_bench::read_environment(), opts, method.c_str(),
                                              rows);
  cudaFree(in);
  cudaFree(off);
  cudaFree(out);
  cudaFree(ref);
  cudaFree(ceiling_buffer);
  return ok ? 0 : 1;
}
