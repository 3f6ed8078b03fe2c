// The examples of docs/axes.md: each region between "// [name]" and "// [/name]" is shown there under
// that name. test/algorithms/docs_test.cu compiles this file and runs it on the GPU; main returns 0
// when every example got the answer it states.
#include <cascade/cascade.cuh>
#include <cuda/std/mdspan>
#include <cuda/std/tuple>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sequence.h>

#include <cmath>
#include <cstdio>

namespace axes_examples {

int failures = 0;
void expect(bool ok, char const* what) {
  if (!ok) {
    std::printf("docs/axes.md example failed: %s\n", what);
    ++failures;
  }
}

void sums() {
  thrust::device_vector<float> m(3 * 4);
  thrust::sequence(m.begin(), m.end());  // the row-major 3 x 4 matrix 0, 1, ..., 11
  thrust::device_vector<float> col(4), row(3);
  float const* d = thrust::raw_pointer_cast(m.data());
  // [columns]
  // column and row sums of a row-major 3 x 4 matrix
  auto const policy = cascade::default_policy{};
  cascade::reduce_axes_into(policy, cascade::view(d, {3, 4}), cascade::axes{0},
                            cascade::view(thrust::raw_pointer_cast(col.data()), {4}), 0.0f, cascade::plus{});
  cascade::reduce_axes_into(policy, cascade::view(d, {3, 4}), cascade::axes{-1},
                            cascade::view(thrust::raw_pointer_cast(row.data()), {3}), 0.0f, cascade::plus{});
  // col: 12, 15, 18, 21    row: 6, 22, 38
  // [/columns]
  thrust::host_vector<float> const c(col), r(row);
  expect(c[0] == 12 && c[1] == 15 && c[2] == 18 && c[3] == 21, "column sums");
  expect(r[0] == 6 && r[1] == 22 && r[2] == 38, "row sums");
}

void tensor() {
  thrust::device_vector<int> t(2 * 3 * 4);
  thrust::sequence(t.begin(), t.end());
  thrust::device_vector<int> top(3), top_keep(3);
  int const* p = thrust::raw_pointer_cast(t.data());
  // [mdspan]
  // the maxima over dims (0, 2) of a 2 x 3 x 4 tensor (torch.amax(x, dim=(0, 2)))
  using ext = cuda::std::dextents<long long, 3>;
  cuda::std::mdspan<int const, ext> x(p, 2, 3, 4);
  cuda::std::mdspan<int, cuda::std::dextents<long long, 1>> out(thrust::raw_pointer_cast(top.data()), 3);
  cascade::reduce_axes_into(cascade::default_policy{}, x, cascade::axes{0, 2}, out, cascade::maximum{});
  // out: 15, 19, 23; with keepdim, an output of extents (1, 3, 1):
  cuda::std::mdspan<int, ext> kept(thrust::raw_pointer_cast(top_keep.data()), 1, 3, 1);
  cascade::reduce_axes_into(cascade::default_policy{}, x, cascade::axes{0, 2}, kept, cascade::maximum{});
  // [/mdspan]
  thrust::host_vector<int> const h(top), k(top_keep);
  expect(h[0] == 15 && h[1] == 19 && h[2] == 23 && k[0] == 15 && k[2] == 23, "maxima over dims (0, 2)");
}

void strided() {
  thrust::device_vector<double> m(4 * 5, 1.0);
  thrust::device_vector<double> out(2);
  double const* d = thrust::raw_pointer_cast(m.data());
  // [strided]
  // every other row of a 4 x 5 row-major matrix (rows 0 and 2: strides 10, 1), summed along the rows,
  // the squares through a transform; a policy that names its owner
  using rows = cascade::policy<256, 4, cascade::tree::shuffle, cascade::segment::warp<32>>;
  auto square = [] __host__ __device__(double v) { return v * v; };
  cascade::transform_reduce_axes_into(rows{}, cascade::view(d, {2, 5}, {10, 1}), cascade::axes{1},
                                      cascade::view(thrust::raw_pointer_cast(out.data()), {2}), 0.0,
                                      cascade::plus{}, square);
  // out: 5, 5
  // [/strided]
  thrust::host_vector<double> const h(out);
  expect(h[0] == 5 && h[1] == 5, "strided rows");
}

void statistics() {
  thrust::device_vector<float> m(3 * 4);
  thrust::sequence(m.begin(), m.end());  // the row-major 3 x 4 matrix 0, 1, ..., 11
  thrust::device_vector<cascade::moments<float>> cols(4);
  float const* d = thrust::raw_pointer_cast(m.data());
  // [moments]
  // count, mean, variance, min and max in one read: of every item, and of every column
  cascade::moments<float> const all = cascade::reduce_moments(cascade::default_policy{}, d, d + 12);
  // all.count 12, all.mean() 5.5, all.variance() 143 / 12, all.variance(1) 13, all.min() 0, all.max() 11
  cascade::reduce_axes_moments_into(cascade::default_policy{}, cascade::view(d, {3, 4}), cascade::axes{0},
                                    cascade::view(thrust::raw_pointer_cast(cols.data()), {4}));
  // cols[j]: count 3, mean j + 4, variance 32 / 3 (torch.var_mean(x, dim=0, correction=0))
  // [/moments]
  thrust::host_vector<cascade::moments<float>> const c(cols);
  expect(all.count == 12 && all.mean() == 5.5 && std::fabs(all.variance() - 143.0 / 12) < 1e-12 &&
             std::fabs(all.variance(1) - 13) < 1e-12 && all.min() == 0 && all.max() == 11,
         "moments of every item");
  expect(c[0].count == 3 && c[3].mean() == 7 && std::fabs(c[1].variance() - 32.0 / 3) < 1e-12 && c[2].max() == 10,
         "moments of every column");
}

void several() {
  thrust::device_vector<float> m(3 * 4);
  thrust::sequence(m.begin(), m.end());  // 0, 1, ..., 11
  thrust::device_vector<cuda::std::tuple<float, float>> cols(4);
  float const* d = thrust::raw_pointer_cast(m.data());
  // [fused]
  // several ops over one read: a tuple of results, each op with its own identity and NaN rules
  auto const [sum, lo, hi] = cascade::reduce_fused(cascade::default_policy{}, d, d + 12, cascade::plus{},
                                                   cascade::minimum{}, cascade::maximum{});
  // sum 66, lo 0, hi 11; along an axis: the sum and the maximum of every column of the 3 x 4 matrix
  cascade::transform_reduce_axes_into(cascade::default_policy{}, cascade::view(d, {3, 4}), cascade::axes{0},
                                      cascade::view(thrust::raw_pointer_cast(cols.data()), {4}),
                                      cuda::std::tuple{0.0f, -INFINITY},
                                      cascade::fused(cascade::plus{}, cascade::maximum{}), cascade::fan_out<2>{});
  // cols[j]: (3 j + 12, j + 8)
  // [/fused]
  thrust::host_vector<cuda::std::tuple<float, float>> const c(cols);
  expect(sum == 66 && lo == 0 && hi == 11, "reduce_fused");
  expect(cuda::std::get<0>(c[1]) == 15 && cuda::std::get<1>(c[3]) == 11, "fused along an axis");
}

void positions() {
  // the row-major 3 x 4 matrix
  //   3 1 4 1
  //   5 9 2 6
  //   5 3 5 8
  float const items[] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8};
  thrust::device_vector<float> m(items, items + 12);
  thrust::device_vector<cascade::indexed<float>> lo(4), hi(3);
  float const* d = thrust::raw_pointer_cast(m.data());
  // [arg_axis]
  // where every column's smallest item is (torch.argmin(x, dim=0)), and every row's largest
  cascade::argmin_axis_into(cascade::default_policy{}, cascade::view(d, {3, 4}), 0,
                            cascade::view(thrust::raw_pointer_cast(lo.data()), {4}));
  cascade::argmax_axis_into(cascade::default_policy{}, cascade::view(d, {3, 4}), -1,
                            cascade::view(thrust::raw_pointer_cast(hi.data()), {3}));
  // lo: {0, 3}, {0, 1}, {1, 2}, {0, 1}    hi: {2, 4}, {1, 9}, {3, 8}   ({index along the axis, item})
  // [/arg_axis]
  thrust::host_vector<cascade::indexed<float>> const l(lo), h(hi);
  expect(l[0].index == 0 && l[0].value == 3 && l[1].index == 0 && l[2].index == 1 && l[2].value == 2 &&
             l[3].index == 0 && l[3].value == 1,
         "argmin along the columns");
  expect(h[0].index == 2 && h[0].value == 4 && h[1].index == 1 && h[1].value == 9 && h[2].index == 3, "argmax along the rows");
}

}  // namespace axes_examples

int main() {
  axes_examples::sums();
  axes_examples::tensor();
  axes_examples::strided();
  axes_examples::statistics();
  axes_examples::several();
  axes_examples::positions();
  return axes_examples::failures;
}
