// cascade/distributed/communicator.cuh: an NCCL communicator, the GPU it serves and the stream its
// calls are ordered on: what the distributed reduce takes where the one-GPU reduce takes a policy's
// stream.
//
//   // One process per GPU: rank 0 makes an id, every rank reads it (here through a file), each joins.
//   ncclUniqueId id = cascade::share_unique_id("/tmp/job-42.id", rank);
//   cascade::communicator comm = cascade::communicator::init_rank(device, nranks, id, rank);
//   // One process, every GPU: one communicator per device, ranks 0 .. n-1 in the list's order.
//   std::vector<cascade::communicator> comms = cascade::communicator::init_all({0, 1, 2, 3});
//   // Launched by torchrun, srun, mpirun or scripts/launch-ranks.sh: rank, size and GPU from their variables.
//   cascade::communicator comm = cascade::communicator::from_environment("/shared/job-42.id");
//   // A communicator made elsewhere (by MPI's launcher, PyTorch, ...): borrowed, never destroyed here.
//   cascade::communicator borrowed(existing_comm, stream);
//
// Copies share the communicator; the one made by init_rank / init_all / from_environment is
// destroyed (ncclCommDestroy) with its last copy. Each copy carries a stream and a timeout: how long
// a distributed call waits for the other ranks before it gives up (30 s unless with_timeout says;
// then it throws distributed_error, and a communicator cascade made is aborted). collective::nvlink's
// window (nvlink_window.cuh) is made with the communicator by init_all, at the first call that wants
// it otherwise; a borrowed communicator gets one only through an explicit collective::nvlink, and
// then every copy must be gone before the caller destroys the NCCL communicator.
// Errors: nccl_error (NCCL), distributed_error (the ranks), cuda_error (CUDA), std::invalid_argument
// (arguments).
#pragma once

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "../detail/runtime/scoped_device.cuh"
#include "../error.cuh"
#include "nccl_error.cuh"
#include "nvlink_window.cuh"

namespace cascade {

// Which rank this process is, as its launcher says in the environment: what
// communicator::from_environment joins with.
//
//   cascade::launch const l = cascade::launch_from_environment();  // l.rank, l.size, l.local_rank, l.launcher
//
// Launchers, the first whose rank variable is set winning (torchrun under srun, or mpirun in a Slurm
// allocation, set their own besides Slurm's, which then describe the launcher's processes, not the ranks):
//   scripts/launch-ranks.sh  CASCADE_RANK, CASCADE_NRANKS, CASCADE_DEVICE (its GPU, taken as the local rank)
//   torchrun                 RANK, WORLD_SIZE, LOCAL_RANK
//   Open MPI's mpirun        OMPI_COMM_WORLD_RANK, OMPI_COMM_WORLD_SIZE, OMPI_COMM_WORLD_LOCAL_RANK
//   MPICH's mpiexec (Hydra)  PMI_RANK, PMI_SIZE, MPI_LOCALRANKID
//   Slurm's srun             SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID
// A launcher's variable missing or not a number, or a rank outside [0, size): std::invalid_argument
// naming it; no launcher at all: std::invalid_argument listing these.
struct launch {
  int rank = 0;        // this process's rank, 0 .. size - 1
  int size = 1;        // the number of ranks
  int local_rank = 0;  // its place among the ranks of its host: its GPU is this modulo the visible GPUs
  char const* launcher = "";
};

namespace detail {

struct launch_variables {
  char const* launcher;
  char const* rank;
  char const* size;
  char const* local_rank;
};

inline constexpr launch_variables launchers[] = {
    {"scripts/launch-ranks.sh", "CASCADE_RANK", "CASCADE_NRANKS", "CASCADE_DEVICE"},
    {"torchrun", "RANK", "WORLD_SIZE", "LOCAL_RANK"},
    {"Open MPI", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK"},
    {"MPICH (Hydra)", "PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID"},
    {"Slurm", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID"},
};

inline int launch_number(launch_variables const& l, char const* name) {
  char const* text = std::getenv(name);
  if (text == nullptr)
    throw std::invalid_argument(std::string("cascade::launch_from_environment: ") + l.rank + " is set (" + l.launcher +
                                ") but " + name + " is not");
  char* end = nullptr;
  errno = 0;
  long const v = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || errno != 0 || v < 0 || v > 1 << 30)
    throw std::invalid_argument(std::string("cascade::launch_from_environment: ") + name + "=" + text +
                                " is not a number of ranks or a rank (" + l.launcher + ")");
  return static_cast<int>(v);
}

}  // namespace detail

inline launch launch_from_environment() {
  for (detail::launch_variables const& l : detail::launchers) {
    if (std::getenv(l.rank) == nullptr) continue;
    launch out;
    out.launcher = l.launcher;
    out.rank = detail::launch_number(l, l.rank);
    out.size = detail::launch_number(l, l.size);
    out.local_rank = detail::launch_number(l, l.local_rank);
    if (out.size < 1 || out.rank >= out.size)
      throw std::invalid_argument(std::string("cascade::launch_from_environment: ") + l.rank + "=" + std::getenv(l.rank) +
                                  " is not a rank of " + l.size + "=" + std::getenv(l.size) + " (" + l.launcher + ")");
    return out;
  }
  std::string names;
  for (detail::launch_variables const& l : detail::launchers) names += std::string(names.empty() ? "" : ", ") + l.rank;
  throw std::invalid_argument("cascade::launch_from_environment: no launcher's rank variable is set (" + names +
                              "); start the ranks with torchrun, srun, mpirun or scripts/launch-ranks.sh, or join "
                              "with communicator::init_rank");
}

namespace detail {

// What the copies of a communicator share: the NCCL communicator (destroyed here when cascade made
// it) and collective::nvlink's window, once asked for.
struct communicator_state {
  enum class link { unknown, absent, ready };
  ncclComm_t comm = nullptr;
  bool owned = false;
  bool aborted = false;
  link nvlink = link::unknown;
  std::unique_ptr<nvlink_window> window;
  ~communicator_state() {
    window.reset();  // before the communicator: its deregistration needs it
    if (owned && !aborted) {
      // A non-blocking communicator (init_rank's) finalizes in the background: wait for it.
      (void)detail::settle(ncclCommFinalize(comm), std::vector<ncclComm_t>{comm});
      (void)ncclCommDestroy(comm);
    }
  }
};

}  // namespace detail

class communicator {
 public:
  // Borrows `comm` (made and destroyed by the caller); calls are ordered on `stream`, a stream of the
  // communicator's device. Reads its rank, size and device from NCCL.
  explicit communicator(ncclComm_t comm, cudaStream_t stream = nullptr) : comm_(comm), stream_(stream) {
    if (comm == nullptr) throw std::invalid_argument("cascade::communicator: the NCCL communicator is null");
    detail::check_nccl(ncclCommUserRank(comm, &rank_), "ncclCommUserRank", comm);
    detail::check_nccl(ncclCommCount(comm, &size_), "ncclCommCount", comm);
    detail::check_nccl(ncclCommCuDevice(comm, &device_), "ncclCommCuDevice", comm);
    state_ = std::make_shared<detail::communicator_state>();
    state_->comm = comm;
  }

