// Seeds for test data: fresh each run, printed on failure, replayable with CASCADE_TEST_SEED=<seed>.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <random>

namespace cascade_test {

inline std::uint64_t base_seed() {
  static std::uint64_t const seed = []() -> std::uint64_t {
    if (char const* s = std::getenv("CASCADE_TEST_SEED")) return std::strtoull(s, nullptr, 0);
    std::random_device rd;
    return (std::uint64_t(rd()) << 32) ^ rd();
  }();
  return seed;
}

}  // namespace cascade_test

// Put in each test case: failures then print the seed that replays them.
#define CASCADE_SEED_INFO() INFO("replay with CASCADE_TEST_SEED=", ::cascade_test::base_seed())
