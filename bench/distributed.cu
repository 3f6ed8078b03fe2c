// cascade-distributed: the distributed reduce (cascade/distributed.cuh) on 1, 2, 4, ... of the visible
// GPUs, one process driving them all (communicator::init_all, the collectives in one NCCL group), with
// 2^26 .. 2^32 floats per GPU. For each number of ranks and size, in alternating runs, two medians:
// GPU time (hot, as the one-GPU benches take it: every rank's stream is held by one gate kernel while
// the host enqueues the call and released at once, and the call's time is the longest rank's, between
// CUDA events on its stream, the collective's waits included), and the host wall time from the first enqueue until every
// GPU's stream is done, the device idle before (the launch-included figure). The data is hot, but at
// these sizes far beyond L2, so every run reads it from memory. The contenders: the local reduce
// alone; collective::nvlink (where the ranks have its window), all_reduce and all_gather; a custom op
// (automatic: nvlink where it can, else the all-gather); NCCL's all-reduce and all-gather of one float
// alone. Weak scaling: time per call as ranks grow at fixed items per GPU (efficiency t(1) / t(N)); strong
// scaling: ranks x items per GPU fixed (rows with the same total). A summary at the end gives, per size,
// the weak-scaling efficiency of each contender (GPU time) and the collective's share of the call. Each result is checked against the
// total of the local sums, on every rank. NCCL_NVLS_ENABLE=0 is set here, as the GPU machines require.
//
//   cascade-distributed [--out FILE] [--commit SHA] [--driver VERSION] [--ranks 1,2,4] [--log2-items 26,28,30,32]
#include <cascade/distributed.cuh>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "measure/env.cuh"
#include "measure/fill.cuh"
#include "measure/timer.cuh"

namespace {

struct custom_sum {  // a functor NCCL has no op for: the all-gather path
  __host__ __device__ float operator()(float a, float b) const { return a + b; }
};

using policy = cascade::default_policy;

double wall_us(std::function<void()> const& run, std::vector<cascade::communicator> const& comms) {
  for (auto const& c : comms) {  // the device idle first: the time includes the host's launches
    cascade::detail::scoped_device on(c.device());
    CASCADE_CUDA_CHECK(cudaStreamSynchronize(c.stream()));
  }
  auto const start = std::chrono::steady_clock::now();
  run();
  for (auto const& c : comms) {
    cascade::detail::scoped_device on(c.device());
    CASCADE_CUDA_CHECK(cudaStreamSynchronize(c.stream()));
  }
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
}

// GPU time of one call over every rank: every stream held by one gate kernel while the host enqueues,
// the gate opened for all at once (so launch skew between the GPUs does not count, as the launch does
// not in a one-GPU hot time), CUDA events around the call on each rank's stream, the longest rank's.
class gpu_timer {
 public:
  explicit gpu_timer(std::vector<cascade::communicator> const& comms) : comms_(comms) {
    CASCADE_CUDA_CHECK(cudaHostAlloc(&words_, 2 * sizeof(unsigned), cudaHostAllocMapped | cudaHostAllocPortable));
    for (auto const& c : comms_) {
      cascade::detail::scoped_device on(c.device());
      cudaEvent_t a{}, b{};
      CASCADE_CUDA_CHECK(cudaEventCreate(&a));
      CASCADE_CUDA_CHECK(cudaEventCreate(&b));
      start_.push_back(a), stop_.push_back(b);
    }
  }
  ~gpu_timer() {
    for (std::size_t r = 0; r < comms_.size(); ++r) {
      cascade::detail::scoped_device on(comms_[r].device());
      cudaEventDestroy(start_[r]), cudaEventDestroy(stop_[r]);
    }
    cudaFreeHost(const_cast<unsigned*>(words_));
  }
  gpu_timer(gpu_timer const&) = delete;
  gpu_timer& operator=(gpu_timer const&) = delete;