  // Joins rank `rank` of `nranks` on GPU `device`; every rank passes the same id (unique_id() on one
  // rank, sent to the others: share_unique_id, MPI, a socket). Waits until all nranks have joined, at
  // most `join_timeout`: a rank that never comes makes the others throw distributed_error (cause
  // timeout) instead of waiting forever. The communicator is non-blocking (ncclConfig_t::blocking =
  // 0: no NCCL call holds the thread, so a call can give up and abort it) and is destroyed with the
  // last copy of the result.
  static communicator init_rank(int device, int nranks, ncclUniqueId const& id, int rank, cudaStream_t stream = nullptr,
                                std::chrono::milliseconds join_timeout = std::chrono::minutes(2)) {
    if (nranks < 1 || rank < 0 || rank >= nranks)
      throw std::invalid_argument("cascade::communicator::init_rank: rank " + std::to_string(rank) +
                                  " is not in [0, nranks) with nranks " + std::to_string(nranks));
    detail::scoped_device on(device);
    ncclComm_t comm = nullptr;
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
    config.blocking = 0;
    ncclResult_t state = ncclCommInitRankConfig(&comm, nranks, id, rank, &config);
    auto const deadline = std::chrono::steady_clock::now() + join_timeout;
    while (state == ncclInProgress && comm != nullptr) {
      if (std::chrono::steady_clock::now() > deadline) {
        (void)ncclCommAbort(comm);
        throw distributed_error(distributed_error::cause::timeout, rank,
                                "cascade::communicator::init_rank: rank " + std::to_string(rank) + " of " +
                                    std::to_string(nranks) + ": the other ranks did not all join within " +
                                    std::to_string(join_timeout.count()) + " ms (the same id on every rank?)");
      }
      std::this_thread::sleep_for(std::chrono::microseconds(100));
      if (ncclCommGetAsyncError(comm, &state) != ncclSuccess) state = ncclInternalError;
    }
    if (state != ncclSuccess) {
      std::string const text = detail::nccl_error_text(state, "ncclCommInitRankConfig", comm);
      if (comm != nullptr) (void)ncclCommAbort(comm);
      throw nccl_error(state, text, rank);
    }
    return owned(comm, stream);
  }

