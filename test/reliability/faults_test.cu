// Faults that leave the CUDA context usable: device memory exhausted on purpose (a scratch allocation
// and a stream's first state fail with cascade::cuda_error, change nothing, leak nothing, and the
// next call succeeds once memory is back), and host memory or null pointers passed where the device
// must read or write (std::invalid_argument before any launch). The sticky error of a kernel fault
// ends the context, so it has a program of its own (sticky_error_test.cu).
#include <doctest/doctest.h>

#include <cascade/cascade.cuh>
#include <cascade/detail/runtime/scratch.cuh>
#include <thrust/device_vector.h>

#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/device_memory.cuh"
#include "support/seed.hpp"

namespace {

using namespace cascade_test;
using two_pass = cascade::policy<256, 4, cascade::tree::shuffle, cascade::finish::two_pass>;
using flagged = cascade::policy<256, 4, cascade::tree::shuffle, cascade::finish::flagged>;
using recursive = cascade::policy<128, 2, cascade::tree::sequential, cascade::finish::recursive>;

// Takes every byte of device memory cudaMalloc will give, in chunks from 1 GiB down to 256 bytes.
// (meson runs this program alone: other processes freeing memory would hand some back.)
struct memory_hog {
  std::vector<void*> blocks;
  std::size_t bytes = 0;
  memory_hog() {
    for (std::size_t chunk = std::size_t(1) << 30; chunk >= 256; chunk /= 2) {
      void* p = nullptr;
      while (cudaMalloc(&p, chunk) == cudaSuccess) blocks.push_back(p), bytes += chunk;
      (void)cudaGetLastError();  // the failed cudaMalloc's error
    }
  }
  ~memory_hog() {
    for (void* p : blocks) (void)cudaFree(p);
  }
};

}  // namespace

