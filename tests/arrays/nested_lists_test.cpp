// SPDX-License-Identifier: BSL-1.0
// Arrays of numbers in JSON and MessagePack as lists of lists, one level per index, in the order
// of their layout: the text written, the shape checked on reading, the flat list of earlier
// format versions still read, and hostile nestings refused.

#include <bale/all.hpp>
#include <bale/arrays/mdspan.hpp>
#include <bale/schema/message.hpp>

#include <complex>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "arrays/grid.hpp"
#include "support/roundtrip.hpp"

namespace {

using bale::array_layout;
using bale_test::expect_roundtrip;

template <class T, std::size_t Rank, array_layout Layout = array_layout::row_major>
grid<T, Rank, Layout> numbered(const bale::array_extents<Rank>& extents) {
  grid<T, Rank, Layout> g{extents, {}};
  std::size_t count = 1;
  for (auto e : extents) count *= e;
  g.elements.resize(count);
  std::iota(g.elements.begin(), g.elements.end(), T{1});
  return g;
}

grid<int, 2> read_json(std::string_view text) {
  return bale::from_json<grid<int, 2>>(text);
}

bale::error json_error_of(std::string_view text, const bale::limits& lim = {}) {
  const auto read = bale::try_from_json<grid<int, 2>>(text, {}, lim);
  EXPECT_FALSE(read.has_value()) << text;
  return read.has_value() ? bale::error(bale::errc::invalid_value, "read") : read.error();
}

std::vector<std::byte> bytes_of(std::initializer_list<int> values) {
  std::vector<std::byte> bytes;
  for (const int v : values) bytes.push_back(static_cast<std::byte>(v));
  return bytes;
}

// {"layout": <layout>, "extents": <extents>, "data": ...} in MessagePack, data to follow.
std::vector<std::byte> msgpack_head(int layout, std::initializer_list<int> extents = {0x92, 2, 3}) {
  std::vector<std::byte> bytes = bytes_of({0x83, 0xa6});
  for (const char c : std::string_view("layout")) bytes.push_back(static_cast<std::byte>(c));
  const std::string_view name = layout == 0 ? "row_major" : "column_major";
  bytes.push_back(static_cast<std::byte>(0xa0 + name.size()));
  for (const char c : name) bytes.push_back(static_cast<std::byte>(c));
  bytes.push_back(std::byte{0xa7});
  for (const char c : std::string_view("extents")) bytes.push_back(static_cast<std::byte>(c));
  for (const int b : extents) bytes.push_back(static_cast<std::byte>(b));
  bytes.push_back(std::byte{0xa4});
  for (const char c : std::string_view("data")) bytes.push_back(static_cast<std::byte>(c));
  return bytes;
}

std::vector<std::byte> msgpack_with_data(int layout, std::initializer_list<int> data) {
  std::vector<std::byte> bytes = msgpack_head(layout);
  for (const int b : data) bytes.push_back(static_cast<std::byte>(b));
  return bytes;
}

TEST(NestedLists, JsonNestsNumbersOneListPerIndexInTheOrderOfTheLayout) {
  EXPECT_EQ(bale::to_json(numbered<int, 2>({2, 3})),
            R"({"layout":"row_major","extents":[2,3],"data":[[1,2,3],[4,5,6]]})");
  // Column-major: the innermost lists run along the first index (columns of a matrix).
  EXPECT_EQ(bale::to_json(numbered<int, 2, array_layout::column_major>({2, 3})),
            R"({"layout":"column_major","extents":[2,3],"data":[[1,2],[3,4],[5,6]]})");
  EXPECT_EQ(bale::to_json(numbered<double, 3>({2, 1, 2})),
            R"({"layout":"row_major","extents":[2,1,2],"data":[[[1,2]],[[3,4]]]})");
  // Rank 1 and rank 0 are one list, as before.
  EXPECT_EQ(bale::to_json(numbered<int, 1>({3})),
            R"({"layout":"row_major","extents":[3],"data":[1,2,3]})");
  EXPECT_EQ(bale::to_json(numbered<int, 0>({})),
            R"({"layout":"row_major","extents":[],"data":[1]})");
  // An empty array is an empty list, whatever its extents.
  EXPECT_EQ(bale::to_json(numbered<int, 2>({1000000, 0})),
            R"({"layout":"row_major","extents":[1000000,0],"data":[]})");
}

TEST(NestedLists, PrettyJsonPutsEachInnermostListOnOneLine) {
  EXPECT_EQ(bale::to_json(numbered<int, 3>({2, 2, 3}), {.pretty = true, .indent = 1}),
            "{\n \"layout\": \"row_major\",\n \"extents\": [\n  2,\n  2,\n  3\n ],\n"
            " \"data\": [\n  [\n   [1, 2, 3],\n   [4, 5, 6]\n  ],\n  [\n   [7, 8, 9],\n"
            "   [10, 11, 12]\n  ]\n ]\n}");
}

TEST(NestedLists, MessagePackNestsNumbersAsArraysOfArrays) {
  const auto bytes = bale::serialize<bale::msgpack>(numbered<int, 2>({2, 3}));
  EXPECT_EQ(bytes, msgpack_with_data(0, {0x92, 0x93, 1, 2, 3, 0x93, 4, 5, 6}));
  const auto columns =
      bale::serialize<bale::msgpack>(numbered<int, 2, array_layout::column_major>({2, 3}));
  EXPECT_EQ(columns, msgpack_with_data(1, {0x93, 0x92, 1, 2, 0x92, 3, 4, 0x92, 5, 6}));
  // Bytes stay one bin: an image is not a list of numbers.
  const auto image = bale::serialize<bale::msgpack>(numbered<std::uint8_t, 2>({2, 3}));
  EXPECT_EQ(image, msgpack_with_data(0, {0xc4, 6, 1, 2, 3, 4, 5, 6}));
}

TEST(NestedLists, EveryRankAndLayoutRoundTripsInEveryFormat) {
  expect_roundtrip(numbered<int, 2>({3, 4}));
  expect_roundtrip(numbered<double, 3, array_layout::column_major>({2, 3, 4}));
  expect_roundtrip(numbered<float, 4>({2, 1, 3, 2}));
  expect_roundtrip(numbered<std::uint8_t, 2, array_layout::column_major>({5, 3}));
  expect_roundtrip(numbered<std::int64_t, 2>({4, 0}));
  expect_roundtrip(numbered<std::int64_t, 3>({0, 4, 5}));
  expect_roundtrip(numbered<char, 2>({2, 2}));
  // Elements whose own text is a list are not nested: one flat list, as before.
  grid<std::complex<double>, 2> complex{{2, 2}, {{1, 2}, {3, 4}, {5, 6}, {7, 8}}};
  expect_roundtrip(complex);
  EXPECT_EQ(bale::to_json(complex).find("[[["), std::string::npos) << bale::to_json(complex);
}

TEST(NestedLists, AViewIsNestedAsTheArrayItShows) {
  // Every other column of a 3 x 8 matrix, and a view long enough to be gathered in several
  // blocks, whose rows end inside them.
  std::vector<float> storage(24);
  std::iota(storage.begin(), storage.end(), 0.0F);
  const strided_view<const float, 2> columns{storage.data(), {3, 4}, {8, 2}};
  EXPECT_EQ(
      bale::to_json(columns),
      R"({"layout":"row_major","extents":[3,4],"data":[[0,2,4,6],[8,10,12,14],[16,18,20,22]]})");
  std::vector<double> big(3000 * 6);
  std::iota(big.begin(), big.end(), 0.0);
  const strided_view<const double, 2> rows{big.data(), {3000, 3}, {6, 2}};
  grid<double, 2> expected{{3000, 3}, {}};
  for (std::size_t i = 0; i < 3000; ++i)
    for (std::size_t j = 0; j < 3; ++j) expected.elements.push_back(big[i * 6 + j * 2]);
  EXPECT_EQ(bale::to_json(rows), bale::to_json(expected));
  EXPECT_EQ(bale::serialize<bale::msgpack>(rows), bale::serialize<bale::msgpack>(expected));
  EXPECT_EQ((bale::from_json<grid<double, 2>>(bale::to_json(rows))), expected);
}

TEST(NestedLists, BytesWrittenAsBase64StayOneString) {
  const auto image = numbered<std::uint8_t, 2>({2, 3});
  const std::string text = bale::to_json(image, {.uint8_as_base64 = true});
  EXPECT_EQ(text, R"({"layout":"row_major","extents":[2,3],"data":"AQIDBAUG"})");
  EXPECT_EQ((bale::from_json<grid<std::uint8_t, 2>>(text, {.uint8_as_base64 = true})), image);
  EXPECT_EQ(bale::to_json(image),
            R"({"layout":"row_major","extents":[2,3],"data":[[1,2,3],[4,5,6]]})");
}

TEST(NestedLists, TheFlatListOfEarlierFormatVersionsStillReads) {
  const auto rows = numbered<int, 2>({2, 3});
  EXPECT_EQ(read_json(R"({"layout":"row_major","extents":[2,3],"data":[1,2,3,4,5,6]})"), rows);
  EXPECT_EQ(read_json(R"({"layout":"column_major","extents":[2,3],"data":[1,4,2,5,3,6]})"), rows);
  EXPECT_EQ((bale::deserialize<grid<int, 2>, bale::msgpack>(
                msgpack_with_data(0, {0x96, 1, 2, 3, 4, 5, 6}))),
            rows);
  EXPECT_EQ((bale::deserialize<grid<int, 2>, bale::msgpack>(
                msgpack_with_data(1, {0x96, 1, 4, 2, 5, 3, 6}))),
            rows);
  // Nested lists read into the other layout, transposed.
  EXPECT_EQ(
      read_json(R"({"layout":"column_major","extents":[2,3],"data":[ [1, 4] , [2,5],[3,6] ]})"),
      rows);
  // Lists of empty lists, as another writer may give for an empty array.
  EXPECT_EQ(read_json(R"({"layout":"row_major","extents":[2,0],"data":[[],[]]})"),
            (grid<int, 2>{{2, 0}, {}}));
}

TEST(NestedLists, JsonListsOfAnotherLengthThanTheExtentsAreRefusedWithTheirPath) {
  const std::string head = R"({"layout":"row_major","extents":[2,3],"data":)";
  struct refused {
    std::string data;
    std::string path;
    std::string says;
  };
  for (const refused& r : std::vector<refused>{
           {"[[1,2,3],[4,5]]", "data[1][2]", "a list of 2 elements where the array needs 3"},
           {"[[1,2,3],[4,5,6,7]]", "data[1][3]", "more than 3 elements"},
           {"[[1,2,3],[]]", "data[1][0]", "a list of 0 elements"},
           {"[[1,2,3]]", "data[1]", "a list of 1 elements where the array needs 2"},
           {"[[1,2,3],[4,5,6],[7,8,9]]", "data[2]", "more than 2 elements"},
       }) {
    const bale::error e = json_error_of(head + r.data + "}");
    EXPECT_EQ(e.code(), bale::errc::invalid_value) << r.data << ": " << e.what();
    EXPECT_EQ(e.path(), r.path) << r.data << ": " << e.what();
    EXPECT_NE(e.detail().find(r.says), std::string::npos) << r.data << ": " << e.what();
  }
  // A number where a list is due, a list where a number is due, a list at rank 1.
  json_error_of(head + "[[1,2,3],4]}");
  json_error_of(head + "[[1,2,3],[4,[5],6]]}");
  EXPECT_FALSE((bale::try_from_json<grid<int, 1>>(
      R"({"layout":"row_major","extents":[2],"data":[[1],[2]]})")));
  // A list nested deeper than the extents say.
  json_error_of(head + "[[[1],[2],[3]],[[4],[5],[6]]]}");
  // Cut short anywhere, the text is an error.
  const std::string whole = head + "[[1,2,3],[4,5,6]]}";
  for (std::size_t n = head.size(); n < whole.size(); ++n)
    EXPECT_FALSE((bale::try_from_json<grid<int, 2>>(whole.substr(0, n)))) << whole.substr(0, n);
}

TEST(NestedLists, NestedJsonIsPaidForBeforeTheArrayIsSized) {
  // Extents of a billion numbers in a few bytes of text: refused before anything is allocated.
  const bale::error e =
      json_error_of(R"({"layout":"row_major","extents":[1000000,1000],"data":[[1]]})");
  EXPECT_EQ(e.code(), bale::errc::length_too_large) << e.what();
  // A budget smaller than the array.
  std::string text = R"({"layout":"row_major","extents":[100,100],"data":[)";
  for (int i = 0; i < 100; ++i) {
    text += i == 0 ? "[" : ",[";
    for (int j = 0; j < 100; ++j) text += j == 0 ? "0" : ",0";
    text += ']';
  }
  text += "]}";
  EXPECT_TRUE((bale::try_from_json<grid<int, 2>>(text)));
  EXPECT_EQ(json_error_of(text, {.max_allocation = 30000}).code(), bale::errc::allocation_limit);
  // Each list is a level of nesting.
  const auto deep = numbered<int, 5>({1, 1, 1, 1, 2});
  const std::string deep_text = bale::to_json(deep);
  EXPECT_TRUE((bale::try_from_json<grid<int, 5>>(deep_text, {}, {.max_depth = 7})));
  const auto too_deep = bale::try_from_json<grid<int, 5>>(deep_text, {}, {.max_depth = 5});
  ASSERT_FALSE(too_deep);
  EXPECT_EQ(too_deep.error().code(), bale::errc::depth_exceeded);
  EXPECT_FALSE((bale::try_deserialize<grid<int, 5>, bale::msgpack>(
      bale::serialize<bale::msgpack>(deep), {.max_depth = 5})));
  EXPECT_TRUE((bale::try_deserialize<grid<int, 5>, bale::msgpack>(
      bale::serialize<bale::msgpack>(deep), {.max_depth = 7})));
}

TEST(NestedLists, MessagePackArraysOfAnotherLengthThanTheExtentsAreRefused) {
  using rows = grid<int, 2>;
  for (const auto& data : std::vector<std::vector<std::byte>>{
           msgpack_with_data(0, {0x92, 0x93, 1, 2, 3, 0x92, 4, 5}),        // a short row
           msgpack_with_data(0, {0x92, 0x93, 1, 2, 3, 0x94, 4, 5, 6, 7}),  // a long row
           msgpack_with_data(0, {0x93, 0x93, 1, 2, 3, 0x93, 4, 5, 6, 0x90}),
           msgpack_with_data(0, {0x92, 0x93, 1, 2, 3, 4}),  // a number where an array is due
           msgpack_with_data(0, {0x92, 0x93, 1, 0x91, 2, 3, 0x93, 4, 5, 6}),
           msgpack_with_data(0, {0x92, 0x93, 1, 2, 3}),  // cut short
       }) {
    const auto read = bale::try_deserialize<rows, bale::msgpack>(data);
    ASSERT_FALSE(read);
    EXPECT_TRUE(read.error().has_offset()) << read.error().what();
  }
  const auto short_row = bale::try_deserialize<rows, bale::msgpack>(
      msgpack_with_data(0, {0x92, 0x93, 1, 2, 3, 0x92, 4, 5}));
  EXPECT_EQ(short_row.error().code(), bale::errc::invalid_value);
  EXPECT_EQ(short_row.error().path(), "data[1]");
  // Extents of a million numbers and a few bytes.
  std::vector<std::byte> huge = msgpack_head(0, {0x92, 0xce, 0x00, 0x0f, 0x42, 0x40, 3});
  for (const int b : {0xdc, 0x00, 0x02, 0x91, 1, 0x91, 2})
    huge.push_back(static_cast<std::byte>(b));
  const auto too_many = bale::try_deserialize<rows, bale::msgpack>(huge);
  ASSERT_FALSE(too_many);
  EXPECT_EQ(too_many.error().code(), bale::errc::length_too_large) << too_many.error().what();
  const auto whole = bale::serialize<bale::msgpack>(numbered<int, 2>({2, 3}));
  const auto read = bale::try_deserialize<rows, bale::msgpack>(whole, {.max_allocation = 16});
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().code(), bale::errc::allocation_limit);
}

TEST(NestedLists, ResolvedMessagesReadNestedNumbersIntoWiderElements) {
  const auto floats = numbered<float, 2>({2, 3});
  bale::schema_cache cache;
  const auto message = bale::serialize_framed<bale::msgpack>(floats, {.with_schema = true});
  const auto doubles = bale::deserialize_framed<grid<double, 2>, bale::msgpack>(message, cache);
  EXPECT_EQ(doubles.extents, floats.extents);
  EXPECT_EQ(doubles.elements, (std::vector<double>{1, 2, 3, 4, 5, 6}));
}

}  // namespace
