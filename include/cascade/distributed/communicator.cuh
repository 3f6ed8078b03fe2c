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
// Copies share the communicator; the one made by init_rank / init_all is destroyed
// (ncclCommDestroy) with its last copy. Errors: nccl_error (NCCL), cuda_error (CUDA),
// std::invalid_argument (arguments).
#pragma once

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "../detail/runtime/scoped_device.cuh"
#include "../error.cuh"
#include "launch.cuh"
#include "nccl_error.cuh"

namespace cascade {

class communicator {
 public:
  // Borrows `comm` (made and destroyed by the caller); calls are ordered on `stream`, a stream of the
  // communicator's device. Reads its rank, size and device from NCCL.
  explicit communicator(ncclComm_t comm, cudaStream_t stream = nullptr) : comm_(comm), stream_(stream) {
    if (comm == nullptr) throw std::invalid_argument("cascade::communicator: the NCCL communicator is null");
    detail::check_nccl(ncclCommUserRank(comm, &rank_), "ncclCommUserRank", comm);
    detail::check_nccl(ncclCommCount(comm, &size_), "ncclCommCount", comm);
    detail::check_nccl(ncclCommCuDevice(comm, &device_), "ncclCommCuDevice", comm);
  }

  // Joins rank `rank` of `nranks` on GPU `device` (ncclCommInitRank); every rank passes the same id
  // (unique_id() on one rank, sent to the others: share_unique_id, MPI, a socket). Blocks until all
  // nranks have joined. The communicator is destroyed with the last copy of the result.
  static communicator init_rank(int device, int nranks, ncclUniqueId const& id, int rank, cudaStream_t stream = nullptr) {
    if (nranks < 1 || rank < 0 || rank >= nranks)
      throw std::invalid_argument("cascade::communicator::init_rank: rank " + std::to_string(rank) +
                                  " is not in [0, nranks) with nranks " + std::to_string(nranks));
    detail::scoped_device on(device);
    ncclComm_t comm = nullptr;
    detail::check_nccl(ncclCommInitRank(&comm, nranks, id, rank), "ncclCommInitRank", comm);
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
    return comms;
  }

  // The same communicator, its calls ordered on `stream` (a stream of its device).
  communicator on(cudaStream_t stream) const {
    communicator c = *this;
    c.stream_ = stream;
    return c;
  }

  ncclComm_t get() const noexcept { return comm_; }
  int rank() const noexcept { return rank_; }
  int size() const noexcept { return size_; }
  int device() const noexcept { return device_; }
  cudaStream_t stream() const noexcept { return stream_; }

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
    c.owner_ = std::shared_ptr<ncclComm>(comm, [](ncclComm_t p) { (void)ncclCommDestroy(p); });
    return c;
  }

  std::shared_ptr<ncclComm> owner_;  // null when borrowed
  ncclComm_t comm_ = nullptr;
  cudaStream_t stream_ = nullptr;
  int rank_ = 0;
  int size_ = 1;
  int device_ = 0;
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
