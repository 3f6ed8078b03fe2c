// cascade-axes: reductions over the axes of row-major float arrays (reduce_axes_into, docs/axes.md),
// each beside the read ceiling over the same bytes and, where there is one, the call a user would
// otherwise make in the same process:
//   columns  sums of every column (axis 0) of 2^14 x 2^14, 2^20 x 2^6, 2^6 x 2^20, 2^10 x 2^10
//   rows     sums of every row (axis 1) of the same, beside batched_reduce
//   dims02   sums over axes (0, 2) of 256 x 1024 x 1024 and 1024 x 64 x 4096, the default beside
//            axis::blocks
//   moments  reduce_moments_into over 2^30 floats (beside reduce_into's sum of the same bytes), and
//            reduce_axes_moments_into along axis 0 of 2^16 x 2^10; checked against two passes in double
// Timed as every bench is (src/measure/timer.cuh): CUDA events in alternating runs, hot (behind the
// spin kernel: launch excluded), hot_idle (launch included) and cold (L2 flushed). Every result is
// checked against a double-precision fold of its items (a thread an output) within (n + 1) u sum|x|.
// PyTorch, CuPy and JAX are timed the same way by scripts/axes_rivals.py; scripts/axes_tables.py
// joins the two files.
//
//   cascade-axes [--out FILE] [--commit SHA] [--driver VERSION]
// CASCADE_AXES_ONLY=<family> runs one family alone (for a profiler). CASCADE_AXES_ONLY=sweep runs only
// the default's check (not part of the run above): column and row sums of 2^22 and 2^26 floats over
// row lengths 4 .. 2^20, the default beside axis::columns at several block sizes and coarse factors
// (column sums) and the segment owners that fit the row length (row sums), to see where the default's
// rule stands against the best of them (scripts/axes_tables.py --sweep).
#include <cascade/cascade.cuh>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "measure/ceiling.cuh"
#include "measure/env.cuh"
#include "measure/fill.cuh"
#include "measure/timer.cuh"

