// Graphs and concurrent streams (docs/streams.md, "Graphs" and "Concurrency"):
// - every finish captured into a graph replays 1000 times, with its input changed between replays,
//   beside a second graph of the same policy replaying on another stream, one graph destroyed before
//   its first replay and the other after its last, captured both before and after the policy's first
//   uncaptured call in this process (finish::host's graph state once depended on that history);
// - reduce() to the host on a capturing stream is refused with std::logic_error, and the capture
//   stays valid;
// - cascade's first allocations work while another thread captures in the default (global) mode;
// - beside a kernel that keeps another stream busy, a prepared call of every finish returns while
//   that kernel still runs, except finish::cooperative, which is documented to wait for it.
#include <doctest/doctest.h>

#include <cascade/cascade.cuh>
#include <thrust/device_vector.h>

#include <chrono>
#include <cstdlib>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <vector>

#include "support/busy.cuh"
#include "support/capture.cuh"
#include "support/seed.hpp"

namespace {

using namespace cascade_test;
namespace tree = cascade::tree;
namespace finish = cascade::finish;

template <class Finish, class Tree = tree::shuffle>
using pol = cascade::policy<256, 4, Tree, Finish>;

// Every finish of the registry with tree::shuffle, tree::none with each finish that takes per-thread
// values, and default_policy. host first: the process's very first capture then meets an empty
// page-locked cache.
template <class Finish>
struct not_host : std::bool_constant<!std::is_same_v<Finish, finish::host>> {};
template <class Finish>
struct takes_per_thread : std::bool_constant<Finish::accepts_per_thread_results> {};
template <int B, int C, class... Fs, class... Ps>
std::tuple<cascade::policy<B, C, tree::shuffle, finish::host>, cascade::policy<B, C, tree::shuffle, Fs>...,
           cascade::policy<B, C, tree::none, Ps>..., cascade::default_policy>
    every_finish_impl(cascade::detail::type_list<Fs...>, cascade::detail::type_list<Ps...>);
template <int B, int C>
using every_finish = decltype(every_finish_impl<B, C>(cascade::detail::filter_t<finish::compiled, not_host>{},
                                                      cascade::detail::filter_t<finish::compiled, takes_per_thread>{}));

template <class P>
constexpr bool waits_for_other_streams() {
  if constexpr (std::is_same_v<P, cascade::default_policy>) return false;
  else return P::finish_type::waits_for_other_streams;
}

long long sum_of(std::vector<int> const& xs) {
  long long s = 0;
  for (int x : xs) s += x;
  return s;
}

}  // namespace

