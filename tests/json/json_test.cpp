// SPDX-License-Identifier: BSL-1.0
// JSON: exact text for a set of values, round trips of every kind of type, reading options, and
// malformed input of every kind the issue lists.
#include <gtest/gtest.h>
#include <bale/all.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <deque>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <thread>
#include <unordered_map>
#include <variant>

namespace json_app {

struct point {
  int x = 0;
  int y = 0;
  auto operator<=>(const point&) const = default;
};

struct shape {
  std::string name;
  std::vector<point> corners;
  std::optional<double> area;
  bool operator==(const shape&) const = default;
};

// Named fields through a member serialize: an object.
class account {
 public:
  account() = default;
  account(std::string owner, std::int64_t balance) : owner_(std::move(owner)), balance_(balance) {}
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bale::field("owner", owner_), bale::field("balance", balance_));
  }
  bool operator==(const account&) const = default;

 private:
  std::string owner_;
  std::int64_t balance_ = 0;
};

// Split save/load through accessors: the saved fields are computed values.
class celsius {
 public:
  celsius() = default;
  explicit celsius(double degrees) : degrees_(degrees) {}
  double degrees() const { return degrees_; }
  template <class Archive>
  void save(Archive& ar) const {
    ar(bale::field("degrees", degrees()), bale::field("label", std::string("C")));
  }
  template <class Archive>
  void load(Archive& ar) {
    std::string label;
    ar(bale::field("degrees", degrees_), bale::field("label", label));
  }

 private:
  double degrees_ = 0;
};

// Positional members: an array.
struct pair_of {
  int a = 0;
  std::string b;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(a, b);
  }
  bool operator==(const pair_of&) const = default;
};

// Writes a member as its own JSON text inside a string: to_json called while to_json runs.
struct envelope {
  point inner;
  template <class Archive>
  void save(Archive& ar) const {
    const std::string text = bale::to_json(inner);
    ar(bale::field("inner", text));
  }
  template <class Archive>
  void load(Archive& ar) {
    std::string text;
    ar(bale::field("inner", text));
    inner = bale::from_json<point>(text);
  }
  bool operator==(const envelope&) const = default;
};

struct listed {
  int id = 0;
  std::string label;
  bool operator==(const listed&) const = default;
};
BALE_REFLECT(listed, id, label)

enum class color : std::uint8_t { red, green, blue };

}  // namespace json_app

namespace {

using namespace json_app;

template <class T>
void expect_json(const T& value, std::string_view text) {
  EXPECT_EQ(bale::to_json(value), text);
  EXPECT_EQ(bale::from_json<T>(text), value) << text;
}

template <class T>
void expect_roundtrip(const T& value) {
  const std::string text = bale::to_json(value);
  EXPECT_EQ(bale::from_json<T>(text), value) << text;
  const std::string pretty = bale::to_json(value, {.pretty = true, .indent = 3});
  EXPECT_EQ(bale::from_json<T>(pretty), value) << pretty;
  // The generic entry points give the same text.
  const auto bytes = bale::serialize<bale::json>(value);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()), text);
  EXPECT_EQ((bale::deserialize<T, bale::json>(bytes)), value);
}

TEST(JsonText, Scalars) {
  expect_json(true, "true");
  expect_json(std::int64_t{-9223372036854775807 - 1}, "-9223372036854775808");
  expect_json(std::uint64_t{18446744073709551615u}, "18446744073709551615");
  expect_json(0.1, "0.1");
  expect_json(1e300, "1e+300");
  expect_json(-0.0, "-0");
  expect_json(0.1f, "0.1");
  expect_json(color::blue, "2");
  expect_json(std::string("a\"b\\c\n\x01\xc3\xa9"), R"("a\"b\\c\n\u0001é")");
}

// Strings that need escapes, short and longer than the writer writes in one piece (1024 bytes),
// with sequences of every length across the piece boundaries, against an escaping done here.
TEST(JsonText, EscapedStrings) {
  const std::string pieces[] = {
      "a", "\"", "\\", "\n", "\t", "\x1f", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "bale"};
  auto escaped = [](const std::string& piece) -> std::string {
    if (piece == "\"") return "\\\"";
    if (piece == "\\") return "\\\\";
    if (piece == "\n") return "\\n";
    if (piece == "\t") return "\\t";
    if (piece == "\x1f") return "\\u001f";
    return piece;
  };
  std::mt19937 rng(5);
  for (const std::size_t pieces_count : {1u, 7u, 300u, 1000u, 3000u}) {
    std::string text, expected = "\"";
    for (std::size_t i = 0; i < pieces_count; ++i) {
      const std::string& piece = pieces[rng() % std::size(pieces)];
      text += piece;
      expected += escaped(piece);
    }
    expect_json(text, expected + "\"");
  }
  // Invalid UTF-8 past the first piece: the byte in the string and the place in the text.
  std::string bad(2000, 'x');
  bad[1500] = '\n';
  bad[1700] = '\xff';
  try {
    (void)bale::to_json(bad);
    ADD_FAILURE() << "invalid UTF-8 written";
  } catch (const bale::error& e) {
    EXPECT_NE(std::string(e.what()).find("at its byte 1700"), std::string::npos) << e.what();
    EXPECT_EQ(e.offset(), 1702u) << "past the quote and the escape's extra byte";
  }
}

// Each length from 0 to 40 (the short-string words, one or two words, 16-byte steps and their
// overlapping last step, the escaper's tail word), with one byte or sequence that needs attention
// at each place, as a value and as a map key, written and read back; a stray byte past the end of
// the string must not count; invalid UTF-8 at each place names its byte.
TEST(JsonText, ShortStringsWithOneSpecialByteAnywhere) {
  const std::pair<std::string, std::string> specials[] = {{"\"", "\\\""},
                                                          {"\\", "\\\\"},
                                                          {"\x01", "\\u0001"},
                                                          {"\n", "\\n"},
                                                          {"\x7f", "\x7f"},
                                                          {"\xc3\xa9", "\xc3\xa9"},
                                                          {"\xe2\x82\xac", "\xe2\x82\xac"},
                                                          {"\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80"}};
  for (std::size_t n = 0; n <= 40; ++n) {
    const std::string plain(n, 'k');
    expect_json(plain, "\"" + plain + "\"");
    expect_json(std::map<std::string, int>{{plain, 1}}, "{\"" + plain + "\":1}");
    // A plain string cut from a longer one that goes on with a quote.
    const std::string longer = plain + "\"\"\"\"\"\"\"\"";
    EXPECT_EQ(bale::to_json(std::string_view(longer).substr(0, n)), "\"" + plain + "\"");
    for (std::size_t at = 0; at < n; ++at) {
      for (const auto& [raw, escaped] : specials) {
        const std::string text = plain.substr(0, at) + raw + plain.substr(at + 1);
        const std::string expected = plain.substr(0, at) + escaped + plain.substr(at + 1);
        expect_json(text, "\"" + expected + "\"");
        expect_json(std::map<std::string, int>{{text, 2}}, "{\"" + expected + "\":2}");
      }
      // Two that need attention, the second in the escaper's tail.
      const std::string twice = plain.substr(0, at) + "\xc3\xa9" + plain.substr(at + 1) + "\\";
      expect_json(twice, "\"" + plain.substr(0, at) + "\xc3\xa9" + plain.substr(at + 1) + "\\\\\"");
      for (const std::string bad : {"\xff", "\xc3", "\xe2\x82", "\xed\xa0\x80"}) {
        const std::string text = plain.substr(0, at) + bad + plain.substr(at + 1);
        try {
          (void)bale::to_json(text);
          ADD_FAILURE() << "invalid UTF-8 written at " << at << " of " << n;
        } catch (const bale::error& e) {
          EXPECT_NE(std::string(e.what()).find("at its byte " + std::to_string(at) + " "),
                    std::string::npos)
              << e.what();
        }
      }
    }
  }
  EXPECT_THROW((void)bale::to_json(std::string("ab\xff")), bale::error);
  EXPECT_THROW((void)bale::to_json(std::string("abcdefghij\xc3")), bale::error);
}

// serialized_size<bale::json> counts without writing: the same length as the text, on the paths
// that write in place (number arrays, plain keys, escaped and long strings, base64).
TEST(JsonText, CountedSizeIsTheTextLength) {
  auto expect_counted = [](const auto& value) {
    EXPECT_EQ(bale::serialized_size<bale::json>(value), bale::to_json(value).size());
  };
  expect_counted(std::vector<double>(1000, 0.1));
  expect_counted(std::map<std::string, int>{{"plain", 1}, {"esc\"aped", 2}, {"", 3}});
  expect_counted(std::string("a\"b\\c\n\x01\xc3\xa9"));
  std::string long_text(5000, 'x');
  for (std::size_t i = 0; i < long_text.size(); i += 7) long_text[i] = '\t';
  expect_counted(long_text);
  expect_counted(std::vector<std::byte>(100, std::byte{7}));
  expect_counted(point{1, -2});
}

