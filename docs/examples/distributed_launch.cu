// Launched by torchrun, srun, mpirun or scripts/launch-ranks.sh (docs/distributed.md, "Launchers"): the
// rank, the number of ranks and the GPU come from the launcher's variables, NCCL's id through a file that
// every rank reads, named after the job (argv[1], else Slurm's job id). Returns 0 when the sum is right.
#include <cascade/distributed.cuh>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  char const* job = std::getenv("SLURM_JOB_ID");
  std::string const id_file = argc > 1 ? argv[1] : std::string("/tmp/cascade-") + (job ? job : "job") + ".id";
  cascade::communicator const comm = cascade::communicator::from_environment(id_file);

  cudaSetDevice(comm.device());
  std::vector<int> ones(1000, 1);
  int* d = nullptr;
  cudaMalloc(&d, ones.size() * sizeof(int));
  cudaMemcpy(d, ones.data(), ones.size() * sizeof(int), cudaMemcpyHostToDevice);
  int const total = cascade::reduce(comm, cascade::default_policy{}, d, d + ones.size(), 0, cascade::plus{});
  if (comm.rank() == 0) std::remove(id_file.c_str());  // every rank has joined: the reduce needed them all
  std::printf("rank %d of %d on GPU %d: %d\n", comm.rank(), comm.size(), comm.device(), total);
  cudaFree(d);
  return total == 1000 * comm.size() ? 0 : 1;
}
