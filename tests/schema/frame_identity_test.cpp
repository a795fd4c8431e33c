// SPDX-License-Identifier: BSL-1.0
// A framed message names its writer's schema by the SHA-256 digest of the text: a schema sent by
// anyone else, first or later, cannot be taken for it. Frames of format version 1 (the 64-bit
// fingerprint) still read.

#include <gtest/gtest.h>
#include <bale/all.hpp>
#include <bale/schema/message.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace writer {
struct point {
  std::int32_t x = 0;
  std::int32_t y = 0;
};
struct swapped {  // what an attacker claims the writer wrote: the same members, y first
  std::int32_t y = 0;
  std::int32_t x = 0;
};
}  // namespace writer

namespace reader {
struct point {
  std::int32_t x = 0;
  std::int32_t y = 0;
  std::int32_t z = 0;  // a newer member: the writer's schema is resolved, never read directly
  bool operator==(const point&) const = default;
};
}  // namespace reader

namespace {

std::string hex(const bale::sha256_digest& d) {
  std::string out;
  for (const std::byte b : d) {
    constexpr std::string_view digits = "0123456789abcdef";
    out += digits[static_cast<unsigned>(b) >> 4];
    out += digits[static_cast<unsigned>(b) & 15];
  }
  return out;
}

TEST(Sha256, KnownAnswers) {  // FIPS 180-4's examples
  EXPECT_EQ(hex(bale::sha256("")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(hex(bale::sha256("abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(hex(bale::sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(hex(bale::sha256(std::string(1000000, 'a'))),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  // Lengths around the padding's boundary (55, 56, 63, 64 bytes) differ from each other.
  EXPECT_NE(bale::sha256(std::string(55, 'a')), bale::sha256(std::string(56, 'a')));
  EXPECT_NE(bale::sha256(std::string(63, 'a')), bale::sha256(std::string(64, 'a')));
}

// A frame of kind 4 carrying `text` under the name `digest`.
std::vector<std::byte> frame_with(std::string_view text, const bale::sha256_digest& digest,
                                  std::span<const std::byte> value) {
  std::vector<std::byte> out(37 + text.size());
  out[0] = std::byte{4};
  std::memcpy(out.data() + 1, digest.data(), digest.size());
  bale::detail::put_u32(out.data() + 33, static_cast<std::uint32_t>(text.size()));
  std::memcpy(out.data() + 37, text.data(), text.size());
  out.insert(out.end(), value.begin(), value.end());
  return out;
}

// A frame of format version 1: kind 1 (the fingerprint), or 2 (the text follows).
std::vector<std::byte> format_1_frame(const bale::type_schema& schema, bool with_text,
                                      std::span<const std::byte> value) {
  std::vector<std::byte> out(9 + (with_text ? 4 + schema.text().size() : 0));
  out[0] = with_text ? std::byte{2} : std::byte{1};
  bale::detail::put_u64(out.data() + 1, schema.fingerprint());
  if (with_text) {
    bale::detail::put_u32(out.data() + 9, static_cast<std::uint32_t>(schema.text().size()));
    std::memcpy(out.data() + 13, schema.text().data(), schema.text().size());
  }
  out.insert(out.end(), value.begin(), value.end());
  return out;
}

TEST(FrameIdentity, AnotherTextCannotTakeTheWritersName) {
  const writer::point sent{1, 2};
  const auto value = bale::serialize(sent);
  const std::string& forged = bale::schema_of<writer::swapped>().text();
  const bale::sha256_digest& honest = bale::schema_of<writer::point>().digest();
  bale::schema_cache cache;
  // Under the writer's name, the attacker's text is refused...
  try {
    (void)bale::deserialize_framed<reader::point>(frame_with(forged, honest, value), cache);
    FAIL() << "a text was taken under another text's digest";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::checksum_mismatch) << e.what();
  }
  // ... and under its own name it is learnt as what it is, another schema.
  EXPECT_EQ(bale::deserialize_framed<reader::point>(frame_with(forged, bale::sha256(forged), value),
                                                    cache),
            (reader::point{2, 1, 0}));
  EXPECT_EQ(cache.size(), 1U);
  // The honest writer's frames that name its schema only are never read with that text.
  const auto next = bale::serialize_framed(sent);
  try {
    (void)bale::deserialize_framed<reader::point>(next, cache);
    FAIL() << "read a frame of a schema the cache does not know";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::wrong_type) << e.what();
  }
  // Once its text arrives (before or after the attacker's), its frames read as written.
  EXPECT_EQ(bale::deserialize_framed<reader::point>(
                bale::serialize_framed(sent, {.with_schema = true}), cache),
            (reader::point{1, 2, 0}));
  EXPECT_EQ(bale::deserialize_framed<reader::point>(next, cache), (reader::point{1, 2, 0}));
}

TEST(FrameIdentity, FormatOneFramesStillRead) {
  const writer::point sent{3, 4};
  const auto value = bale::serialize(sent);
  const bale::type_schema& schema = bale::schema_of<writer::point>();
  bale::schema_cache cache;
  EXPECT_EQ(bale::deserialize_framed<reader::point>(format_1_frame(schema, true, value), cache),
            (reader::point{3, 4, 0}));
  EXPECT_TRUE(cache.contains(schema.fingerprint()));
  EXPECT_EQ(bale::deserialize_framed<reader::point>(format_1_frame(schema, false, value), cache),
            (reader::point{3, 4, 0}));
  // A reader of the writer's own type needs no cache.
  bale::schema_cache empty;
  EXPECT_EQ(bale::deserialize_framed<writer::point>(format_1_frame(schema, false, value), empty).y,
            4);
  // A cut format 1 frame is an error at its end.
  const auto frame = format_1_frame(schema, true, value);
  try {
    (void)bale::deserialize_framed<reader::point>(std::span(frame).first(11), empty);
    FAIL();
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::end_of_input) << e.what();
  }
}

// A format 1 frame's fingerprint is looked up only among texts the program added or format 1
// frames carried: a text that came by digest is never found by a 64-bit name.
TEST(FrameIdentity, FormatOneNamesDoNotReachTextsThatCameByDigest) {
  const writer::point sent{5, 6};
  const auto value = bale::serialize(sent);
  const bale::type_schema& schema = bale::schema_of<writer::point>();
  bale::schema_cache cache;
  (void)bale::deserialize_framed<reader::point>(bale::serialize_framed(sent, {.with_schema = true}),
                                                cache);
  EXPECT_TRUE(cache.contains(schema.digest()));
  EXPECT_FALSE(cache.contains(schema.fingerprint()));
  EXPECT_THROW(
      (void)bale::deserialize_framed<reader::point>(format_1_frame(schema, false, value), cache),
      bale::error);
  cache.add<writer::point>();  // the program vouches for the text
  EXPECT_EQ(bale::deserialize_framed<reader::point>(format_1_frame(schema, false, value), cache),
            (reader::point{5, 6, 0}));
}

}  // namespace
