// cascade/distributed/launch.cuh: which rank this process is, as its launcher says in the environment:
// what communicator::from_environment joins with.
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
#pragma once

#include <cerrno>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace cascade {

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

}  // namespace cascade