  // Joins as the rank its launcher says (launch_from_environment: torchrun, srun, mpirun,
  // scripts/launch-ranks.sh), on GPU local_rank modulo the visible GPUs, with the id shared through
  // `id_file` (share_unique_id: a path that every rank can read, on one host or a shared file system,
  // fresh for each run: name it after the job). Defined below share_unique_id.
  static communicator from_environment(std::string const& id_file, cudaStream_t stream = nullptr,
                                       std::chrono::milliseconds timeout = std::chrono::seconds(60));

  // One communicator per device of `devices` (ncclCommInitAll), for one process that drives them
  // all: rank i on devices[i]. Each is ordered on its device's legacy default stream (on() changes it).
  static std::vector<communicator> init_all(std::vector<int> const& devices) {
    if (devices.empty()) throw std::invalid_argument("cascade::communicator::init_all: the device list is empty");
    std::vector<ncclComm_t> raw(devices.size(), nullptr);
    detail::check_nccl(ncclCommInitAll(raw.data(), static_cast<int>(devices.size()), devices.data()), "ncclCommInitAll");
    std::vector<communicator> comms;
    comms.reserve(raw.size());
    try {
      for (ncclComm_t c : raw) comms.push_back(owned(c, nullptr));
    } catch (...) {  // owned() destroyed the one it failed on; the ones after it are still raw
      for (std::size_t i = comms.size() + 1; i < raw.size(); ++i) (void)ncclCommDestroy(raw[i]);
      throw;
    }
    // Now, for all at once: made lazily, one thread making a call per rank would wait in the first
    // rank's collective setup for ranks it has not reached.
    prepare_nvlink(comms);
    return comms;
  }

  // The same communicator, its calls ordered on `stream` (a stream of its device).
  communicator on(cudaStream_t stream) const {
    communicator c = *this;
    c.stream_ = stream;
    return c;
  }

  // The same communicator, its calls waiting at most `timeout` for the other ranks.
  communicator with_timeout(std::chrono::milliseconds timeout) const {
    if (timeout.count() <= 0) throw std::invalid_argument("cascade::communicator::with_timeout: the timeout must be positive");
    communicator c = *this;
    c.timeout_ = timeout;
    return c;
  }

  // Every copy's calls stop: an exchange waiting for other ranks returns (its call throws
  // distributed_error, cause aborted), then the NCCL communicator is aborted (ncclCommAbort), where
  // cascade made it. Call it on every rank; the communicator is unusable after.
  void abort() const { abort_state(*state_); }

  ncclComm_t get() const noexcept { return comm_; }
  int rank() const noexcept { return rank_; }
  int size() const noexcept { return size_; }
  int device() const noexcept { return device_; }
  cudaStream_t stream() const noexcept { return stream_; }
  std::chrono::milliseconds timeout() const noexcept { return timeout_; }
  // Whether collective::nvlink's window is made (automatic then takes it where the op allows any).
  bool has_nvlink() const noexcept { return state_->nvlink == detail::communicator_state::link::ready; }

  // collective::nvlink's window for these ranks, made where not made yet (collective: every rank of
  // the communicator calls it, those of one process in one call). init_all does this; a call that
  // wants the window does it for its rank.
  static void prepare_nvlink(std::span<communicator const> comms) {
    std::vector<ncclComm_t> raw;
    std::vector<int> devices;
    for (communicator const& c : comms)
      if (c.state_->nvlink == detail::communicator_state::link::unknown) raw.push_back(c.comm_), devices.push_back(c.device_);
    if (raw.empty()) return;
    auto made = detail::nvlink_window::make(raw, devices, comms[0].size_);
    std::size_t k = 0;
    for (communicator const& c : comms) {
      if (c.state_->nvlink != detail::communicator_state::link::unknown) continue;
      c.state_->window = std::move(made[k++]);
      c.state_->nvlink = c.state_->window ? detail::communicator_state::link::ready : detail::communicator_state::link::absent;
    }
  }

  // The window this rank's exchange uses, null where the ranks cannot use one; made at the first
  // call that asks (`make`: an explicit collective::nvlink, or automatic on a communicator cascade
  // made). Throws distributed_error if an earlier exchange failed.
  detail::nvlink_window* nvlink_window(bool make) const {
    detail::communicator_state& st = *state_;
    if (st.aborted)
      throw distributed_error(distributed_error::cause::aborted, rank_,
                              "cascade: the communicator of rank " + std::to_string(rank_) +
                                  " was aborted; make a new one");
    if (st.nvlink == detail::communicator_state::link::unknown && make) prepare_nvlink(std::span<communicator const>(this, 1));
    if (st.nvlink != detail::communicator_state::link::ready) return nullptr;
    return st.window.get();
  }
  bool owns() const noexcept { return state_->owned; }

