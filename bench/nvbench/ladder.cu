// cascade-ladder: the slides' table on today's GPU, and every tree strategy side by side, as NVBench
// benchmarks:
//   ladder  the presets harris_reduce1..7 (the slides' seven kernels), cub::DeviceReduce and
//           thrust::reduce (its result to the host: NVBench's sync measurement), int32 plus, at 2^22
//           items (the slides' input) and 2^28, where bandwidth rather than launches rules;
//   trees   every tree of the registry (cascade/tree/all.cuh), block size 256, coarse factors 1 and 8,
//           finish::recursive (tree::none: finish::atomic, its only partner), int32 and float.
// Each state's call is checked once against CUB's result (support/nvbench_check.cuh), then timed: cascade's hot
// (support/nvbench_hot.cuh), NVBench's cold (L2 flushed) and batch. scripts/ladder_tables.py reads the results.
//   cascade-ladder --json FILE [NVBench's options: --help]
//   scripts/nvbench-run.sh build-bench/bench/cascade-ladder bench/results/ladder-GPU-DATE.json
#include <nvbench/nvbench.cuh>

#include <cascade/cascade.cuh>
#include <cascade/tree/cub_block.cuh>
#include <cub/device/device_reduce.cuh>
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "support/nvbench_check.cuh"
#include "support/nvbench_hot.cuh"
#include "support/nvbench_program.cuh"
#include "support/input.cuh"

