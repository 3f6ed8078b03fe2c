// One process per GPU (docs/distributed.md): each process is one rank, reduces its own shard, and gets
// the result of the whole. scripts/launch-ranks.sh starts N of them with CASCADE_RANK, CASCADE_NRANKS
// and CASCADE_NCCL_ID_FILE set (test/docs_distributed_test runs this main):
//   scripts/launch-ranks.sh 4 ./my_program
// Without them it runs as rank 0 of 1. Returns 0 when the sum is right.
#include <cascade/distributed.cuh>
#include <unistd.h>

#include <chrono>
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

  // Waits at most 10 s for the other ranks: a rank that died makes this one throw, not hang.
  float total = 0.0f;
  try {
    total = cascade::reduce(comm.with_timeout(std::chrono::seconds(10)), cascade::default_policy{}, d, d + ones.size(),
                            0.0f, cascade::plus{});
  } catch (cascade::distributed_error const& e) {  // the communicator is aborted: make a new one to go on
    std::fprintf(stderr, "%s\n", e.what());
    cudaFree(d);
    return 2;
  }
  // On one host the partials met inside the kernel, over NVLink (collective::nvlink, automatic's pick).
  std::printf("rank %d of %d: %.0f (%s)\n", rank, nranks, total, comm.has_nvlink() ? "nvlink" : "NCCL");

  // Several values a rank: 4 sums (per-class totals, say) of each rank's 4 slices of 1000 items, the
  // ranks' slices of a class added in rank order; every rank gets the 4 totals.
  float* sums = nullptr;
  cudaMalloc(&sums, 4 * sizeof(float));
  cascade::batched_reduce_into(comm, cascade::default_policy{}, d, 1000, 4, sums, 0.0f, cascade::plus{});
  float classes[4] = {};
  cudaMemcpy(classes, sums, sizeof classes, cudaMemcpyDeviceToHost);  // nranks * 1000 each
  cudaFree(sums);
  cudaFree(d);
  bool const ok = total == float(nranks) * float(1 << 20) && classes[0] == 1000.0f * nranks && classes[3] == 1000.0f * nranks;
  return ok ? 0 : 1;  // nranks * 2^20 on every rank
}
