// cascade-axes: reductions over the axes of row-major float arrays (reduce_axes_into, docs/axes.md),
// each beside the read ceiling over the same bytes and, where there is one, the call a user would
// otherwise make in the same process. One unit (NVBench benchmark) a family:
//   columns  sums of every column (axis 0) of 2^14 x 2^14, 2^20 x 2^6, 2^6 x 2^20, 2^10 x 2^10
//   rows     sums of every row (axis 1) of the same, beside batched_reduce
//   dims02   sums over axes (0, 2) of 256 x 1024 x 1024 and 1024 x 64 x 4096, the default beside
//            axis::blocks
//   moments  reduce_moments_into over 2^30 floats (beside reduce_into's sum of the same bytes), and
//            reduce_axes_moments_into along axis 0 of 2^16 x 2^10 (beside reduce_axes_into's sums)
//   sweep    the default's check, run only when asked for: column and row sums of 2^22 and 2^26 floats
//            over row lengths 4 .. 2^20, the default beside axis::columns at several block sizes and
//            coarse factors (column sums) and the segment owners that fit the row length (row sums), to
//            see where the default's rule stands against the best of them (scripts/axes_tables.py)
// An NVBench program on bench/support/contest.cu. A benchmark's axes: Contender (each call, and "read
// ceiling": a 16-byte streaming read of the same bytes), Round (0), Elements (the case's item count)
// and Config ("<family>/<shape>, axes {<axes>}", e.g. "columns/16384x16384, axes {0}"). The first
// contender of a case (cascade's default; the moments call) is the reference of its ratios. Every
// result is checked against a double-precision fold of its items (a thread an output) within
// (n + 1) u sum|x|, the moments' mean and variance against two passes in double within 1e-9; then timed:
// cascade's hot (every call of a case in alternating runs) and NVBench's cold and batch. Rows also carry
// shape, axes, items, outputs, policy and clock, which scripts/axes_tables.py matches on. PyTorch, CuPy
// and JAX are timed by scripts/axes_rivals.py; scripts/axes_tables.py joins the two files.
//
//   scripts/nvbench-run.sh build-bench/bench/cascade-axes OUT.json        (every family but the sweep)
//   scripts/nvbench-run.sh build-bench/bench/cascade-axes SWEEP.json --families sweep
//   (one family alone, for a profiler: --families dims02)
#include <cascade/cascade.cuh>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "measure/fill.cuh"
#include "support/contest.cuh"