  double us(std::function<void()> const& run) {
    words_[0] = 0u;  // the gate, shut
    words_[1] = 0u;  // raised if a gate gave up waiting
    for (std::size_t r = 0; r < comms_.size(); ++r) {
      cascade::detail::scoped_device on(comms_[r].device());
      CASCADE_CUDA_CHECK(cudaStreamSynchronize(comms_[r].stream()));
      cascade_bench::gate_kernel<<<1, 1, 0, comms_[r].stream()>>>(words_, 1'000'000'000ull, words_ + 1);
      CASCADE_CUDA_CHECK(cudaGetLastError());
      CASCADE_CUDA_CHECK(cudaEventRecord(start_[r], comms_[r].stream()));
    }
    run();
    float longest = 0;
    for (std::size_t r = 0; r < comms_.size(); ++r) {
      cascade::detail::scoped_device on(comms_[r].device());
      CASCADE_CUDA_CHECK(cudaEventRecord(stop_[r], comms_[r].stream()));
    }
    __atomic_store_n(const_cast<unsigned*>(words_), 1u, __ATOMIC_SEQ_CST);
    for (std::size_t r = 0; r < comms_.size(); ++r) {
      cascade::detail::scoped_device on(comms_[r].device());
      CASCADE_CUDA_CHECK(cudaEventSynchronize(stop_[r]));
      float ms = 0;
      CASCADE_CUDA_CHECK(cudaEventElapsedTime(&ms, start_[r], stop_[r]));
      longest = std::max(longest, ms);
    }
    if (words_[1] != 0u) late_ = true;
    return longest * 1e3;
  }
  bool late() const { return late_; }  // a call blocked the host while the gate held the streams

 private:
  std::vector<cascade::communicator> const& comms_;
  std::vector<cudaEvent_t> start_, stop_;
  unsigned volatile* words_ = nullptr;
  bool late_ = false;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  setenv("NCCL_NVLS_ENABLE", "0", 1);
  cascade_bench::options opts;
  std::vector<std::string> rank_list, size_list;
  int runs = 21;
  cascade_bench::cli line("cascade-distributed", "the distributed reduce on 1, 2, 4, ... GPUs of one process");
  cascade_bench::add_options(line, opts);
  line.list("--ranks", &rank_list, "numbers of ranks (GPUs) to run, each at most the visible GPUs (default 1, 2, 4, ...)")
      .list("--log2-items", &size_list, "log2 of the floats per GPU (default 26,28,30,32)")
      .option("--runs", &runs, "timed runs of each contender (alternating), median reported (default 21)");
  if (auto const status = line.parse(argc, argv)) return *status;
  if (!cascade_bench::have_gpu("cascade-distributed")) return 0;
  int devices = 0;
  CASCADE_CUDA_CHECK(cudaGetDeviceCount(&devices));
  std::vector<int> ranks_to_run, log2_sizes;
  for (auto const& r : rank_list) ranks_to_run.push_back(std::stoi(r));
  if (ranks_to_run.empty())
    for (int r = 1; r <= devices; r *= 2) ranks_to_run.push_back(r);
  for (auto const& s : size_list) log2_sizes.push_back(std::stoi(s));
  if (log2_sizes.empty()) log2_sizes = {26, 28, 30, 32};
  int nccl_version = 0;
  ncclGetVersion(&nccl_version);
  std::printf("cascade-distributed: %d GPU(s) visible, NCCL %d, %d runs each\n", devices, nccl_version, runs);
  std::printf("%5s %6s %-16s %10s %10s %10s %12s\n", "ranks", "log2 n", "contender", "GPU us", "wall us", "GB/s/GPU",
              "of local");

  std::vector<std::string> rows;
  struct timing {
    std::string name;
    int ranks, lg;
    double gpu_us;
  };
  std::vector<timing> summary;
  bool all_ok = true, late_gates = false;
  for (int nranks : ranks_to_run) {
    if (nranks > devices) {
      std::printf("skipping %d ranks: %d GPU(s) visible\n", nranks, devices);
      continue;
    }
    std::vector<int> list(nranks);
    std::iota(list.begin(), list.end(), 0);
    std::vector<cascade::communicator> comms = cascade::communicator::init_all(list);
    gpu_timer timer(comms);
    for (int lg : log2_sizes) {
      long long const n = 1ll << lg;
      std::vector<float*> data(nranks, nullptr), outs(nranks, nullptr);
      bool fits = true;
      for (int r = 0; r < nranks && fits; ++r) {
        cascade::detail::scoped_device on(r);
        std::size_t free = 0, total = 0;
        CASCADE_CUDA_CHECK(cudaMemGetInfo(&free, &total));
        fits = n * sizeof(float) + (64 << 20) < free;
        if (!fits) break;
        CASCADE_CUDA_CHECK(cudaMalloc(&data[r], n * sizeof(float)));
        CASCADE_CUDA_CHECK(cudaMalloc(&outs[r], sizeof(float)));
        cascade_measure::fill(data[r], n, 0xD157ull + r);
        CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
      }
      if (!fits) {
        std::printf("skipping 2^%d floats per GPU: too little memory\n", lg);
      } else {
        std::vector<cascade::shard<float const*>> shards;
        for (int r = 0; r < nranks; ++r) shards.push_back({data[r], data[r] + n});
        std::vector<float*> slots(nranks);  // NCCL alone: one float per rank (nranks for the gather)
        for (int r = 0; r < nranks; ++r) {
          cascade::detail::scoped_device on(r);
          CASCADE_CUDA_CHECK(cudaMalloc(&slots[r], nranks * sizeof(float)));
          CASCADE_CUDA_CHECK(cudaMemset(slots[r], 0, nranks * sizeof(float)));
        }
        struct contender {
          std::string name;
          std::function<void()> run;
        };
        std::vector<contender> cs = {
            {"local",
             [&] {
               for (int r = 0; r < nranks; ++r) {
                 cascade::detail::scoped_device on(r);
                 cascade::reduce_into(policy{}.on(comms[r].stream()), data[r], data[r] + n, outs[r], 0.0f, cascade::plus{});
               }
             }},
            {"nvlink",
             [&] { cascade::reduce_into(comms, policy{}, shards, outs, 0.0f, cascade::plus{}, cascade::collective::nvlink{}); }},
            {"all_reduce",
             [&] { cascade::reduce_into(comms, policy{}, shards, outs, 0.0f, cascade::plus{}, cascade::collective::all_reduce{}); }},
            {"all_gather",
             [&] { cascade::reduce_into(comms, policy{}, shards, outs, 0.0f, cascade::plus{}, cascade::collective::all_gather{}); }},
            {"custom op", [&] { cascade::reduce_into(comms, policy{}, shards, outs, 0.0f, cascade::monoid(custom_sum{}, 0.0f)); }},
            {"nccl all_reduce",
             [&] {
               cascade::detail::nccl_group group;
               for (int r = 0; r < nranks; ++r)
                 cascade::detail::check_nccl(ncclAllReduce(slots[r], slots[r], 1, ncclFloat32, ncclSum, comms[r].get(), comms[r].stream()),
                                             "ncclAllReduce", comms[r].get());
               group.end();
             }},
            {"nccl all_gather",
             [&] {
               cascade::detail::nccl_group group;
               for (int r = 0; r < nranks; ++r)
                 cascade::detail::check_nccl(ncclAllGather(slots[r] + r, slots[r], 1, ncclFloat32, comms[r].get(), comms[r].stream()),
                                             "ncclAllGather", comms[r].get());
               group.end();
             }},
        };
        // Every contender once, checked: the local sums' total (in double) against each rank's result
        // (float sums of the same items in other groupings: within 1e-5 relative), the same on every rank.
        std::vector<bool> agrees(cs.size(), true);
        double total = 0;
        std::size_t const cascade_calls = 5;  // the contenders that write outs
        if (!comms[0].has_nvlink()) cs.erase(cs.begin() + 1);  // no window here: NCCL's collectives only
        std::size_t const checked = comms[0].has_nvlink() ? cascade_calls : cascade_calls - 1;
        for (std::size_t k = 0; k < checked; ++k) {
          wall_us(cs[k].run, comms);
          std::vector<float> got(nranks);
          for (int r = 0; r < nranks; ++r) {
            cascade::detail::scoped_device on(r);
            CASCADE_CUDA_CHECK(cudaMemcpy(&got[r], outs[r], sizeof(float), cudaMemcpyDeviceToHost));
          }
          if (k == 0) {
            for (float v : got) total += v;
            continue;
          }
          for (float v : got)
            if (v != got[0] || !(std::fabs(v - total) <= 1e-5 * std::fabs(total))) agrees[k] = false;
        }
        for (auto& c : cs) wall_us(c.run, comms), timer.us(c.run);  // warm-up
        std::vector<std::vector<double>> gpu(cs.size()), wall(cs.size());
        for (int i = 0; i < runs; ++i)
          for (std::size_t k = 0; k < cs.size(); ++k) gpu[k].push_back(timer.us(cs[k].run)), wall[k].push_back(wall_us(cs[k].run, comms));
        double const local = median(gpu[0]);
        for (std::size_t k = 0; k < cs.size(); ++k) {
          double const us = median(gpu[k]), wall_median = median(wall[k]);
          double const gbs = k < checked ? n * sizeof(float) / us / 1e3 : 0;
          std::printf("%5d %6d %-16s %10.1f %10.1f %10s %11.3fx%s\n", nranks, lg, cs[k].name.c_str(), us, wall_median,
                      k < checked ? std::to_string(static_cast<long>(gbs)).c_str() : "-", us / local, agrees[k] ? "" : "  DISAGREES");
          all_ok = all_ok && agrees[k];
          summary.push_back({cs[k].name, nranks, lg, us});
          char row[1024];
          std::snprintf(row, sizeof row,
                        "{\"kind\": \"timing\", \"family\": \"distributed\", \"item\": \"float\", \"ranks\": %d, "
                        "\"items_per_rank\": %lld, \"log2_items_per_rank\": %d, \"name\": \"%s\", \"gpu_us\": %.3f, "
                        "\"wall_us\": %.3f, \"local_gpu_us\": %.3f, \"gbs_per_rank\": %.1f, \"nccl_version\": %d, "
                        "\"agrees\": %s}",
                        nranks, n, lg, cs[k].name.c_str(), us, wall_median, local, gbs, nccl_version, agrees[k] ? "true" : "false");
          rows.push_back(row);
        }
        for (int r = 0; r < nranks; ++r) {
          cascade::detail::scoped_device on(r);
          CASCADE_CUDA_CHECK(cudaFree(slots[r]));
        }
        late_gates = late_gates || timer.late();
      }
      for (int r = 0; r < nranks; ++r) {
        cascade::detail::scoped_device on(r);
        if (data[r]) CASCADE_CUDA_CHECK(cudaFree(data[r]));
        if (outs[r]) CASCADE_CUDA_CHECK(cudaFree(outs[r]));
      }
    }
  }
  // Weak scaling: each contender's GPU time on 1 rank over its time on N at the same items per GPU;
  // the collective's share: what the call adds to the local reduce, of the call's time.
  auto const find = [&](std::string const& name, int ranks, int lg) {
    for (auto const& t : summary)
      if (t.name == name && t.ranks == ranks && t.lg == lg) return t.gpu_us;
    return 0.0;
  };
  std::printf("\nweak scaling (GPU time at 1 rank / at N, same items per GPU), the collective's share (call - local) / call,\n"
              "and what the call adds to the local reduce\n");
  std::printf("%6s %5s %10s %10s %10s %10s %13s %13s %11s %11s\n", "log2 n", "ranks", "nvlink", "all_reduce", "all_gather",
              "custom op", "share nvlink", "share reduce", "+us nvlink", "+us reduce");
  for (int lg : log2_sizes)
    for (int nranks : ranks_to_run) {
      double const local = find("local", nranks, lg);
      if (local == 0) continue;
      auto const eff = [&](char const* name) {
        double const one = find(name, 1, lg), many = find(name, nranks, lg);
        return one > 0 && many > 0 ? one / many : 0.0;
      };
      double const nv = find("nvlink", nranks, lg), ar = find("all_reduce", nranks, lg);
      std::printf("%6d %5d %9.1f%% %9.1f%% %9.1f%% %9.1f%% %12.2f%% %12.2f%% %11.2f %11.2f\n", lg, nranks, 100 * eff("nvlink"),
                  100 * eff("all_reduce"), 100 * eff("all_gather"), 100 * eff("custom op"),
                  nv > 0 ? 100 * (nv - local) / nv : 0.0, 100 * (ar - local) / ar, nv > 0 ? nv - local : 0.0, ar - local);
    }
  std::string const method =
      "gpu_us: CUDA events on each rank's stream around the call, every stream held by one gate kernel while the host "
      "enqueues and released at once (launch and launch skew excluded), the longest rank's time; wall_us: host wall time from the first enqueue until every "
      "rank's stream is done, the device idle before (launch included); one process driving every GPU (the "
      "collectives in one NCCL group), medians of alternating runs, data hot but far beyond L2; NCCL_NVLS_ENABLE=0";
  if (late_gates) std::printf("a call blocked the host while the gate held the streams: those GPU times include it\n");
  bool const written = opts.out_path.empty() ||
                       cascade_bench::write_results(opts.out_path, cascade_bench::read_environment(), opts, method.c_str(), rows);
  return written && all_ok ? 0 : 1;
}
