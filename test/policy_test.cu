// cascade::policy: what it exposes and how it carries a stream. (That invalid parameters fail to
// compile is checked by compile_fail.py over test/compile_fail/.)
#include <doctest/doctest.h>

#include <cascade/cascade.cuh>

#include <type_traits>

using seq = cascade::tree::sequential;
using rec = cascade::finish::recursive;

TEST_CASE("policy exposes its parameters at compile time") {
  using p = cascade::policy<128, 4, seq, rec>;
  static_assert(p::block_size == 128 && p::coarse_factor == 4 && p::tile_size == 512);
  static_assert(std::is_same_v<p::tree_type, seq> && std::is_same_v<p::finish_type, rec>);
  static_assert(cascade::is_policy_v<p> && !cascade::is_policy_v<int>);
  static_assert(std::is_empty_v<seq> && std::is_empty_v<rec>);
  static_assert(cascade::policy<32, 1, seq, rec>::tile_size == 32);
  static_assert(cascade::policy<1024, 64, seq, rec>::tile_size == 65536);
  CHECK(p::tile_size == 512);
}

TEST_CASE("policy is stateless except for its stream") {
  using p = cascade::policy<256, 8, seq, rec>;
  constexpr p a{};
  static_assert(a.stream() == nullptr);  // the legacy default stream
  auto const s = reinterpret_cast<cudaStream_t>(0x1234);
  auto const b = a.on(s);
  CHECK(b.stream() == s);
  CHECK(a.stream() == nullptr);  // on() returns a copy
  CHECK(b.on(nullptr).stream() == nullptr);
  static_assert(std::is_trivially_copyable_v<p> && sizeof(p) == sizeof(cudaStream_t));
}

TEST_CASE("default_policy is a valid policy") {
  static_assert(cascade::is_policy_v<cascade::default_policy>);
  auto const s = reinterpret_cast<cudaStream_t>(0x1234);
  CHECK(cascade::default_policy{}.on(s).stream() == s);
  CHECK(cascade::default_policy{}.stream() == nullptr);
}

TEST_CASE("strategy tags are recognised and the tag bases are not") {
  static_assert(cascade::tree::is_tree_v<seq> && !cascade::tree::is_tree_v<cascade::tree::tag>);
  static_assert(cascade::finish::is_finish_v<rec> && !cascade::finish::is_finish_v<cascade::finish::tag>);
  static_assert(!cascade::tree::is_tree_v<rec> && !cascade::finish::is_finish_v<seq>);
  static_assert(!seq::preserves_order);
  CHECK(true);
}
