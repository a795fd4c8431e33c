// SPDX-License-Identifier: BSL-1.0
#include <bale/all.hpp>
#include <bale/compress/compress.hpp>

#include "support/roundtrip.hpp"

namespace {

std::vector<std::byte> compressible(std::size_t n) {
  std::vector<std::byte> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<std::byte>((i / 64) % 7);
  return out;
}
std::vector<std::byte> incompressible(std::size_t n) {
  std::vector<std::byte> out(n);
  for (auto& b : out) b = static_cast<std::byte>(bale_test::rng()());
  return out;
}

class Codecs : public ::testing::TestWithParam<bale::codec> {};

TEST_P(Codecs, RoundTripsEmptySmallLargeAndIncompressible) {
  const bale::codec c = GetParam();
  ASSERT_TRUE(bale::codec_available(c)) << "the test build links every codec";
  for (const auto& input : {std::vector<std::byte>{}, compressible(10), compressible(1 << 20),
                            incompressible(100000)}) {
    const auto packed = bale::compress(input, c);
    EXPECT_EQ(bale::decompress(packed), input);
  }
  const auto big = compressible(1 << 20);
  if (c != bale::codec::none) {
    EXPECT_LT(bale::compress(big, c).size(), big.size() / 10);
  }
}

TEST_P(Codecs, DamageIsAnErrorNeverACrash) {
  const bale::codec c = GetParam();
  const auto packed = bale::compress(compressible(5000), c);
  for (std::size_t n = 0; n < packed.size(); n += 7) {
    auto r = bale::try_decompress(std::span<const std::byte>(packed.data(), n));
    EXPECT_FALSE(r) << n;
  }
  for (std::size_t i = 13; i < packed.size(); i += 5) {
    auto flipped = packed;
    flipped[i] ^= std::byte{0x55};
    (void)bale::try_decompress(flipped);  // may decode to other bytes; must not crash or overrun
  }
}

TEST_P(Codecs, DecompressionBombIsRefused) {
  auto packed = bale::compress(compressible(100), GetParam());
  bale::detail::put_u64(packed.data() + 5, std::uint64_t{1} << 50);  // claims a petabyte
  auto r = bale::try_decompress(packed);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::allocation_limit);
  bale::limits small;
  small.max_allocation = 50;
  auto r2 = bale::try_decompress(bale::compress(compressible(100), GetParam()), small);
  ASSERT_FALSE(r2);
  EXPECT_EQ(r2.error().code(), bale::errc::allocation_limit);
}

INSTANTIATE_TEST_SUITE_P(All, Codecs,
                         ::testing::Values(bale::codec::none, bale::codec::lz4, bale::codec::zstd),
                         [](const auto& info) { return std::string(bale::to_string(info.param)); });

TEST(Compress, NotAFrame) {
  const std::vector<std::byte> junk(40, std::byte{7});
  auto r = bale::try_decompress(junk);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::invalid_value);
}

}  // namespace
