// cascade/distributed/mpi.cuh: a communicator made from an MPI communicator, for programs that run
// under MPI (mpirun, srun with PMI): rank and size are MPI's, NCCL's id goes from MPI rank 0 to the
// others by MPI_Bcast (no shared file), and each rank takes the GPU its place on its host says.
// Optional: it needs <mpi.h> and MPI's library (Meson's -Dmpi option builds its test against
// Debian's Open MPI); distributed.cuh does not include it.
//
//   MPI_Init(&argc, &argv);
//   cascade::communicator comm = cascade::communicator_from_mpi(MPI_COMM_WORLD);
//   float total = cascade::reduce(comm, cascade::default_policy{}, d, d + n, 0.0f, cascade::plus{});
//
// Collective over `mpi` (every rank calls it). The GPU: `device`, or where it is -1, the rank's
// place among the ranks of its host (MPI_Comm_split_type, MPI_COMM_TYPE_SHARED) modulo the visible
// GPUs. The NCCL communicator is cascade's (init_rank: non-blocking, a join timeout, destroyed with
// the last copy); the MPI communicator stays the caller's. Errors: std::runtime_error naming the MPI
// call that failed, and init_rank's.
#pragma once

#include <mpi.h>

#include <chrono>
#include <stdexcept>
#include <string>

#include "communicator.cuh"

namespace cascade {

namespace detail {

inline void check_mpi(int code, char const* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw std::runtime_error(std::string("cascade::communicator_from_mpi: ") + call + " failed: " + text);
}

}  // namespace detail

inline communicator communicator_from_mpi(MPI_Comm mpi, int device = -1, cudaStream_t stream = nullptr,
                                          std::chrono::milliseconds join_timeout = std::chrono::minutes(2)) {
  int rank = 0, size = 1;
  detail::check_mpi(MPI_Comm_rank(mpi, &rank), "MPI_Comm_rank");
  detail::check_mpi(MPI_Comm_size(mpi, &size), "MPI_Comm_size");
  if (device < 0) {
    MPI_Comm host = MPI_COMM_NULL;
    detail::check_mpi(MPI_Comm_split_type(mpi, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &host), "MPI_Comm_split_type");
    int local = 0;
    int const got = MPI_Comm_rank(host, &local);
    MPI_Comm_free(&host);
    detail::check_mpi(got, "MPI_Comm_rank (the host's ranks)");
    int devices = 0;
    detail::check_cuda(cudaGetDeviceCount(&devices), "cudaGetDeviceCount");
    device = local % devices;
  }
  ncclUniqueId id{};
  if (rank == 0) id = unique_id();
  detail::check_mpi(MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, mpi), "MPI_Bcast (NCCL's id)");
  return communicator::init_rank(device, size, id, rank, stream, join_timeout);
}

}  // namespace cascade
