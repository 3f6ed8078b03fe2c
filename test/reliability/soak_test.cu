// Concurrency soak: 8 host threads, each with two streams of its own and a finishing strategy of its
// own (default_policy for one), reduce for CASCADE_SOAK_SECONDS (default 10) s, to device memory on
// one stream and to the host on the other, and replay a graph each captured at its start (reduce_into
// over a buffer of its own, refilled with other items before every replay), checking every result.
// Meanwhile a ninth thread keeps a third kind of work going: one-SM kernels of 25 ms back to back on
// its own stream; no reduction may wait for them (none of these finishes does, docs/streams.md), so no
// call may take as long as one of them, except finish::host's, reported instead (its host functions
// wait beside this many busy streams; docs/streams.md, Concurrency). Afterwards the inputs are unchanged and the device memory
// in use is what it was before. Then stream churn: streams made, used and destroyed by the hundred
// must not grow device memory without bound.
#include <doctest/doctest.h>

#include <cascade/cascade.cuh>
#include <cascade/tree/cub_block.cuh>
#include <cascade/detail/runtime/scratch.cuh>
#include <cascade/detail/runtime/stream_state.cuh>
#include <thrust/device_vector.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "support/busy.cuh"
#include "support/device_memory.cuh"
#include "support/seed.hpp"

namespace {

// 17 streams are busy at once here; CUDA maps streams onto CUDA_DEVICE_MAX_CONNECTIONS hardware queues
// (8 by default), and a stream sharing a queue with the busy kernels' stream waits behind them (seen on
// an H100: 1-7 calls of 25 ms a thread in 10 s). Set before CUDA starts; a value given outside wins.
[[maybe_unused]] int const connections = setenv("CUDA_DEVICE_MAX_CONNECTIONS", "32", 0);

using namespace cascade_test;
namespace tree = cascade::tree;
namespace finish = cascade::finish;

struct input {
  std::vector<int> host;
  thrust::device_vector<int> device;
  long long sum = 0;
  int low = 0;
};

struct tally {
  long long calls = 0, wrong = 0, replays = 0;
  double slowest_ms = 0;  // the longest reduce_into + reduce (or replay), start to result
  std::chrono::steady_clock::time_point slowest_at{};  // when it began
  bool slowest_was_replay = false;
  long long slow_calls = 0;  // calls (or replays) that took 25 ms or more: as long as a busy kernel
};

constexpr long long graph_items = 65537;  // what each thread's captured graph reduces

// Captures reduce_into over `items` (graph_items of them) on `stream`.
template <class T>
T* pinned_slot() {
  T* p = nullptr;
  CASCADE_CUDA_CHECK(cudaMallocHost(&p, sizeof(T)));
  return p;
}

template <class Policy>
cudaGraphExec_t capture_graph(Policy policy, int const* items, long long* d_out, cudaStream_t stream) {
  // thread-local: the other threads go on with calls that a global-mode capture would forbid them
  CASCADE_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  cascade::reduce_into(policy.on(stream), items, items + graph_items, d_out, 11ll, cascade::plus{});
  cudaGraph_t graph = nullptr;
  CASCADE_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec = nullptr;
  CASCADE_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CASCADE_CUDA_CHECK(cudaGraphDestroy(graph));
  CASCADE_CUDA_CHECK(cudaGraphUpload(exec, stream));  // the first launch's set-up, not timed with the calls
  CASCADE_CUDA_CHECK(cudaStreamSynchronize(stream));
  return exec;
}

// One thread's work: round after round over every input, a reduce_into (plus) on one stream and a
// reduce (minimum) to the host on the other, each result checked.
// One thread's graph: reduce_into over its own buffer, captured, instantiated and uploaded before the
// runs (cudaMalloc, cudaFree and instantiation may wait for the device, and would be timed otherwise).
struct thread_graph {
  thrust::device_vector<int> items = thrust::device_vector<int>(graph_items);
  cudaGraphExec_t exec = nullptr;
  // Results come back into page-locked memory: a copy into pageable memory is staged through a
  // buffer the driver shares among threads, so one thread's copy waiting behind a busy kernel would
  // hold up every other thread's (the test's own stall, not cascade's).
  long long* got = pinned_slot<long long>();
  ~thread_graph() {
    (void)cudaGraphExecDestroy(exec);
    (void)cudaFreeHost(got);
  }
};

void note_time(tally& t, std::chrono::steady_clock::time_point start, bool replay) {
  double const ms = ms_since(start);
  t.slow_calls += ms >= 25;
  if (ms > t.slowest_ms) t.slowest_ms = ms, t.slowest_at = start, t.slowest_was_replay = replay;
}

std::size_t graph_memory_bytes() {  // what the driver holds for graph memory nodes (captured scratch)
  int device = 0;
  CASCADE_CUDA_CHECK(cudaGetDevice(&device));
  std::uint64_t bytes = 0;
  CASCADE_CUDA_CHECK(cudaDeviceGetGraphMemAttribute(device, cudaGraphMemAttrReservedMemCurrent, &bytes));
  return static_cast<std::size_t>(bytes);
}

template <class Policy>
void work(Policy policy, std::vector<input> const& inputs, cudaStream_t a, cudaStream_t b, long long* d_out,
          thread_graph& g, std::chrono::steady_clock::time_point until, tally& t) {
  input const& big = inputs.back();  // the source of the graph's items, a window further each replay
  int* const items = thrust::raw_pointer_cast(g.items.data());
  long long* const d_graph_out = d_out + 8;
  if (g.exec == nullptr) g.exec = capture_graph(policy, items, d_graph_out, a);
  cudaGraphExec_t const exec = g.exec;
  long long window = static_cast<long long>(t.calls) % 1000;
  do {
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      int const* p = thrust::raw_pointer_cast(inputs[i].device.data());
      long long const n = static_cast<long long>(inputs[i].host.size());
      long long const init = static_cast<long long>(t.calls % 1000);
      auto const start = std::chrono::steady_clock::now();
      cascade::reduce_into(policy.on(a), p, p + n, d_out, init, cascade::plus{});
      int const low = cascade::reduce(policy.on(b), p, p + n, INT_MAX, cascade::minimum{});
      CASCADE_CUDA_CHECK(cudaMemcpyAsync(g.got, d_out, sizeof(long long), cudaMemcpyDeviceToHost, a));
      CASCADE_CUDA_CHECK(cudaStreamSynchronize(a));
      long long const got = *g.got;
      note_time(t, start, false);
      t.wrong += (got != inputs[i].sum + init) + (low != inputs[i].low);
      t.calls += 2;
    }
    // the graph, over the next window of the big input
    window = (window + 7919) % (static_cast<long long>(big.host.size()) - graph_items);
    long long expected = 11;
    for (long long k = 0; k < graph_items; ++k) expected += big.host[window + k];
    auto const start = std::chrono::steady_clock::now();
    CASCADE_CUDA_CHECK(cudaMemcpyAsync(items, thrust::raw_pointer_cast(big.device.data()) + window,
                                       sizeof(int) * graph_items, cudaMemcpyDeviceToDevice, a));
    CASCADE_CUDA_CHECK(cudaGraphLaunch(exec, a));
    CASCADE_CUDA_CHECK(cudaMemcpyAsync(g.got, d_graph_out, sizeof(long long), cudaMemcpyDeviceToHost, a));
    CASCADE_CUDA_CHECK(cudaStreamSynchronize(a));
    long long const got = *g.got;
    note_time(t, start, true);
    t.wrong += got != expected;
    ++t.replays;
  } while (std::chrono::steady_clock::now() < until);
}

}  // namespace

