// SPDX-License-Identifier: BSL-1.0
// xtensor's xarray (rank at run time) and xtensor (fixed rank) as arrays, and views over them.

#include <bale/all.hpp>
#include <bale/arrays/xtensor.hpp>
#include <bale/schema/resolve.hpp>

#include <cstdint>
#include <xtensor/xarray.hpp>
#include <xtensor/xstrided_view.hpp>
#include <xtensor/xtensor.hpp>
#include <xtensor/xview.hpp>

#include "support/roundtrip.hpp"

namespace {

using bale_test::expect_roundtrip;
using column_tensor = xt::xtensor<double, 3, xt::layout_type::column_major>;

template <class T>
T counting(T t) {
  for (std::size_t i = 0; i < t.size(); ++i)
    t.data()[i] = static_cast<typename T::value_type>(i + 1);
  return t;
}

TEST(Xtensor, ContainersRoundTripInEveryFormat) {
  expect_roundtrip(counting(xt::xtensor<double, 3>::from_shape({2, 3, 4})));
  expect_roundtrip(counting(xt::xtensor<std::int32_t, 1>::from_shape({9})));
  expect_roundtrip(counting(xt::xarray<float>::from_shape({3, 1, 2, 2})));
  expect_roundtrip(counting(column_tensor::from_shape({2, 3, 4})));
  expect_roundtrip(xt::xarray<double>::from_shape({0, 3}));
}

TEST(Xtensor, AnXarrayTakesAnyRankAndLayoutsTranspose) {
  const auto column = counting(column_tensor::from_shape({2, 3, 4}));
  const auto bytes = bale::serialize(column);
  EXPECT_EQ(bytes[0], std::byte{1});
  const auto as_rows = bale::deserialize<xt::xtensor<double, 3>>(bytes);
  EXPECT_EQ(as_rows, column);  // equal element by element, whatever the layout

  // An xtensor's extents are a fixed array, an xarray's a sequence: resolution reads the one
  // into the other.
  const auto tensor = counting(xt::xtensor<std::int16_t, 2>::from_shape({3, 5}));
  const auto schema = bale::schema_of<xt::xtensor<std::int16_t, 2>>().text();
  const auto as_any =
      bale::deserialize_as<xt::xarray<std::int16_t>>(bale::serialize(tensor), schema);
  EXPECT_EQ(as_any, tensor);

  // One xarray type holds data of any rank.
  xt::xarray<std::int16_t> any = counting(xt::xarray<std::int16_t>::from_shape({3, 5}));
  const auto four = counting(xt::xarray<std::int16_t>::from_shape({2, 1, 3, 2}));
  bale::deserialize<bale::compact>(bale::serialize<bale::compact>(four), any);
  EXPECT_EQ(any.dimension(), 4U);
  EXPECT_EQ(any, four);
}

TEST(Xtensor, ARankChangeIsRefused) {
  const auto bytes = bale::serialize(counting(xt::xarray<double>::from_shape({2, 2, 2})));
  const auto schema = bale::schema_of<xt::xarray<double>>().text();
  using rank2 = xt::xtensor<double, 2>;
  EXPECT_THROW((void)bale::deserialize_as<rank2>(bytes, schema), bale::error);
}

TEST(Xtensor, AViewIsWrittenAsTheArrayItShows) {
  auto whole = counting(xt::xtensor<double, 2>::from_shape({4, 5}));
  const auto view = xt::view(whole, xt::range(0, 4, 2), xt::range(1, 4));  // steps in both
  const xt::xtensor<double, 2> copy = view;
  EXPECT_EQ(bale::serialize(view), bale::serialize(copy));
  EXPECT_EQ(bale::serialize<bale::json>(view), bale::serialize<bale::json>(copy));
  using matrix = xt::xtensor<double, 2>;
  EXPECT_EQ(bale::deserialize<matrix>(bale::serialize(view)), copy);
  EXPECT_EQ(bale::schema_of<decltype(view)>().text(), bale::schema_of<matrix>().text());
  // A transposed view is column-major memory: written as stored, with that layout.
  const auto turned = xt::transpose(whole);
  const auto bytes = bale::serialize(turned);
  EXPECT_EQ(bytes[0], std::byte{1});
  EXPECT_EQ(bale::deserialize<matrix>(bytes), turned);
  // A view of an xarray has the rank of the data it shows.
  auto any = counting(xt::xarray<std::int32_t>::from_shape({3, 4, 2}));
  const auto slab = xt::strided_view(any, {1, xt::all(), xt::range(0, 2)});
  EXPECT_EQ(bale::deserialize<xt::xarray<std::int32_t>>(bale::serialize(slab)), slab);
  // Elements picked one by one have no memory to point at: not an array.
  using picked = decltype(xt::view(whole, xt::keep(0, 2)));
  static_assert(!bale::detail::xtensor_memory_view<picked>);
}

TEST(Xtensor, AViewIsReadIntoInPlaceAtItsOwnExtents) {
  auto whole = counting(xt::xtensor<double, 2>::from_shape({4, 5}));
  const auto before = whole;
  auto view = xt::view(whole, xt::range(1, 4, 2), xt::range(0, 5, 2));  // 2 x 3 of the 4 x 5
  using matrix = xt::xtensor<double, 2>;
  const matrix values = {{-1, -2, -3}, {-4, -5, -6}};
  for (const auto& bytes : {bale::serialize(values), bale::serialize<bale::msgpack>(values)}) {
    whole = before;
    if (bytes == bale::serialize(values))
      bale::deserialize(bytes, view);
    else
      bale::deserialize<bale::msgpack>(bytes, view);
    EXPECT_EQ(matrix(view), values);
    EXPECT_EQ(whole(0, 0), before(0, 0));  // what the view does not show is untouched
    EXPECT_EQ(whole(1, 1), before(1, 1));
    EXPECT_EQ(whole(1, 2), -2);
  }
  // Data of other extents does not fit a view, which cannot be resized.
  whole = before;
  const auto wrong = bale::serialize(counting(xt::xtensor<double, 2>::from_shape({3, 3})));
  EXPECT_THROW(bale::deserialize(wrong, view), bale::error);
  EXPECT_EQ(whole, before);
}

}  // namespace
