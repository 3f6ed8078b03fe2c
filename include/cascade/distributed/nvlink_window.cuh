// cascade/distributed/nvlink_window.cuh: the memory collective::nvlink exchanges partials through:
// on each rank an NCCL symmetric window (ncclMemAlloc + ncclCommWindowRegister, NCCL 2.28+) that
// every rank's kernels can store into over NVLink (or PCIe peer access), the peers' addresses of it,
// the exchange's sequence counter and stop word, and its status (why it stopped) in mapped host
// memory. docs/notes/distributed-nvlink.md has the design.
//
// Stopping: communicator::abort() sets a stop word in device memory (a copy on a stream of the
// window's own, which runs beside a kernel that waits forever); an exchange reads it with the
// sequence counter before it stores anything, and while it waits.
//
// Made for a communicator's ranks together (every step collective), only where the ranks can use it:
//   - NCCL's header and library of one version (a machine may hold two NCCLs: the device API's
//     structures differ between versions), 2.28 or newer;
//   - every rank in the communicator's LSA team (one host, all GPUs peer-accessible), and NCCL able
//     to make symmetric memory (checked by making a device communicator: a window registered without
//     that support is no window, and its registration still succeeds);
//   - neither CASCADE_NVLINK=0 nor NCCL_P2P_DISABLE=1 in the environment;
//   - and every rank agreeing (an all-reduce of the answers), so that all take the same path.
// Registered with NCCL_WIN_DEFAULT: NCCL_WIN_COLL_SYMMETRIC would also set up NCCL's own symmetric
// kernels, with NVLink multicast objects where NVLS is enabled; cascade never uses multicast.
#pragma once

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "../detail/runtime/scoped_device.cuh"
#include "../error.cuh"
#include "nccl_error.cuh"

#if defined(NCCL_VERSION_CODE) && NCCL_VERSION_CODE >= NCCL_VERSION(2, 28, 0) && __has_include(<nccl_device.h>)
#include <nccl_device.h>
#define CASCADE_NCCL_WINDOWS 1
#else
#define CASCADE_NCCL_WINDOWS 0
#endif

namespace cascade::detail {

// Why an exchange stopped; 0 while none has.
enum nvlink_status : unsigned { nvlink_ok = 0, nvlink_timed_out = 1, nvlink_aborted = 2 };

// What the exchange reads, by value in its kernel. Words are 8 bytes: {32 bits of a partial, the
// call's sequence number}; the window holds two buffers of half_words words, by the number's parity.
struct nvlink_link {
  unsigned long long* const* peers;  // [nranks]: each rank's window (this rank's own included)
  unsigned long long* own;
  unsigned* seq;                     // device memory: the last call's number
  unsigned volatile const* stop;     // device memory: nonzero stops every exchange
  unsigned volatile* status;         // mapped host memory: an nvlink_status
  unsigned long long timeout_ns;
  unsigned half_words;
  int rank;
  int nranks;
};

#if CASCADE_NCCL_WINDOWS
template <class Window>
__global__ void nvlink_peers_kernel(Window window, int nranks, unsigned long long** peers) {
  for (int p = 0; p < nranks; ++p) peers[p] = static_cast<unsigned long long*>(ncclGetLsaPointer(window, 0, p));
}
#endif

inline bool environment_says_no(char const* name, char const* no) {
  char const* v = std::getenv(name);
  return v != nullptr && std::strcmp(v, no) == 0;
}

class nvlink_window {
 public:
  static constexpr std::size_t bytes = std::size_t(2) << 20;  // cuMem's usual granularity