TEST_SUITE("gpu") {

TEST_CASE("device memory exhausted: cuda_error, nothing changed, nothing leaked, then it works again") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0xfa01);
  std::uniform_int_distribution<int> ints(-1000, 1000);
  long long const n = (1 << 22) + 17;
  std::vector<int> xs(n);
  long long sum = 0;
  for (auto& x : xs) sum += (x = ints(rng));
  int const expected = static_cast<int>(sum + 7);
  thrust::device_vector<int> d(xs.begin(), xs.end());
  int const* p = thrust::raw_pointer_cast(d.data());
  thrust::device_vector<int> out(1, -1);
  int* const d_out = thrust::raw_pointer_cast(out.data());
  cudaStream_t warm = nullptr, fresh = nullptr;
  CASCADE_CUDA_CHECK(cudaStreamCreateWithFlags(&warm, cudaStreamNonBlocking));
  CASCADE_CUDA_CHECK(cudaStreamCreateWithFlags(&fresh, cudaStreamNonBlocking));

  // Every path used below, once, so its kernels are loaded (lazy loading takes device memory too).
  cascade::reduce_into(two_pass{}, p, p + n, d_out, 7, cascade::plus{});
  CHECK(cascade::reduce(recursive{}, p, p + n, 7) == expected);
  cascade::reduce_into(flagged{}.on(warm), p, p + n, d_out, 7, cascade::plus{});
  CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
  CHECK(out[0] == expected);
  out[0] = -1;
  std::size_t const before = free_device_bytes();
  long long hog_mib = 0;

  {
    memory_hog hog;
    hog_mib = static_cast<long long>(hog.bytes >> 20);
    INFO("held ", hog_mib, " MiB of device memory");
    REQUIRE(hog.bytes > 0);
    // scratch: the pool was trimmed, so it must ask the driver, which has nothing left
    try {
      cascade::reduce_into(two_pass{}, p, p + n, d_out, 7, cascade::plus{});
      FAIL("reduce_into with finish::two_pass did not throw");
    } catch (cascade::cuda_error const& e) {
      CHECK(e.code() == cudaErrorMemoryAllocation);
      CHECK(std::string(e.what()).find("cascade scratch") != std::string::npos);
    }
    CHECK_THROWS_AS(cascade::reduce(recursive{}, p, p + n, 7), cascade::cuda_error);
    // a stream's first single-pass call: its state cannot be made
    CHECK_THROWS_WITH_AS(cascade::reduce_into(flagged{}.on(fresh), p, p + n, d_out, 7, cascade::plus{}),
                         doctest::Contains("cascade stream state"), cascade::cuda_error);
    CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
    CHECK(out[0] == -1);  // the failed calls wrote nothing
    // a call that needs no new memory still works: a stream that already has its state
    cascade::reduce_into(flagged{}.on(warm), p, p + n, d_out, 7, cascade::plus{});
    CASCADE_CUDA_CHECK(cudaStreamSynchronize(warm));
    CHECK(out[0] == expected);
    out[0] = -1;
    CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
    CHECK(cascade::detail::scratch_used_bytes() == 0);
  }

  // memory is back: the same calls succeed, and none of the failures left an error behind
  cascade::reduce_into(two_pass{}, p, p + n, d_out, 7, cascade::plus{});
  CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
  CHECK(out[0] == expected);
  CHECK(cascade::reduce(recursive{}, p, p + n, 7) == expected);
  CHECK(cascade::reduce(flagged{}.on(fresh), p, p + n, 7) == expected);
  std::vector<int> after(n);
  thrust::copy(d.begin(), d.end(), after.begin());
  CHECK(after == xs);
  CASCADE_CUDA_CHECK(cudaStreamDestroy(fresh));
  CASCADE_CUDA_CHECK(cudaStreamDestroy(warm));
  // nothing kept: what is in use now is what was before, but for the fresh stream's state
  std::size_t const stream_state_bytes = 2u << 20;  // 96 KiB, in the driver's 2 MiB granules at most
  std::size_t const after_bytes = free_device_bytes();
  CHECK(after_bytes + stream_state_bytes >= before);
  CHECK(after_bytes <= before);
  MESSAGE("[figures] faults: device memory exhausted (", hog_mib, " MiB taken), 3 calls failed with cuda_error "
          "(cudaErrorMemoryAllocation), output unchanged, then the same calls right; device memory in use "
          "after = before + ", (static_cast<long long>(before) - static_cast<long long>(after_bytes)) >> 10,
          " KiB (the fresh stream's state)");
}

