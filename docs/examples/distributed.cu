// The examples of docs/distributed.md: each region between "// [name]" and "// [/name]" is shown there
// under that name. test/algorithms/docs_distributed_test.cu compiles this file and runs it on every visible GPU
// (one rank on one GPU); main returns 0 when every example got the answer it states.
#include <cascade/distributed.cuh>
#include <thrust/device_vector.h>
#include <thrust/sequence.h>

#include <cstdint>
#include <cstdio>
#include <numeric>
#include <vector>

namespace distributed_examples {

int failures = 0;
void expect(bool ok, char const* what) {
  if (!ok) {
    std::printf("docs/distributed.md example failed: %s\n", what);
    ++failures;
  }
}

// [matrix]
// 2x2 integer matrices mod 2^32: associative, not commutative.
struct mat2 {
  std::uint32_t a, b, c, d;
};
struct mat2_product {
  __host__ __device__ mat2 operator()(mat2 const& x, mat2 const& y) const {
    return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d};
  }
};
// [/matrix]

void run() {
  int devices = 0;
  cudaGetDeviceCount(&devices);
  // [all_gpus]
  // One process, every GPU: one communicator per device (rank i on device i).
  std::vector<int> list(devices);
  std::iota(list.begin(), list.end(), 0);
  std::vector<cascade::communicator> comms = cascade::communicator::init_all(list);

  // Shard r: 1000 items on GPU r, the values r * 1000 .. r * 1000 + 999 (the shards in rank order are
  // 0, 1, ..., 1000 * devices - 1).
  std::vector<thrust::device_vector<int>> data;
  data.reserve(devices);
  std::vector<cascade::shard<int const*>> shards;
  for (int r = 0; r < devices; ++r) {
    cudaSetDevice(r);
    data.emplace_back(1000);
    thrust::sequence(data.back().begin(), data.back().end(), r * 1000);
    int const* d = thrust::raw_pointer_cast(data.back().data());
    shards.push_back({d, d + 1000});
  }
  using policy = cascade::policy<256, 4, cascade::tree::shuffle, cascade::finish::recursive>;
  long long const sum = cascade::reduce(comms, policy{}, shards, 0ll, cascade::plus{});     // nvlink or NCCL's
  int const largest = cascade::reduce(comms, policy{}, shards, 0, cascade::maximum{},
                                      cascade::collective::all_gather{});                      // gather, fold
  cascade::indexed<int> const where = cascade::argmax(comms, policy{}, shards);              // global index
  // [/all_gpus]
  long long const n = 1000ll * devices;
  expect(sum == n * (n - 1) / 2, "sum");
  expect(largest == n - 1, "maximum");
  expect(where.index == n - 1 && where.value == n - 1, "argmax");

  // [ordered]
  // A non-commutative op: the product of every GPU's matrices, in rank order (three [[1 1] [0 1]] on
  // each GPU: [[1 3n] [0 1]] for n GPUs). nvlink or the all-gather: any op, the same bits on every rank.
  std::vector<thrust::device_vector<mat2>> matrices;
  matrices.reserve(devices);
  std::vector<cascade::shard<mat2 const*>> parts;
  for (int r = 0; r < devices; ++r) {
    cudaSetDevice(r);
    matrices.emplace_back(3, mat2{1, 1, 0, 1});
    mat2 const* d = thrust::raw_pointer_cast(matrices.back().data());
    parts.push_back({d, d + 3});
  }
  mat2 const p = cascade::reduce(comms, policy{}, parts, mat2{1, 0, 0, 1}, cascade::non_commutative(mat2_product{}));
  // [/ordered]
  expect(p.a == 1 && p.b == 3u * devices && p.c == 0 && p.d == 1, "matrix product");
  matrices.clear();
  data.clear();
}

}  // namespace distributed_examples

int main() {
  distributed_examples::run();
  return distributed_examples::failures == 0 ? 0 : 1;
}