namespace {

struct contender {
  std::string name, policy;
  std::function<void()> run;
};

// The reference: output o of a rank-3 row-major array (d0, d1, d2) reduced over the axes in `mask`
// (bit a: axis a), a thread an output, in double, with the sum of magnitudes for the bound.
__global__ void reference_kernel(float const* in, long long d0, long long d1, long long d2, unsigned mask,
                                 long long outputs, double* sum, double* magnitude) {
  long long const o = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (o >= outputs) return;
  long long const e[3] = {d0, d1, d2};
  long long k[3], r[3];  // kept index of each axis; the reduced extents
  long long rest = o;
  for (int a = 2; a >= 0; --a) {
    bool const red = (mask >> a) & 1u;
    k[a] = red ? 0 : rest % e[a];
    rest = red ? rest : rest / e[a];
    r[a] = red ? e[a] : 1;
  }
  double s = 0, m = 0;
  for (long long i = 0; i < r[0]; ++i)
    for (long long j = 0; j < r[1]; ++j)
      for (long long l = 0; l < r[2]; ++l) {
        double const x = in[((k[0] + i) * d1 + (k[1] + j)) * d2 + (k[2] + l)];
        s += x;
        m += std::fabs(x);
      }
  sum[o] = s;
  magnitude[o] = m;
}

std::string json_list(std::vector<long long> const& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

}  // namespace

int main(int argc, char** argv) {
  auto const opts = cascade_bench::parse_options(argc, argv, "cascade-axes", "reductions over the axes of arrays");
  if (!cascade_bench::have_gpu("cascade-axes")) return 0;
  long long const most = 1ll << 30;
  float* in = nullptr;
  float* out = nullptr;
  double *want = nullptr, *magnitude = nullptr;
  CASCADE_CUDA_CHECK(cudaMalloc(&in, most * sizeof(float)));
  CASCADE_CUDA_CHECK(cudaMalloc(&out, (1ll << 20) * sizeof(float)));
  CASCADE_CUDA_CHECK(cudaMalloc(&want, (1ll << 20) * sizeof(double)));
  CASCADE_CUDA_CHECK(cudaMalloc(&magnitude, (1ll << 20) * sizeof(double)));
  cascade_measure::fill(in, most, 0xA7E5ull);
  cascade_bench::timer t;
  std::vector<std::string> rows;
  int failures = 0;
  char const* const only = std::getenv("CASCADE_AXES_ONLY");
  {  // what the device holds of the column kernels at once (why a shape fills it or not)
    int v4 = 0, v1 = 0;
    CASCADE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &v4, cascade::detail::axis_columns_kernel<256, 4, 4, 1, float, float*, float*, cascade::plus>, 256, 0));
    CASCADE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &v1, cascade::detail::axis_columns_kernel<256, 8, 4, 1, float, float const*, float*, cascade::plus>, 256, 0));
    std::printf("axis_columns_kernel blocks of 256 an SM: %d (4 floats a thread, coarse 4), %d (partials, coarse 8)\n",
                v4, v1);
  }
  std::printf("%-7s %-22s %-38s %9s %9s %9s %8s %6s\n", "family", "shape", "contender", "hot us", "idle us", "cold us",
              "GB/s", "ceil%");

  // Times a case's contenders (alternating runs, hot, launch included and cold) and the read ceiling
  // over its bytes; prints them and keeps their rows.
  auto report = [&](char const* family, std::vector<long long> const& shape, std::vector<long long> const& axes,
                    long long items, long long outputs, std::vector<contender> const& cs,
                    std::vector<bool> const& agrees) {
    double const bytes = static_cast<double>(items) * sizeof(float);
    std::vector<std::function<void()>> calls;
    for (auto const& c : cs) calls.push_back(c.run);
    std::vector<double> const hot = t.median_group_us_budget(calls, cascade_bench::mode::hot, 31, 3e5);
    std::vector<double> const idle = t.median_group_us_budget(calls, cascade_bench::mode::hot_idle, 31, 3e5);
    std::vector<double> const cold = t.median_group_us_budget(calls, cascade_bench::mode::cold, 31, 3e5);
    double const ceil_hot = cascade_measure::best_read_ceiling_us(t, in, static_cast<std::size_t>(bytes), cascade_bench::mode::hot);
    double const ceil_cold =
        cascade_measure::best_read_ceiling_us(t, in, static_cast<std::size_t>(bytes), cascade_bench::mode::cold);
    std::string shape_text;
    for (std::size_t i = 0; i < shape.size(); ++i) shape_text += (i ? "x" : "") + std::to_string(shape[i]);
    std::string const common = "\"family\": \"" + std::string(family) + "\", \"shape\": " + json_list(shape) +
                               ", \"axes\": " + json_list(axes) + ", \"item\": \"float32\", \"items\": " +
                               std::to_string(items) + ", \"outputs\": " + std::to_string(outputs) +
                               ", \"bytes\": " + std::to_string(static_cast<long long>(bytes));
    for (std::size_t k = 0; k < cs.size(); ++k) {
      std::printf("%-7s %-22s %-38s %9.1f %9.1f %9.1f %8.0f %5.0f%%%s\n", family, shape_text.c_str(), cs[k].name.c_str(),
                  hot[k], idle[k], cold[k], bytes / cold[k] / 1e3, 100 * ceil_cold / cold[k],
                  agrees[k] ? "" : "  DISAGREES");
      char row[1024];
      std::snprintf(row, sizeof row,
                    "{\"kind\": \"timing\", %s, \"name\": \"%s\", \"library\": \"cascade\", \"policy\": \"%s\", "
                    "\"clock\": \"gpu\", \"hot_us\": %.3f, \"hot_idle_us\": %.3f, \"cold_us\": %.3f, "
                    "\"hot_gbps\": %.1f, \"cold_gbps\": %.1f, \"agrees\": %s}",
                    common.c_str(), cs[k].name.c_str(), cs[k].policy.c_str(), hot[k], idle[k], cold[k],
                    bytes / hot[k] / 1e3, bytes / cold[k] / 1e3, agrees[k] ? "true" : "false");
      rows.push_back(row);
    }
    std::printf("%-7s %-22s %-38s %9.1f %9s %9.1f %8.0f\n", family, shape_text.c_str(), "read ceiling", ceil_hot, "",
                ceil_cold, bytes / ceil_cold / 1e3);
    char row[1024];
    std::snprintf(row, sizeof row,
                  "{\"kind\": \"ceiling\", %s, \"hot_us\": %.3f, \"cold_us\": %.3f, \"hot_gbps\": %.1f, "
                  "\"cold_gbps\": %.1f}",
                  common.c_str(), ceil_hot, ceil_cold, bytes / ceil_hot / 1e3, bytes / ceil_cold / 1e3);
    rows.push_back(row);
  };

  // One case: a (d0, d1, d2) row-major float array (d0 = 1 for a matrix), the axes in `mask` reduced.
  auto measure = [&](char const* family, std::vector<long long> const& shape, std::vector<long long> const& axes,
                     std::vector<contender> const& cs) {
    if (only != nullptr && std::string(only) != family) return;
    long long const d0 = shape.size() == 3 ? shape[0] : 1, d1 = shape[shape.size() - 2], d2 = shape.back();
    unsigned mask = 0;
    for (long long a : axes) mask |= 1u << (a + (shape.size() == 3 ? 0 : 1));
    long long const items = d0 * d1 * d2;
    long long outputs = 1;
    for (int a = 0; a < 3; ++a)
      if (!((mask >> a) & 1u)) outputs *= (a == 0 ? d0 : a == 1 ? d1 : d2);
    long long const reduced = items / outputs;
    reference_kernel<<<static_cast<unsigned>((outputs + 255) / 256), 256>>>(in, d0, d1, d2, mask, outputs, want,
                                                                             magnitude);
    CASCADE_CUDA_CHECK(cudaGetLastError());
    std::vector<double> w(outputs), m(outputs);
    CASCADE_CUDA_CHECK(cudaMemcpy(w.data(), want, outputs * sizeof(double), cudaMemcpyDeviceToHost));
    CASCADE_CUDA_CHECK(cudaMemcpy(m.data(), magnitude, outputs * sizeof(double), cudaMemcpyDeviceToHost));
    std::vector<bool> agrees(cs.size(), true);
    std::vector<float> got(outputs);
    for (std::size_t k = 0; k < cs.size(); ++k) {
      CASCADE_CUDA_CHECK(cudaMemset(out, 0xff, outputs * sizeof(float)));
      cs[k].run();
      CASCADE_CUDA_CHECK(cudaMemcpy(got.data(), out, outputs * sizeof(float), cudaMemcpyDeviceToHost));
      double const u = std::ldexp(1.0, -24);
      for (long long o = 0; o < outputs; ++o)
        if (!(std::fabs(got[o] - w[o]) <= static_cast<double>(reduced + 1) * u * m[o])) {
          agrees[k] = false;
          ++failures;
          std::printf("  %s disagrees at output %lld: %.9g, want %.9g\n", cs[k].name.c_str(), o, got[o], w[o]);
          break;
        }
    }
    report(family, shape, axes, items, outputs, cs, agrees);
  };

  using columns_policy = cascade::policy<256, 8, cascade::tree::shuffle, cascade::axis::columns>;
  using blocks_policy = cascade::policy<256, 4, cascade::tree::shuffle, cascade::axis::blocks>;
  long long const matrices[4][2] = {{1ll << 14, 1ll << 14}, {1ll << 20, 1ll << 6}, {1ll << 6, 1ll << 20}, {1ll << 10, 1ll << 10}};
  for (auto const& mtx : matrices) {
    long long const r = mtx[0], c = mtx[1];
    measure("columns", {r, c}, {0},
            {{"cascade::reduce_axes_into (default)", "default", [=] {
                cascade::reduce_axes_into(cascade::default_policy{}, cascade::view(in, {r, c}), cascade::axes{0},
                                          cascade::view(out, {c}), 0.0f, cascade::plus{});
              }},
             {"cascade::reduce_axes_into (axis::columns, 8)", "axis::columns<256, 8>", [=] {
                cascade::reduce_axes_into(columns_policy{}, cascade::view(in, {r, c}), cascade::axes{0},
                                          cascade::view(out, {c}), 0.0f, cascade::plus{});
              }}});
  }
  for (auto const& mtx : matrices) {
    long long const r = mtx[0], c = mtx[1];
    measure("rows", {r, c}, {1},
            {{"cascade::reduce_axes_into (default)", "default", [=] {
                cascade::reduce_axes_into(cascade::default_policy{}, cascade::view(in, {r, c}), cascade::axes{1},
                                          cascade::view(out, {r}), 0.0f, cascade::plus{});
              }},
             {"cascade::batched_reduce", "batched default", [=] {
                cascade::batched_reduce(cascade::default_policy{}, in, c, r, out, 0.0f, cascade::plus{});
              }}});
  }
  long long const cubes[2][3] = {{256, 1024, 1024}, {1024, 64, 4096}};
  for (auto const& cube : cubes) {
    long long const a = cube[0], b = cube[1], c = cube[2];
    measure("dims02", {a, b, c}, {0, 2},
            {{"cascade::reduce_axes_into (default)", "default", [=] {
                cascade::reduce_axes_into(cascade::default_policy{}, cascade::view(in, {a, b, c}), cascade::axes{0, 2},
                                          cascade::view(out, {b}), 0.0f, cascade::plus{});
              }},
             {"cascade::reduce_axes_into (axis::blocks)", "axis::blocks", [=] {
                cascade::reduce_axes_into(blocks_policy{}, cascade::view(in, {a, b, c}), cascade::axes{0, 2},
                                          cascade::view(out, {b}), 0.0f, cascade::plus{});
              }}});
  }

  // sweep: the default's rule against each owner, over the shapes between the bench's
  if (only != nullptr && std::string(only) == "sweep") {
    auto const axis_call = [=](auto policy, long long r, long long c, int axis) {
      return [=] {
        cascade::reduce_axes_into(policy, cascade::view(in, {r, c}), cascade::axes{axis},
                                  cascade::view(out, {axis == 0 ? c : r}), 0.0f, cascade::plus{});
      };
    };
    using cascade::policy;
    using cascade::tree::shuffle;
    namespace axis = cascade::axis;
    namespace segment = cascade::segment;
    for (long long n : {1ll << 22, 1ll << 26})
      for (long long c = 4; c <= (1ll << 20); c *= 4) {
        long long const r = n / c;
        // (the owners that fit each shape: one far off, thousands of times slower, would leave the
        // group few runs and the GPU's clocks ramped down for the next contender)
        measure("sweep", {r, c}, {0},
                {{"default", "default", axis_call(cascade::default_policy{}, r, c, 0)},
                 {"axis::columns <256, 4>", "axis::columns<256, 4>", axis_call(policy<256, 4, shuffle, axis::columns>{}, r, c, 0)},
                 {"axis::columns <256, 8>", "axis::columns<256, 8>", axis_call(policy<256, 8, shuffle, axis::columns>{}, r, c, 0)},
                 {"axis::columns <128, 4>", "axis::columns<128, 4>", axis_call(policy<128, 4, shuffle, axis::columns>{}, r, c, 0)},
                 {"axis::columns <512, 2>", "axis::columns<512, 2>", axis_call(policy<512, 2, shuffle, axis::columns>{}, r, c, 0)}});
        if (r > (1ll << 20)) continue;  // (the outputs buffer)
        std::vector<contender> rows_cs = {{"default", "default", axis_call(cascade::default_policy{}, r, c, 1)}};
        if (c <= 64)
          rows_cs.push_back({"segment::thread <256, 4>", "segment::thread<256, 4>", axis_call(policy<256, 4, shuffle, segment::thread>{}, r, c, 1)});
        if (c <= 1024)
          rows_cs.push_back({"segment::warp<8> <256, 4>", "segment::warp<8><256, 4>", axis_call(policy<256, 4, shuffle, segment::warp<8>>{}, r, c, 1)});
        if (c >= 16 && c <= 16384)
          rows_cs.push_back({"segment::warp<32> <128, 4>", "segment::warp<32><128, 4>",
                             axis_call(policy<128, 4, shuffle, segment::warp<32>>{}, r, c, 1)});
        if (c >= 256)
          rows_cs.push_back({"segment::block <256, 4>", "segment::block<256, 4>", axis_call(policy<256, 4, shuffle, segment::block>{}, r, c, 1)});
        if (c >= 4096)
          rows_cs.push_back({"segment::blocks <256, 4>", "segment::blocks<256, 4>", axis_call(policy<256, 4, shuffle, segment::blocks>{}, r, c, 1)});
        if (c >= 1024)
          rows_cs.push_back({"axis::blocks <256, 4>", "axis::blocks<256, 4>", axis_call(policy<256, 4, shuffle, axis::blocks>{}, r, c, 1)});
        measure("sweep", {r, c}, {1}, rows_cs);
      }
  }

  // moments: mean and variance checked against double folds (the mean's, then the squared deviations')
  {
    using m_t = cascade::moments<float>;
    m_t* dm = nullptr;
    CASCADE_CUDA_CHECK(cudaMalloc(&dm, 1024 * sizeof(m_t)));
    auto time_moments = [&](std::vector<long long> const& shape, std::vector<long long> const& axes, long long items,
                            long long outputs, std::vector<contender> const& cs, auto&& check) {
      if (only != nullptr && std::string(only) != "moments") return;
      std::vector<bool> agrees(cs.size());
      for (std::size_t k = 0; k < cs.size(); ++k) {
        cs[k].run();
        CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
        agrees[k] = k > 0 || check();  // (the first contender is the one checked; the others are baselines)
        if (!agrees[k]) ++failures;
      }
      report("moments", shape, axes, items, outputs, cs, agrees);
    };
    auto close = [](double got, double want, double rel) { return std::fabs(got - want) <= rel * std::fabs(want); };
    long long const n = most;
    time_moments({n}, {0}, n, 1,
                 {{"cascade::reduce_moments_into (default)", "default",
                   [=] { cascade::reduce_moments_into(cascade::default_policy{}, in, in + n, dm); }},
                  {"cascade::reduce_into (plus, same bytes)", "default",
                   [=] { cascade::reduce_into(cascade::default_policy{}, in, in + n, out, 0.0f, cascade::plus{}); }}},
                 [&] {
                   m_t m;
                   CASCADE_CUDA_CHECK(cudaMemcpy(&m, dm, sizeof m, cudaMemcpyDeviceToHost));
                   double const mean = cascade::transform_reduce(cascade::default_policy{}, in, in + n, 0.0, cascade::plus{},
                                                                 [] __device__(float x) { return static_cast<double>(x); }) /
                                       static_cast<double>(n);
                   double const var = cascade::transform_reduce(cascade::default_policy{}, in, in + n, 0.0, cascade::plus{},
                                                                [mean] __device__(float x) {
                                                                  double const d = x - mean;
                                                                  return d * d;
                                                                }) /
                                      static_cast<double>(n);
                   bool const ok = m.count == static_cast<unsigned long long>(n) && close(m.mean(), mean, 1e-9) &&
                                   close(m.variance(), var, 1e-9);
                   if (!ok)
                     std::printf("  moments of 2^30: count %llu mean %.12g var %.12g, want %.12g %.12g\n",
                                 static_cast<unsigned long long>(m.count), m.mean(), m.variance(), mean, var);
                   return ok;
                 });
    long long const r = 1ll << 16, c = 1ll << 10;
    time_moments({r, c}, {0}, r * c, c,
                 {{"cascade::reduce_axes_moments_into (default)", "default",
                   [=] {
                     cascade::reduce_axes_moments_into(cascade::default_policy{}, cascade::view(in, {r, c}), cascade::axes{0},
                                                       cascade::view(dm, {c}));
                   }},
                  {"cascade::reduce_axes_into (plus, same bytes)", "default",
                   [=] {
                     cascade::reduce_axes_into(cascade::default_policy{}, cascade::view(in, {r, c}), cascade::axes{0},
                                               cascade::view(out, {c}), 0.0f, cascade::plus{});
                   }}},
                 [&] {
                   std::vector<m_t> m(c);
                   CASCADE_CUDA_CHECK(cudaMemcpy(m.data(), dm, c * sizeof(m_t), cudaMemcpyDeviceToHost));
                   std::vector<float> h(r * c);
                   CASCADE_CUDA_CHECK(cudaMemcpy(h.data(), in, r * c * sizeof(float), cudaMemcpyDeviceToHost));
                   for (long long j = 0; j < c; ++j) {
                     double s = 0, q = 0;
                     for (long long i = 0; i < r; ++i) s += h[i * c + j];
                     double const mean = s / static_cast<double>(r);
                     for (long long i = 0; i < r; ++i) q += (h[i * c + j] - mean) * (h[i * c + j] - mean);
                     if (!close(m[j].mean(), mean, 1e-9) || !close(m[j].variance(), q / static_cast<double>(r), 1e-9)) {
                       std::printf("  moments of column %lld: mean %.12g var %.12g, want %.12g %.12g\n", j, m[j].mean(),
                                   m[j].variance(), mean, q / static_cast<double>(r));
                       return false;
                     }
                   }
                   return true;
                 });
    cudaFree(dm);
  }

  std::string const method =
      "hot (behind a 300 us spin kernel: launch excluded), hot_idle (launch included) and cold (L2 flushed) "
      "medians of alternating runs (src/measure/timer.cuh); checked against a double fold within (n + 1) u sum|x|; "
      "the read ceiling streams the same bytes with 16-byte loads";
  int const ok = opts.out_path.empty() ||
                 cascade_bench::write_results(opts.out_path, cascade_bench::read_environment(), opts, method.c_str(), rows);
  cudaFree(in);
  cudaFree(out);
  cudaFree(want);
  cudaFree(magnitude);
  return ok && failures == 0 ? 0 : 1;
}
