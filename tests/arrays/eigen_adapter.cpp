// SPDX-License-Identifier: BSL-1.0
// Eigen's dense matrices and arrays, maps and blocks as arrays of rank 2.

#include <bale/all.hpp>
#include <bale/arrays/eigen.hpp>
#include <bale/arrays/eigen_sparse.hpp>

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
            R"({"layout":"column_major","extents":[2,2],"data":[[1,3],[2,4]]})");
}

TEST(Eigen, BlocksAndStridedMapsAreWrittenAsTheirCoefficients) {
  const Eigen::MatrixXd m = counting(6, 7);
  const auto block = m.block(1, 2, 3, 4);
  const auto read = bale::deserialize<Eigen::MatrixXd>(bale::serialize(block));
  EXPECT_TRUE(read == block);
  const auto json = bale::try_from_json<Eigen::MatrixXd>(bale::to_json(block));
  ASSERT_TRUE(json.has_value());
  EXPECT_TRUE(*json == block);
  // Gathered column by column, the layout nearest its memory: the bytes of a copy.
  const Eigen::MatrixXd copy = block;
  EXPECT_EQ(bale::serialize(block), bale::serialize(copy));
  EXPECT_EQ(bale::to_json(block), bale::to_json(copy));
  using row_major_d = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const row_major_d rows = m;
  EXPECT_EQ(bale::serialize(rows.block(1, 2, 3, 4)), bale::serialize(row_major_d(block)));

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

Eigen::SparseMatrix<double> sparse() {
  Eigen::SparseMatrix<double> m(5, 4);
  m.insert(0, 0) = 1.5;
  m.insert(3, 0) = -2;
  m.insert(2, 2) = 7;
  m.insert(4, 3) = 0.25;
  m.makeCompressed();
  return m;
}

TEST(EigenSparse, TheCompressedFormRoundTripsInEveryFormat) {
  expect_roundtrip(sparse());
  expect_roundtrip(Eigen::SparseMatrix<float, Eigen::RowMajor>(sparse().cast<float>()));
  expect_roundtrip(Eigen::SparseMatrix<double>(3, 0));
  EXPECT_EQ(bale::to_json(sparse()),
            R"({"rows":5,"cols":4,"layout":"column_major","outer_starts":[0,2,2,3,4],)"
            R"("inner_indices":[0,3,2,4],"values":[1.5,-2,7,0.25]})");
}

TEST(EigenSparse, AnUncompressedMatrixIsWrittenCompressedAndOrdersConvert) {
  Eigen::SparseMatrix<double> open = sparse();
  open.insert(1, 1) = 3;  // leaves the matrix uncompressed
  ASSERT_FALSE(open.isCompressed());
  const auto read =
      bale::deserialize<Eigen::SparseMatrix<double, Eigen::RowMajor>>(bale::serialize(open));
  EXPECT_TRUE(Eigen::MatrixXd(read) == Eigen::MatrixXd(open));
  const auto back = bale::deserialize<Eigen::SparseMatrix<double>>(bale::serialize(read));
  EXPECT_TRUE(Eigen::MatrixXd(back) == Eigen::MatrixXd(open));
}

TEST(EigenSparse, AnInvalidCompressedFormIsRefusedBeforeTheMatrixIsBuilt) {
  const auto refused = [](const std::string& members) {
    const auto r = bale::try_from_json<Eigen::SparseMatrix<double>>(
        R"({"rows":3,"cols":2,"layout":"column_major",)" + members + "}");
    EXPECT_FALSE(r.has_value()) << members;
    return r.has_value() ? std::string() : std::string(r.error().what());
  };
  EXPECT_NE(refused(R"("outer_starts":[0,2,1],"inner_indices":[0],"values":[1])").find("decrease"),
            std::string::npos);
  EXPECT_NE(
      refused(R"("outer_starts":[0,1,2],"inner_indices":[0,3],"values":[1,2])").find("outside"),
      std::string::npos);
  EXPECT_NE(
      refused(R"("outer_starts":[0,2,2],"inner_indices":[1,1],"values":[1,2])").find("increase"),
      std::string::npos);
  EXPECT_NE(
      refused(R"("outer_starts":[0,2],"inner_indices":[0,1],"values":[1,2])").find("one per outer"),
      std::string::npos);
  EXPECT_NE(refused(R"("outer_starts":[0,1,2],"inner_indices":[0,1],"values":[1])").find("lengths"),
            std::string::npos);
  EXPECT_NE(
      refused(R"("outer_starts":[1,1,2],"inner_indices":[0,1],"values":[1,2])").find("from 0"),
      std::string::npos);
  const auto huge = bale::try_from_json<Eigen::SparseMatrix<double>>(
      R"({"rows":3000000000,"cols":1,"layout":"row_major","outer_starts":[0],"inner_indices":[],"values":[]})");
  EXPECT_FALSE(huge.has_value());
}

}  // namespace

namespace {

using gray = Eigen::Matrix<std::uint8_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

TEST(EigenView, AConstMapIsReadAsAViewIntoTheInput) {
  gray picture(3, 4);
  for (Eigen::Index i = 0; i < picture.size(); ++i)
    picture.data()[i] = static_cast<std::uint8_t>(i);
  const auto bytes = bale::serialize(picture);
  Eigen::Map<const gray> view(nullptr, 0, 0);
  bale::deserialize(bytes, view);
  EXPECT_EQ(reinterpret_cast<const std::byte*>(view.data() + view.size()),
            bytes.data() + bytes.size());  // the input's own bytes
  EXPECT_EQ(view, picture);
  // A vector's two layouts are one memory: a row vector's data views as a column vector.
  const Eigen::Matrix<std::uint8_t, 1, 5> row(1, 2, 3, 4, 5);
  Eigen::Map<const Eigen::Matrix<std::uint8_t, 1, Eigen::Dynamic>> line(nullptr, 1, 0);
  const auto row_bytes = bale::serialize(row);  // outlives the view
  bale::deserialize(row_bytes, line);
  EXPECT_EQ(line, row);
}

TEST(EigenView, AMapCannotShowTheOtherLayoutOrOtherFixedSizes) {
  gray picture = gray::Zero(2, 3);
  const Eigen::Matrix<std::uint8_t, Eigen::Dynamic, Eigen::Dynamic> by_columns = picture;
  Eigen::Map<const gray> view(nullptr, 0, 0);
  try {
    bale::deserialize(bale::serialize(by_columns), view);
    FAIL() << "a row-major view of column-major data";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::invalid_value) << e.what();
    EXPECT_NE(std::string(e.what()).find("cannot be shown by the view"), std::string::npos)
        << e.what();
  }
  Eigen::Map<const Eigen::Matrix<std::uint8_t, 2, 2, Eigen::RowMajor>> square(nullptr);
  EXPECT_THROW(bale::deserialize(bale::serialize(picture), square), bale::error);
}

}  // namespace