 private:
  communicator() = default;
  // Takes `comm` over: destroyed with the last copy, or now if reading its rank, size or device fails.
  static communicator owned(ncclComm_t comm, cudaStream_t stream) {
    communicator c;
    try {
      c = communicator(comm, stream);
    } catch (...) {
      (void)ncclCommDestroy(comm);
      throw;
    }
    c.state_->owned = true;
    return c;
  }

  // The exchanges stop first: deregistering unmaps the peers' windows. An exchange already storing
  // into them finishes within microseconds (the pause), a waiting one returns, a queued one (behind an
  // NCCL kernel that waits for a dead rank, until ncclCommAbort stops it) stores nothing. A device
  // sync then could wait forever on NCCL's kernels of a borrowed communicator, which only its owner
  // can abort: that window is kept, as a queued exchange may still read it.
  static void abort_state(detail::communicator_state& st) {
    if (st.aborted) return;
    st.aborted = true;
    if (st.window) st.window->raise_stop();
    st.nvlink = detail::communicator_state::link::absent;
    if (!st.owned) {
      (void)st.window.release();  // (2 MiB and a few words, until the process ends)
      return;
    }
    if (st.window) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      st.window->deregister();  // (what NCCL's abort would not give back)
    }
    (void)ncclCommAbort(st.comm);
    st.window.reset();  // a device sync, now that NCCL's kernels have stopped, then the memory
  }

  std::shared_ptr<detail::communicator_state> state_;
  ncclComm_t comm_ = nullptr;
  cudaStream_t stream_ = nullptr;
  int rank_ = 0;
  int size_ = 1;
  int device_ = 0;
  std::chrono::milliseconds timeout_ = std::chrono::seconds(30);
};

// A fresh NCCL id (ncclGetUniqueId), made on one rank and given to every other before init_rank.
inline ncclUniqueId unique_id() {
  ncclUniqueId id{};
  detail::check_nccl(ncclGetUniqueId(&id), "ncclGetUniqueId");
  return id;
}

// Shares an id through a file that every rank can read (one machine, or a shared file system): rank 0
// makes the id and writes it to `path` (whole, through a rename), the others wait for the file, up to
// `timeout`, and read it. `path` must not exist when rank 0 starts (a file left by an earlier run would
// hand the other ranks a stale id): rank 0 throws std::invalid_argument if it does. The launcher
// (scripts/launch-ranks.sh) gives each run a fresh path.
inline ncclUniqueId share_unique_id(std::string const& path, int rank,
                                    std::chrono::milliseconds timeout = std::chrono::seconds(60)) {
  ncclUniqueId id{};
  if (rank == 0) {
    if (std::ifstream(path).good())
      throw std::invalid_argument("cascade::share_unique_id: " + path +
                                  " exists already (left by an earlier run?); remove it or use a fresh path");
    id = unique_id();
    std::string const partial = path + ".partial";
    {
      std::ofstream out(partial, std::ios::binary | std::ios::trunc);
      out.write(reinterpret_cast<char const*>(&id), sizeof id);
      if (!out) throw std::runtime_error("cascade::share_unique_id: cannot write " + partial);
    }
    if (std::rename(partial.c_str(), path.c_str()) != 0)
      throw std::runtime_error("cascade::share_unique_id: cannot rename " + partial + " to " + path);
    return id;
  }
  auto const deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    std::ifstream in(path, std::ios::binary);
    if (in && in.read(reinterpret_cast<char*>(&id), sizeof id) && in.gcount() == sizeof id) return id;
    if (std::chrono::steady_clock::now() > deadline)
      throw std::runtime_error("cascade::share_unique_id: rank " + std::to_string(rank) + " found no id in " + path +
                               " within the timeout; is rank 0 running, with the same path?");
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

inline communicator communicator::from_environment(std::string const& id_file, cudaStream_t stream,
                                                   std::chrono::milliseconds timeout) {
  launch const l = launch_from_environment();
  int devices = 0;
  detail::check_cuda(cudaGetDeviceCount(&devices), "cudaGetDeviceCount");
  ncclUniqueId const id = share_unique_id(id_file, l.rank, timeout);
  return init_rank(l.local_rank % devices, l.size, id, l.rank, stream);
}

}  // namespace cascade
