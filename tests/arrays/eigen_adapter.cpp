// SPDX-License-Identifier: BSL-1.0
// Eigen's dense matrices and arrays, maps and blocks as arrays of rank 2.

#include <bale/arrays/eigen.hpp>
#include <bale/bale.hpp>

#include <cstdint>
#include <string>

#include "support/roundtrip.hpp"

namespace {

using bale_test::expect_roundtrip;
using row_major_f = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

Eigen::MatrixXd counting(Eigen::Index rows, Eigen::Index cols) {
  Eigen::MatrixXd m(rows, cols);
  for (Eigen::Index j = 0; j < cols; ++j)
    for (Eigen::Index i = 0; i < rows; ++i) m(i, j) = static_cast<double>(10 * i + j);
  return m;
}

TEST(Eigen, MatricesAndArraysRoundTripInEveryFormat) {
  expect_roundtrip(counting(3, 5));
  expect_roundtrip(row_major_f(counting(4, 2).cast<float>()));
  expect_roundtrip(Eigen::Matrix3d(counting(3, 3)));
  expect_roundtrip(Eigen::VectorXi(Eigen::VectorXi::LinSpaced(9, -4, 4)));
  expect_roundtrip(Eigen::RowVector3f(1, 2, 3));
  expect_roundtrip(Eigen::MatrixXd(0, 4));
  const Eigen::ArrayXXd array = counting(2, 6).array();
  const Eigen::ArrayXXd back = bale::deserialize<Eigen::ArrayXXd>(bale::serialize(array));
  EXPECT_TRUE((back == array).all());
}

TEST(Eigen, ColumnMajorIsWrittenAsStoredAndReadIntoRowMajorTransposed) {
  const Eigen::MatrixXd m = counting(3, 4);
  const auto bytes = bale::serialize(m);
  EXPECT_EQ(bytes[0], std::byte{1});
  EXPECT_EQ(std::memcmp(bytes.data() + 1 + 16 + 8, m.data(), 12 * sizeof(double)), 0);
  const auto as_rows = bale::deserialize<Eigen::Matrix<double, -1, -1, Eigen::RowMajor>>(bytes);
  EXPECT_TRUE(as_rows == m);
  EXPECT_EQ(bale::to_json(Eigen::Matrix2i{{1, 2}, {3, 4}}),
            R"({"layout":"column_major","extents":[2,2],"data":[1,3,2,4]})");
}

TEST(Eigen, BlocksAndStridedMapsAreWrittenAsTheirCoefficients) {
  const Eigen::MatrixXd m = counting(6, 7);
  const auto block = m.block(1, 2, 3, 4);
  const auto read = bale::deserialize<Eigen::MatrixXd>(bale::serialize(block));
  EXPECT_TRUE(read == block);
  const auto json = bale::try_from_json<Eigen::MatrixXd>(bale::to_json(block));
  ASSERT_TRUE(json.has_value());
  EXPECT_TRUE(*json == block);

  // Every other coefficient of a buffer, as a 3 x 2 column-major matrix.
  double storage[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  const Eigen::Map<const Eigen::Matrix<double, 3, 2>, 0, Eigen::InnerStride<2>> every_other(
      storage);
  const auto map_read = bale::deserialize<Eigen::MatrixXd, bale::compact>(
      bale::serialize<bale::compact>(every_other));
  EXPECT_TRUE(map_read == every_other);

  // Read into a block: only its coefficients change.
  Eigen::MatrixXd target = Eigen::MatrixXd::Constant(6, 7, -1);
  auto slot = target.block(2, 1, 3, 4);
  bale::deserialize(bale::serialize(block), slot);
  EXPECT_TRUE(target.block(2, 1, 3, 4) == block);
  EXPECT_EQ(target(0, 0), -1);
  EXPECT_EQ(target(5, 6), -1);
}

TEST(Eigen, FixedSizesRefuseOtherExtents) {
  const auto bytes = bale::serialize(counting(4, 4));
  const auto fixed = bale::try_deserialize<Eigen::Matrix3d>(bytes);
  ASSERT_FALSE(fixed.has_value());
  EXPECT_NE(std::string(fixed.error().what()).find("do not fit"), std::string::npos);
  EXPECT_FALSE((bale::try_deserialize<Eigen::Matrix<double, 4, Eigen::Dynamic, 0, 4, 3>>(bytes)));
  EXPECT_TRUE((bale::try_deserialize<Eigen::Matrix<double, 4, Eigen::Dynamic>>(bytes)));
  Eigen::MatrixXd target(4, 4);
  Eigen::Map<Eigen::MatrixXd> map(target.data(), 2, 8);
  EXPECT_FALSE(bale::try_deserialize(bytes, map).has_value());
}

}  // namespace