namespace {

using contest::contender;
using contest::device_array;
using contest::measurement;
using contest::sink;
using m_t = cascade::moments<float>;

long long const most_outputs = 1ll << 20;
unsigned long long const seed = 0xA7E5ull;  // every unit's items: the first of one sequence

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

// Transforms for the all-items check (functors: an extended lambda may not sit inside the checks' lambdas).
struct as_double {
  __device__ double operator()(float x) const { return static_cast<double>(x); }
};
struct magnitude_of {
  __device__ double operator()(float x) const { return std::fabs(static_cast<double>(x)); }
};
struct squared_deviation {
  double mean;
  __device__ double operator()(float x) const {
    double const d = x - mean;
    return d * d;
  }
};

std::string json_list(std::vector<long long> const& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s.append(i ? ", " : "").append(std::to_string(v[i]));
  return s + "]";
}

// What a unit's cases share: its items (the first `items` of one seeded sequence, so that every unit reads
// the same values), the output slot (floats; for moments, the moments then the baseline's floats) and the
// reference's per-output sums.
struct buffers {
  device_array<float> in, out{static_cast<std::size_t>(most_outputs)};
  device_array<double> want{static_cast<std::size_t>(most_outputs)}, magnitude{static_cast<std::size_t>(most_outputs)};
  explicit buffers(long long items) : in(static_cast<std::size_t>(items)) {
    cascade_measure::fill(in.data, items, seed);
  }
};

// A case's array as rank 3 (d0 = 1 for a matrix, d0 = d1 = 1 for a vector) and what it reduces.
struct layout {
  long long d0 = 1, d1 = 1, d2 = 1;
  unsigned mask = 0;
  long long items = 0, outputs = 1;
};

layout layout_of(std::vector<long long> const& shape, std::vector<long long> const& axes) {
  layout l;
  int const lead = 3 - static_cast<int>(shape.size());
  long long* d[3] = {&l.d0, &l.d1, &l.d2};
  for (std::size_t i = 0; i < shape.size(); ++i) *d[lead + static_cast<int>(i)] = shape[i];
  for (long long a : axes) l.mask |= 1u << (a + lead);
  l.items = l.d0 * l.d1 * l.d2;
  for (int a = 0; a < 3; ++a)
    if (!((l.mask >> a) & 1u)) l.outputs *= *d[a];
  return l;
}

// A cascade call and the policy it names (the rows' "policy").
contender call(std::string name, std::string const& policy, std::function<void()> run) {
  contender c{std::move(name), "cascade", "", std::move(run)};
  c.fields = ", \"policy\": " + contest::quoted(policy);
  return c;
}

// The case's measurement, its calls left to add: the family, the shape and axes as its config and fields.
measurement case_of(buffers* b, char const* family, std::vector<long long> const& shape,
                    std::vector<long long> const& axes, layout const& l) {
  measurement m;
  m.family = family;
  std::string shape_text, axes_text;
  for (std::size_t i = 0; i < shape.size(); ++i) shape_text.append(i ? "x" : "").append(std::to_string(shape[i]));
  for (std::size_t i = 0; i < axes.size(); ++i) axes_text.append(i ? ", " : "").append(std::to_string(axes[i]));
  m.config = shape_text + ", axes {" + axes_text + "}";
  m.item = "float32";
  m.n = l.items;
  m.bytes = static_cast<double>(l.items) * sizeof(float);
  m.fields = ", \"shape\": " + json_list(shape) + ", \"axes\": " + json_list(axes) + ", \"items\": " +
             std::to_string(l.items) + ", \"outputs\": " + std::to_string(l.outputs) + ", \"clock\": \"gpu\"";
  if (b) {
    m.items = b->in.data;
    m.out = b->out.data;
  }
  return m;
}

// Float outputs at `offset` bytes into a result, each within (n + 1) u sum|x| of the double fold (a
// thread an output; a single output by cascade's transform_reduce in double), taken at the first check
// (the reference's bytes are not compared: each call answers to the fold).
std::function<bool(void const*, void const*)> fold_agree(buffers* b, layout const& l, std::size_t offset) {
  auto folded = std::make_shared<std::vector<double>>();  // the sums, then the magnitudes
  return [b, l, offset, folded](void const* mine, void const*) {
    long long const outputs = l.outputs;
    if (folded->empty() && outputs == 1) {  // (one thread would take seconds over 2^30 items)
      float const* in = b->in.data;
      cascade::default_policy const p;
      *folded = {cascade::transform_reduce(p, in, in + l.items, 0.0, cascade::plus{}, as_double{}),
                 cascade::transform_reduce(p, in, in + l.items, 0.0, cascade::plus{}, magnitude_of{})};
    }
    if (folded->empty()) {
      unsigned const blocks = static_cast<unsigned>((outputs + 255) / 256);
      reference_kernel<<<blocks, 256>>>(b->in.data, l.d0, l.d1, l.d2, l.mask, outputs, b->want.data, b->magnitude.data);
      CASCADE_CUDA_CHECK(cudaGetLastError());
      folded->resize(2 * static_cast<std::size_t>(outputs));
      CASCADE_CUDA_CHECK(cudaMemcpy(folded->data(), b->want.data, outputs * sizeof(double), cudaMemcpyDeviceToHost));
      CASCADE_CUDA_CHECK(cudaMemcpy(folded->data() + outputs, b->magnitude.data, outputs * sizeof(double),
                                    cudaMemcpyDeviceToHost));
    }
    std::vector<float> got(static_cast<std::size_t>(outputs));
    std::memcpy(got.data(), static_cast<unsigned char const*>(mine) + offset, got.size() * sizeof(float));
    double const bound = static_cast<double>(l.items / outputs + 1) * std::ldexp(1.0, -24);
    for (long long o = 0; o < outputs; ++o) {
      double const want = (*folded)[o], magnitude = (*folded)[outputs + o];
      if (!(std::fabs(got[o] - want) <= bound * magnitude)) {
        std::fprintf(stderr, "  %lldx%lldx%lld, mask %u, output %lld: %.9g, want %.9g\n", l.d0, l.d1, l.d2, l.mask,
                     o, static_cast<double>(got[o]), want);
        return false;
      }
    }
    return true;
  };
}

// Float outputs at `offset` bytes into a result, for the report.
std::function<std::string(void const*)> floats_format(long long outputs, std::size_t offset) {
  return [outputs, offset](void const* p) {
    std::vector<float> r(static_cast<std::size_t>(outputs));
    std::memcpy(r.data(), static_cast<unsigned char const*>(p) + offset, r.size() * sizeof(float));
    double total = 0;
    for (float x : r) total += x;
    char text[96];
    std::snprintf(text, sizeof text, "first %.9g, sum of all %.9g", static_cast<double>(r[0]), total);
    return std::string(text);
  };
}

// One case of float sums: `cs` (the first the reference) each checked against the double fold.
void add_sums(sink& out, buffers* b, char const* family, std::vector<long long> const& shape,
              std::vector<long long> const& axes, std::vector<contender> cs) {
  layout const l = layout_of(shape, axes);
  measurement m = case_of(b, family, shape, axes, l);
  m.out_bytes = static_cast<std::size_t>(l.outputs) * sizeof(float);
  m.contenders = std::move(cs);
  m.agree = fold_agree(b, l, 0);
  m.format = floats_format(l.outputs, 0);
  out.add(std::move(m));
}

using columns_policy = cascade::policy<256, 8, cascade::tree::shuffle, cascade::axis::columns>;
using blocks_policy = cascade::policy<256, 4, cascade::tree::shuffle, cascade::axis::blocks>;
long long const matrices[4][2] = {
    {1ll << 14, 1ll << 14}, {1ll << 20, 1ll << 6}, {1ll << 6, 1ll << 20}, {1ll << 10, 1ll << 10}};
long long const matrix_items = 1ll << 28;

void build_columns(bool dry, sink& out) {
  buffers* b = dry ? nullptr : &out.keep<buffers>(matrix_items);
  if (b) {  // what the device holds of the column kernels at once (why a shape fills it or not)
    int v4 = 0, v1 = 0;
    CASCADE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &v4, cascade::detail::axis_columns_kernel<256, 4, 4, 1, float, float*, float*, cascade::plus>, 256, 0));
    CASCADE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &v1, cascade::detail::axis_columns_kernel<256, 8, 4, 1, float, float const*, float*, cascade::plus>, 256, 0));
    contest::note(out, "{\"kind\": \"occupancy\", \"family\": \"columns\", \"kernel\": \"axis_columns_kernel\", "
                       "\"block\": 256, \"blocks_per_sm\": " + std::to_string(v4) +
                           ", \"blocks_per_sm_partials\": " + std::to_string(v1) + "}");
  }
  float* in = b ? b->in.data : nullptr;
  float* o = b ? b->out.data : nullptr;
  for (auto const& mtx : matrices) {
    long long const r = mtx[0], c = mtx[1];
    add_sums(out, b, "columns", {r, c}, {0},
             {call("cascade::reduce_axes_into (default)", "default",
                   [=] {
                     cascade::reduce_axes_into(cascade::default_policy{}, cascade::view(in, {r, c}), cascade::axes{0},
                                               cascade::view(o, {c}), 0.0f, cascade::plus{});
                   }),
              call("cascade::reduce_axes_into (axis::columns, 8)", "axis::columns<256, 8>", [=] {
                cascade::reduce_axes_into(columns_policy{}, cascade::view(in, {r, c}), cascade::axes{0},
                                          cascade::view(o, {c}), 0.0f, cascade::plus{});
              })});
  }
}

