// Associative, non-commutative ops with exact host references, for the operand-order tests and docs:
// 2x2 integer matrix product (mod 2^32), concatenation of (polynomial hash, length) pairs, and
// "keep the right operand" (the fold is the last item).
#pragma once

#include <cstdint>

namespace cascade_test {

struct mat2 {
  std::uint32_t a, b, c, d;
  __host__ __device__ static mat2 unit() { return {1, 0, 0, 1}; }
  bool operator==(mat2 const&) const = default;
  // A random matrix with odd determinant, so invertible mod 2^32: products of such matrices never
  // collapse (products of arbitrary ones tend to the zero matrix mod 2^32, where order is invisible).
  template <class Rng>
  static mat2 random_invertible(Rng& rng) {
    for (;;) {
      mat2 const m{static_cast<std::uint32_t>(rng()), static_cast<std::uint32_t>(rng()),
                   static_cast<std::uint32_t>(rng()), static_cast<std::uint32_t>(rng())};
      if (((m.a * m.d - m.b * m.c) & 1u) == 1u) return m;
    }
  }
};

struct mat2_product {
  __host__ __device__ mat2 operator()(mat2 const& x, mat2 const& y) const {
    return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d};
  }
};

// A string s as (hash = sum s_i B^(len-1-i) mod 2^64, len): concat(s, t) = (hash_s B^len_t + hash_t,
// len_s + len_t). Unit: the empty string (0, 0).
struct hashed {
  std::uint64_t hash;
  std::uint64_t length;
  bool operator==(hashed const&) const = default;
};

struct hash_concat {
  static constexpr std::uint64_t base = 1000003;
  __host__ __device__ static std::uint64_t power(std::uint64_t e) {
    std::uint64_t result = 1, b = base;
    for (; e != 0; e >>= 1, b *= b)
      if (e & 1) result *= b;
    return result;
  }
  __host__ __device__ hashed operator()(hashed const& s, hashed const& t) const {
    return {s.hash * power(t.length) + t.hash, s.length + t.length};
  }
};

struct keep_right {
  template <class T>
  __host__ __device__ T operator()(T const&, T const& b) const {
    return b;
  }
};

}  // namespace cascade_test
