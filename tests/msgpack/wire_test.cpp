// SPDX-License-Identifier: BSL-1.0
// MessagePack byte for byte: the encodings docs/format/msgpack.md lists, as bale writes and reads
// them.
#include <gtest/gtest.h>

#include <bale/all.hpp>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace {

std::string hex(const std::vector<std::byte>& bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  for (const std::byte b : bytes) {
    if (!out.empty()) out += ' ';
    const auto v = std::to_integer<unsigned>(b);
    out += digits[v >> 4];
    out += digits[v & 15];
  }
  return out;
}

std::vector<std::byte> unhex(std::string_view text) {
  std::vector<std::byte> out;
  for (std::size_t i = 0; i + 1 < text.size() + 1; i += 3)
    out.push_back(static_cast<std::byte>(std::stoul(std::string(text.substr(i, 2)), nullptr, 16)));
  return out;
}

template <class T>
std::string written(const T& value) {
  return hex(bale::serialize<bale::msgpack>(value));
}

template <class T>
void expect_bytes(const T& value, std::string_view expected) {
  EXPECT_EQ(written(value), expected);
  EXPECT_TRUE((bale::deserialize<T, bale::msgpack>(unhex(expected)) == value)) << expected;
}

TEST(MsgpackWire, IntegersTakeTheirSmallestForm) {
  expect_bytes(0, "00");
  expect_bytes(127, "7f");
  expect_bytes(128, "cc 80");
  expect_bytes(255, "cc ff");
  expect_bytes(256, "cd 01 00");
  expect_bytes(65535, "cd ff ff");
  expect_bytes(65536, "ce 00 01 00 00");
  expect_bytes(std::uint64_t{1} << 32, "cf 00 00 00 01 00 00 00 00");
  expect_bytes(-1, "ff");
  expect_bytes(-32, "e0");
  expect_bytes(-33, "d0 df");
  expect_bytes(-128, "d0 80");
  expect_bytes(-129, "d1 ff 7f");
  expect_bytes(-32768, "d1 80 00");
  expect_bytes(-32769, "d2 ff ff 7f ff");
  expect_bytes(std::numeric_limits<std::int64_t>::min(), "d3 80 00 00 00 00 00 00 00");
  expect_bytes(std::int64_t{5}, "05");  // the width of the C++ type does not matter
  expect_bytes(std::int8_t{-5}, "fb");
  expect_bytes(std::uint16_t{200}, "cc c8");
  expect_bytes('A', "41");
}

TEST(MsgpackWire, AnyIntegerFormReadsWhenTheValueFits) {
  EXPECT_EQ((bale::deserialize<std::uint8_t, bale::msgpack>(unhex("d3 00 00 00 00 00 00 00 07"))),
            7);
  EXPECT_EQ((bale::deserialize<int, bale::msgpack>(unhex("cd 01 00"))), 256);
  EXPECT_EQ((bale::deserialize<std::int64_t, bale::msgpack>(unhex("d0 80"))), -128);
  auto too_big = bale::try_deserialize<std::uint8_t, bale::msgpack>(unhex("cd 01 00"));
  ASSERT_FALSE(too_big);
  EXPECT_EQ(too_big.error().code(), bale::errc::invalid_value);
  auto negative = bale::try_deserialize<unsigned, bale::msgpack>(unhex("ff"));
  ASSERT_FALSE(negative);
  EXPECT_EQ(negative.error().code(), bale::errc::invalid_value);
  auto not_int = bale::try_deserialize<int, bale::msgpack>(unhex("c3"));
  ASSERT_FALSE(not_int);
  EXPECT_NE(std::string(not_int.error().what()).find("expected an integer, found a bool"),
            std::string::npos)
      << not_int.error().what();
}

TEST(MsgpackWire, BoolsAndFloats) {
  expect_bytes(false, "c2");
  expect_bytes(true, "c3");
  expect_bytes(1.5f, "ca 3f c0 00 00");
  expect_bytes(1.5, "cb 3f f8 00 00 00 00 00 00");
  // float32 widens into a double; float64 narrows into a float only when exact.
  EXPECT_EQ((bale::deserialize<double, bale::msgpack>(unhex("ca 3f c0 00 00"))), 1.5);
  EXPECT_EQ((bale::deserialize<float, bale::msgpack>(unhex("cb 3f f8 00 00 00 00 00 00"))), 1.5f);
  EXPECT_FALSE((bale::try_deserialize<float, bale::msgpack>(bale::serialize<bale::msgpack>(0.1))));
  // A whole value written as an integer (as msgpack-cxx does) reads when the float holds it
  // exactly.
  EXPECT_EQ((bale::deserialize<double, bale::msgpack>(unhex("d0 80"))), -128.0);
  EXPECT_EQ((bale::deserialize<float, bale::msgpack>(unhex("ce 01 00 00 00"))), 16777216.0f);
  EXPECT_FALSE((bale::try_deserialize<float, bale::msgpack>(unhex("ce 01 00 00 01"))));
  EXPECT_EQ((bale::deserialize<double, bale::msgpack>(unhex("cf 80 00 00 00 00 00 00 00"))),
            9223372036854775808.0);
  EXPECT_FALSE((bale::try_deserialize<double, bale::msgpack>(unhex("cf ff ff ff ff ff ff ff ff"))));
  EXPECT_FALSE((bale::try_deserialize<double, bale::msgpack>(unhex("c3"))));  // not a number
}

