// SPDX-License-Identifier: BSL-1.0
// base64: RFC 4648 vectors, both alphabets, padding on and off, strict decoding, and every vector
// kernel the CPU runs (AVX2, AVX-512 VBMI) against the definition and the portable codec, on every
// byte value at every position of two blocks.
#include <gtest/gtest.h>
#include <bale/base64/base64.hpp>

#include <algorithm>
#include <random>

namespace {

namespace b64 = bale::base64;

std::span<const std::byte> bytes_of(std::string_view text) {
  return {reinterpret_cast<const std::byte*>(text.data()), text.size()};
}
std::string text_of(const std::vector<std::byte>& bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

TEST(Base64, Rfc4648Vectors) {
  const std::pair<std::string_view, std::string_view> vectors[] = {{"", ""},
                                                                   {"f", "Zg=="},
                                                                   {"fo", "Zm8="},
                                                                   {"foo", "Zm9v"},
                                                                   {"foob", "Zm9vYg=="},
                                                                   {"fooba", "Zm9vYmE="},
                                                                   {"foobar", "Zm9vYmFy"}};
  for (const auto& [plain, encoded] : vectors) {
    EXPECT_EQ(b64::encode(bytes_of(plain)), encoded);
    EXPECT_EQ(text_of(b64::decode(encoded)), plain);
    std::string unpadded(encoded.substr(0, encoded.find('=')));
    const b64::options no_padding{b64::alphabet::standard, false};
    EXPECT_EQ(b64::encode(bytes_of(plain), no_padding), unpadded);
    EXPECT_EQ(text_of(b64::decode(unpadded, no_padding)), plain);
  }
}

TEST(Base64, UrlAlphabet) {
  const std::vector<std::byte> bytes{std::byte{0xFB}, std::byte{0xFF}, std::byte{0xBF}};
  EXPECT_EQ(b64::encode(bytes), "+/+/");
  const b64::options url{b64::alphabet::url, true};
  EXPECT_EQ(b64::encode(bytes, url), "-_-_");
  EXPECT_EQ(b64::decode("-_-_", url), bytes);
  EXPECT_THROW(b64::decode("+/+/", url), bale::error);
  EXPECT_THROW(b64::decode("-_-_"), bale::error);
}

bale::error decode_error(std::string_view text, b64::options opt = {}) {
  try {
    b64::decode(text, opt);
  } catch (const bale::error& e) {
    return e;
  }
  ADD_FAILURE() << "accepted: " << text;
  return bale::error(bale::errc::invalid_value, "", 0);
}

TEST(Base64, StrictDecoding) {
  EXPECT_EQ(decode_error("Zm9").offset(), 3u);       // not a multiple of 4
  EXPECT_EQ(decode_error("Zm=v").offset(), 2u);      // padding in the middle
  EXPECT_EQ(decode_error("Zm9v!A==").offset(), 4u);  // outside the alphabet
  EXPECT_EQ(decode_error("Zh==").offset(), 1u);      // 'h' leaves non-zero bits after the byte
  EXPECT_EQ(decode_error("Zm9=").code(), bale::errc::invalid_value);  // 'o' + 1 bit set: "Zm8="
  EXPECT_EQ(decode_error("Z===").offset(), 1u);
  EXPECT_EQ(decode_error("Zg==", {b64::alphabet::standard, false}).offset(), 2u);
  EXPECT_EQ(decode_error("Z", {b64::alphabet::standard, false}).offset(), 1u);
  EXPECT_EQ(decode_error("Zm9v Zm9v").code(), bale::errc::invalid_value);  // no whitespace
}

// Including bale/base64/base64.hpp installs the widest kernel the CPU runs before main; without
// this, the kernel tests below would test the portable codec only, and pass.
TEST(Base64, IncludingTheHeaderInstallsTheVectorKernels) {
  using bale::base64::detail::kernel;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  const kernel expected = __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512bw")
                              ? kernel::avx512
                          : __builtin_cpu_supports("avx2") ? kernel::avx2
                                                           : kernel::portable;
  EXPECT_EQ(bale::base64::detail::best_kernel(), expected);
#else
  EXPECT_EQ(bale::base64::detail::best_kernel(), kernel::portable);
#endif
}

// Every kernel this CPU runs, narrowest first (the portable codec always).
std::vector<bale::base64::detail::kernel> kernels() {
  using bale::base64::detail::kernel;
  std::vector<kernel> all;
  for (const kernel k : {kernel::portable, kernel::avx2, kernel::avx512})
    if (k <= bale::base64::detail::best_kernel()) all.push_back(k);
  return all;
}

std::string encode_with(bale::base64::detail::kernel k, std::span<const std::byte> bytes,
                        const b64::options& opt) {
  std::string text(b64::encoded_size(bytes.size(), opt), '\0');
  bale::base64::detail::encode_with(k, bytes, text.data(), opt);
  return text;
}
std::vector<std::byte> decode_with(bale::base64::detail::kernel k, std::string_view text,
                                   const b64::options& opt) {
  std::vector<std::byte> bytes(b64::decoded_size(text, opt));
  bale::base64::detail::decode_with(k, text, bytes.data(), opt);
  return bytes;
}

// The single groups written before the AVX-512 kernels' whole lines bring every output that can
// get there to a 64-byte boundary: any output when decoding (3 bytes a group), one at a multiple
// of 4 bytes when encoding.
TEST(Base64, GroupsToALineBoundary) {
  alignas(64) static char line[128];
  for (std::size_t offset = 0; offset < 64; ++offset) {
    const std::size_t decoding = bale::base64::detail::groups_to_line(line + offset, 3);
    EXPECT_LT(decoding, 64u);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(line + offset + 3 * decoding) % 64, 0u) << offset;
    const std::size_t encoding = bale::base64::detail::groups_to_line(line + offset, 4);
    if (offset % 4 == 0)
      EXPECT_EQ(reinterpret_cast<std::uintptr_t>(line + offset + 4 * encoding) % 64, 0u) << offset;
    else
      EXPECT_EQ(encoding, 0u) << offset;
  }
}

TEST(Base64, EveryKernelMatchesTheDefinition) {
  // Long enough for every kernel's blocks (48 and 24 bytes), every length near them, random
  // content, both alphabets, with and without padding.
  std::mt19937_64 rng(64);
  for (std::size_t n = 0; n < 300; ++n) {
    std::vector<std::byte> bytes(n);
    for (auto& b : bytes) b = static_cast<std::byte>(rng());
    for (const auto alpha : {b64::alphabet::standard, b64::alphabet::url}) {
      for (const bool padding : {true, false}) {
        const b64::options opt{alpha, padding};
        const std::string text = b64::encode(bytes, opt);
        ASSERT_EQ(text.size(), b64::encoded_size(n, opt));
        // Character by character from the definition.
        const char* chars =
            alpha == b64::alphabet::standard
                ? "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
                : "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        for (std::size_t c = 0; c < n * 8 / 6; ++c) {
          unsigned v = 0;
          for (unsigned bit = 0; bit < 6; ++bit) {
            const std::size_t pos = c * 6 + bit;
            v = v << 1 | (std::to_integer<unsigned>(bytes[pos / 8]) >> (7 - pos % 8) & 1U);
          }
          ASSERT_EQ(text[c], chars[v]) << n << " " << c;
        }
        for (const auto k : kernels()) {
          ASSERT_EQ(encode_with(k, bytes, opt), text) << n << " kernel " << int(k);
          ASSERT_EQ(decode_with(k, text, opt), bytes) << n << " kernel " << int(k);
        }
      }
    }
  }
}