// Arrays of numbers take a path of their own in minified text; pretty text takes the general one.
TEST(JsonText, ArraysOfNumbers) {
  expect_json(std::vector<int>{}, "[]");
  expect_json(std::vector<int>{-1, 0, 2147483647}, "[-1,0,2147483647]");
  expect_json(std::vector<double>{0.5, -1e-7, 1e21}, "[0.5,-1e-07,1e+21]");
  expect_json(std::array<float, 3>{1.5f, 0.1f, -0.0f}, "[1.5,0.1,-0]");
  expect_json(std::vector<bool>{true, false}, "[true,false]");
  // Longer than one chunk of the compact path: the chunks join with a comma.
  std::vector<std::int64_t> many(1000);
  std::string many_text = "[";
  for (std::size_t i = 0; i < many.size(); ++i) {
    many[i] = static_cast<std::int64_t>(i * i) - 500;
    many_text += (i == 0 ? "" : ",") + std::to_string(many[i]);
  }
  expect_json(many, many_text + "]");
  expect_json(std::vector<std::vector<std::int8_t>>{{-128, 127}, {}, {0}}, "[[-128,127],[],[0]]");
  const point corners[2] = {{1, 2}, {3, 4}};
  EXPECT_EQ(bale::to_json(corners), R"([{"x":1,"y":2},{"x":3,"y":4}])");
  EXPECT_EQ(bale::to_json(std::vector<int>{1, 2}, {.pretty = true, .indent = 1}), "[\n 1,\n 2\n]");
  // Non-finite values inside an array: refused, or named when allowed.
  const std::vector<double> odd{1.0, std::nan(""), -INFINITY};
  EXPECT_THROW((void)bale::to_json(odd), bale::error);
  try {
    (void)bale::to_json(odd);
  } catch (const bale::error& e) {
    EXPECT_EQ(e.offset(), 3u) << "the NaN's place in the text";
  }
  EXPECT_EQ(bale::to_json(odd, {.allow_non_finite = true}), "[1,NaN,-Infinity]");
}

TEST(JsonText, Structures) {
  expect_json(point{1, -2}, R"({"x":1,"y":-2})");
  expect_json(shape{"tri", {{0, 0}, {1, 0}}, std::nullopt},
              R"({"name":"tri","corners":[{"x":0,"y":0},{"x":1,"y":0}],"area":null})");
  expect_json(account("ann", 5), R"({"owner":"ann","balance":5})");
  expect_json(pair_of{3, "z"}, R"([3,"z"])");
  expect_json(listed{4, "four"}, R"({"id":4,"label":"four"})");
  expect_json(std::map<std::string, int>{{"a", 1}, {"b", 2}}, R"({"a":1,"b":2})");
  expect_json(std::map<int, bool>{{-1, true}}, R"({"-1":true})");
  // Keys that need no escape are written with their punctuation in one go; the others escaped.
  expect_json(
      std::map<std::string, int>{{"", 0}, {"a\"b", 1}, {"a key of many bytes", 2}, {"\xc3\xa9", 3}},
      "{\"\":0,\"a key of many bytes\":2,\"a\\\"b\":1,\"\xc3\xa9\":3}");
  expect_json(
      std::map<std::string, std::map<std::string, int>>{{"o", {{"i", 1}, {"j", 2}}}, {"p", {}}},
      R"({"o":{"i":1,"j":2},"p":{}})");
  EXPECT_EQ(bale::to_json(std::map<std::string, int>{{"a", 1}, {"b", 2}}, {.pretty = true}),
            "{\n  \"a\": 1,\n  \"b\": 2\n}");
  expect_json(std::map<point, int>{}, "[]");
  expect_json(std::tuple<int, std::string, double>{1, "x", 2.5}, R"([1,"x",2.5])");
  expect_json(std::variant<int, std::string>{std::string("v")}, R"([1,"v"])");
  expect_json(std::vector<std::byte>{std::byte{'f'}, std::byte{'o'}, std::byte{'o'}}, R"("Zm9v")");
  expect_json(std::vector<std::uint8_t>{1, 2}, "[1,2]");
  EXPECT_EQ(bale::to_json(std::vector<std::uint8_t>{'f', 'o'}, {.uint8_as_base64 = true}),
            R"("Zm8=")");
  expect_json(std::array<int, 3>{1, 2, 3}, "[1,2,3]");
  expect_json(std::optional<int>{}, "null");
}

TEST(JsonText, AnEmptyOptionalInsideAnOptionalIsRefused) {
  // Both levels would be null: the text could not say which one was empty.
  using nested = std::optional<std::optional<int>>;
  expect_json(nested{}, "null");
  expect_json(nested{std::optional<int>{4}}, "4");
  try {
    (void)bale::to_json(nested{std::optional<int>{}});
    FAIL() << "written";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::invalid_value);
  }
  std::string buffer = "kept";
  EXPECT_THROW(
      bale::to_json_into(buffer, std::vector<nested>{nested{}, nested{std::optional<int>{}}}),
      bale::error);
  EXPECT_EQ(buffer, "kept");  // nothing half-written is left behind
}

TEST(JsonText, NestedCallsAndFailuresLeaveToJsonUsable) {
  const envelope value{{3, -4}};
  const std::string text = bale::to_json(value);
  EXPECT_EQ(text, R"({"inner":"{\"x\":3,\"y\":-4}"})");
  EXPECT_EQ(bale::from_json<envelope>(text), value);
  // A write that fails part way, then the same thread writes again.
  EXPECT_THROW((void)bale::to_json(std::vector<double>(1000, std::nan(""))), bale::error);
  EXPECT_EQ(bale::to_json(std::vector<int>{1, 2}), "[1,2]");
  // Larger than the memory the scratch keeps between calls: written whole, and writing goes on.
  const std::string big(bale::detail::scratch_text::kept_capacity + 10, 'a');
  const std::string big_text = bale::to_json(big);
  ASSERT_EQ(big_text.size(), big.size() + 2);
  EXPECT_EQ(big_text.front(), '"');
  EXPECT_EQ(big_text.back(), '"');
  EXPECT_EQ(bale::to_json(point{1, 2}), R"({"x":1,"y":2})");
}

// A byte buffer with no capacity() or reserve(): the sink grows it by resizing alone.
struct resize_only_buffer {
  using value_type = char;
  std::vector<char> bytes;
  void resize(std::size_t n) { bytes.resize(n); }
  std::size_t size() const { return bytes.size(); }
  char* data() { return bytes.data(); }
};