TEST_SUITE("gpu") {

TEST_CASE_TEMPLATE_DEFINE("captured: 1000 replays, input changed between them, two graphs of one policy at once", P,
                          captured_replays) {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0xc0de);
  std::uniform_int_distribution<int> ints(-1000, 1000);
  long long const n = 300007;  // several tiles under every policy of the list
  std::vector<int> ha(n), hb(n);
  for (auto& x : ha) x = ints(rng);
  for (auto& x : hb) x = ints(rng);
  thrust::device_vector<int> da(ha.begin(), ha.end()), db(hb.begin(), hb.end());
  int* const pa = thrust::raw_pointer_cast(da.data());
  int* const pb = thrust::raw_pointer_cast(db.data());
  thrust::device_vector<long long> out(4, -1);  // [guard | a | guard | b]
  long long* const o = thrust::raw_pointer_cast(out.data());
  streams s;

  // graph a: captured before this policy's first uncaptured call
  std::string failure;
  cudaGraph_t ga = capture(s.a, [&] { cascade::reduce_into(P{}.on(s.a), pa, pa + n, o + 1, 7ll, cascade::plus{}); },
                           failure);
  REQUIRE_MESSAGE(failure.empty(), failure);
  // uncaptured calls, to the device and to the host
  cascade::reduce_into(P{}.on(s.a), pa, pa + n, o + 1, 5ll, cascade::plus{});
  CHECK(cascade::reduce(P{}.on(s.b), pb, pb + n, 0ll, cascade::plus{}) == sum_of(hb));
  CASCADE_CUDA_CHECK(cudaStreamSynchronize(s.a));
  CHECK(out[1] == sum_of(ha) + 5);
  // graph b: captured after them
  cudaGraph_t gb = capture(s.b, [&] { cascade::reduce_into(P{}.on(s.b), pb, pb + n, o + 3, 9ll, cascade::plus{}); },
                           failure);
  REQUIRE_MESSAGE(failure.empty(), failure);

  cudaGraphExec_t ea = nullptr, eb = nullptr;
  CASCADE_CUDA_CHECK(cudaGraphInstantiate(&ea, ga, 0));
  CASCADE_CUDA_CHECK(cudaGraphInstantiate(&eb, gb, 0));
  CASCADE_CUDA_CHECK(cudaGraphDestroy(ga));  // a's graph goes before its first replay; b's after its last

  long long sa = sum_of(ha), sb = sum_of(hb);
  std::uniform_int_distribution<long long> where(0, n - 1);
  int wrong = 0;
  long long got[4];
  int const replays = std::getenv("CASCADE_TEST_REPLAYS") ? std::atoi(std::getenv("CASCADE_TEST_REPLAYS")) : 1000;
  for (int replay = 0; replay < replays; ++replay) {
    // change one item of each input, ordered before the replay on its stream
    long long const ka = where(rng), kb = where(rng);
    int const va = ints(rng), vb = ints(rng);
    sa += va - ha[ka], ha[ka] = va;
    sb += vb - hb[kb], hb[kb] = vb;
    CASCADE_CUDA_CHECK(cudaMemcpyAsync(pa + ka, &va, sizeof(int), cudaMemcpyHostToDevice, s.a));
    CASCADE_CUDA_CHECK(cudaMemcpyAsync(pb + kb, &vb, sizeof(int), cudaMemcpyHostToDevice, s.b));
    CASCADE_CUDA_CHECK(cudaGraphLaunch(ea, s.a));
    CASCADE_CUDA_CHECK(cudaGraphLaunch(eb, s.b));
    CASCADE_CUDA_CHECK(cudaStreamSynchronize(s.a));
    CASCADE_CUDA_CHECK(cudaStreamSynchronize(s.b));
    CASCADE_CUDA_CHECK(cudaMemcpy(got, o, sizeof got, cudaMemcpyDeviceToHost));
    wrong += (got[1] != sa + 7) + (got[3] != sb + 9) + (got[0] != -1) + (got[2] != -1);
  }
  CHECK(wrong == 0);
  // a's executable graph destroyed (its host state with it, for finish::host): b still replays right
  CASCADE_CUDA_CHECK(cudaGraphExecDestroy(ea));
  CASCADE_CUDA_CHECK(cudaGraphLaunch(eb, s.b));
  CASCADE_CUDA_CHECK(cudaStreamSynchronize(s.b));
  CHECK(out[3] == sb + 9);
  CASCADE_CUDA_CHECK(cudaGraphExecDestroy(eb));
  CASCADE_CUDA_CHECK(cudaGraphDestroy(gb));
  // and the policy still works uncaptured afterwards
  CHECK(cascade::reduce(P{}.on(s.a), pa, pa + n, 1ll, cascade::plus{}) == sa + 1);
}

TEST_CASE("reduce() to the host on a capturing stream: std::logic_error, and the capture stays valid") {
  std::vector<int> xs(100003);
  for (std::size_t i = 0; i < xs.size(); ++i) xs[i] = static_cast<int>(i % 7) - 3;
  thrust::device_vector<int> d(xs.begin(), xs.end());
  int const* p = thrust::raw_pointer_cast(d.data());
  thrust::device_vector<long long> out(1, 0);
  long long* const o = thrust::raw_pointer_cast(out.data());
  streams s;
  bool refused = false;
  std::string message, failure;
  cudaGraph_t graph = capture(
      s.a,
      [&] {
        try {
          (void)cascade::reduce(pol<finish::flagged>{}.on(s.a), p, p + xs.size(), 0ll, cascade::plus{});
        } catch (std::logic_error const& e) {
          refused = true;
          message = e.what();
        }
        cascade::reduce_into(pol<finish::flagged>{}.on(s.a), p, p + xs.size(), o, 2ll, cascade::plus{});
      },
      failure);
  CHECK(refused);
  CHECK(message.find("reduce_into") != std::string::npos);
  REQUIRE_MESSAGE(failure.empty(), failure);
  cudaGraphExec_t exec = nullptr;
  CASCADE_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CASCADE_CUDA_CHECK(cudaGraphLaunch(exec, s.a));
  CASCADE_CUDA_CHECK(cudaStreamSynchronize(s.a));
  CHECK(out[0] == sum_of(xs) + 2);
  CASCADE_CUDA_CHECK(cudaGraphExecDestroy(exec));
  CASCADE_CUDA_CHECK(cudaGraphDestroy(graph));
}