TEST(MsgpackWire, StringsAndBytes) {
  expect_bytes(std::string(), "a0");
  expect_bytes(std::string("hi"), "a2 68 69");
  EXPECT_EQ(written(std::string(31, 'x')).substr(0, 2), "bf");
  EXPECT_EQ(written(std::string(32, 'x')).substr(0, 5), "d9 20");
  EXPECT_EQ(written(std::string(256, 'x')).substr(0, 8), "da 01 00");
  EXPECT_EQ(written(std::string(65536, 'x')).substr(0, 14), "db 00 01 00 00");
  // Byte containers are bin, even when empty.
  expect_bytes(std::vector<std::byte>{}, "c4 00");
  expect_bytes(std::vector<std::uint8_t>{1, 2}, "c4 02 01 02");
  expect_bytes(std::vector<char>{'a'}, "c4 01 61");
  EXPECT_EQ(written(std::vector<std::byte>(256)).substr(0, 8), "c5 01 00");
  // Strings of wider characters are arrays of their code units.
  expect_bytes(std::u16string(u"\u00e9"), "91 cc e9");
}

TEST(MsgpackWire, Containers) {
  expect_bytes(std::vector<int>{1, 2, 300}, "93 01 02 cd 01 2c");
  EXPECT_EQ(written(std::vector<int>(15)).substr(0, 2), "9f");
  EXPECT_EQ(written(std::vector<int>(16)).substr(0, 8), "dc 00 10");
  EXPECT_EQ(written(std::vector<int>(65536)).substr(0, 14), "dd 00 01 00 00");
  expect_bytes(std::map<std::string, int>{{"a", 1}, {"b", -1}}, "82 a1 61 01 a1 62 ff");
  expect_bytes(std::map<int, bool>{{7, true}}, "81 07 c3");  // keys of any type
  EXPECT_EQ(written(std::map<int, int>{}), "80");
  expect_bytes(std::pair<int, std::string>{1, "x"}, "92 01 a1 78");
  expect_bytes(std::array<std::uint8_t, 2>{9, 8}, "92 09 08");  // fixed size: an array
}

TEST(MsgpackWire, OptionalsAndVariants) {
  expect_bytes(std::optional<int>(), "c0");
  expect_bytes(std::optional<int>(3), "03");
  expect_bytes(std::optional<std::optional<int>>(std::optional<int>(3)), "03");
  // An empty optional inside a present one would be nil as well: it has no form of its own.
  const std::optional<std::optional<int>> ambiguous{std::optional<int>{}};
  try {
    (void)bale::serialize<bale::msgpack>(ambiguous);
    ADD_FAILURE() << "no error";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::invalid_value);
  }
  using v = std::variant<int, std::string>;
  expect_bytes(v(std::string("s")), "92 01 a1 73");
  expect_bytes(v(-1), "92 00 ff");
  expect_bytes(std::variant<std::monostate, int>(), "92 00 c0");
  auto bad_index = bale::try_deserialize<v, bale::msgpack>(unhex("92 02 00"));
  ASSERT_FALSE(bad_index);
  EXPECT_EQ(bad_index.error().code(), bale::errc::invalid_value);
}

struct sample {
  int id = 0;
  std::string name;
  std::vector<double> values;
  bool operator==(const sample&) const = default;
};

TEST(MsgpackWire, StructsAreMapsOfMemberNames) {
  // {"id": 7, "name": "ab", "values": [0.5]}
  const std::string bytes =
      "83 a2 69 64 07 a4 6e 61 6d 65 a2 61 62 a6 76 61 6c 75 65 73 91 cb 3f e0 00 00 00 00 00 00";
  expect_bytes(sample{7, "ab", {0.5}}, bytes);
  // Any order reads; so does an array of every member in declaration order.
  const std::string reordered = "83 a6 76 61 6c 75 65 73 90 a2 69 64 07 a4 6e 61 6d 65 a2 61 62";
  EXPECT_EQ((bale::deserialize<sample, bale::msgpack>(unhex(reordered))), (sample{7, "ab", {}}));
  EXPECT_EQ((bale::deserialize<sample, bale::msgpack>(unhex("93 07 a2 61 62 90"))),
            (sample{7, "ab", {}}));
}