TEST(JsonText, TextsOfEverySizeInEveryBuffer) {
  // The same values written by to_json (small texts through the scratch, large ones in place,
  // judged by the last text of the type), appended to buffers that already hold bytes, and into
  // a buffer that can only be resized; each step is checked against an independent text.
  const auto numbers = [](std::size_t n, int start) {
    std::vector<std::int64_t> v(n);
    for (std::size_t i = 0; i < n; ++i)
      v[i] = start + static_cast<std::int64_t>(i * 7919 % 1000003);
    return v;
  };
  const auto expected_text = [](const std::vector<std::int64_t>& v) {
    std::string t = "[";
    for (std::size_t i = 0; i < v.size(); ++i) t += (i ? "," : "") + std::to_string(v[i]);
    return t + "]";
  };
  // Small, large (expected small: the scratch), large again (in place), larger (in place, the
  // guess outgrown), small (in place, the guess stale), small again (the scratch).
  for (const std::size_t n : {10, 300'000, 300'000, 700'000, 1'000, 20}) {
    const std::vector<std::int64_t> v = numbers(n, static_cast<int>(n));
    const std::string expected = expected_text(v);
    const std::string text = bale::to_json(v);
    EXPECT_EQ(text, expected) << n;
    EXPECT_LE(text.capacity(), 2 * text.size() + 15) << n;

    std::string appended = "head:";
    bale::to_json_into(appended, v);
    EXPECT_EQ(appended, "head:" + expected) << n;
    std::vector<char> bytes(3, 'x');
    bale::to_json_into(bytes, v);
    EXPECT_EQ(std::string(bytes.begin(), bytes.end()), "xxx" + expected) << n;
    resize_only_buffer plain;
    plain.bytes = {'>'};
    bale::to_json_into(plain, v);
    EXPECT_EQ(std::string(plain.bytes.begin(), plain.bytes.end()), ">" + expected) << n;
  }
  // A large write that fails part way (in place: the last text of the type was large) leaves
  // no trace, and writing goes on.
  std::vector<double> values(400'000, 0.25);
  values.back() = 0.5;
  const std::string good = bale::to_json(values);
  ASSERT_EQ(good.size(), 2'000'000u);  // '[', 399,999 times "0.25,", "0.5]"
  std::vector<double> bad = values;
  bad[200'000] = std::nan("");
  EXPECT_THROW((void)bale::to_json(bad), bale::error);
  std::string kept = "kept";
  EXPECT_THROW(bale::to_json_into(kept, bad), bale::error);
  EXPECT_EQ(kept, "kept");
  EXPECT_EQ(bale::to_json(values), good);
  EXPECT_EQ(bale::from_json<std::vector<double>>(good), values);
}

TEST(JsonText, EachThreadWritesWithItsOwnGuess) {
  // One thread writes large texts (in place, after the first) while another writes small ones of
  // the same type (through its scratch): neither's guess or buffer leaks into the other's.
  const std::vector<std::int64_t> large(200'000, 123456);
  const std::vector<std::int64_t> small{1, 2, 3};
  const std::string large_text = bale::to_json(large);
  const std::string small_text = "[1,2,3]";
  const auto write_many = [](const std::vector<std::int64_t>& v, const std::string& expected,
                             bool& ok) {
    ok = true;
    for (int i = 0; i < 20; ++i) {
      const std::string text = bale::to_json(v);
      ok = ok && text == expected && text.capacity() <= 2 * text.size() + 15;
    }
  };
  bool large_ok = false, small_ok = false;
  std::thread a(write_many, std::cref(large), std::cref(large_text), std::ref(large_ok));
  std::thread b(write_many, std::cref(small), std::cref(small_text), std::ref(small_ok));
  a.join();
  b.join();
  EXPECT_TRUE(large_ok);
  EXPECT_TRUE(small_ok);
}

TEST(JsonText, Pretty) {
  const std::string expected =
      "{\n  \"name\": \"sq\",\n  \"corners\": [\n    {\n      \"x\": 1,\n"
      "      \"y\": 2\n    }\n  ],\n  \"area\": 1\n}";
  EXPECT_EQ(bale::to_json(shape{"sq", {{1, 2}}, 1.0}, {.pretty = true}), expected);
  EXPECT_EQ(bale::to_json(std::vector<int>{}, {.pretty = true}), "[]");
}

TEST(JsonRoundTrip, EveryKindOfType) {
  expect_roundtrip(std::vector<double>{0.1, -1e-310, 1.7976931348623157e308, 5e-324});
  expect_roundtrip(std::vector<float>{0.1f, 3.4e38f, 1e-45f});
  expect_roundtrip(std::deque<std::int16_t>{-32768, 32767});
  expect_roundtrip(std::list<std::string>{"", "a", "\xf0\x9f\x98\x80"});
  expect_roundtrip(std::set<int>{3, 1, 2});
  expect_roundtrip(std::unordered_map<std::string, double>{{"pi", 3.14}, {"e", 2.71}});
  expect_roundtrip(std::map<std::pair<int, int>, std::string>{{{1, 2}, "a"}, {{3, 4}, "b"}});
  expect_roundtrip(std::multimap<int, int>{{1, 1}, {1, 2}});
  expect_roundtrip(std::optional<std::vector<int>>{std::vector<int>{1}});
  expect_roundtrip(std::variant<std::monostate, int, point>{point{5, 6}});
  expect_roundtrip(std::variant<std::monostate, int, point>{});
  expect_roundtrip(std::make_unique<int>(7).operator*());
  expect_roundtrip(std::bitset<70>().set(3).set(69));
  expect_roundtrip(std::complex<double>{1.5, -2});
  expect_roundtrip(std::chrono::milliseconds{1234});
  expect_roundtrip(std::vector<bool>{true, false, true});
  expect_roundtrip(std::u16string(u"h\u00e9"));
  expect_roundtrip(shape{"s", {{1, 2}, {3, 4}}, 12.5});
  expect_roundtrip(std::vector<account>{{"a", 1}, {"b", -2}});
  expect_roundtrip(std::pair<pair_of, listed>{{1, "x"}, {2, "y"}});
  expect_roundtrip(std::vector<std::byte>(100, std::byte{0xAB}));
  const std::valarray<int> numbers{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  const auto back = bale::from_json<std::valarray<int>>(bale::to_json(numbers));
  EXPECT_TRUE((back == numbers).min());
  auto owned =
      bale::from_json<std::unique_ptr<point>>(bale::to_json(std::make_unique<point>(point{1, 2})));
  ASSERT_TRUE(owned);
  EXPECT_EQ(*owned, (point{1, 2}));
}

// Reading into an existing hash map replaces its entries but keeps its buckets, so a map reserved
// by the caller (JSON gives no count up front) is filled without rehashing; a duplicate key is an
// error located within the repeated entry.
TEST(JsonRead, IntoAReservedHashMap) {
  std::unordered_map<std::string, double> map{{"old", 1.0}};
  map.reserve(1000);
  const std::size_t buckets = map.bucket_count();
  std::string text = "{";
  for (int i = 0; i < 500; ++i)
    text += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":" + std::to_string(i) + ".5";
  text += "}";
  bale::from_json(text, map);
  EXPECT_EQ(map.size(), 500u);
  EXPECT_EQ(map.count("old"), 0u);
  EXPECT_EQ(map.at("k499"), 499.5);
  EXPECT_EQ(map.bucket_count(), buckets);
  const auto duplicate =
      bale::try_from_json<std::unordered_map<std::string, int>>(R"({"a":1,"b":2,"a":3})");
  ASSERT_FALSE(duplicate);
  EXPECT_NE(duplicate.error().message().find("duplicate key"), std::string::npos);
  EXPECT_GE(duplicate.error().offset(), 13u);  // within the repeated entry
  EXPECT_LE(duplicate.error().offset(), 18u);
}

TEST(JsonRoundTrip, TypeAwareOptionsBecomePlainJson) {
  struct weights {
    bale::small_float<float> w[2];
    int n = 0;
    bool operator==(const weights&) const = default;
  };
  expect_json(weights{{0.5f, 3.25f}, 2}, R"({"w":[0.5,3.25],"n":2})");
}

bale::error read_error(std::string_view text, const bale::json_options& options = {}) {
  auto r = bale::try_from_json<shape>(text, options);
  if (r) {
    ADD_FAILURE() << "accepted: " << text;
    return bale::error(bale::errc::invalid_value, "", 0);
  }
  return r.error();
}

TEST(JsonRead, MembersInAnyOrderAndTheOptions) {
  EXPECT_EQ(bale::from_json<point>(R"( { "y" : 2 , "x" : 1 } )"), (point{1, 2}));
  EXPECT_EQ(bale::from_json<point>(R"({"\u0078":1,"\u0079":2})"), (point{1, 2}));  // escaped names
  EXPECT_EQ(bale::from_json<listed>(R"({"i\u0064":3,"lab\u0065l":"l"})"), (listed{3, "l"}));
  EXPECT_EQ(bale::from_json<account>(R"({"balance":9,"owner":"o"})"), account("o", 9));
  const std::string unknown = R"({"x":1,"y":2,"z":[1,{"q":null}]})";
  EXPECT_FALSE(bale::try_from_json<point>(unknown));
  EXPECT_EQ(bale::from_json<point>(unknown, {.skip_unknown_members = true}), (point{1, 2}));
  EXPECT_FALSE(bale::try_from_json<account>(R"({"owner":"o","balance":1,"x":0})"));
  EXPECT_FALSE(bale::try_from_json<point>(R"({"x":1})"));
  EXPECT_EQ(bale::from_json<point>(R"({"x":1})", {.allow_missing_members = true}), (point{1, 0}));
  EXPECT_EQ(bale::from_json<account>(R"({"owner":"o"})", {.allow_missing_members = true}),
            account("o", 0));
  auto duplicate = bale::try_from_json<point>(R"({"x":1,"x":2,"y":3})");
  ASSERT_FALSE(duplicate);
  EXPECT_NE(duplicate.error().message().find("duplicate"), std::string::npos);
  EXPECT_FALSE(bale::try_from_json<account>(R"({"owner":"o","owner":"p","balance":1})"));
  EXPECT_EQ(bale::from_json<std::string>(R"("\u00e9\ud83d\ude00\/")"), "\xc3\xa9\xf0\x9f\x98\x80/");
  EXPECT_EQ((bale::from_json<std::map<int, int>>(R"({"-5":1})").at(-5)), 1);
}

struct profile {
  std::string name;
  std::optional<int> age;
  std::optional<std::string> email;
  bool operator==(const profile&) const = default;
};

class contact {
 public:
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bale::field("name", name), bale::field("phone", phone));
  }
  std::string name;
  std::optional<std::string> phone;
  bool operator==(const contact&) const = default;
};

// An absent std::optional member is how JSON usually says "none".
TEST(JsonRead, AnAbsentOptionalMemberIsEmpty) {
  EXPECT_EQ(bale::from_json<profile>(R"({"name":"a"})"), (profile{"a", {}, {}}));
  EXPECT_EQ(bale::from_json<profile>(R"({"email":"e","name":"a"})"), (profile{"a", {}, "e"}));
  profile existing{"b", 40, "x"};
  bale::from_json(R"({"name":"a","age":3})", existing);
  EXPECT_EQ(existing, (profile{"a", 3, {}}));  // what the text says, not what was there
  EXPECT_EQ(bale::from_json<contact>(R"({"name":"c"})"), (contact{"c", {}}));
  // Any other absent member is still an error, with its name.
  const auto missing = bale::try_from_json<profile>(R"({"age":3})");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message().find("missing member \"name\""), std::string::npos);
  EXPECT_FALSE(bale::try_from_json<contact>(R"({"phone":"1"})"));
  // allow_missing_members keeps every absent value, optionals too.
  profile kept{"b", 40, "x"};
  bale::from_json(R"({"name":"a"})", kept, {.allow_missing_members = true});
  EXPECT_EQ(kept, (profile{"a", 40, "x"}));
}

// Minified text in declaration order is read by comparing each member's punctuation and name in
// one go; any other order, spacing or extra member continues by name from where that stops.
TEST(JsonRead, MembersInOrderThenByName) {
  const shape expected{"a", {{1, 2}}, 3.5};
  EXPECT_EQ(bale::from_json<shape>(R"({"name":"a","corners":[{"x":1,"y":2}],"area":3.5})"),
            expected);
  EXPECT_EQ(bale::from_json<shape>(R"({"name":"a","area":3.5,"corners":[{"y":2,"x":1}]})"),
            expected);
  EXPECT_EQ(bale::from_json<shape>(R"({"name":"a" ,"corners":[{"x":1,"y":2}],"area":3.5})"),
            expected);
  EXPECT_EQ(bale::from_json<shape>(R"({"name": "a","corners": [{"x": 1,"y":2}],"area":3.5})"),
            expected);
  EXPECT_EQ(bale::from_json<shape>(R"({"name":"a","corners":[{"x":1,"y":2}],"area":3.5,"z":0})",
                                   {.skip_unknown_members = true}),
            expected);
  EXPECT_FALSE(bale::try_from_json<shape>(R"({"name":"a","corners":[],"area":1,"z":0})"));
  EXPECT_FALSE(bale::try_from_json<point>(R"({"x":1,"y":2,"x":3})"));  // duplicate after in order
  EXPECT_FALSE(bale::try_from_json<point>(R"({"x":1,"y":2)"));         // no closing brace
  EXPECT_FALSE(bale::try_from_json<point>(R"({"x":1,"y":2,})"));       // trailing comma
  EXPECT_FALSE(bale::try_from_json<point>(R"({"x":1)"));
  EXPECT_FALSE(bale::try_from_json<point>(R"({"x":1})"));  // missing y
  EXPECT_EQ(bale::from_json<point>(R"({"x":1})", {.allow_missing_members = true}), (point{1, 0}));
  const auto e = read_error(R"({"name":"a","corners":[{"x":1,"y":true}],"area":1})");
  EXPECT_EQ(e.path(), "corners[0].y");
  EXPECT_EQ(e.offset(), 34u);
  struct nothing {
    bool operator==(const nothing&) const = default;
  };
  EXPECT_EQ(bale::from_json<nothing>("{}"), nothing{});
  EXPECT_FALSE(bale::try_from_json<nothing>(R"({"x":1})"));
  EXPECT_EQ(bale::from_json<nothing>(R"({"x":1})", {.skip_unknown_members = true}), nothing{});
}

TEST(JsonRead, ErrorsNameLineColumnAndPath) {
  const auto e = read_error("{\n  \"name\": \"a\",\n  \"corners\": [{\"x\": 1, \"y\": true}]}");
  EXPECT_EQ(e.path(), "corners[0].y");
  EXPECT_NE(e.message().find("line 3, column 29"), std::string::npos) << e.message();
  EXPECT_EQ(e.offset(), 45u);
}

TEST(JsonRead, MalformedInput) {
  const bale::json_options strict;
  const char* bad[] = {
      R"({"name":"a","corners":[],"area":01})",     // leading zero
      R"({"name":"a","corners":[],"area":1e999})",  // huge exponent
      R"({"name":"a","corners":[],"area":1.})",     // no digit after the point
      R"({"name":"a","corners":[],"area":NaN})",    // not JSON
      R"({"name":"a","corners":[,],"area":1})",     // missing element
      R"({"name":"a","corners":[],"area":1,})",     // trailing comma
      R"({"name":"a","corners":[{"x":1,"y":2},],"area":1})",
      R"({"name":"a" /* c */,"corners":[],"area":1})",                // comment
      R"({"name":"a\q","corners":[],"area":1})",                      // bad escape
      R"({"name":"\ud800","corners":[],"area":1})",                   // lone high surrogate
      R"({"name":"\udc00","corners":[],"area":1})",                   // lone low surrogate
      R"({"name":"\u12","corners":[],"area":1})",                     // short \u
      "{\"name\":\"\xc3\x28\",\"corners\":[],\"area\":1}",            // invalid UTF-8
      "{\"name\":\"\xed\xa0\x80\",\"corners\":[],\"area\":1}",        // encoded surrogate
      "{\"name\":\"\xc0\xaf\",\"corners\":[],\"area\":1}",            // overlong
      "{\"name\":\"a\tb\",\"corners\":[],\"area\":1}",                // raw control character
      R"({"name":"a","corners":[],"area":1} x)",                      // trailing text
      R"({'name':"a","corners":[],"area":1})",                        // single quotes
      R"({"name":"a","corners":{},"area":1})",                        // wrong type
      R"({"name":"a","corners":[{"x":2147483648,"y":0}],"area":1})",  // out of range
      R"({"name":"a","corners":[{"x":1.5,"y":0}],"area":1})",         // not an integer
      R"({"name":"a","corners":[],"area":tru})",
      "",
  };
  for (const char* text : bad) {
    const auto e = read_error(text, strict);
    EXPECT_NE(e.message().find("line"), std::string::npos) << text;
  }
  EXPECT_TRUE(std::isnan(bale::from_json<double>("NaN", {.allow_non_finite = true})));
  EXPECT_THROW(bale::to_json(std::nan("")), bale::error);
  EXPECT_EQ(bale::to_json(-HUGE_VAL, {.allow_non_finite = true}), "-Infinity");
  EXPECT_THROW(bale::to_json(std::string("\xff")), bale::error);
}

TEST(JsonRead, IntegersAreExactAndStrict) {
  EXPECT_EQ(bale::from_json<std::int64_t>("-9223372036854775808"), INT64_MIN);
  EXPECT_EQ(bale::from_json<std::uint64_t>("18446744073709551615"), UINT64_MAX);
  EXPECT_EQ(bale::from_json<std::int64_t>("999999999999999999"), 999999999999999999);
  EXPECT_EQ(bale::from_json<std::int8_t>("-128"), -128);
  EXPECT_EQ(bale::from_json<std::uint8_t>("255"), 255);
  EXPECT_EQ(bale::from_json<int>("-0"), 0);
  EXPECT_EQ(bale::from_json<std::vector<int>>("[0,-1, 7 ,2147483647]"),
            (std::vector<int>{0, -1, 7, 2147483647}));
  for (const char* bad : {"01", "-01", "1.0", "1e2", "1E2", "-", "+1", "128", "-129", "1x", "0x10",
                          "18446744073709551616", "99999999999999999999", "--1"}) {
    const auto r = bale::try_from_json<std::int8_t>(bad);
    EXPECT_FALSE(r) << bad;
  }
  // With room after the number (as inside a document) a short integer takes the one-word path,
  // whose range checks are its own: every bound of every width, both ways.
  const std::string room(24, ' ');
  auto reads = [&]<class T>(std::type_identity<T>, std::string text) {
    EXPECT_EQ(bale::try_from_json<T>(text).has_value(),
              bale::try_from_json<T>(text + room).has_value())
        << text;
    return bale::try_from_json<T>(text + room);
  };
  EXPECT_EQ(*reads(std::type_identity<std::int8_t>{}, "-128"), -128);
  EXPECT_EQ(*reads(std::type_identity<std::int8_t>{}, "127"), 127);
  EXPECT_EQ(*reads(std::type_identity<std::uint8_t>{}, "255"), 255);
  EXPECT_EQ(*reads(std::type_identity<std::uint8_t>{}, "-0"), 0);
  EXPECT_EQ(*reads(std::type_identity<std::int16_t>{}, "-32768"), -32768);
  EXPECT_EQ(*reads(std::type_identity<std::uint16_t>{}, "65535"), 65535);
  EXPECT_EQ(*reads(std::type_identity<std::int32_t>{}, "-9999999"), -9999999);
  EXPECT_EQ(*reads(std::type_identity<std::uint32_t>{}, "12345678"), 12345678U);
  EXPECT_EQ(*reads(std::type_identity<std::int64_t>{}, "0"), 0);
  for (const char* bad : {"128", "-129", "01", "-01", "1.5", "1e2", "1E2", "-", "--1", "+1", "1x"})
    EXPECT_FALSE(reads(std::type_identity<std::int8_t>{}, bad)) << bad;
  for (const char* bad : {"256", "-1", "1000"})
    EXPECT_FALSE(reads(std::type_identity<std::uint8_t>{}, bad)) << bad;
  EXPECT_FALSE(reads(std::type_identity<std::int16_t>{}, "32768"));
  EXPECT_FALSE(reads(std::type_identity<std::int16_t>{}, "-32769"));
  EXPECT_FALSE(reads(std::type_identity<std::uint16_t>{}, "65536"));
  EXPECT_FALSE(reads(std::type_identity<std::uint32_t>{}, "-5"));
  EXPECT_FALSE(reads(std::type_identity<std::uint64_t>{}, "-1234567"));
  EXPECT_FALSE(bale::try_from_json<std::uint64_t>("-1"));
  EXPECT_FALSE(bale::try_from_json<std::uint64_t>("18446744073709551616"));
  EXPECT_FALSE(bale::try_from_json<std::int64_t>("9223372036854775808"));
  EXPECT_FALSE(bale::try_from_json<std::vector<int>>("[1,2.5]"));
}

TEST(JsonRead, BooleansWithAndWithoutRoomAfterThem) {
  const std::string room(24, ' ');
  for (const std::string& tail : {std::string(), room}) {
    EXPECT_EQ(bale::from_json<bool>("true" + tail), true);
    EXPECT_EQ(bale::from_json<bool>("false" + tail), false);
    for (const char* bad :
         {"tru", "fals", "falsy", "truex", "True", "FALSE", "1", "\"true\"", "nul"})
      EXPECT_FALSE(bale::try_from_json<bool>(bad + tail)) << bad;
  }
  struct flags {
    bool a, b;
    bool operator==(const flags&) const = default;
  };
  EXPECT_EQ(bale::from_json<std::vector<flags>>(R"([{"a":true,"b":false},{"a":false,"b":true}])"),
            (std::vector<flags>{{true, false}, {false, true}}));
}

TEST(JsonRead, FixedSizeArraysOfNumbers) {
  using three = std::array<int, 3>;
  EXPECT_EQ(bale::from_json<three>(" [ 1 ,\n2 , -3 ] "), (three{1, 2, -3}));
  for (const char* bad :
       {"[1,2]", "[1,2,3,4]", "[1,,2,3]", "[]", "[1,2,3,]", "[1 2 3]", "[1,2,\"3\"]"})
    EXPECT_FALSE(bale::try_from_json<three>(bad)) << bad;
  float grid[2][2] = {};
  bale::from_json("[[0.5,1],[2,-0.25]]", grid);
  EXPECT_EQ(grid[1][1], -0.25f);
  EXPECT_FALSE((bale::try_from_json<std::array<float, 2>>("[0.5,1e999]")));
}

// Numbers inside longer text take the word-at-a-time paths; every digit count, both paths.
TEST(JsonRead, NumbersOfEveryLengthInsideText) {
  std::vector<std::uint64_t> unsigned_values;
  std::vector<std::int64_t> signed_values;
  std::vector<double> doubles;
  std::vector<float> floats;
  std::uint64_t v = 7;
  for (int digits = 1; digits <= 20; ++digits) {
    unsigned_values.push_back(v);
    signed_values.push_back(-static_cast<std::int64_t>(v % 9223372036854775807ULL));
    doubles.push_back(static_cast<double>(v) / 1e9);
    floats.push_back(static_cast<float>(v % 100000000) / 1000.0f);
    v = v * 10 + static_cast<std::uint64_t>(digits % 10);
  }
  expect_roundtrip(unsigned_values);
  expect_roundtrip(signed_values);
  expect_roundtrip(doubles);
  expect_roundtrip(floats);
  // Followed by at least sixteen more bytes: the bad forms are still refused there.
  const std::string tail = ",1,2,3,4,5,6,7,8,9]";
  for (const char* bad : {"01", "-01", "00000000000000000001", "12345678901234567890123", "1.",
                          "1e", "123456789012345678901", "-", "1.5"}) {
    EXPECT_FALSE(bale::try_from_json<std::vector<std::int64_t>>("[" + std::string(bad) + tail))
        << bad;
  }
  EXPECT_EQ(bale::from_json<std::vector<std::int64_t>>("[1234567890123456," + tail.substr(1)),
            (std::vector<std::int64_t>{1234567890123456, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  EXPECT_EQ(
      bale::from_json<std::vector<double>>("[0.000000000000000000001234567891234567891,1e-7]"),
      (std::vector<double>{1.234567891234567891e-21, 1e-7}));
  // Space wherever the grammar allows it.
  EXPECT_EQ(bale::from_json<shape>(" {\n \"name\" :\t\"s\" ,\r\n \"corners\" : [ { \"x\" : 1 , "
                                   "\"y\" : -2 } ] , \"area\" : 0.5 } "),
            (shape{"s", {{1, -2}}, 0.5}));
}

// The value of a JSON integer as RFC 8259 and T's range allow, from std::from_chars.
template <class T>
bool reference_integer(std::string_view text, T& value) {
  const bool negative = text.starts_with('-');
  const std::string_view digits = text.substr(negative ? 1 : 0);
  if (digits.empty() || (digits.size() > 1 && digits[0] == '0') ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return false;
  if (std::is_unsigned_v<T> && negative) {
    value = 0;
    return digits == "0";
  }
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc{} && end == text.data() + text.size();
}

// Reads text as Vector (integer arrays many numbers at a time) and as Deque (one element at a time,
// the general path): the same values, or the same error at the same byte. Returns the vector read.
template <class Vector, class Deque>
bale::result<Vector> read_both_ways(const std::string& text) {
  auto by_array = bale::try_from_json<Vector>(text);
  const auto by_element = bale::try_from_json<Deque>(text);
  EXPECT_EQ(by_array.has_value(), by_element.has_value()) << text;
  if (by_array && by_element) {
    const auto same = [](const auto& a, const auto& b) {
      if constexpr (std::ranges::range<std::remove_cvref_t<decltype(a)>>)
        return std::equal(a.begin(), a.end(), b.begin(), b.end());
      else
        return a == b;
    };
    EXPECT_TRUE(std::equal(by_array->begin(), by_array->end(), by_element->begin(),
                           by_element->end(), same))
        << text;
  } else if (!by_array && !by_element) {
    EXPECT_EQ(by_array.error().offset(), by_element.error().offset()) << text;
    EXPECT_STREQ(by_array.error().what(), by_element.error().what()) << text;
  }
  return by_array;
}

// Arrays of integers in minified text are read many numbers at a time; std::deque reads the same
// text one element at a time through the general path. Both must agree on every value, and on
// every error's offset and message: random arrays of every integer width, with numbers of every
// length, the bounds of each type, bad forms and space here and there, nested and truncated.
template <class T>
void integer_arrays_agree_with_element_reads(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  using limits_t = std::numeric_limits<T>;
  const std::string bounds[] = {std::to_string(limits_t::min()),
                                std::to_string(limits_t::max()),
                                "-" + std::to_string(static_cast<std::uint64_t>(0) -
                                                     static_cast<std::uint64_t>(limits_t::min())),
                                std::to_string(limits_t::max()) + "0",
                                "-9223372036854775809",
                                "18446744073709551616"};
  const char* const bad[] = {"01",  "-",  "1.5", "1e2", "+1", "--1", "",
                             "0x1", "1-", "-01", "12a", "00", "- 1"};
  const char* const separators[] = {",", ", ", " ,", ",\n", " , "};
  auto token = [&]() -> std::string {
    const auto pick = rng() % 100;
    if (pick < 2) return bad[rng() % std::size(bad)];
    if (pick < 6) return bounds[rng() % std::size(bounds)];
    const bool negative = std::is_signed_v<T> ? rng() % 3 == 0 : rng() % 40 == 0;
    std::uint64_t magnitude = rng() % 12 == 0 ? 0 : rng() % 10'000'000'000ULL;
    magnitude %= static_cast<std::uint64_t>(std::pow(10.0, static_cast<double>(rng() % 11)));
    return (negative ? "-" : "") + std::to_string(magnitude);
  };
  for (int round = 0; round < 3000; ++round) {
    bool valid = true;
    std::vector<T> values;
    std::string text = "[";
    const std::size_t count = rng() % 4 == 0 ? rng() % 8 : rng() % 90;
    for (std::size_t i = 0; i < count; ++i) {
      if (i != 0) text += rng() % 10 == 0 ? separators[rng() % std::size(separators)] : ",";
      const std::string number = token();
      T x{};
      if (reference_integer(number, x))
        values.push_back(x);
      else
        valid = false;
      text += number;
    }
    text += rng() % 30 == 0 ? ",]" : "]";
    if (rng() % 3 == 0) text = "[" + text + "," + text + "]";
    if (rng() % 20 == 0) text.resize(rng() % (text.size() + 1));
    if (text.starts_with("[[")) {
      read_both_ways<std::vector<std::vector<T>>, std::vector<std::deque<T>>>(text);
      continue;
    }
    const auto by_array = read_both_ways<std::vector<T>, std::deque<T>>(text);
    // Against the values as generated, whenever every token was good.
    if (valid && text.ends_with("]") && !text.ends_with(",]")) {
      ASSERT_TRUE(by_array) << text;
      EXPECT_EQ(*by_array, values) << text;
    }
  }
}

TEST(JsonRead, IntegerArraysAgreeWithElementByElementReads) {
  integer_arrays_agree_with_element_reads<std::int8_t>(1);
  integer_arrays_agree_with_element_reads<std::uint8_t>(2);
  integer_arrays_agree_with_element_reads<std::int16_t>(3);
  integer_arrays_agree_with_element_reads<std::uint16_t>(4);
  integer_arrays_agree_with_element_reads<std::int32_t>(5);
  integer_arrays_agree_with_element_reads<std::uint32_t>(6);
  integer_arrays_agree_with_element_reads<std::int64_t>(7);
  integer_arrays_agree_with_element_reads<std::uint64_t>(8);
  // Fixed cases: the error's offset is that of the bad number, wherever it lies.
  const std::string head = "[1,22,-333,4444,-55555,666666,-7777777,1,2,3,4,5,6,7,8,9,10,11,";
  for (const char* bad_number : {"01", "1.5", "-", "2147483648", "+1", "1e3"}) {
    const auto r = bale::try_from_json<std::vector<std::int32_t>>(head + bad_number + ",1,2,3]");
    ASSERT_FALSE(r) << bad_number;
    EXPECT_EQ(r.error().offset(), head.size()) << bad_number << ": " << r.error().what();
  }
  // Numbers right after the closing bracket belong to no array.
  for (const std::string tail : {"]5,6]", "]]5,6]", "]5]", "]-5,", "],5]"}) {
    const std::string text = "[[1,2,3,4,5,6,7,8,9,10,11,12,13" + tail + std::string(40, ' ');
    EXPECT_FALSE(
        (read_both_ways<std::vector<std::vector<int>>, std::vector<std::deque<int>>>(text)))
        << text;
  }
  EXPECT_FALSE(bale::try_from_json<std::vector<std::int8_t>>(head + "128,1,2,3]"));
  EXPECT_FALSE(bale::try_from_json<std::vector<std::uint32_t>>(head + "1,2,3]"));
  EXPECT_EQ(bale::from_json<std::vector<std::uint32_t>>("[1,2,3,4,5,6,7,8,9,10,11,12,-0,1,2,3]"),
            (std::vector<std::uint32_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 1, 2, 3}));
}

// Decimals as minified text writes them are read by a short path while 40 bytes follow, by the
// general one near the end of the text: both agree with from_chars, and refuse the same forms.
TEST(JsonRead, DecimalsAgreeWithFromCharsOnBothPaths) {
  std::mt19937_64 rng(12);
  auto digits = [&](std::size_t n) {
    std::string d;
    for (std::size_t k = 0; k < n; ++k) d += static_cast<char>('0' + rng() % 10);
    return d;
  };
  const std::string tail(48, ' ');
  for (int i = 0; i < 20000; ++i) {
    std::string text = rng() % 2 ? "-" : "";
    const std::size_t whole = rng() % 4 == 0 ? 1 + rng() % 9 : 1;
    text += whole == 1 && rng() % 2 ? "0" : digits(whole);
    text += ".";
    const std::size_t fraction = rng() % 8 == 0 ? rng() % 28 : 1 + rng() % 17;
    text += digits(fraction);
    if (rng() % 8 == 0) text += (rng() % 2 ? "e" : "E") + std::to_string(rng() % 40);
    const bool valid = fraction != 0 && (whole == 1 || text[text[0] == '-'] != '0');
    double expected_double = 0;
    float expected_float = 0;
    const char* const end = text.data() + text.size();
    const bool parsed_double =
        valid &&
        bale::detail::float_from_chars(text.data(), end, expected_double).ec == std::errc{};
    const bool parsed_float =
        valid && bale::detail::float_from_chars(text.data(), end, expected_float).ec == std::errc{};
    for (const std::string& input : {text, text + tail}) {
      const auto d = bale::try_from_json<double>(input);
      const auto f = bale::try_from_json<float>(input);
      ASSERT_EQ(static_cast<bool>(d), parsed_double) << input;
      ASSERT_EQ(static_cast<bool>(f), parsed_float) << input;
      if (parsed_double) {
        ASSERT_EQ(std::bit_cast<std::uint64_t>(*d), std::bit_cast<std::uint64_t>(expected_double))
            << input;
      }
      if (parsed_float) {
        ASSERT_EQ(std::bit_cast<std::uint32_t>(*f), std::bit_cast<std::uint32_t>(expected_float))
            << input;
      }
    }
  }
  for (const char* bad : {"00.5", "-00.5", "01.5", "1.", "-.5", ".5", "1.e5", "1.5e", "1.5e+"})
    EXPECT_FALSE(bale::try_from_json<double>(bad + tail)) << bad;
}

// An object of numbers and fixed arrays of numbers is read in one pass when its text is compact
// and in declaration order; every other text goes to the general path with the same outcome.
struct flat_record {
  float v[3] = {};
  int i = 0;
  bool b = false;
  std::array<double, 2> a{};
  std::uint8_t u = 0;
  bool operator==(const flat_record&) const = default;
};

TEST(JsonRead, FlatObjectsInAnyTextTheGeneralPathTakes) {
  const flat_record r{{0.5f, -1.25f, 3}, -7, true, {1e300, -0.1}, 255};
  expect_json(r, R"({"v":[0.5,-1.25,3],"i":-7,"b":true,"a":[1e+300,-0.1],"u":255})");
  expect_roundtrip(std::vector<flat_record>(40, r));
  EXPECT_EQ(bale::from_json<flat_record>(
                R"({"i":-7,"v":[0.5,-1.25,3],"b":true,"u":255,"a":[1e+300,-0.1]})"),
            r);
  EXPECT_EQ(bale::from_json<flat_record>(
                R"({"v":[0.5, -1.25,3],"i":-7,"b":true,"a":[1e+300,-0.1],"u":255})"),
            r);
  EXPECT_EQ(bale::from_json<flat_record>(
                R"({"v":[0.5,-1.25,3],"i":-7,"b":true,"a":[1e+300,-0.1],"u":255,"z":[1]})",
                {.skip_unknown_members = true}),
            r);
  // A missing member keeps its value; those before it were read from the same text.
  flat_record kept{{9, 9, 9}, 9, false, {9, 9}, 9};
  bale::from_json(R"({"v":[0.5,-1.25,3],"i":-7,"b":true,"u":255})", kept,
                  {.allow_missing_members = true});
  EXPECT_EQ(kept, (flat_record{{0.5f, -1.25f, 3}, -7, true, {9, 9}, 255}));
  // Errors come from the general path, with the member's name and the value's offset.
  const char* bad[] = {
      R"({"v":[0.5,-1.25,3],"i":-7,"b":true,"a":[1e+300,-0.1],"u":256})",  // out of range
      R"({"v":[0.5,-1.25],"i":-7,"b":true,"a":[1e+300,-0.1],"u":255})",    // too few
      R"({"v":[0.5,-1.25,3,4],"i":-7,"b":true,"a":[1e+300,-0.1],"u":255})",
      R"({"v":[0.5,-1.25,3],"i":-7,"b":true,"a":[1e+300,-0.1],"u":255,"i":1})",  // duplicate
      R"({"v":[0.5,-1.25,3],"i":-7,"b":true,"a":[1e+300,-0.1],"u":255,})",
      R"({"v":[0.5,-1.25,3],"i":-7,"b":true,"a":[1e+300,-0.1],"u":255)",
      R"({"v":[0.5,-1.25,3],"i":-7,"b":true,"a":[1e+300,-0.1]})",  // missing
  };
  for (const char* text : bad) EXPECT_FALSE(bale::try_from_json<flat_record>(text)) << text;
  auto e = bale::try_from_json<flat_record>(R"({"v":[0.5,-1.25,3],"i":-7,"b":1,"a":[1,2],"u":1})");
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().path(), "b");
  EXPECT_EQ(e.error().offset(), 30u);
  e = bale::try_from_json<flat_record>(R"({"v":[0.5,-1.25,x],"i":-7,"b":true,"a":[1,2],"u":1})");
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().path(), "v[2]");
  EXPECT_EQ(e.error().offset(), 16u);
  const std::string good = bale::to_json(r);
  for (std::size_t n = 0; n < good.size(); ++n)
    EXPECT_FALSE(bale::try_from_json<flat_record>(std::string_view(good).substr(0, n))) << n;
  // The nesting limit holds as on the general path: the object and its arrays are two levels.
  bale::limits shallow;
  shallow.max_depth = 1;
  auto deep = bale::try_from_json<flat_record>(good, {}, shallow);
  ASSERT_FALSE(deep);
  EXPECT_EQ(deep.error().code(), bale::errc::depth_exceeded);
  shallow.max_depth = 2;
  EXPECT_TRUE(bale::try_from_json<flat_record>(good, {}, shallow));
}

// Flat objects read their numbers' usual text inline: random signs, every length of float and
// integer, each value back to the same bits; a value out of range deep in a long text is still
// reported by the general path with its element and member.
TEST(JsonRead, FlatObjectsOfRandomNumbersReadBackExactly) {
  std::mt19937_64 rng(31);
  auto finite_float = [&] {
    for (;;) {
      const float f = std::bit_cast<float>(static_cast<std::uint32_t>(rng()));
      if (std::isfinite(f)) return f;
    }
  };
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::vector<flat_record> records(3000);
  for (std::size_t k = 0; k < records.size(); ++k) {
    flat_record& r = records[k];
    for (float& f : r.v) f = k % 3 == 0 ? finite_float() : unit(rng);
    r.i = static_cast<int>(rng()) >> (rng() % 32);
    r.b = rng() % 2 != 0;
    r.a = {std::bit_cast<double>(rng() >> 2), -std::bit_cast<double>(rng() >> 2) / 1e300};
    r.u = static_cast<std::uint8_t>(rng());
  }
  const std::string text = bale::to_json(records);
  const auto back = bale::from_json<std::vector<flat_record>>(text);
  ASSERT_EQ(back.size(), records.size());
  for (std::size_t k = 0; k < records.size(); ++k) {
    for (int j = 0; j < 3; ++j)
      ASSERT_EQ(std::bit_cast<std::uint32_t>(back[k].v[j]),
                std::bit_cast<std::uint32_t>(records[k].v[j]))
          << k;
    ASSERT_EQ(back[k].i, records[k].i) << k;
    ASSERT_EQ(back[k].b, records[k].b) << k;
    ASSERT_EQ(std::bit_cast<std::uint64_t>(back[k].a[0]),
              std::bit_cast<std::uint64_t>(records[k].a[0]));
    ASSERT_EQ(std::bit_cast<std::uint64_t>(back[k].a[1]),
              std::bit_cast<std::uint64_t>(records[k].a[1]));
    ASSERT_EQ(back[k].u, records[k].u) << k;
  }
  // "u":255 of element 1000 made 256, and its "i" made too large for an int.
  std::size_t element = 0, start = 0;
  for (; element < 1000; ++element) start = text.find("},{", start) + 1;
  const std::size_t u = text.find("\"u\":", start) + 4;
  std::string bad = text;
  bad.replace(u, text.find('}', u) - u, "256");
  auto e = bale::try_from_json<std::vector<flat_record>>(bad);
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().path(), "[1000].u");
  EXPECT_EQ(e.error().offset(), u);
  bad = text;
  const std::size_t i = text.find("\"i\":", start) + 4;
  bad.replace(i, text.find(',', i) - i, "-2147483649");
  e = bale::try_from_json<std::vector<flat_record>>(bad);
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().path(), "[1000].i");
  EXPECT_EQ(e.error().offset(), i);
}

