// SPDX-License-Identifier: BSL-1.0
// Arrays of any rank through bale::array_traits: an owning grid adapted here as a user would adapt
// their own array type, and an mdspan-shaped view of the tests' own. Round trips in every format,
// transposition between layouts, strided views, and hostile shapes.

#include <bale/all.hpp>
#include <bale/arrays/mdspan.hpp>
#include <bale/schema/can_read.hpp>
#include <bale/schema/resolve.hpp>

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
using row3 = grid<double, 3>;
using column3 = grid<double, 3, array_layout::column_major>;

static_assert(bale::array_type<row3>);
static_assert(bale::array_type<strided_view<const float, 2>>);
static_assert(bale::can_read<grid<double, 2>, grid<float, 2>>);    // elements widen
static_assert(!bale::can_read<grid<double, 3>, grid<double, 2>>);  // the rank is part of the type
static_assert(!bale::can_read<grid<float, 2>, grid<double, 2>>);

TEST(Arrays, RoundTripInEveryFormatAtEveryRank) {
  expect_roundtrip(counting_grid<double, 0, array_layout::row_major>({}));
  expect_roundtrip(counting_grid<std::int32_t, 1, array_layout::row_major>({17}));
  expect_roundtrip(counting_grid<std::int64_t, 2, array_layout::column_major>({4, 5}));
  expect_roundtrip(counting_grid<float, 3, array_layout::row_major>({2, 3, 4}));
  expect_roundtrip(counting_grid<std::uint8_t, 2, array_layout::row_major>({3, 7}));
  expect_roundtrip(counting_grid<std::uint16_t, 4, array_layout::column_major>({2, 1, 3, 2}));
  expect_roundtrip(counting_grid<double, 3, array_layout::row_major>({3, 0, 4}));
  grid<std::complex<double>, 2> complex{{2, 2}, {{1, 2}, {3, 4}, {5, 6}, {7, 8}}};
  expect_roundtrip(complex);
}

TEST(Arrays, ContiguousDataIsOneBlockAfterLayoutAndExtents) {
  const auto g = counting_grid<double, 2, array_layout::column_major>({2, 3});
  const std::vector<std::byte> bytes = bale::serialize(g);
  // layout, two 64-bit extents, a 64-bit count, then the elements as memory holds them
  ASSERT_EQ(bytes.size(), 1 + 16 + 8 + 6 * sizeof(double));
  EXPECT_EQ(bytes[0], std::byte{1});
  EXPECT_EQ(std::memcmp(bytes.data() + 25, g.elements.data(), 6 * sizeof(double)), 0);
  EXPECT_EQ(bale::to_json(g),
            R"({"layout":"column_major","extents":[2,3],"data":[[1,4],[7,10],[13,16]]})");
}

template <class From, class To>
void expect_same_elements(const From& from, const To& to) {
  auto index = bale::detail::extents_of_rank<3>(3);
  auto& f = const_cast<From&>(from);
  auto& t = const_cast<To&>(to);
  ASSERT_EQ(from.extents, to.extents);
  for (index[0] = 0; index[0] < from.extents[0]; ++index[0])
    for (index[1] = 0; index[1] < from.extents[1]; ++index[1])
      for (index[2] = 0; index[2] < from.extents[2]; ++index[2])
        EXPECT_EQ(f.at(index), t.at(index));
}

TEST(Arrays, ALayoutReadsIntoTheOtherTransposed) {
  const auto row = counting_grid<double, 3, array_layout::row_major>({2, 3, 4});
  const auto column = counting_grid<double, 3, array_layout::column_major>({4, 2, 3});
  expect_same_elements(row, bale::deserialize<column3>(bale::serialize(row)));
  expect_same_elements(column, bale::deserialize<row3>(bale::serialize(column)));
  expect_same_elements(
      column, bale::deserialize<row3, bale::compact>(bale::serialize<bale::compact>(column)));
  expect_same_elements(row, *bale::try_from_json<column3>(bale::to_json(row)));
  expect_same_elements(
      row, bale::deserialize<column3, bale::msgpack>(bale::serialize<bale::msgpack>(row)));
}

TEST(Arrays, AStridedViewIsWrittenWholeAndReadIntoAViewOfItsExtents) {
  // Every other column of a 3 x 8 matrix, so neither layout is contiguous.
  std::vector<float> storage(24);
  std::iota(storage.begin(), storage.end(), 0.0F);
  const strided_view<const float, 2> columns{storage.data(), {3, 4}, {8, 2}};
  const auto read = bale::deserialize<grid<float, 2>>(bale::serialize(columns));
  EXPECT_EQ(read.extents, (bale::array_extents<2>{3, 4}));
  EXPECT_EQ(read.elements, (std::vector<float>{0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22}));
  EXPECT_EQ(
      bale::to_json(columns),
      R"({"layout":"row_major","extents":[3,4],"data":[[0,2,4,6],[8,10,12,14],[16,18,20,22]]})");

  // Read back into the odd columns of another matrix: the view's own strides.
  std::vector<float> target(24, -1.0F);
  strided_view<float, 2> odd{target.data() + 1, {3, 4}, {8, 2}};
  bale::deserialize(bale::serialize(columns), odd);
  for (std::size_t i = 0; i < 24; ++i)
    EXPECT_EQ(target[i], i % 2 == 1 ? storage[i - 1] : -1.0F) << i;

  // Blocks of 4096 bytes: a large strided array crosses several.
  std::vector<double> big(3000 * 2);
  std::iota(big.begin(), big.end(), 0.0);
  const strided_view<const double, 1> evens{big.data(), {3000}, {2}};
  const auto every =
      bale::deserialize<grid<double, 1>, bale::compact>(bale::serialize<bale::compact>(evens));
  ASSERT_EQ(every.elements.size(), 3000U);
  for (std::size_t i = 0; i < 3000; ++i) EXPECT_EQ(every.elements[i], static_cast<double>(2 * i));
}