void build_rows(bool dry, sink& out) {
  buffers* b = dry ? nullptr : &out.keep<buffers>(matrix_items);
  float* in = b ? b->in.data : nullptr;
  float* o = b ? b->out.data : nullptr;
  for (auto const& mtx : matrices) {
    long long const r = mtx[0], c = mtx[1];
    add_sums(out, b, "rows", {r, c}, {1},
             {call("cascade::reduce_axes_into (default)", "default",
                   [=] {
                     cascade::reduce_axes_into(cascade::default_policy{}, cascade::view(in, {r, c}), cascade::axes{1},
                                               cascade::view(o, {r}), 0.0f, cascade::plus{});
                   }),
              call("cascade::batched_reduce", "batched default", [=] {
                cascade::batched_reduce(cascade::default_policy{}, in, c, r, o, 0.0f, cascade::plus{});
              })});
  }
}

void build_dims02(bool dry, sink& out) {
  buffers* b = dry ? nullptr : &out.keep<buffers>(matrix_items);
  float* in = b ? b->in.data : nullptr;
  float* o = b ? b->out.data : nullptr;
  long long const cubes[2][3] = {{256, 1024, 1024}, {1024, 64, 4096}};
  for (auto const& cube : cubes) {
    long long const x = cube[0], y = cube[1], z = cube[2];
    add_sums(out, b, "dims02", {x, y, z}, {0, 2},
             {call("cascade::reduce_axes_into (default)", "default",
                   [=] {
                     cascade::reduce_axes_into(cascade::default_policy{}, cascade::view(in, {x, y, z}),
                                               cascade::axes{0, 2}, cascade::view(o, {y}), 0.0f, cascade::plus{});
                   }),
              call("cascade::reduce_axes_into (axis::blocks)", "axis::blocks", [=] {
                cascade::reduce_axes_into(blocks_policy{}, cascade::view(in, {x, y, z}), cascade::axes{0, 2},
                                          cascade::view(o, {y}), 0.0f, cascade::plus{});
              })});
  }
}