  // Every step for every rank of comms (this process's ranks of one communicator: one, or all of them
  // from one process, whose collective steps then go in one NCCL group). An entry stays null where
  // the ranks cannot use windows; the same answer on every rank.
  static std::vector<std::unique_ptr<nvlink_window>> make(std::vector<ncclComm_t> const& comms,
                                                         std::vector<int> const& devices, int nranks) {
    std::vector<std::unique_ptr<nvlink_window>> made(comms.size());
#if CASCADE_NCCL_WINDOWS
    int version = 0;
    check_nccl(ncclGetVersion(&version), "ncclGetVersion");
    bool here = version == NCCL_VERSION_CODE && !environment_says_no("CASCADE_NVLINK", "0") &&
                !environment_says_no("NCCL_P2P_DISABLE", "1");
    for (ncclComm_t c : comms) here = here && ncclTeamLsa(c).nRanks == nranks;
    if (!agree(comms, devices, here)) return made;
    // NCCL's symmetric memory support: a device communicator with no requirements fails without it.
    std::vector<ncclDevComm> probes(comms.size());
    bool probed = true;
    {
      check_nccl(ncclGroupStart(), "ncclGroupStart");
      for (std::size_t i = 0; i < comms.size(); ++i) {
        scoped_device on(devices[i]);
        ncclDevCommRequirements requirements
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 29, 0)
            = NCCL_DEV_COMM_REQUIREMENTS_INITIALIZER;
#else
            {};
#endif
        ncclResult_t const r = ncclDevCommCreate(comms[i], &requirements, &probes[i]);
        probed = probed && (r == ncclSuccess || r == ncclInProgress);
      }
      probed = settle(ncclGroupEnd(), comms) == ncclSuccess && probed;
    }
    if (probed)
      for (std::size_t i = 0; i < comms.size(); ++i) {
        scoped_device on(devices[i]);
        (void)settle(ncclDevCommDestroy(comms[i], &probes[i]), std::vector<ncclComm_t>{comms[i]});
      }
    if (!agree(comms, devices, probed)) return made;
    for (std::size_t i = 0; i < comms.size(); ++i) made[i] = std::unique_ptr<nvlink_window>(new nvlink_window(comms[i], devices[i], nranks));
    check_nccl(ncclGroupStart(), "ncclGroupStart");
    ncclResult_t registered = ncclSuccess;
    for (std::size_t i = 0; i < comms.size(); ++i) {
      scoped_device on(devices[i]);
      ncclResult_t const r = ncclCommWindowRegister(comms[i], made[i]->buffer_, bytes, &made[i]->window_, NCCL_WIN_DEFAULT);
      if (registered == ncclSuccess && r != ncclInProgress) registered = r;
    }
    ncclResult_t const ended = settle(ncclGroupEnd(), comms);
    check_nccl(registered != ncclSuccess ? registered : ended, "ncclCommWindowRegister (collective::nvlink's window)");
    for (auto& w : made) w->find_peers();
#else
    (void)comms, (void)devices, (void)nranks;
#endif
    return made;
  }

  ~nvlink_window() { release(); }
  nvlink_window(nvlink_window const&) = delete;
  nvlink_window& operator=(nvlink_window const&) = delete;

  // What the exchange of a call needs; the status and stop words are the window's own.
  nvlink_link link(unsigned long long timeout_ns) const {
    return {peers_, static_cast<unsigned long long*>(buffer_), seq_, seq_ + 1, words_, timeout_ns,
            static_cast<unsigned>(bytes / 16), rank_, nranks_};
  }
  unsigned status() const { return words_[0]; }

  // Stops every exchange of this rank, the running ones (they record nvlink_aborted and return) and
  // those still queued (they do the same before storing anything). Returns once the word is set.
  void raise_stop() noexcept {
    scoped_device_noexcept on(device_);
    (void)cudaMemcpyAsync(seq_ + 1, const_cast<unsigned*>(words_ + 1), sizeof(unsigned), cudaMemcpyHostToDevice, stop_stream_);
    (void)cudaStreamSynchronize(stop_stream_);
  }

  // Gives the registration back (local to the rank; the peers' windows leave this GPU's address
  // space): before the communicator goes, also when it is aborted (its abort keeps the memory).
  void deregister() noexcept {
#if CASCADE_NCCL_WINDOWS
    if (window_ == nullptr) return;
    scoped_device_noexcept on(device_);
    (void)settle(ncclCommWindowDeregister(comm_, window_), std::vector<ncclComm_t>{comm_});
    window_ = nullptr;
#endif
  }

  // Waits for this rank's work, then gives the window back (before the communicator goes).
  void release() noexcept {
    if (buffer_ == nullptr) return;
    scoped_device_noexcept on(device_);
    (void)cudaDeviceSynchronize();  // no exchange may still use the window
    deregister();
#if CASCADE_NCCL_WINDOWS
    (void)ncclMemFree(buffer_);
#endif
    (void)cudaFree(peers_);
    (void)cudaFreeHost(const_cast<unsigned*>(words_));
    if (stop_stream_ != nullptr) (void)cudaStreamDestroy(stop_stream_);
    buffer_ = nullptr;
  }

