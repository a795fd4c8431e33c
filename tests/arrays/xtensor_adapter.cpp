// SPDX-License-Identifier: BSL-1.0
// xtensor's xarray (rank at run time) and xtensor (fixed rank) as arrays.

#include <bale/all.hpp>
#include <bale/arrays/xtensor.hpp>
#include <bale/schema/resolve.hpp>

#include <cstdint>
#include <xtensor/xarray.hpp>
#include <xtensor/xtensor.hpp>

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

}  // namespace