TEST_SUITE("gpu") {

TEST_CASE("8 host threads x 2 streams, a finish each, for 10 s: every result right, memory as before") {
  CASCADE_SEED_INFO();
  double const seconds = std::getenv("CASCADE_SOAK_SECONDS") ? std::atof(std::getenv("CASCADE_SOAK_SECONDS")) : 10.0;
  std::mt19937_64 rng(base_seed() ^ 0x50a4);
  std::uniform_int_distribution<int> ints(-1000000, 1000000);
  std::vector<input> inputs;
  for (long long n : {1ll, 777ll, 4096ll, 65537ll, 1000003ll, (1ll << 22) + 5,
                      std::uniform_int_distribution<long long>(2, 1 << 20)(rng)}) {
    input in;
    in.host.resize(n);
    in.low = INT_MAX;
    for (auto& x : in.host) {
      x = ints(rng);
      in.sum += x;
      in.low = x < in.low ? x : in.low;
    }
    in.device = in.host;
    inputs.push_back(std::move(in));
  }

  constexpr int threads = 8;
  constexpr int host_thread = 6;  // the thread of finish::host (the switch below)
  std::vector<cudaStream_t> streams(2 * threads);
  for (auto& s : streams) CASCADE_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  long long* d_out = nullptr;
  CASCADE_CUDA_CHECK(cudaMalloc(&d_out, 2 * threads * sizeof(long long)));  // [reduce_into | graph] a thread
  cudaStream_t busy = nullptr;
  CASCADE_CUDA_CHECK(cudaStreamCreateWithFlags(&busy, cudaStreamNonBlocking));
  int* busy_done = nullptr;
  CASCADE_CUDA_CHECK(cudaMalloc(&busy_done, sizeof(int)));
  int* const busy_got = pinned_slot<int>();  // page-locked: see thread_graph
  double const busy_ms = 25;
  long long busy_kernels = 0, busy_wrong = 0;

  std::vector<thread_graph> graphs(threads);  // captured in the warm round, replayed in both
  auto run = [&](std::chrono::steady_clock::time_point until, std::vector<tally>& tallies, bool other_work) {
    std::vector<std::thread> pool;
    if (other_work)
      pool.emplace_back([&] {
        do {
          int const token = static_cast<int>(busy_kernels % 1000);
          launch_busy(busy_ms, busy_done, token, busy);
          CASCADE_CUDA_CHECK(cudaMemcpyAsync(busy_got, busy_done, sizeof(int), cudaMemcpyDeviceToHost, busy));
          CASCADE_CUDA_CHECK(cudaStreamSynchronize(busy));
          int const got = *busy_got;
          busy_wrong += got != token;
          ++busy_kernels;
        } while (std::chrono::steady_clock::now() < until);
      });
    for (int t = 0; t < threads; ++t) {
      pool.emplace_back([&, t] {
        cudaStream_t const a = streams[2 * t], b = streams[2 * t + 1];
        long long* const out = d_out + t;  // the graph writes out + 8
        switch (t) {
          case 0: work(cascade::default_policy{}, inputs, a, b, out, graphs[t], until, tallies[t]); break;
          case 1: work(cascade::policy<256, 16, tree::sequential, finish::last_block>{}, inputs, a, b, out, graphs[t], until, tallies[t]); break;
          case 2: work(cascade::policy<512, 4, tree::shuffle, finish::flagged>{}, inputs, a, b, out, graphs[t], until, tallies[t]); break;
          case 3: work(cascade::policy<128, 8, cascade::compiled_or_t<tree::redux, tree::shuffle>, finish::two_pass>{}, inputs, a, b, out, graphs[t], until, tallies[t]); break;
          case 4: work(cascade::policy<256, 2, tree::interleaved, finish::recursive>{}, inputs, a, b, out, graphs[t], until, tallies[t]); break;
          case 5: work(cascade::policy<1024, 4, tree::cub_block, finish::atomic>{}, inputs, a, b, out, graphs[t], until, tallies[t]); break;
          case 6: work(cascade::policy<64, 8, tree::unrolled, finish::host>{}, inputs, a, b, out, graphs[t], until, tallies[t]); break;
          default: work(cascade::policy<256, 8, tree::shuffle, cascade::compiled_or_t<finish::cluster, finish::last_block>>{}, inputs, a, b, out, graphs[t], until, tallies[t]); break;
        }
      });
    }
    for (auto& th : pool) th.join();
  };

  // A second of warm-up, busy kernels included, as the run: kernels loaded, every stream's state made,
  // the graphs captured and uploaded, and the scratch pool grown to what 8 threads beside them take:
  // growing it maps memory, which waits for the device (seen on an H100 as one 25 ms stall per thread,
  // and 32 MiB more in use, when the warm-up was one round without the busy kernels).
  // Free memory is measured with the scratch pool trimmed, so half a second more warm-up grows the
  // pool again before the timed run.
  std::vector<tally> warm(threads), rewarm(threads);
  run(std::chrono::steady_clock::now() + std::chrono::seconds(1), warm, true);
  std::size_t const before = free_device_bytes();
  std::size_t const graph_before = graph_memory_bytes();
  run(std::chrono::steady_clock::now() + std::chrono::milliseconds(500), rewarm, true);
  std::size_t const pool_before = cascade::detail::scratch_reserved_bytes();
  busy_kernels = 0;  // the run's alone in the figures
  std::vector<tally> tallies(threads);
  auto const start = std::chrono::steady_clock::now();
  run(start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds)),
      tallies, true);
  double const took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::size_t const pool_after = cascade::detail::scratch_reserved_bytes();
  std::size_t const after = free_device_bytes();
  std::size_t const graph_after = graph_memory_bytes();

  long long calls = 0, wrong = 0, replays = 0;
  double slowest = 0;
  for (int t = 0; t < threads; ++t) {
    CAPTURE(t);
    INFO("slowest ", tallies[t].slowest_ms, " ms (", std::string(tallies[t].slowest_was_replay ? "a graph replay" : "reduce_into + reduce"),
         ") ", std::chrono::duration<double>(tallies[t].slowest_at - start).count(), " s into the run; ",
         tallies[t].slow_calls, " calls of 25 ms or more");
    CHECK(tallies[t].wrong == 0);
    CHECK(tallies[t].calls > 0);
    CHECK(tallies[t].replays > 0);
    // no call waited for a whole busy kernel; finish::host's calls are reported instead: its host
    // functions waited beside these 16 streams (docs/streams.md, Concurrency: cause not yet measured)
    if (t != host_thread) CHECK(tallies[t].slowest_ms < busy_ms);
    replays += tallies[t].replays;
    if (t != host_thread) slowest = std::max(slowest, tallies[t].slowest_ms);
    CHECK(warm[t].wrong + rewarm[t].wrong == 0);
    calls += tallies[t].calls, wrong += tallies[t].wrong;
  }
  CHECK(took >= seconds);
  CHECK(busy_kernels > 0);
  CHECK(busy_wrong == 0);
  CHECK(after == before);
  CHECK(cascade::detail::scratch_used_bytes() == 0);
  for (auto const& in : inputs) {
    std::vector<int> now(in.host.size());
    thrust::copy(in.device.begin(), in.device.end(), now.begin());
    CHECK(now == in.host);
  }
  CASCADE_CUDA_CHECK(cudaFree(d_out));
  CASCADE_CUDA_CHECK(cudaFree(busy_done));
  CASCADE_CUDA_CHECK(cudaFreeHost(busy_got));
  CASCADE_CUDA_CHECK(cudaStreamDestroy(busy));
  for (auto s : streams) CASCADE_CUDA_CHECK(cudaStreamDestroy(s));
  MESSAGE("[figures] soak: ", threads, " threads x 2 streams, ", took, " s, ", calls, " calls and ", replays,
          " graph replays, ", wrong, " wrong, beside ", busy_kernels, " busy kernels of ", busy_ms,
          " ms on another stream (slowest call ", slowest, " ms; finish::host's ", tallies[host_thread].slowest_ms, " ms, ",
          tallies[host_thread].slow_calls, " of its calls 25 ms or more); device memory in use after - before: ",
          static_cast<long long>(before) - static_cast<long long>(after), " bytes (scratch pool ", pool_before >> 20,
          " MiB at the start, ", pool_after >> 20, " MiB at the end; graph memory ", graph_before >> 20, " MiB before, ",
          graph_after >> 20, " MiB after)");
}