// The default's rule against each owner, over the shapes between the other families'.
void build_sweep(bool dry, sink& out) {
  buffers* b = dry ? nullptr : &out.keep<buffers>(1ll << 26);
  float* in = b ? b->in.data : nullptr;
  float* o = b ? b->out.data : nullptr;
  auto const axis_call = [=](auto policy, long long r, long long c, int axis) {
    return [=] {
      cascade::reduce_axes_into(policy, cascade::view(in, {r, c}), cascade::axes{axis},
                                cascade::view(o, {axis == 0 ? c : r}), 0.0f, cascade::plus{});
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
      add_sums(out, b, "sweep", {r, c}, {0},
               {call("default", "default", axis_call(cascade::default_policy{}, r, c, 0)),
                call("axis::columns <256, 4>", "axis::columns<256, 4>",
                     axis_call(policy<256, 4, shuffle, axis::columns>{}, r, c, 0)),
                call("axis::columns <256, 8>", "axis::columns<256, 8>",
                     axis_call(policy<256, 8, shuffle, axis::columns>{}, r, c, 0)),
                call("axis::columns <128, 4>", "axis::columns<128, 4>",
                     axis_call(policy<128, 4, shuffle, axis::columns>{}, r, c, 0)),
                call("axis::columns <512, 2>", "axis::columns<512, 2>",
                     axis_call(policy<512, 2, shuffle, axis::columns>{}, r, c, 0))});
      if (r > most_outputs) continue;  // (the output slot)
      std::vector<contender> cs = {call("default", "default", axis_call(cascade::default_policy{}, r, c, 1))};
      if (c <= 64)
        cs.push_back(call("segment::thread <256, 4>", "segment::thread<256, 4>",
                          axis_call(policy<256, 4, shuffle, segment::thread>{}, r, c, 1)));
      if (c <= 1024)
        cs.push_back(call("segment::warp<8> <256, 4>", "segment::warp<8><256, 4>",
                          axis_call(policy<256, 4, shuffle, segment::warp<8>>{}, r, c, 1)));
      if (c >= 16 && c <= 16384)
        cs.push_back(call("segment::warp<32> <128, 4>", "segment::warp<32><128, 4>",
                          axis_call(policy<128, 4, shuffle, segment::warp<32>>{}, r, c, 1)));
      if (c >= 256)
        cs.push_back(call("segment::block <256, 4>", "segment::block<256, 4>",
                          axis_call(policy<256, 4, shuffle, segment::block>{}, r, c, 1)));
      if (c >= 4096)
        cs.push_back(call("segment::blocks <256, 4>", "segment::blocks<256, 4>",
                          axis_call(policy<256, 4, shuffle, segment::blocks>{}, r, c, 1)));
      if (c >= 1024)
        cs.push_back(call("axis::blocks <256, 4>", "axis::blocks<256, 4>",
                          axis_call(policy<256, 4, shuffle, axis::blocks>{}, r, c, 1)));
      add_sums(out, b, "sweep", {r, c}, {1}, std::move(cs));
    }
}

bool close_to(double got, double want, double rel) { return std::fabs(got - want) <= rel * std::fabs(want); }

// Moments: the slot holds the moments call's outputs, then the baseline's floats (sums of the same bytes,
// checked against the double fold); the moments' mean and variance against two passes in double.
void build_moments(bool dry, sink& out) {
  long long const n = 1ll << 30;
  buffers* b = dry ? nullptr : &out.keep<buffers>(n);
  float* in = b ? b->in.data : nullptr;
  m_t* dm = b ? reinterpret_cast<m_t*>(b->out.data) : nullptr;
  auto const moments_format = [](void const* p) {
    m_t m;
    std::memcpy(static_cast<void*>(&m), p, sizeof m);
    char text[128];
    std::snprintf(text, sizeof text, "first: count %llu mean %.12g var %.12g", static_cast<unsigned long long>(m.count),
                  m.mean(), m.variance());
    return std::string(text);
  };
  // Each case: the moments call (the reference), then the baseline writing floats after the moments.
  auto const add = [&](std::vector<long long> const& shape, contender moments, contender baseline,
                       std::function<bool(m_t const*)> check) {
    layout const l = layout_of(shape, {0});
    std::size_t const floats_at = static_cast<std::size_t>(l.outputs) * sizeof(m_t);
    measurement m = case_of(b, "moments", shape, {0}, l);
    m.out_bytes = floats_at + static_cast<std::size_t>(l.outputs) * sizeof(float);
    m.agree = [l, check](void const* mine, void const*) {
      std::vector<m_t> got(static_cast<std::size_t>(l.outputs));
      std::memcpy(static_cast<void*>(got.data()), mine, got.size() * sizeof(m_t));
      return check(got.data());
    };
    m.format = moments_format;
    baseline.agree = fold_agree(b, l, floats_at);
    baseline.format = floats_format(l.outputs, floats_at);
    m.contenders = {std::move(moments), std::move(baseline)};
    out.add(std::move(m));
  };
  float* sums = dm ? reinterpret_cast<float*>(dm + 1) : nullptr;
  add({n},
      call("cascade::reduce_moments_into (default)", "default",
           [=] { cascade::reduce_moments_into(cascade::default_policy{}, in, in + n, dm); }),
      call("cascade::reduce_into (plus, same bytes)", "default",
           [=] { cascade::reduce_into(cascade::default_policy{}, in, in + n, sums, 0.0f, cascade::plus{}); }),
      [=](m_t const* m) {
        double const mean =
            cascade::transform_reduce(cascade::default_policy{}, in, in + n, 0.0, cascade::plus{}, as_double{}) /
            static_cast<double>(n);
        double const var = cascade::transform_reduce(cascade::default_policy{}, in, in + n, 0.0, cascade::plus{},
                                                     squared_deviation{mean}) /
                           static_cast<double>(n);
        bool const ok = m->count == static_cast<unsigned long long>(n) && close_to(m->mean(), mean, 1e-9) &&
                        close_to(m->variance(), var, 1e-9);
        if (!ok)
          std::fprintf(stderr, "  moments of 2^30: count %llu mean %.12g var %.12g, want %.12g %.12g\n",
                       static_cast<unsigned long long>(m->count), m->mean(), m->variance(), mean, var);
        return ok;
      });
  long long const r = 1ll << 16, c = 1ll << 10;
  sums = dm ? reinterpret_cast<float*>(dm + c) : nullptr;
  add({r, c},
      call("cascade::reduce_axes_moments_into (default)", "default",
           [=] {
             cascade::reduce_axes_moments_into(cascade::default_policy{}, cascade::view(in, {r, c}), cascade::axes{0},
                                               cascade::view(dm, {c}));
           }),
      call("cascade::reduce_axes_into (plus, same bytes)", "default",
           [=] {
             cascade::reduce_axes_into(cascade::default_policy{}, cascade::view(in, {r, c}), cascade::axes{0},
                                       cascade::view(sums, {c}), 0.0f, cascade::plus{});
           }),
      [=](m_t const* m) {
        std::vector<float> h(static_cast<std::size_t>(r * c));
        CASCADE_CUDA_CHECK(cudaMemcpy(h.data(), in, h.size() * sizeof(float), cudaMemcpyDeviceToHost));
        for (long long j = 0; j < c; ++j) {
          double s = 0, q = 0;
          for (long long i = 0; i < r; ++i) s += h[i * c + j];
          double const mean = s / static_cast<double>(r);
          for (long long i = 0; i < r; ++i) q += (h[i * c + j] - mean) * (h[i * c + j] - mean);
          if (!close_to(m[j].mean(), mean, 1e-9) || !close_to(m[j].variance(), q / static_cast<double>(r), 1e-9)) {
            std::fprintf(stderr, "  moments of column %lld: mean %.12g var %.12g, want %.12g %.12g\n", j, m[j].mean(),
                         m[j].variance(), mean, q / static_cast<double>(r));
            return false;
          }
        }
        return true;
      });
}

contest::program make() {
  contest::program p;
  p.name = "cascade-axes";
  p.units = {{"columns", "columns", &build_columns},
             {"rows", "rows", &build_rows},
             {"dims02", "dims02", &build_dims02},
             {"moments", "moments", &build_moments},
             {"sweep", "sweep", &build_sweep, false}};
  p.rounds = {0};
  return p;
}

[[maybe_unused]] bool const declared = contest::declare(&make);

}  // namespace
