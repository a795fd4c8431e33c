// SPDX-License-Identifier: BSL-1.0
#pragma once
// std::bitset<N>: ceil(N / 64) u64 words, bit i in word i / 64 at position i % 64. Bits past N
// must be zero on read.

#include <array>
#include <bitset>
#include <cstddef>
#include <cstdint>

#include "bale/core/error.hpp"
#include "bale/core/serializer.hpp"
#include "bale/core/wire.hpp"

namespace bale {

template <std::size_t N>
struct serializer<std::bitset<N>> {
  static constexpr std::size_t words = (N + 63) / 64;
  using word_array = std::array<std::uint64_t, words>;
  using wire_shape = wire::product<word_array>;
  using schema_shape = schema::bits<N>;

  template <class Archive>
  static void save(Archive& ar, const std::bitset<N>& bits) {
    word_array packed{};
    for (std::size_t i = 0; i < N; ++i)
      if (bits[i]) packed[i / 64] |= std::uint64_t{1} << (i % 64);
    ar(packed);
  }
  template <class Archive>
  static void load(Archive& ar, std::bitset<N>& bits) {
    const std::size_t at = ar.offset();
    word_array packed{};
    ar(packed);
    if constexpr (N % 64 != 0) {
      if (packed[words - 1] >> (N % 64) != 0)
        ar.fail_at(errc::invalid_value, "bitset has bits set past its size", at);
    }
    bits.reset();
    for (std::size_t i = 0; i < N; ++i)
      if ((packed[i / 64] >> (i % 64)) & 1U) bits.set(i);
  }
};

}  // namespace bale