TEST_CASE("while another thread captures in global mode, prepared first calls that allocate work") {
  std::vector<int> xs(1 << 20);
  for (std::size_t i = 0; i < xs.size(); ++i) xs[i] = static_cast<int>(i % 11) - 5;
  thrust::device_vector<int> d(xs.begin(), xs.end());
  int const* p = thrust::raw_pointer_cast(d.data());
  thrust::device_vector<double> dd(xs.begin(), xs.end());
  double const* pd = thrust::raw_pointer_cast(dd.data());
  streams capturing, mine;  // mine: fresh streams, so their per-stream state is made now
  using flagged_policy = cascade::policy<512, 5, tree::shuffle, finish::flagged>;
  using host_policy = cascade::policy<32, 1, tree::shuffle, finish::host>;
  // Loaded first: loading a kernel is one of the calls a global-mode capture forbids other threads.
  cascade::prepare(flagged_policy{}, p, p + xs.size(), 0ll, cascade::plus{});
  cascade::prepare(host_policy{}, pd, pd + dd.size(), 0.0, cascade::plus{});
  CASCADE_CUDA_CHECK(cudaStreamBeginCapture(capturing.a, cudaStreamCaptureModeGlobal));
  long long flagged = 0;
  double host = 0;
  std::string failure;
  std::thread other([&] {
    try {
      flagged = cascade::reduce(flagged_policy{}.on(mine.a), p, p + xs.size(), 0ll, cascade::plus{});
      // a grid of many small blocks: a page-locked block larger than any cached one
      host = cascade::reduce(host_policy{}.on(mine.b), pd, pd + dd.size(), 0.0, cascade::plus{});
    } catch (std::exception const& e) {
      failure = e.what();
    }
  });
  other.join();
  cudaGraph_t graph = nullptr;
  cudaError_t const ended = cudaStreamEndCapture(capturing.a, &graph);
  CHECK_MESSAGE(failure.empty(), failure);
  CHECK(ended == cudaSuccess);
  if (graph != nullptr) CASCADE_CUDA_CHECK(cudaGraphDestroy(graph));
  CHECK(flagged == sum_of(xs));
  CHECK(host == static_cast<double>(sum_of(xs)));
}

TEST_CASE_TEMPLATE_DEFINE("beside a busy stream, a prepared call returns while the other kernel runs (cooperative waits)",
                          P, beside_busy) {
  long long const n = 1000003;
  std::vector<int> xs(n);
  for (long long i = 0; i < n; ++i) xs[i] = static_cast<int>(i % 13) - 6;
  thrust::device_vector<int> d(xs.begin(), xs.end());
  int const* p = thrust::raw_pointer_cast(d.data());
  thrust::device_vector<long long> out(1, 0);
  thrust::device_vector<int> done(1, 0);
  streams s;
  cascade::prepare(P{}.on(s.a), p, p + n, 0ll, cascade::plus{});  // these shapes appear nowhere else here
  CASCADE_CUDA_CHECK(cudaDeviceSynchronize());

  double const busy_ms = 300;
  launch_busy(busy_ms, thrust::raw_pointer_cast(done.data()), 17, s.b);
  auto const start = std::chrono::steady_clock::now();
  cascade::reduce_into(P{}.on(s.a), p, p + n, thrust::raw_pointer_cast(out.data()), 3ll, cascade::plus{});
  long long const to_host = cascade::reduce(P{}.on(s.a), p, p + n, 4ll, cascade::plus{});
  CASCADE_CUDA_CHECK(cudaStreamSynchronize(s.a));
  double const took = ms_since(start);
  cudaError_t const other = cudaStreamQuery(s.b);
  CASCADE_CUDA_CHECK(cudaStreamSynchronize(s.b));
  MESSAGE("[figures] beside a ", busy_ms, " ms kernel, a prepared reduce_into + reduce took ", took, " ms (",
          std::string(typeid(P).name()), ")");
  if (!timing_checks()) {
  } else if constexpr (waits_for_other_streams<P>()) {
    CHECK(other == cudaSuccess);  // its grid fills the device: it waited for the busy kernel, as documented
  } else {
    CHECK(other == cudaErrorNotReady);
    CHECK(took < busy_ms / 2);
  }
  CHECK(out[0] == sum_of(xs) + 3);
  CHECK(to_host == sum_of(xs) + 4);
  CHECK(done[0] == 17);
}

TEST_CASE_TEMPLATE_APPLY(captured_replays, every_finish<256, 4>);
TEST_CASE_TEMPLATE_APPLY(beside_busy, every_finish<128, 3>);

}  // TEST_SUITE("gpu")
