// One process per GPU (docs/distributed.md): each process is one rank, reduces its own shard, and gets
// the result of the whole. scripts/launch-ranks.sh starts N of them with CASCADE_RANK, CASCADE_NRANKS
// and CASCADE_NCCL_ID_FILE set (test/docs_distributed_test runs this main):
//   scripts/launch-ranks.sh 4 ./my_program
// Without them it runs as rank 0 of 1. Returns 0 when the sum is right.
#include <cascade/distributed.cuh>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

int main() {
  char const* rank_text = std::getenv("CASCADE_RANK");
  char const* size_text = std::getenv("CASCADE_NRANKS");
  char const* id_text = std::getenv("CASCADE_NCCL_ID_FILE");
  int const rank = rank_text ? std::atoi(rank_text) : 0;
  int const nranks = size_text ? std::atoi(size_text) : 1;
  std::string const id_file = id_text ? id_text : "/tmp/cascade-example-" + std::to_string(::getpid()) + ".id";
  int devices = 0;
  cudaGetDeviceCount(&devices);

  // Rank 0 makes the id and writes it to the file; the others wait for it. Then every rank joins.
  ncclUniqueId const id = cascade::share_unique_id(id_file, rank);
  cascade::communicator const comm = cascade::communicator::init_rank(rank % devices, nranks, id, rank);
  if (rank == 0 && !id_text) std::remove(id_file.c_str());

  // This rank's shard: 1 << 20 ones, on its GPU (init_rank made no device current: set it here).
  cudaSetDevice(comm.device());
  std::vector<float> ones(1 << 20, 1.0f);
  float* d = nullptr;
  cudaMalloc(&d, ones.size() * sizeof(float));
  cudaMemcpy(d, ones.data(), ones.size() * sizeof(float), cudaMemcpyHostToDevice);

  float const total = cascade::reduce(comm, cascade::default_policy{}, d, d + ones.size(), 0.0f, cascade::plus{});
  std::printf("rank %d of %d: %.0f\n", rank, nranks, total);  // nranks * 2^20 on every rank
  cudaFree(d);
  return total == float(nranks) * float(1 << 20) ? 0 : 1;
}