namespace {

using cascade_bench::device_input;

// The input of the states that run now and CUB's sum of it, every state's reference (one size and
// type at a time: NVBench runs a benchmark's states in order, the first axis fastest), built on first
// use; a new one frees the one before.
template <class T>
struct current_input {
  std::unique_ptr<device_input<T>> in;
  T cub_result{};
};

template <class T>
current_input<T>& input_of(long long n) {
  static current_input<T> current;
  if (!current.in) cascade_nvbench::before_exit().push_back([] { current.in.reset(); });
  if (!current.in || current.in->n != n) {
    current.in.reset();
    current.in = std::make_unique<device_input<T>>(n);
    current.in->cub_sum();
    current.cub_result = current.in->read_out();
  }
  return current;
}

template <class T>
std::string text(T x) {
  if constexpr (std::is_integral_v<T>) return std::to_string(static_cast<long long>(x));
  else return std::to_string(static_cast<double>(x));
}

// Checks `call`'s result against CUB's, then times it: cascade's hot and NVBench's cold and batch.
template <class T, class Call>
void check_and_time(nvbench::state& state, std::string const& what, current_input<T>& input, Call const& call,
                    bool inexact_by_design = false) {
  auto& in = *input.in;
  call(cudaStream_t{});
  T const got = in.read_out();
  if (!inexact_by_design && !in.agrees(got, input.cub_result)) {
    cascade_nvbench::disagree(state, what + " at " + std::to_string(in.n) + " items: " + text(got) + ", CUB " +
                                         text(input.cub_result));
    return;
  }
  state.add_element_count(in.n);
  state.add_global_memory_reads<T>(in.n);
  state.add_global_memory_writes<T>(1);
  cascade_nvbench::add_hot(state, [&] { call(cudaStream_t{}); });
  state.exec([&](nvbench::launch& launch) { call(launch.get_stream()); });
}

template <class Policy>
void preset_sum(device_input<int>& in, cudaStream_t stream) {
  cascade::reduce_into(Policy{}.on(stream), in.d, in.d + in.n, in.d_out, 0, cascade::plus{});
}

// The ladder's contenders by name, in the slides' order, then the references.
std::vector<std::pair<std::string, void (*)(device_input<int>&, cudaStream_t)>> const& ladder_kernels() {
  namespace presets = cascade::presets;
  static std::vector<std::pair<std::string, void (*)(device_input<int>&, cudaStream_t)>> const all = {
      {"harris_reduce1", &preset_sum<presets::harris_reduce1>},
      {"harris_reduce2", &preset_sum<presets::harris_reduce2>},
      {"harris_reduce3", &preset_sum<presets::harris_reduce3>},
      {"harris_reduce4", &preset_sum<presets::harris_reduce4>},
      {"harris_reduce5", &preset_sum<presets::harris_reduce5>},
      {"harris_reduce6", &preset_sum<presets::harris_reduce6>},
      {"harris_reduce7", &preset_sum<presets::harris_reduce7>},
      {"cub::DeviceReduce", [](device_input<int>& in, cudaStream_t stream) {
         CASCADE_CUDA_CHECK(cub::DeviceReduce::Reduce(in.d_temp, in.temp_bytes, in.d, in.d_out, in.n,
                                                      cascade::plus{}, 0, stream));
       }},
  };
  return all;
}

std::vector<std::string> ladder_names() {
  std::vector<std::string> names;
  for (auto const& k : ladder_kernels()) names.push_back(k.first);
  names.push_back("thrust::reduce");
  return names;
}

void ladder(nvbench::state& state) {
  auto& input = input_of<int>(state.get_int64("Elements"));
  auto& in = *input.in;
  std::string const kernel = state.get_string("Kernel");
  if (kernel == "thrust::reduce") {
    // thrust::reduce returns its result to the host: NVBench times it synchronously (no batch), and
    // cascade's hot, which queues a call behind a spin kernel, does not apply.
    thrust::device_ptr<int> p(in.d);
    int const got = thrust::reduce(thrust::device, p, p + in.n, 0, cascade::plus{});
    if (got != input.cub_result) {
      cascade_nvbench::disagree(state, "thrust::reduce: " + text(got) + ", CUB " + text(input.cub_result));
      return;
    }
    state.add_element_count(in.n);
    state.add_global_memory_reads<int>(in.n);
    state.exec(nvbench::exec_tag::sync, [&](nvbench::launch& launch) {
      thrust::reduce(thrust::cuda::par.on(launch.get_stream()), p, p + in.n, 0, cascade::plus{});
    });
    return;
  }
  for (auto const& k : ladder_kernels())
    if (k.first == kernel) return check_and_time(state, kernel, input, [&](cudaStream_t s) { k.second(in, s); });
  state.skip("no kernel " + kernel);
}

// A tree's name without "tree::", as the Tree axis names it.
template <class Tree>
std::string short_name() {
  return std::string(Tree::name).substr(std::string("tree::").size());
}

// The names of the trees this program was compiled with (cascade/tree/all.cuh).
std::vector<std::string> tree_names() {
  std::vector<std::string> names;
  cascade::detail::for_each_type(cascade::tree::compiled{},
                                 [&](auto tree) { names.push_back(short_name<decltype(tree)>()); });
  return names;
}

template <class T, class Tree, int Coarse>
void tree_sum(device_input<T>& in, cudaStream_t stream) {
  // tree::none pairs only with finish::atomic
  using Finish = std::conditional_t<Tree::per_thread_results, cascade::finish::atomic, cascade::finish::recursive>;
  cascade::reduce_into(cascade::policy<256, Coarse, Tree, Finish>{}.on(stream), in.d, in.d + in.n, in.d_out, T(0),
                       cascade::plus{});
}

template <class T>
void trees(nvbench::state& state, nvbench::type_list<T>) {
  auto& input = input_of<T>(state.get_int64("Elements"));
  auto& in = *input.in;
  std::string const name = state.get_string("Tree");
  auto const coarse = state.get_int64("Coarse");
  bool found = false;
  cascade::detail::for_each_type(cascade::tree::compiled{}, [&](auto tree) {
    using Tree = decltype(tree);
    if (found || short_name<Tree>() != name) return;
    found = true;
    // Sequential float atomics (tree::none) lose small addends once the sum is large: their sum
    // differs from CUB's by design (docs/strategies.md), so it is timed unchecked.
    bool const inexact = Tree::per_thread_results && std::is_floating_point_v<T>;
    std::string const what = "tree::" + name + " <256, " + std::to_string(coarse) + ">";
    if (coarse == 1) check_and_time(state, what, input, [&](cudaStream_t s) { tree_sum<T, Tree, 1>(in, s); }, inexact);
    else if (coarse == 8)
      check_and_time(state, what, input, [&](cudaStream_t s) { tree_sum<T, Tree, 8>(in, s); }, inexact);
    else state.skip("coarse factors 1 and 8 only");
  });
  if (!found) state.skip("no tree " + name);
}

}  // namespace

// Registered as NVBENCH_BENCH would, with cascade's measurement settings (support/nvbench_program.cuh).
NVBENCH_DEFINE_CALLABLE(ladder, ladder_callable);
NVBENCH_DEFINE_CALLABLE_TEMPLATE(trees, trees_callable);

[[maybe_unused]] nvbench::benchmark_base& ladder_benchmark = cascade_nvbench::cascade_settings(
    nvbench::benchmark_manager::get()
        .add(std::make_unique<nvbench::benchmark<ladder_callable>>())
        .set_name("ladder")
        .add_string_axis("Kernel", ladder_names())
        .add_int64_power_of_two_axis("Elements", {22, 28}));

[[maybe_unused]] nvbench::benchmark_base& trees_benchmark = cascade_nvbench::cascade_settings(
    nvbench::benchmark_manager::get()
        .add(std::make_unique<nvbench::benchmark<trees_callable, nvbench::type_list<nvbench::type_list<int, float>>>>())
        .set_name("trees")
        .set_type_axes_names({"T"})
        .add_string_axis("Tree", tree_names())
        .add_int64_axis("Coarse", {1, 8})
        .add_int64_power_of_two_axis("Elements", {22, 28}));
