// The communicator made from MPI (cascade/distributed/mpi.cuh) under mpirun, a rank a GPU (alone, MPI's
// one rank): the ranks and size are MPI's, NCCL's id went through MPI_Bcast, and the reduce of every
// path gives the exact total of known data (small integers in floats: every grouping is exact), the
// same bits on every rank (checked through MPI itself), with global argmax positions and several
// values a rank. Its own main: MPI_Init before the cases, MPI_Finalize after; without a GPU it neither
// initializes MPI nor runs a case (they are in the "gpu" suite).
#define DOCTEST_CONFIG_IMPLEMENT
#include <mpi.h>

#include "support/gpu_suite.hpp"

#include <cascade/distributed.cuh>
#include <cascade/distributed/mpi.cuh>
#include <cascade/finish/recursive.cuh>
#include <cascade/segment/warp.cuh>
#include <cascade/tree/shuffle.cuh>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using fixed_policy = cascade::policy<256, 4, cascade::tree::shuffle, cascade::finish::recursive>;
using segment_policy = cascade::policy<256, 4, cascade::tree::shuffle, cascade::segment::warp<8>>;
namespace coll = cascade::collective;

// Rank r: 1000 + 37 r items, every one r + 1.
std::vector<float> items_of(int r) { return std::vector<float>(1000 + 37 * r, float(r + 1)); }

template <class T>
bool same_on_every_rank(T const& v) {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<T> all(size);
  MPI_Allgather(&v, sizeof(T), MPI_BYTE, all.data(), sizeof(T), MPI_BYTE, MPI_COMM_WORLD);
  for (T const& x : all)
    if (std::memcmp(&x, &all[0], sizeof(T)) != 0) return false;
  return true;
}

}  // namespace

TEST_SUITE("gpu") {

TEST_CASE("communicator_from_mpi: MPI's ranks, NCCL's id by broadcast; every path's total, on every rank") {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  cascade::communicator const comm = cascade::communicator_from_mpi(MPI_COMM_WORLD);
  CHECK(comm.rank() == rank);
  CHECK(comm.size() == size);
  CASCADE_CUDA_CHECK(cudaSetDevice(comm.device()));
  std::vector<float> const host = items_of(rank);
  float* d = nullptr;
  CASCADE_CUDA_CHECK(cudaMalloc(&d, host.size() * sizeof(float)));
  CASCADE_CUDA_CHECK(cudaMemcpy(d, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));
  double expected = 0.5;
  long long before_last = 0;
  for (int r = 0; r < size; ++r) {
    expected += double(items_of(r).size()) * (r + 1);
    if (r < size - 1) before_last += static_cast<long long>(items_of(r).size());
  }
  float const automatic = cascade::reduce(comm, fixed_policy{}, d, d + host.size(), 0.5f, cascade::plus{});
  float const gathered = cascade::reduce(comm, fixed_policy{}, d, d + host.size(), 0.5f, cascade::plus{}, coll::all_gather{});
  float const reduced = cascade::reduce(comm, fixed_policy{}, d, d + host.size(), 0.5f, cascade::plus{}, coll::all_reduce{});
  CHECK(double(automatic) == expected);
  CHECK(double(gathered) == expected);
  CHECK(double(reduced) == expected);
  CHECK(same_on_every_rank(automatic));
  if (comm.has_nvlink())
    CHECK(double(cascade::reduce(comm, fixed_policy{}, d, d + host.size(), 0.5f, cascade::plus{}, coll::nvlink{})) == expected);
  // the largest items are the last rank's: its first is the first maximum
  cascade::indexed<float> const top = cascade::argmax(comm, fixed_policy{}, d, d + host.size());
  CHECK(top.index == before_last);
  CHECK(top.value == float(size));
  // several values a rank: 4 segments of 250 items each, every item r + 1
  float* sums = nullptr;
  CASCADE_CUDA_CHECK(cudaMalloc(&sums, 4 * sizeof(float)));
  cascade::batched_reduce_into(comm, segment_policy{}, d, 250, 4, sums, 0.0f, cascade::plus{});
  float got[4] = {};
  CASCADE_CUDA_CHECK(cudaMemcpy(got, sums, sizeof got, cudaMemcpyDeviceToHost));
  for (float g : got) CHECK(double(g) == 250.0 * size * (size + 1) / 2);
  CASCADE_CUDA_CHECK(cudaFree(sums));
  CASCADE_CUDA_CHECK(cudaFree(d));
  MESSAGE("rank " << rank << " of " << size << " on GPU " << comm.device() << ": " << automatic
                  << std::string(comm.has_nvlink() ? " (nvlink)" : " (NCCL)"));
}

}  // TEST_SUITE("gpu")

int main(int argc, char** argv) {
  doctest::Context context;
  cascade_test::gpu_state const gpu = cascade_test::filter_gpu_suite(context);
  if (gpu == cascade_test::gpu_state::required_but_absent) return 1;
  context.applyCommandLine(argc, argv);
  if (gpu == cascade_test::gpu_state::absent) return context.run();  // (MPI not initialized)
  MPI_Init(&argc, &argv);
  int const status = context.run();
  MPI_Finalize();
  return status;
}