TEST(MsgpackWire, StructErrorsNameTheMember) {
  const auto fails_with = [](std::string_view bytes, std::string_view message) {
    auto r = bale::try_deserialize<sample, bale::msgpack>(unhex(bytes));
    ASSERT_FALSE(r) << bytes;
    EXPECT_EQ(r.error().code(), bale::errc::invalid_value);
    EXPECT_NE(std::string(r.error().what()).find(message), std::string::npos) << r.error().what();
  };
  fails_with("82 a2 69 64 07 a4 6e 61 6d 65 a2 61 62", "missing member \"values\"");
  fails_with("84 a2 69 64 07 a4 6e 61 6d 65 a2 61 62 a6 76 61 6c 75 65 73 90 a1 7a 00",
             "unknown member \"z\"");
  fails_with("83 a2 69 64 07 a2 69 64 07 a6 76 61 6c 75 65 73 90", "duplicate member \"id\"");
  fails_with("83 a2 69 64 c3 a4 6e 61 6d 65 a2 61 62 a6 76 61 6c 75 65 73 90", "id");
  fails_with("92 07 a2 61 62", "expected 3 values, found 2");
}

// Hand-described types: named values make a map, unnamed ones an array.
struct labelled {
  int a = 0;
  std::string b;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bale::field("a", a), bale::field("b", b));
  }
  bool operator==(const labelled&) const = default;
};
struct positional {
  int a = 0;
  std::string b;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(a, b);
  }
  bool operator==(const positional&) const = default;
};
struct mixed {
  int a = 0;
  int b = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bale::field("a", a), b);
  }
};

TEST(MsgpackWire, HandDescribedTypes) {
  expect_bytes(labelled{1, "x"}, "82 a1 61 01 a1 62 a1 78");
  EXPECT_EQ((bale::deserialize<labelled, bale::msgpack>(unhex("82 a1 62 a1 78 a1 61 01"))),
            (labelled{1, "x"}));
  expect_bytes(positional{1, "x"}, "92 01 a1 78");
  expect_bytes(std::vector<labelled>{{1, "x"}, {2, ""}},
               "92 82 a1 61 01 a1 62 a1 78 82 a1 61 02 a1 62 a0");
  EXPECT_THROW((void)bale::serialize<bale::msgpack>(mixed{}), bale::error);
  EXPECT_FALSE((bale::try_deserialize<labelled, bale::msgpack>(unhex("82 a1 61 01 a1 63 a1 78"))));
  EXPECT_FALSE((bale::try_deserialize<labelled, bale::msgpack>(unhex("81 a1 61 01"))));
  EXPECT_FALSE((bale::try_deserialize<positional, bale::msgpack>(unhex("91 01"))));
  EXPECT_FALSE((bale::try_deserialize<positional, bale::msgpack>(unhex("93 01 a1 78 00"))));
}

struct nested {
  std::vector<std::vector<int>> grid;
  std::string tag;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bale::field("grid", grid), bale::field("tag", tag));
  }
  bool operator==(const nested&) const = default;
};

TEST(MsgpackWire, HandDescribedMembersInAnyOrderAreFoundBySkipping) {
  // {"tag": "t", "grid": [[1], [2, 3]]}: reading "grid" first steps over "tag", then comes back.
  EXPECT_EQ((bale::deserialize<nested, bale::msgpack>(
                unhex("82 a3 74 61 67 a1 74 a4 67 72 69 64 92 91 01 92 02 03"))),
            (nested{{{1}, {2, 3}}, "t"}));
  // Skipping sees every kind of value, extensions included; an unknown member is still an error.
  auto r = bale::try_deserialize<nested, bale::msgpack>(
      unhex("83 a1 78 c7 02 05 aa bb a3 74 61 67 a1 74 a4 67 72 69 64 90"));
  ASSERT_FALSE(r);
  EXPECT_NE(std::string(r.error().what()).find("unknown member \"x\""), std::string::npos)
      << r.error().what();
}

TEST(MsgpackWire, ExtensionsAndTheUnusedByteAreErrorsWhereAValueIsRead) {
  // An extension value where an int is expected is an error with its type byte.
  auto r = bale::try_deserialize<int, bale::msgpack>(unhex("d4 01 00"));
  ASSERT_FALSE(r);
  EXPECT_NE(std::string(r.error().what()).find("an extension (0xd4)"), std::string::npos);
  auto never = bale::try_deserialize<int, bale::msgpack>(unhex("c1"));
  ASSERT_FALSE(never);
  EXPECT_NE(std::string(never.error().what()).find("0xc1"), std::string::npos);
}

}  // namespace