bale::error read_error(const std::vector<std::byte>& bytes) {
  try {
    (void)bale::deserialize<grid<double, 2>>(bytes);
  } catch (const bale::error& e) {
    return e;
  }
  ADD_FAILURE() << "read";
  return bale::error(bale::errc::invalid_value, "");
}

std::vector<std::byte> hand_made(std::uint8_t layout, std::uint64_t rows, std::uint64_t columns,
                                 std::uint64_t count, std::size_t elements) {
  std::vector<std::byte> bytes(1 + 24 + elements * sizeof(double));
  bytes[0] = std::byte{layout};
  std::memcpy(bytes.data() + 1, &rows, 8);
  std::memcpy(bytes.data() + 9, &columns, 8);
  std::memcpy(bytes.data() + 17, &count, 8);
  return bytes;
}

TEST(Arrays, HostileShapesAreRefusedBeforeAnythingIsAllocated) {
  // Extents whose product overflows.
  bale::error e = read_error(hand_made(0, std::uint64_t{1} << 40, std::uint64_t{1} << 40, 0, 0));
  EXPECT_EQ(e.code(), bale::errc::invalid_value);
  EXPECT_NE(std::string(e.what()).find("more elements than memory"), std::string::npos) << e.what();
  // An empty extent beside ones that would overflow a stride.
  e = read_error(hand_made(0, 0, std::uint64_t{1} << 62, 0, 0));
  EXPECT_EQ(e.code(), bale::errc::invalid_value);
  // Extents larger than the bytes left: the count is checked against the input before the array
  // is sized.
  e = read_error(hand_made(0, 1000, 1000, 1000000, 4));
  EXPECT_NE(e.code(), bale::errc::invalid_value) << e.what();
  // A count that is not the product of the extents.
  e = read_error(hand_made(0, 2, 3, 5, 5));
  EXPECT_EQ(e.code(), bale::errc::invalid_value);
  EXPECT_NE(std::string(e.what()).find("holds 6 elements"), std::string::npos) << e.what();
  // A layout that is neither.
  e = read_error(hand_made(7, 2, 3, 6, 6));
  EXPECT_NE(std::string(e.what()).find("layout"), std::string::npos) << e.what();
  // The allocation budget counts the elements.
  bale::limits small;
  small.max_allocation = 1000;
  const auto big = counting_grid<double, 2, array_layout::row_major>({100, 100});
  EXPECT_FALSE((bale::try_deserialize<grid<double, 2>>(bale::serialize(big), small).has_value()));
}

TEST(Arrays, AViewTakesOnlyItsOwnExtents) {
  const auto g = counting_grid<float, 2, array_layout::row_major>({3, 2});
  std::vector<float> target(6);
  strided_view<float, 2> wrong{target.data(), {2, 3}, {3, 1}};
  try {
    bale::deserialize(bale::serialize(g), wrong);
    ADD_FAILURE() << "read";
  } catch (const bale::error& e) {
    EXPECT_NE(std::string(e.what()).find("do not fit"), std::string::npos) << e.what();
  }
}

TEST(Arrays, JsonWithDataBeforeTheShapeOrWithoutDataIsRefused) {
  EXPECT_FALSE(
      (bale::try_from_json<grid<int, 1>>(R"({"data":[1,2],"layout":"row_major","extents":[2]})")));
  EXPECT_FALSE((bale::try_from_json<grid<int, 1>>(R"({"layout":"row_major","extents":[2]})")));
  EXPECT_FALSE((
      bale::try_from_json<grid<int, 1>>(R"({"layout":"row_major","extents":[2],"data":[1,2,3]})")));
  EXPECT_FALSE(
      (bale::try_from_json<grid<int, 1>>(R"({"layout":"diagonal","extents":[2],"data":[1,2]})")));
  const auto read = bale::try_from_json<grid<int, 2>>(
      R"({"layout":"column_major","extents":[2,2],"data":[1,2,3,4]})");
  ASSERT_TRUE(read);
  EXPECT_EQ(read->elements, (std::vector<int>{1, 3, 2, 4}));
}

TEST(Arrays, ARankChangeIsRefusedByResolution) {
  const auto g = counting_grid<double, 2, array_layout::row_major>({2, 3});
  const auto bytes = bale::serialize(g);
  const auto schema = bale::schema_of<grid<double, 2>>().text();
  using rank3 = grid<double, 3>;
  EXPECT_THROW((void)bale::deserialize_as<rank3>(bytes, schema), bale::error);
  const auto wider = bale::deserialize_as<grid<double, 2>>(
      bale::serialize(counting_grid<float, 2, array_layout::row_major>({2, 3})),
      bale::schema_of<grid<float, 2>>().text());
  EXPECT_EQ(wider, g);
}

}  // namespace
