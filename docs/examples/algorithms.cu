// The examples of docs/algorithms.md: each region between "// [name]" and "// [/name]" is shown there
// under that name. test/algorithms/docs_test.cu compiles this file and runs it on the GPU; main returns
// 0 when every example got the answer it states.
#include <cascade/cascade.cuh>
#include <thrust/device_vector.h>
#include <thrust/sequence.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>

// [predicates]
struct is_odd {
  __host__ __device__ bool operator()(int x) const { return x % 2 != 0; }
};
struct is_nan {
  __host__ __device__ bool operator()(float x) const { return x != x; }
};
// [/predicates]

namespace algorithms_examples {

int failures = 0;
void expect(bool ok, char const* what) {
  if (!ok) {
    std::printf("docs/algorithms.md example failed: %s\n", what);
    ++failures;
  }
}

void counts() {
  thrust::device_vector<int> v(1000);
  thrust::sequence(v.begin(), v.end());  // 0, 1, ..., 999
  int const* d = thrust::raw_pointer_cast(v.data());
  auto const policy = cascade::default_policy{};
  // [count]
  std::int64_t const sevens = cascade::count(policy, d, d + 1000, 7);         // 1
  std::int64_t const odd = cascade::count_if(policy, d, d + 1000, is_odd{});  // 500
  // [/count]
  expect(sevens == 1 && odd == 500, "count, count_if");
  // [inner_product]
  int const dot = cascade::inner_product(policy, d, d + 10, d, 0);  // 0*0 + 1*1 + ... + 9*9 = 285
  // [/inner_product]
  expect(dot == 285, "inner_product");
  // [elements]
  int const* lo = cascade::min_element(policy, d, d + 1000);             // d
  auto const [lo2, hi] = cascade::minmax_element(policy, d, d + 1000);   // d, d + 999
  // [/elements]
  expect(lo == d && lo2 == d && hi == d + 999, "min_element, minmax_element");
}

void predicates() {
  thrust::device_vector<float> v(1 << 20, 1.0f);
  v[12345] = std::numeric_limits<float>::quiet_NaN();
  float const* d = thrust::raw_pointer_cast(v.data());
  auto const policy = cascade::default_policy{};
  // [any_of]
  bool const has_nan = cascade::any_of(policy, d, d + (1 << 20), is_nan{});  // true: stops soon after item 12345
  bool const clean = cascade::none_of(policy, d, d + 12345, is_nan{});       // true
  // [/any_of]
  expect(has_nan && clean, "any_of, none_of");
}

void device_held() {
  thrust::device_vector<float> v(1 << 20, 1.0f);
  thrust::device_vector<std::int64_t> count(1);
  thrust::device_vector<float> init(1), out(1);
  float const* d = thrust::raw_pointer_cast(v.data());
  std::int64_t* d_count = thrust::raw_pointer_cast(count.data());
  float* d_init = thrust::raw_pointer_cast(init.data());
  float* d_out = thrust::raw_pointer_cast(out.data());
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  // [device_count]
  // Capture once: the count and init are read from device memory when the graph runs.
  cudaGraph_t graph;
  cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
  cascade::reduce_into(cascade::default_policy{}.on(stream), d, cascade::device_count(d_count, 1 << 20), d_out,
                       cascade::device_value(d_init), cascade::plus{});
  cudaStreamEndCapture(stream, &graph);
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, graph, 0);
  float results[3];
  std::int64_t const sizes[3] = {1000, 0, 1 << 20};
  for (int i = 0; i < 3; ++i) {
    float const start = 0.5f;
    cudaMemcpyAsync(d_count, &sizes[i], sizeof sizes[i], cudaMemcpyHostToDevice, stream);
    cudaMemcpyAsync(d_init, &start, sizeof start, cudaMemcpyHostToDevice, stream);
    cudaGraphLaunch(exec, stream);  // *d_out = 0.5 + sizes[i]
    cudaMemcpyAsync(&results[i], d_out, sizeof(float), cudaMemcpyDeviceToHost, stream);
    cudaStreamSynchronize(stream);
  }
  // [/device_count]
  expect(results[0] == 1000.5f && results[1] == 0.5f && results[2] == 1048576.5f, "device_count and device_value replay");
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
}

}  // namespace algorithms_examples

int main() {
  algorithms_examples::counts();
  algorithms_examples::predicates();
  algorithms_examples::device_held();
  return algorithms_examples::failures == 0 ? 0 : 1;
}
