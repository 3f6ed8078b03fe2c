// cascade-segmented: segmented sums of 2^26 floats in segments of one size each (1, 4, 8, 10, 16, 32,
// 64, 256, 1K, 16K, 1M), then in segments of power-law lengths (P(L) ~ L^-alpha on [1, 2^20], alpha
// such that the mean is 32; seeded), offsets as a device array of int32 (begin = offsets, end =
// offsets + 1), against cub::DeviceSegmentedReduce::Sum in the same process: every cascade segment
// owner under <256, 4> (segment::blocks and segment::binned <256, 8>, segment::tiles <256, 16>),
// cascade's segmented default (also with a segment_lengths hint of the size, and at 16 and 16K a wrong
// one), and, for fixed sizes, batched_reduce's default and CUB's fixed-size Sum (CUB >= 3.2; neither
// reads an offsets array); from 4K items, segment::block under three more shapes and segment::blocks
// under <256, 16>. An NVBench program on bench/support/contest.cu: one benchmark ("segmented"), its
// Config a case ("segments of 16", "power-law"), its Contender a call; every result checked against
// CUB's (per segment, within float rounding of a sum of that segment's items), then timed: cascade's
// hot (every call of a case in alternating runs) and NVBench's cold and batch; the read ceiling reads
// the items' and the offsets' bytes. Built twice: cascade-segmented against the toolkit's CUB and,
// where .deps/cccl holds it, cascade-segmented-newest against the newest CCCL; every row records the
// CUB_VERSION it was built with (scripts/segmented_tables.py and scripts/plot_segmented.py read them).
//
//   cascade-segmented [--cases 16,power-law] [NVBench's options: --json FILE, ...]
//   scripts/nvbench-run.sh build-bench/bench/cascade-segmented OUT.json
#include <cascade/cascade.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cub/version.cuh>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "measure/fill.cuh"
#include "support/contest.cuh"
#include "support/nvbench_program.cuh"