TEST_CASE("stream churn: streams made and destroyed by the hundred do not grow device memory without bound") {
  thrust::device_vector<int> d((1 << 20) + 3, 2);
  int const* p = thrust::raw_pointer_cast(d.data());
  long long const n = static_cast<long long>(d.size());
  using flagged = cascade::policy<256, 4, tree::shuffle, finish::flagged>;
  using last_block = cascade::policy<256, 4, tree::shuffle, finish::last_block>;
  auto churn = [&](int count) {
    long long wrong = 0;
    for (int i = 0; i < count; ++i) {
      cudaStream_t s = nullptr;
      CASCADE_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
      wrong += cascade::reduce(flagged{}.on(s), p, p + n, 1) != 2 * n + 1;
      wrong += cascade::reduce(last_block{}.on(s), p, p + n, 1) != 2 * n + 1;
      wrong += cascade::reduce(flagged{}.on(s), p, p + n, 3) != 2 * n + 3;  // again: the state (or scratch) reset
      CASCADE_CUDA_CHECK(cudaStreamDestroy(s));
    }
    return wrong;
  };
  std::size_t const start = free_device_bytes();
  CHECK(churn(static_cast<int>(cascade::detail::stream_state::max_streams) + 36) == 0);
  std::size_t const filled = free_device_bytes();
  CHECK(churn(300) == 0);  // every state is taken by now: these use scratch
  std::size_t const after = free_device_bytes();
  CHECK(after == filled);
  std::size_t const cap = cascade::detail::stream_state::max_streams * cascade::detail::stream_state_impl::block_bytes;
  CHECK(start - filled <= cap + (2u << 20));  // the driver's granules
  MESSAGE("[figures] churn: ", cascade::detail::stream_state::max_streams + 336,
          " streams made and destroyed; the first took ", (start - filled) >> 10,
          " KiB for stream states (cap ", cap >> 10, " KiB), the last 300 took ",
          static_cast<long long>(filled) - static_cast<long long>(after), " bytes");
}

}  // TEST_SUITE("gpu")
