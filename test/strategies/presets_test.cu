// Every preset of cascade::presets against cub::DeviceReduce on int32 and (integer-valued) float data
// at sizes with partial tiles and several passes.
#include <doctest/doctest.h>

#include <cascade/cascade.cuh>
#include <thrust/device_vector.h>

#include <random>
#include <type_traits>
#include <vector>

#include "support/references.cuh"
#include "support/seed.hpp"

namespace {

using namespace cascade_test;
namespace presets = cascade::presets;

template <class... P>
struct preset_list {};

using all_presets = preset_list<presets::pmpp_simple, presets::pmpp_convergent, presets::pmpp_shared,
                                presets::pmpp_segmented_atomic, presets::pmpp_coarsened, presets::blog_naive_atomic,
                                presets::harris_reduce1, presets::harris_reduce2, presets::harris_reduce3,
                                presets::harris_reduce4, presets::harris_reduce5, presets::harris_reduce6,
                                presets::harris_reduce7, presets::blog_shared, presets::blog_warp_unroll,
                                presets::blog_shuffle, presets::blog_multi_element>;

template <class T, class Op, class... P>
void check_all(preset_list<P...>, std::vector<T> const& xs, T init, Op op) {
  check_policies_exact(xs, init, op, [](auto f) { (f(P{}), ...); });
}

}  // namespace

TEST_CASE("presets follow the seeds' block sizes") {
  static_assert(presets::harris_reduce1::block_size == 128 && presets::harris_reduce7::block_size == 128);
  static_assert(presets::harris_reduce4::coarse_factor == 2 && presets::harris_reduce3::coarse_factor == 1);
  static_assert(std::is_same_v<presets::harris_reduce1::tree_type, cascade::tree::interleaved>);
  static_assert(std::is_same_v<presets::harris_reduce2::tree_type, cascade::tree::interleaved_strided>);
  static_assert(std::is_same_v<presets::harris_reduce5::tree_type, cascade::tree::unrolled_warp>);
  static_assert(std::is_same_v<presets::harris_reduce6::tree_type, cascade::tree::unrolled>);
  static_assert(std::is_same_v<presets::blog_shuffle::tree_type, cascade::tree::shuffle>);
  static_assert(std::is_same_v<presets::blog_naive_atomic::tree_type, cascade::tree::none>);
  static_assert(std::is_same_v<presets::pmpp_coarsened::finish_type, cascade::finish::atomic>);
  static_assert(presets::pmpp_coarsened::tile_size == 8192);  // 2 * COARSE_FACTOR(4) * BLOCK_DIM(1024)
  CHECK(presets::pmpp_simple::tile_size == 2048);  // Fig 10.6: one block of 1024 threads, 2048 items
}

TEST_SUITE("gpu") {
TEST_CASE("every preset agrees with CUB") {
  CASCADE_SEED_INFO();
  std::mt19937_64 rng(base_seed() ^ 0x4001);
  for (long long n : {1ll, 127ll, 129ll, 2049ll, 4097ll, (1ll << 22), (1ll << 22) + 3,
                      std::uniform_int_distribution<long long>(2, 1 << 21)(rng)}) {
    CAPTURE(n);
    std::uniform_int_distribution<int> ints(-1000, 1000), small(-8, 8);
    std::vector<int> i32(n);
    for (auto& x : i32) x = ints(rng);
    check_all(all_presets{}, i32, 42, cascade::plus{});
    check_all(all_presets{}, i32, 0, cascade::maximum{});
    std::vector<float> f32(n);  // integer-valued: exact in any order, so atomics too must match
    for (auto& x : f32) x = static_cast<float>(small(rng));
    check_all(all_presets{}, f32, 1.0f, cascade::plus{});
  }
}
}