// From 8 MB of raw bytes on, the vector kernels store around the caches: the AVX2 encoder into a
// 16-byte aligned output, the AVX-512 encoder and decoder from a 64-byte boundary they first reach
// with single groups (the encoder from an output at a multiple of 4 bytes). The same text and
// bytes as the portable codec, at and around that size, into outputs at every alignment that
// matters, both alphabets, with the tails the portable code finishes.
TEST(Base64, LargeInputsMatchThePortableCodec) {
  std::mt19937_64 rng(65);
  for (const std::size_t n : {(std::size_t{8} << 20) - 1, std::size_t{8} << 20,
                              (std::size_t{8} << 20) + 2, (std::size_t{9} << 20) + 1}) {
    std::vector<std::byte> bytes(n);
    for (auto& b : bytes) b = static_cast<std::byte>(rng());
    for (const auto alpha : {b64::alphabet::standard, b64::alphabet::url}) {
      const std::string expected = b64::encode(bytes, {alpha, true, false});
      for (const auto k : kernels()) {
        for (const std::size_t shift : {0, 1, 4, 16, 60}) {
          std::vector<char> out(expected.size() + 128);
          char* const at =
              out.data() + (64 - reinterpret_cast<std::uintptr_t>(out.data()) % 64) % 64 + shift;
          bale::base64::detail::encode_with(k, bytes, at, {alpha, true});
          ASSERT_EQ(std::string_view(at, expected.size()), expected)
              << n << " " << shift << " kernel " << int(k);
        }
        for (const std::size_t shift : {0, 1, 3, 16, 63}) {
          std::vector<std::byte> out(n + 128);
          std::byte* const at =
              out.data() + (64 - reinterpret_cast<std::uintptr_t>(out.data()) % 64) % 64 + shift;
          bale::base64::detail::decode_with(k, expected, at, {alpha, true});
          ASSERT_TRUE(std::equal(bytes.begin(), bytes.end(), at))
              << n << " " << shift << " kernel " << int(k);
        }
      }
    }
  }
}