// The same objects are written in one pass wherever they stand: after a key, among siblings,
// inside an optional or a tuple; pretty text and counting take the general path.
TEST(JsonText, FlatObjectsInEveryPlace) {
  const flat_record r{{0.5f, -1.25f, 3}, -7, true, {1e300, -0.1}, 255};
  const std::string one = R"({"v":[0.5,-1.25,3],"i":-7,"b":true,"a":[1e+300,-0.1],"u":255})";
  expect_json(std::map<std::string, flat_record>{{"k", r}, {"l", r}},
              R"({"k":)" + one + R"(,"l":)" + one + "}");
  expect_json(std::optional<flat_record>(r), one);
  expect_json(std::pair<flat_record, int>(r, 2), "[" + one + ",2]");
  expect_json(std::vector<std::optional<flat_record>>{r, std::nullopt, r},
              "[" + one + ",null," + one + "]");
  expect_roundtrip(std::map<int, flat_record>{{1, r}, {2, flat_record{}}});
  EXPECT_EQ(bale::serialized_size<bale::json>(std::vector<flat_record>(3, r)),
            bale::to_json(std::vector<flat_record>(3, r)).size());
  // A number with no JSON form fails at its exact place; allowed, it reads back.
  flat_record odd = r;
  odd.a[1] = std::nan("");
  try {
    (void)bale::to_json(std::vector<flat_record>{r, odd});
    ADD_FAILURE() << "NaN written";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.offset(), 1 + one.size() + 1 + one.find("-0.1"));
  }
  odd.v[0] = -INFINITY;
  const std::string text = bale::to_json(odd, {.allow_non_finite = true});
  EXPECT_EQ(text, R"({"v":[-Infinity,-1.25,3],"i":-7,"b":true,"a":[1e+300,NaN],"u":255})");
  const auto back = bale::from_json<flat_record>(text, {.allow_non_finite = true});
  EXPECT_TRUE(std::isinf(back.v[0]) && back.v[0] < 0 && std::isnan(back.a[1]));
}

