// cascade-nvbench-reduce: default_policy's reduce against cub::DeviceReduce::Reduce, as NVBench
// measures (its "GPU Time": one launch at a time with L2 flushed, cold; its "Batch GPU": launches back
// to back, hot), over NVBench's axes: item type, Elements (2^10..2^30), Contender.
//   build-bench/bench/cascade-nvbench-reduce --json r.json     (NVBench's own options: --help)
// Built where scripts/fetch-nvbench.sh has put NVBench (the cuda-bench wheel) in .deps/nvbench.
// Every call is checked once against the exact sum before it is timed; a wrong sum skips the state.
#include <nvbench/nvbench.cuh>

#include <cascade/cascade.cuh>
#include <cub/device/device_reduce.cuh>
#include <cuda/functional>
#include <cuda_fp16.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

// Items and their sum's type: the accumulator a user of each type takes (int8 and half sum wider).
template <class Item>
struct sum_of {
  using type = Item;
};
template <>
struct sum_of<std::int8_t> {
  using type = int;
};
template <>
struct sum_of<__half> {
  using type = float;
};

// 0, 1, 0, 1, ...: every partial sum of a power-of-two count is exact in every type (float's too, up
// to 2^30 items), so the check is equality, and int32's sum of 2^30 items does not overflow.
template <class Item>
__global__ void fill_kernel(Item* items, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * blockDim.x)
    items[i] = static_cast<Item>(static_cast<float>(i % 2));
}

template <class Item>
void reduce_sum(nvbench::state& state, nvbench::type_list<Item>) {
  using Sum = typename sum_of<Item>::type;
  auto const n = state.get_int64("Elements");
  std::string const contender = state.get_string("Contender");
  bool const ours = contender == "cascade";  // decided once, not on the timed path
  Item* items = nullptr;
  Sum* out = nullptr;
  if (cudaMalloc(&items, sizeof(Item) * static_cast<std::size_t>(n)) != cudaSuccess ||
      cudaMalloc(&out, sizeof(Sum)) != cudaSuccess) {
    cudaFree(items);
    state.skip("not enough device memory");
    return;
  }
  fill_kernel<<<1024, 256>>>(items, n);
  std::size_t temp_bytes = 0;
  cub::DeviceReduce::Reduce(nullptr, temp_bytes, items, out, n, cuda::std::plus<Sum>{}, Sum(0));
  void* temp = nullptr;
  if (cudaMalloc(&temp, temp_bytes) != cudaSuccess) {
    cudaFree(out);
    cudaFree(items);
    state.skip("not enough device memory for CUB's temporary storage");
    return;
  }
  auto const run = [&](cudaStream_t stream) {
    if (ours)
      cascade::reduce_into(cascade::default_policy{}.on(stream), items, items + n, out, Sum(0), cascade::plus{});
    else
      cub::DeviceReduce::Reduce(temp, temp_bytes, items, out, n, cuda::std::plus<Sum>{}, Sum(0), stream);
  };
  run(nullptr);
  Sum got{};
  cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost);
  double const expected = static_cast<double>(n / 2);
  if (static_cast<double>(got) != expected) {
    state.skip(contender + ": the sum is wrong (" + std::to_string(static_cast<double>(got)) + ", expected " +
               std::to_string(expected) + ")");
  } else {
    state.add_element_count(n);
    state.add_global_memory_reads<Item>(n);
    state.add_global_memory_writes<Sum>(1);
    state.exec([&](nvbench::launch& launch) { run(launch.get_stream()); });
  }
  cudaFree(temp);
  cudaFree(out);
  cudaFree(items);
}

using item_types = nvbench::type_list<float, double, std::int32_t, std::int64_t, std::int8_t, __half>;

}  // namespace

NVBENCH_DECLARE_TYPE_STRINGS(__half, "half", "__half");

NVBENCH_BENCH_TYPES(reduce_sum, NVBENCH_TYPE_AXES(item_types))
    .set_name("reduce_sum")
    .set_type_axes_names({"T"})
    .add_int64_power_of_two_axis("Elements", nvbench::range(10, 30, 2))
    .add_string_axis("Contender", {"cascade", "cub"});