// From 8 MB of output on, the AVX-512 decoder aligns its output with single groups and then
// writes four blocks at a time around the caches: the same bytes at every alignment of the output
// that matters, and a bad character anywhere stops every kernel at its offset (among the single
// groups, in each block of four, in the last blocks).
TEST(Base64, BadCharacterInALargeInput) {
  std::vector<std::byte> bytes((std::size_t{8} << 20) + 5);
  std::mt19937_64 rng(66);
  for (auto& b : bytes) b = static_cast<std::byte>(rng());
  std::string text = b64::encode(bytes);
  const std::vector<std::size_t> offsets = {
      1, 6, 7, 250, 260, 300, 390, 450, 511, text.size() / 2, text.size() - 70, text.size() - 9};
  for (const auto k : kernels()) {
    for (const std::size_t shift : {0, 5, 32}) {
      std::vector<std::byte> out(bytes.size() + 128);
      std::byte* const to =
          out.data() + (64 - reinterpret_cast<std::uintptr_t>(out.data()) % 64) % 64 + shift;
      bale::base64::detail::decode_with(k, text, to, {});
      ASSERT_TRUE(std::equal(bytes.begin(), bytes.end(), to)) << shift << " kernel " << int(k);
      for (const std::size_t at : offsets) {
        const char saved = text[at];
        text[at] = static_cast<char>(at % 2 == 0 ? '*' : 0xC3);
        try {
          bale::base64::detail::decode_with(k, text, to, {});
          ADD_FAILURE() << "no error at " << at << " kernel " << int(k);
        } catch (const bale::error& e) {
          EXPECT_EQ(e.offset(), at) << shift << " kernel " << int(k);
        }
        text[at] = saved;
      }
    }
  }
}

TEST(Base64, EveryBadCharacterAtEveryPositionOfABlock) {
  // Two blocks of the widest kernel (64 characters each): a bad character in the first, in the
  // second, or in a block after good ones is reported at its offset by every kernel.
  std::vector<std::byte> bytes(144);
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<std::byte>(i * 37);
  for (const auto alpha : {b64::alphabet::standard, b64::alphabet::url}) {
    const b64::options opt{alpha, true};
    const std::string good = b64::encode(bytes, opt);
    const std::string_view alphabet =
        alpha == b64::alphabet::standard
            ? "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
            : "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    for (unsigned c = 0; c < 256; ++c) {
      const bool valid = alphabet.find(static_cast<char>(c)) != std::string_view::npos;
      for (std::size_t at = 0; at < 128; at += 5) {
        std::string bad = good;
        bad[at] = static_cast<char>(c);
        for (const auto k : kernels()) {
          std::vector<std::byte> out(bytes.size());
          try {
            bale::base64::detail::decode_with(k, bad, out.data(), opt);
            EXPECT_TRUE(valid) << c << " at " << at << " kernel " << int(k);
          } catch (const bale::error& e) {
            EXPECT_FALSE(valid) << c << " at " << at << " kernel " << int(k);
            EXPECT_EQ(e.offset(), at) << c << " at " << at << " kernel " << int(k);
          }
        }
      }
    }
  }
}

}  // namespace