namespace {

using contest::contender;
using contest::device_array;
using contest::measurement;
using contest::sink;

long long const items = 1ll << 26;
std::vector<std::string>& wanted_cases() {  // --cases: empty, every case
  static std::vector<std::string> v;
  return v;
}

template <class Owner, int B, int C>
contender owner_contender(float const* in, int const* off, long long segments, float* out) {
  using policy = cascade::segmented_policy<Owner, B, C>;
  return {std::string("cascade ") + Owner::name + " <" + std::to_string(B) + ", " + std::to_string(C) + ">",
          "cascade", "",
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
    std::swap(order[static_cast<std::size_t>(i)],
              order[static_cast<std::size_t>(rng() % static_cast<std::uint64_t>(i + 1))]);
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

// What every case shares: the items, their output slot and the read ceiling's buffer.
struct shared_buffers {
  device_array<float> in{static_cast<std::size_t>(items)}, out{static_cast<std::size_t>(items)};
  device_array<unsigned char> ceiling{static_cast<std::size_t>(items) * (sizeof(float) + sizeof(int)) + 64};
  shared_buffers() { cascade_measure::fill(in.data, items, 0x5E6ull); }
};

// One case: the offsets `h` (segments + 1 of them) to the device (none when dry), CUB's offsets Sum
// (the reference) and cascade's default, then what `add` adds; `fields` describe the lengths.
template <class Add>
void add_case(sink& out, shared_buffers* b, std::string const& label, std::shared_ptr<std::vector<int> const> h,
              std::string const& fields, Add&& add) {
  long long const segments = static_cast<long long>(h->size()) - 1;
  measurement m;
  m.family = "segmented";
  m.config = label == "power-law" ? label : "segments of " + label;
  m.item = "float";
  m.n = items;
  m.bytes = static_cast<double>(items) * sizeof(float) + static_cast<double>(segments + 1) * sizeof(int);
  m.ceiling_bytes = std::ceil(m.bytes / 16) * 16;
  m.out_bytes = static_cast<std::size_t>(segments) * sizeof(float);
  m.fields = fields + ", \"segments\": " + std::to_string(segments) + ", \"items\": " + std::to_string(items) +
             ", \"cub_version\": " + std::to_string(CUB_VERSION);
  float const* in = b ? b->in.data : nullptr;
  float* d_out = b ? b->out.data : nullptr;
  int* off = nullptr;
  if (b) {
    off = out.keep<device_array<int>>(h->size()).data;
    CASCADE_CUDA_CHECK(cudaMemcpy(off, h->data(), h->size() * sizeof(int), cudaMemcpyHostToDevice));
    m.items = b->ceiling.data;
    m.out = d_out;
  }
  std::size_t temp_bytes = 0;
  void* temp = nullptr;
  if (b) {
    CASCADE_CUDA_CHECK(cub::DeviceSegmentedReduce::Sum(nullptr, temp_bytes, in, d_out, segments, off, off + 1));
    temp = out.keep<device_array<unsigned char>>(temp_bytes + 1).data;
  }
  m.contenders.push_back({"cub::DeviceSegmentedReduce::Sum", "cub", "", [=] {
                            std::size_t bytes = temp_bytes;
                            CASCADE_CUDA_CHECK(
                                cub::DeviceSegmentedReduce::Sum(temp, bytes, in, d_out, segments, off, off + 1));
                          }});
  m.contenders.push_back({"cascade default_policy", "cascade", "", [=] {
                            cascade::segmented_reduce(cascade::default_policy{}, in, off, off + 1, segments, d_out,
                                                      0.0f, cascade::plus{});
                          }});
  add(m.contenders, in, off, segments, d_out);
  // Per segment, within float rounding of a sum of that segment's items.
  m.agree = [h, segments](void const* mine, void const* reference) {
    float const* got = static_cast<float const*>(mine);
    float const* want = static_cast<float const*>(reference);
    for (long long s = 0; s < segments; ++s) {
      float const len = static_cast<float>((*h)[s + 1] - (*h)[s]);
      if (!(std::fabs(got[s] - want[s]) <= 1e-5f * len * (1.0f + std::fabs(want[s])))) return false;
    }
    return true;
  };
  m.format = [segments](void const* p) {
    float const* r = static_cast<float const*>(p);
    double total = 0;
    for (long long s = 0; s < segments; ++s) total += r[s];
    char text[96];
    std::snprintf(text, sizeof text, "first %.9g, sum of all %.9g", static_cast<double>(r[0]), total);
    return std::string(text);
  };
  out.add(std::move(m));
}

void build(bool dry, sink& out) {
  shared_buffers* b = dry ? nullptr : &out.keep<shared_buffers>();
  auto const wanted = [](std::string const& label) {
    auto const& cases = wanted_cases();
    return cases.empty() || std::find(cases.begin(), cases.end(), label) != cases.end();
  };
  for (long long size : {1ll, 4ll, 8ll, 10ll, 16ll, 32ll, 64ll, 256ll, 1024ll, 16384ll, 1ll << 20}) {
    std::string const label = std::to_string(size);
    if (!wanted(label)) continue;
    long long const segments = items / size;
    auto h = std::make_shared<std::vector<int>>(b ? segments + 1 : 1);  // dry: names only
    for (std::size_t s = 0; s < h->size(); ++s) (*h)[s] = static_cast<int>(static_cast<long long>(s) * size);
    std::string const lengths = ", \"lengths\": \"fixed\", \"segment_size\": " + std::to_string(size) +
                                ", \"mean_length\": " + std::to_string(size) +
                                ", \"max_length\": " + std::to_string(size);
    add_case(out, b, label, h, lengths,
             [&](std::vector<contender>& cs, float const* in, int const* off, long long n, float* d_out) {
#if CUB_VERSION >= 300200  // the fixed-size overloads: no offsets read, as batched_reduce
      std::size_t fixed_bytes = 0;
      void* fixed_temp = nullptr;
      if (b) {
        CASCADE_CUDA_CHECK(
            cub::DeviceSegmentedReduce::Sum(nullptr, fixed_bytes, in, d_out, n, static_cast<int>(size)));
        fixed_temp = out.keep<device_array<unsigned char>>(fixed_bytes + 1).data;
      }
      cs.push_back({"cub::DeviceSegmentedReduce::Sum (fixed size)", "cub", "", [=] {
                      std::size_t bytes = fixed_bytes;
                      CASCADE_CUDA_CHECK(
                          cub::DeviceSegmentedReduce::Sum(fixed_temp, bytes, in, d_out, n, static_cast<int>(size)));
                    }});
#endif
      cs.push_back({"cascade batched_reduce default_policy", "cascade", "", [=] {
                      cascade::batched_reduce(cascade::default_policy{}, in, size, n, d_out, 0.0f, cascade::plus{});
                    }});
#if __has_include(<cascade/segment/lengths.cuh>)
      cs.push_back({"cascade default_policy, segment_lengths::about(size)", "cascade", "", [=] {
                      cascade::segmented_reduce_into(cascade::default_policy{}, in, off, off + 1, n, d_out, 0.0f,
                                                     cascade::plus{}, cascade::segment_lengths::about(size));
                    }});
      if (size == 16 || size == 16384) {  // what a wrong hint costs: short said of long segments, and long of short
        long long const wrong = size == 16 ? 16384 : 1;
        cs.push_back({"cascade default_policy, segment_lengths::about(" + std::to_string(wrong) + ") (wrong)",
                      "cascade", "", [=] {
                        cascade::segmented_reduce_into(cascade::default_policy{}, in, off, off + 1, n, d_out, 0.0f,
                                                       cascade::plus{}, cascade::segment_lengths::about(wrong));
                      }});
      }
#endif
      add_owners(cs, in, off, n, d_out, size <= 1024);
      if (size >= 4096) {  // one block a segment, under other shapes than the default's
        cs.push_back(owner_contender<cascade::segment::block, 256, 16>(in, off, n, d_out));
        cs.push_back(owner_contender<cascade::segment::block, 512, 8>(in, off, n, d_out));
        cs.push_back(owner_contender<cascade::segment::block, 128, 16>(in, off, n, d_out));
        cs.push_back(owner_contender<cascade::segment::blocks, 256, 16>(in, off, n, d_out));
      }
    });
  }

  // Variable lengths: a power law with mean 32 and segments of up to 2^20 items (a few of them; about
  // two million segments in all). Every owner, the thread owner too: slow on the longest, but honest.
  if (wanted("power-law")) {
    long long const longest = 1ll << 20;
    double const mean = 32;
    std::uint64_t const seed = 0x5E6D'0001ull;
    power_law_lengths const pl = b ? make_power_law(items, mean, longest, seed) : power_law_lengths{0, {0}, 0};
    long long const segments = static_cast<long long>(pl.offsets.size()) - 1;
    double const realised = static_cast<double>(items) / static_cast<double>(segments);
    char lengths[512];
    std::snprintf(lengths, sizeof lengths,
                  ", \"lengths\": \"power-law\", \"segment_size\": 0, \"mean_length\": %.4f, \"max_length\": %lld, "
                  "\"alpha\": %.6f, \"target_mean\": %.1f, \"length_bound\": %lld, \"seed\": %llu",
                  realised, pl.max_length, pl.alpha, mean, longest, static_cast<unsigned long long>(seed));
    add_case(out, b, "power-law", std::make_shared<std::vector<int>>(pl.offsets), lengths,
             [&](std::vector<contender>& cs, float const* in, int const* off, long long n, float* d_out) {
               add_owners(cs, in, off, n, d_out, true);
             });
  }
}

contest::program make() {
  contest::program p;
  p.name = "cascade-segmented";
  p.units = {{"segmented", "segmented", &build}};
  p.rounds = {0};
  p.options = [](std::vector<std::string>& args) { wanted_cases() = cascade_nvbench::take_list(args, "--cases"); };
  return p;
}

[[maybe_unused]] bool const declared = contest::declare(&make);

}  // namespace