TEST_CASE("host memory and null pointers where the device reads or writes: std::invalid_argument") {
  int pageable = 0, device = 0;
  CASCADE_CUDA_CHECK(cudaGetDevice(&device));
  CASCADE_CUDA_CHECK(cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, device));
  std::vector<int> host(100000, 3);
  thrust::device_vector<int> d(100000, 3);
  int const* p = thrust::raw_pointer_cast(d.data());
  thrust::device_vector<int> out(1, -1);
  int* const d_out = thrust::raw_pointer_cast(out.data());
  int host_out = -1;
  if (pageable == 0) {
    CHECK_THROWS_WITH_AS(cascade::reduce(two_pass{}, host.data(), host.data() + host.size(), 0),
                         doctest::Contains("the input is pageable host memory"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(cascade::reduce(host.data(), host.data() + host.size(), 0),  // default_policy
                         doctest::Contains("cudaHostRegister"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(cascade::reduce_into(flagged{}, p, p + d.size(), &host_out, 0, cascade::plus{}),
                         doctest::Contains("the output (d_out) is pageable host memory"), std::invalid_argument);
    CHECK_THROWS_AS(cascade::reduce_into(flagged{}, p, p, &host_out, 0, cascade::plus{}), std::invalid_argument);
    CHECK(host_out == -1);
    // the same through the views argmin, transform_reduce and count_if read with: the pointer under
    // the view is checked as a bare one is (a kernel reading it would fault and end the context)
    std::vector<float> const host_floats(1000, 1.5f);
    auto const is_three = [] __host__ __device__(int x) { return x == 3; };
    auto const twice = [] __host__ __device__(int x) { return 2 * x; };
    CHECK_THROWS_WITH_AS(cascade::argmin(two_pass{}, host.data(), host.data() + host.size()),
                         doctest::Contains("the input is pageable host memory"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(cascade::minmax(cascade::default_policy{}, host_floats.data(),
                                         host_floats.data() + host_floats.size()),
                         doctest::Contains("the input is pageable host memory"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(cascade::transform_reduce(two_pass{}, host.data(), host.data() + host.size(), 0,
                                                   cascade::plus{}, twice),
                         doctest::Contains("the input is pageable host memory"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(cascade::count_if(two_pass{}, host.data(), host.data() + host.size(), is_three),
                         doctest::Contains("the input is pageable host memory"), std::invalid_argument);
    CHECK(cascade::argmin(two_pass{}, p, p + d.size()).index == 0);  // the context is whole
    MESSAGE("[figures] host memory: pageable input and output pointers rejected with std::invalid_argument "
            "before any launch, bare or under argmin's, transform_reduce's and count_if's views (this GPU "
            "cannot read pageable memory); null pointers too");
  } else {
    MESSAGE("this GPU reads pageable host memory (HMM or ATS): host pointers are valid here");
    CHECK(cascade::reduce(two_pass{}, host.data(), host.data() + host.size(), 0) == 300000);
  }
  CHECK_THROWS_WITH_AS(cascade::reduce_into(two_pass{}, p, p + d.size(), static_cast<int*>(nullptr), 0,
                                            cascade::plus{}),
                       doctest::Contains("the output (d_out) is a null pointer"), std::invalid_argument);
  int const* null_in = nullptr;
  CHECK_THROWS_WITH_AS(cascade::reduce(two_pass{}, null_in, null_in + 5, 0),
                       doctest::Contains("the input is a null pointer"), std::invalid_argument);
  CHECK(cascade::reduce(two_pass{}, null_in, null_in, 4) == 4);  // an empty range reads nothing

  // page-locked and managed memory are the device's to read and write
  int* pinned = nullptr;
  int* managed = nullptr;
  CASCADE_CUDA_CHECK(cudaMallocHost(&pinned, 1000 * sizeof(int)));
  CASCADE_CUDA_CHECK(cudaMallocManaged(&managed, 1001 * sizeof(int)));
  for (int i = 0; i < 1000; ++i) pinned[i] = i, managed[i] = 2 * i;
  CHECK(cascade::reduce(two_pass{}, pinned, pinned + 1000, 0) == 499500);
  cascade::reduce_into(flagged{}, managed, managed + 1000, managed + 1000, 1, cascade::plus{});
  CASCADE_CUDA_CHECK(cudaDeviceSynchronize());
  CHECK(managed[1000] == 999001);
  int host_pointer_ok = 0;
  CASCADE_CUDA_CHECK(cudaDeviceGetAttribute(&host_pointer_ok, cudaDevAttrCanUseHostPointerForRegisteredMem, device));
  if (host_pointer_ok != 0) {
    std::vector<int> registered(5000, 2);
    CASCADE_CUDA_CHECK(cudaHostRegister(registered.data(), registered.size() * sizeof(int), cudaHostRegisterMapped));
    CHECK(cascade::reduce(two_pass{}, registered.data(), registered.data() + registered.size(), 0) == 10000);
    CASCADE_CUDA_CHECK(cudaHostUnregister(registered.data()));
  }
  CASCADE_CUDA_CHECK(cudaFreeHost(pinned));
  CASCADE_CUDA_CHECK(cudaFree(managed));
  // the context is healthy: none of the rejected calls launched anything
  CHECK(cascade::reduce(flagged{}, p, p + d.size(), 0) == 300000);
  CHECK(out[0] == -1);
}

}  // TEST_SUITE("gpu")