 private:
  nvlink_window(ncclComm_t comm, int device, int nranks) : comm_(comm), device_(device), nranks_(nranks) {
    scoped_device on(device);
    check_nccl(ncclCommUserRank(comm, &rank_), "ncclCommUserRank", comm);
#if CASCADE_NCCL_WINDOWS
    check_nccl(ncclMemAlloc(&buffer_, bytes), "ncclMemAlloc (collective::nvlink's window)");
#endif
    try {
      check_cuda(cudaMemset(buffer_, 0, bytes), "cudaMemset (collective::nvlink's window)");  // NCCL does not zero it
      // peers_[0, nranks), then the sequence counter and the stop word
      check_cuda(cudaMalloc(reinterpret_cast<void**>(&peers_), nranks * sizeof(void*) + 2 * sizeof(unsigned)),
                 "cudaMalloc (collective::nvlink's peers)");
      seq_ = reinterpret_cast<unsigned*>(peers_ + nranks);
      check_cuda(cudaMemset(seq_, 0, 2 * sizeof(unsigned)), "cudaMemset (collective::nvlink's sequence)");
      void* words = nullptr;  // [status | 1, the stop word's source]
      check_cuda(cudaHostAlloc(&words, 2 * sizeof(unsigned), cudaHostAllocMapped | cudaHostAllocPortable),
                 "cudaHostAlloc (collective::nvlink's status)");
      words_ = static_cast<unsigned volatile*>(words);
      words_[0] = 0u;
      words_[1] = 1u;
      check_cuda(cudaStreamCreateWithFlags(&stop_stream_, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
      check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize (collective::nvlink's window)");
    } catch (...) {
      release();
      throw;
    }
  }

#if CASCADE_NCCL_WINDOWS
  void find_peers() {
    scoped_device on(device_);
    nvlink_peers_kernel<<<1, 1>>>(window_, nranks_, peers_);
    check_cuda(cudaGetLastError(), "nvlink_peers_kernel<<<...>>> (launch)");
    check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize (collective::nvlink's peers)");
  }

  // Every rank's answer, through an all-reduce (min) of one int: the same on all.
  static bool agree(std::vector<ncclComm_t> const& comms, std::vector<int> const& devices, bool mine) {
    std::vector<int*> flags(comms.size(), nullptr);
    std::vector<cudaStream_t> streams(comms.size(), nullptr);
    int const answer = mine ? 1 : 0;
    for (std::size_t i = 0; i < comms.size(); ++i) {
      scoped_device on(devices[i]);
      check_cuda(cudaStreamCreateWithFlags(&streams[i], cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
      check_cuda(cudaMalloc(&flags[i], sizeof(int)), "cudaMalloc (collective::nvlink's agreement)");
      check_cuda(cudaMemcpy(flags[i], &answer, sizeof(int), cudaMemcpyHostToDevice), "cudaMemcpy");
    }
    check_nccl(ncclGroupStart(), "ncclGroupStart");
    for (std::size_t i = 0; i < comms.size(); ++i)
      (void)ncclAllReduce(flags[i], flags[i], 1, ncclInt32, ncclMin, comms[i], streams[i]);
    check_nccl(settle(ncclGroupEnd(), comms), "ncclAllReduce (collective::nvlink's agreement)");
    bool all = true;
    for (std::size_t i = 0; i < comms.size(); ++i) {
      scoped_device on(devices[i]);
      int got = 0;
      check_cuda(cudaStreamSynchronize(streams[i]), "cudaStreamSynchronize (collective::nvlink's agreement)");
      check_cuda(cudaMemcpy(&got, flags[i], sizeof(int), cudaMemcpyDeviceToHost), "cudaMemcpy");
      all = all && got == 1;
      (void)cudaFree(flags[i]);
      (void)cudaStreamDestroy(streams[i]);
    }
    return all;
  }

  ncclWindow_t window_ = nullptr;
#endif
  ncclComm_t comm_;
  int device_;
  int nranks_;
  int rank_ = 0;
  void* buffer_ = nullptr;
  unsigned long long** peers_ = nullptr;
  unsigned* seq_ = nullptr;
  unsigned volatile* words_ = nullptr;
  cudaStream_t stop_stream_ = nullptr;
};

}  // namespace cascade::detail