// Members of numbers among other members: each goes in with its name under one room check, the
// others take the general path; the text is the same either way.
struct mixed_record {
  std::string name;
  int i = 0;
  float v[2] = {};
  std::vector<int> list;
  double d = 0;
  bool b = false;
  std::optional<int> o;
  point p;
  std::array<std::uint8_t, 2> u{};
  bool operator==(const mixed_record&) const = default;
};

// Arrays of arrays of numbers nest in the text, so they take the general path.
struct grid_record {
  double m[2][3] = {};
  std::array<std::array<int, 2>, 2> a{};
  int n = 0;
  bool operator==(const grid_record&) const = default;
};

TEST(JsonText, NumberMembersAmongOtherMembers) {
  expect_json(grid_record{{{1, 2, 3}, {4, 5, 6.5}}, {{{-1, 0}, {7, 8}}}, 9},
              R"({"m":[[1,2,3],[4,5,6.5]],"a":[[-1,0],[7,8]],"n":9})");
  expect_roundtrip(std::vector<grid_record>(2, grid_record{{{1, 2, 3}, {}}, {}, 1}));
  const mixed_record r{"n", -3, {0.25f, -1}, {1, 2}, 1e-9, true, std::nullopt, {4, 5}, {0, 255}};
  const std::string one =
      R"({"name":"n","i":-3,"v":[0.25,-1],"list":[1,2],"d":1e-09,"b":true,"o":null,)"
      R"("p":{"x":4,"y":5},"u":[0,255]})";
  expect_json(r, one);
  expect_json(std::vector<mixed_record>{r, mixed_record{}, r},
              "[" + one +
                  R"(,{"name":"","i":0,"v":[0,0],"list":[],"d":0,"b":false,"o":null,)"
                  R"("p":{"x":0,"y":0},"u":[0,0]},)" +
                  one + "]");
  expect_json(std::map<std::string, mixed_record>{{"k", r}}, R"({"k":)" + one + "}");
  expect_roundtrip(std::vector<mixed_record>(3, r));
  EXPECT_EQ(bale::serialized_size<bale::json>(std::vector<mixed_record>(2, r)),
            bale::to_json(std::vector<mixed_record>(2, r)).size());
  // A number with no JSON form fails at its exact place.
  mixed_record odd = r;
  odd.d = INFINITY;
  try {
    (void)bale::to_json(std::vector<mixed_record>{r, odd});
    ADD_FAILURE() << "infinity written";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.offset(), 1 + one.size() + 1 + one.find("1e-09"));
  }
  EXPECT_EQ(bale::to_json(odd, {.allow_non_finite = true}).find("\"d\":Infinity,"),
            one.find("\"d\":"));
}

TEST(JsonRead, TruncatedAtEveryByte) {
  const std::string good = bale::to_json(shape{"n\u00e9\\", {{1, 2}, {-3, 4}}, 0.25});
  for (std::size_t n = 0; n < good.size(); ++n) {
    auto r = bale::try_from_json<shape>(std::string_view(good).substr(0, n));
    EXPECT_FALSE(r) << n;
  }
  EXPECT_TRUE(bale::try_from_json<shape>(good));
}

// Text cut short is end_of_input, wherever it is cut; a wrong character is invalid_value, with
// the same words on the typed path and the path that steps over unknown members.
struct point_xy {
  int x;
};

template <class T>
bale::error json_error_of(std::string_view text, const bale::json_options& options = {}) {
  auto r = bale::try_from_json<T>(text, options);
  EXPECT_FALSE(r) << text;
  return r ? bale::error(bale::errc::invalid_value, "decoded") : r.error();
}

TEST(JsonRead, ErrorCodesSayCutShortOrWrong) {
  using bale::errc;
  const bale::json_options skip{.skip_unknown_members = true};
  EXPECT_EQ(json_error_of<std::vector<bool>>("[tru").code(), errc::end_of_input);
  EXPECT_EQ(json_error_of<std::vector<bool>>("[trux]").code(), errc::invalid_value);
  EXPECT_EQ(json_error_of<std::optional<int>>("nul").code(), errc::end_of_input);
  EXPECT_EQ(json_error_of<point_xy>(R"({"z": [fals)", skip).code(), errc::end_of_input);
  EXPECT_EQ(json_error_of<std::string>(R"("\u12)").code(), errc::end_of_input);

  const bale::error short_hex = json_error_of<std::string>(R"("\u12" )");
  EXPECT_EQ(short_hex.code(), errc::invalid_value);
  EXPECT_EQ(short_hex.offset(), 1u);

  const bale::error typed = json_error_of<point_xy>(R"({"x": x})");
  const bale::error skipped = json_error_of<point_xy>(R"({"z": x, "x": 1})", skip);
  EXPECT_EQ(typed.code(), errc::invalid_value);
  EXPECT_EQ(skipped.code(), errc::invalid_value);
  EXPECT_NE(std::string(skipped.what()).find("expected a value, found 'x'"), std::string::npos)
      << skipped.what();
}

TEST(JsonRead, ABadSecondHalfOfASurrogatePairIsWhereItIs) {
  const bale::error not_low = json_error_of<std::string>(R"("\ud800\u0041")");
  EXPECT_EQ(not_low.code(), bale::errc::invalid_value);
  EXPECT_EQ(not_low.offset(), 7u);
  const bale::error bad_hex = json_error_of<std::string>(R"("\ud800\u12x4")");
  EXPECT_EQ(bad_hex.offset(), 7u);
  EXPECT_EQ(bale::from_json<std::string>(R"("\ud83d\ude00")"), "\xF0\x9F\x98\x80");
}

// A positional type holding a vector of itself: "[[[[...]]]]" nests two levels per pair.
struct chain {
  std::vector<chain> links;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(links);
  }
};

TEST(JsonRead, DeepNestingIsRefused) {
  const std::string deep = std::string(10000, '[') + std::string(10000, ']');
  auto r = bale::try_from_json<chain>(deep);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::depth_exceeded);
  EXPECT_TRUE(bale::try_from_json<chain>("[[[[]]]]"));
  // Skipped unknown members are limited too.
  auto t = bale::try_from_json<point>("{\"x\":1,\"y\":2,\"z\":" + deep + "}",
                                      {.skip_unknown_members = true});
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().code(), bale::errc::depth_exceeded);
}

// Arrays are read into room for the length of the last array read into the same type on this
// thread, then grown: every length around the first room (8), with the guess exact, too small and
// too large, reads back the same, and room more than twice the length is given back.
TEST(JsonRead, VectorsOfEveryLengthWhateverTheGuess) {
  using strings = std::vector<std::string>;
  const auto make = [](std::size_t n) {
    strings v;
    for (std::size_t i = 0; i < n; ++i) v.push_back("value number " + std::to_string(i * 7919));
    return v;
  };
  const std::size_t lengths[] = {0, 1, 7, 8, 9, 16, 17, 100, 1000, 3, 1000, 1000, 999, 1001, 0, 5};
  for (const std::size_t n : lengths) {
    const strings value = make(n);
    const strings back = bale::from_json<strings>(bale::to_json(value));
    EXPECT_EQ(back, value) << n;
    // A guess more than twice too large is trimmed: no more spare room than growth would leave.
    EXPECT_LE(back.capacity(), std::max<std::size_t>(8, 2 * n)) << n;
  }
  // Nested, so that the inner arrays' guesses change while the outer one is read.
  std::vector<strings> nested;
  for (std::size_t i = 0; i < 40; ++i) nested.push_back(make(i % 3 == 0 ? 30 : i % 11));
  expect_roundtrip(nested);
  // Into a vector that already has room: used as it is.
  strings reserved;
  reserved.reserve(500);
  bale::from_json(bale::to_json(make(300)), reserved);
  EXPECT_EQ(reserved, make(300));
  // Numbers too.
  const std::vector<double> doubles(5000, 0.25);
  EXPECT_EQ(bale::from_json<std::vector<double>>(bale::to_json(doubles)), doubles);
  const auto one_double = bale::from_json<std::vector<double>>("[1.5]");
  EXPECT_EQ(one_double, std::vector<double>{1.5});
  EXPECT_LE(one_double.capacity(), 8u);
  // Move-only elements.
  std::vector<std::unique_ptr<int>> pointers;
  for (int i = 0; i < 50; ++i) pointers.push_back(std::make_unique<int>(i));
  const auto pointers_back =
      bale::from_json<std::vector<std::unique_ptr<int>>>(bale::to_json(pointers));
  ASSERT_EQ(pointers_back.size(), 50u);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(*pointers_back[static_cast<std::size_t>(i)], i);
}

// Records the largest allocation asked for, to see the room a read reserves before trimming.
template <class T>
struct largest_allocation {
  using value_type = T;
  static inline std::size_t largest = 0;
  largest_allocation() = default;
  template <class U>
  largest_allocation(const largest_allocation<U>&) noexcept {}
  T* allocate(std::size_t n) {
    largest = std::max(largest, n);
    return std::allocator<T>().allocate(n);
  }
  void deallocate(T* p, std::size_t n) noexcept { std::allocator<T>().deallocate(p, n); }
  template <class U>
  bool operator==(const largest_allocation<U>&) const noexcept {
    return true;
  }
};

TEST(JsonRead, TheLengthGuessIsBoundedByTheInputAndTheBudget) {
  using strings = std::vector<std::string, largest_allocation<std::string>>;
  const strings large(100'000, "x");
  const std::string large_text = bale::to_json(large);
  ASSERT_EQ(bale::from_json<strings>(large_text), large);  // the guess is now 100,000
  // A short array in a short input: room for no more elements than its bytes could hold.
  largest_allocation<std::string>::largest = 0;
  EXPECT_EQ(bale::from_json<strings>(R"(["a"])"), strings{"a"});
  EXPECT_LE(largest_allocation<std::string>::largest, 8u);
  // Input to spare but a small budget: room for no more than the budget left pays for, and the
  // read succeeds (the guess is not charged, only the elements read).
  ASSERT_EQ(bale::from_json<strings>(large_text), large);
  largest_allocation<std::string>::largest = 0;
  const std::string text = R"(["a","b"])" + std::string(400'000, ' ');
  const strings two = bale::from_json<strings>(text, {}, {.max_allocation = 1024});
  EXPECT_EQ(two, (strings{"a", "b"}));
  EXPECT_LE(largest_allocation<std::string>::largest, 1024 / sizeof(std::string) + 1);
  EXPECT_LE(two.capacity(), 8u);  // and the stale guess trimmed
  // The budget counts the elements read, whatever the guess: a read that fails, fails at the
  // same byte after a guess too large, too small or right.
  const std::string forty = bale::to_json(strings(40, "abc"));
  std::vector<std::size_t> failed_at;
  for (const std::size_t before : {std::size_t{100'000}, std::size_t{1}, std::size_t{40}}) {
    ASSERT_EQ(bale::from_json<strings>(bale::to_json(strings(before, "x"))).size(), before);
    const auto refused = bale::try_from_json<strings>(forty, {}, {.max_allocation = 1000});
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().code(), bale::errc::allocation_limit);
    failed_at.push_back(refused.error().offset());
  }
  EXPECT_EQ(failed_at[0], failed_at[1]);
  EXPECT_EQ(failed_at[0], failed_at[2]);
  // With the guess right, the read asks for the exact room once.
  ASSERT_EQ(bale::from_json<strings>(large_text), large);
  largest_allocation<std::string>::largest = 0;
  EXPECT_EQ(bale::from_json<strings>(large_text).capacity(), large.size());
  EXPECT_EQ(largest_allocation<std::string>::largest, large.size());
}

TEST(JsonRead, ErrorsInsideLongArraysNameTheirIndex) {
  std::string text = "[";
  for (int i = 0; i < 40; ++i) text += "\"s" + std::to_string(i) + "\",";
  text += "\"bad\\q\"]";
  const auto result = bale::try_from_json<std::vector<std::string>>(text);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().path(), "[40]");
  EXPECT_EQ(result.error().code(), bale::errc::invalid_value);
  // Truncated anywhere inside a long array of strings: a clean error every time.
  const std::string whole = bale::to_json(std::vector<std::string>(30, "abc"));
  for (std::size_t n = 0; n < whole.size(); ++n)
    EXPECT_FALSE(bale::try_from_json<std::vector<std::string>>(whole.substr(0, n))) << n;
}

// A string's raw text goes out in one piece up to each escape: every mix of plain runs (short and
// longer than a vector step), UTF-8 sequences and escapes, at the start, middle and end, reads the
// same as a std::string, a map key, a member name and (without escapes) a view.
TEST(JsonRead, StringsOfEveryMixOfPlainTextUtf8AndEscapes) {
  struct piece {
    std::string_view json, decoded;
    bool escape;
  };
  const piece pieces[] = {
      {"a", "a", false},
      {"plain text longer than sixteen", "plain text longer than sixteen", false},
      {"\xc3\xa9", "\xc3\xa9", false},
      {"\xe2\x82\xac", "\xe2\x82\xac", false},
      {"\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80", false},
      {R"(\n)", "\n", true},
      {R"(\")", "\"", true},
      {R"(\u00e9)", "\xc3\xa9", true},
      {R"(\ud83d\ude00)", "\xf0\x9f\x98\x80", true}};
  std::vector<std::size_t> mix;
  const auto check = [&] {
    std::string json = "\"", decoded;
    bool escaped = false;
    for (const std::size_t k : mix) {
      json += pieces[k].json;
      decoded += pieces[k].decoded;
      escaped |= pieces[k].escape;
    }
    json += '"';
    ASSERT_EQ(bale::from_json<std::string>(json), decoded) << json;
    ASSERT_EQ((bale::from_json<std::map<std::string, int>>("{" + json + ":1}")),
              (std::map<std::string, int>{{decoded, 1}}))
        << json;
    // As an unknown member name, skipped, before and after members that are read.
    ASSERT_EQ(bale::from_json<point>(R"({"x":1,)" + json + R"(:0,"y":2})",
                                     {.skip_unknown_members = true}),
              (point{1, 2}))
        << json;
    const auto view = bale::try_from_json<std::string_view>(json);
    ASSERT_EQ(view.has_value(), !escaped) << json;
    if (view) {
      ASSERT_EQ(*view, decoded) << json;
    }
  };
  // Every sequence of up to three pieces.
  for (std::size_t a = 0; a < std::size(pieces); ++a) {
    mix = {a};
    check();
    for (std::size_t b = 0; b < std::size(pieces); ++b) {
      mix = {a, b};
      check();
      for (std::size_t c = 0; c < std::size(pieces); ++c) {
        mix = {a, b, c};
        check();
      }
    }
  }
  // Escaped member names match the names they spell.
  EXPECT_EQ(bale::from_json<point>(R"({"\u0078":1,"\u0079":2})"), (point{1, 2}));
  // Invalid UTF-8 after a valid sequence is still caught, at its own byte.
  const auto bad = bale::try_from_json<std::string>("\"ab\xc3\xa9\xff\"");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().offset(), 5u);
}

TEST(JsonRead, StringViewsAreZeroCopy) {
  const std::string text = R"(["abc","d"])";
  const auto views = bale::from_json<std::vector<std::string_view>>(text);
  ASSERT_EQ(views.size(), 2u);
  EXPECT_EQ(views[0], "abc");
  EXPECT_EQ(views[0].data(), text.data() + 2);
  EXPECT_FALSE(bale::try_from_json<std::vector<std::string_view>>(R"(["a\n"])"));
}

}  // namespace

TEST(JsonWrite, AComputedValueIsAField) {
  EXPECT_EQ(bale::to_json(celsius(21.5)), R"({"degrees":21.5,"label":"C"})");
  EXPECT_EQ(bale::from_json<celsius>(R"({"degrees":-3,"label":"C"})").degrees(), -3.0);
  EXPECT_EQ(bale::deserialize<celsius>(bale::serialize(celsius(4))).degrees(), 4.0);
}
