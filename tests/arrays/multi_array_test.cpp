// SPDX-License-Identifier: BSL-1.0
// boost::multi_array and its refs, views and subarrays as arrays of any rank.

#include <bale/all.hpp>
#include <bale/arrays/multi_array.hpp>
#include <bale/file/file.hpp>

#include <cstdint>
#include <filesystem>
#include <numeric>
#include <vector>

#include "support/roundtrip.hpp"

namespace {

using bale_test::expect_roundtrip;
using range = boost::multi_array_types::index_range;

template <class T, std::size_t N>
boost::multi_array<T, N> counting(boost::multi_array<T, N> a) {
  std::iota(a.data(), a.data() + a.num_elements(), T{1});
  return a;
}

boost::multi_array<double, 3> cube() {
  return counting(boost::multi_array<double, 3>(boost::extents[3][4][5]));
}

template <class A, class B>
void expect_same_3d(const A& a, const B& b) {
  ASSERT_TRUE(std::equal(a.shape(), a.shape() + 3, b.shape()));
  for (std::size_t i = 0; i < a.shape()[0]; ++i)
    for (std::size_t j = 0; j < a.shape()[1]; ++j)
      for (std::size_t k = 0; k < a.shape()[2]; ++k)
        EXPECT_EQ((a[a.index_bases()[0] + i][a.index_bases()[1] + j][a.index_bases()[2] + k]),
                  (b[b.index_bases()[0] + i][b.index_bases()[1] + j][b.index_bases()[2] + k]));
}

TEST(MultiArray, RoundTripsInEveryFormat) {
  expect_roundtrip(cube());
  expect_roundtrip(counting(boost::multi_array<std::int32_t, 2>(boost::extents[6][7])));
  expect_roundtrip(counting(boost::multi_array<std::uint8_t, 2>(boost::extents[5][8])));
  expect_roundtrip(boost::multi_array<float, 4>(boost::extents[2][0][3][1]));
}

TEST(MultiArray, AFortranOrderedArrayIsWrittenAsItIsStoredAndReadTransposed) {
  const auto fortran = counting(
      boost::multi_array<double, 3>(boost::extents[3][4][5], boost::fortran_storage_order()));
  const auto bytes = bale::serialize(fortran);
  EXPECT_EQ(bytes[0], std::byte{1});  // column-major
  EXPECT_EQ(std::memcmp(bytes.data() + 1 + 24 + 8, fortran.data(), 60 * sizeof(double)), 0);
  expect_same_3d(fortran, bale::deserialize<boost::multi_array<double, 3>>(bytes));
  // A C-ordered array read into a Fortran-ordered one keeps its storage order.
  boost::multi_array<double, 3> into(boost::extents[1][1][1], boost::fortran_storage_order());
  bale::deserialize(bale::serialize(cube()), into);
  expect_same_3d(cube(), into);
  EXPECT_EQ(into.strides()[0], 1);
}

TEST(MultiArray, DescendingStorageAndIndexBasesAreWrittenByIndex) {
  const bool ascending[] = {false, true, true};
  const boost::multi_array<double, 3>::size_type order[] = {0, 1, 2};
  auto reversed = counting(boost::multi_array<double, 3>(
      boost::extents[boost::multi_array_types::extent_range(1, 4)][4][5],
      boost::general_storage_order<3>(order, ascending)));
  expect_same_3d(reversed,
                 bale::deserialize<boost::multi_array<double, 3>>(bale::serialize(reversed)));
  expect_same_3d(reversed, bale::deserialize<boost::multi_array<double, 3>, bale::compact>(
                               bale::serialize<bale::compact>(reversed)));
}

TEST(MultiArray, ViewsAndSubarraysAreWrittenAsTheirElements) {
  const auto a = cube();
  // Every other plane, the middle rows, every column: strided in two dimensions.
  const auto view = a[boost::indices[range(0, 3, 2)][range(1, 3)][range()]];
  const auto read = bale::deserialize<boost::multi_array<double, 3>>(bale::serialize(view));
  expect_same_3d(view, read);
  const auto json = bale::try_from_json<boost::multi_array<double, 3>>(bale::to_json(view));
  ASSERT_TRUE(json.has_value());
  expect_same_3d(view, *json);

  const auto plane = bale::deserialize<boost::multi_array<double, 2>>(bale::serialize(a[1]));
  EXPECT_EQ(plane, a[1]);

  // Read into a view of a larger array: only the viewed elements change.
  boost::multi_array<double, 3> target(boost::extents[3][4][5]);
  std::fill(target.data(), target.data() + target.num_elements(), -1.0);
  auto slot = target[boost::indices[range(0, 3, 2)][range(1, 3)][range()]];
  bale::deserialize(bale::serialize(view), slot);
  expect_same_3d(view, slot);
  EXPECT_EQ(target[1][0][0], -1.0);
  EXPECT_EQ(target[0][0][0], -1.0);
}

TEST(MultiArray, ARefIsReadIntoOnlyAtItsOwnExtents) {
  std::vector<double> storage(60);
  boost::multi_array_ref<double, 3> ref(storage.data(), boost::extents[3][4][5]);
  bale::deserialize(bale::serialize(cube()), ref);
  expect_same_3d(cube(), ref);
  boost::multi_array_ref<double, 3> other(storage.data(), boost::extents[5][4][3]);
  EXPECT_FALSE(bale::try_deserialize(bale::serialize(cube()), other).has_value());
  const boost::const_multi_array_ref<double, 3> constant(storage.data(), boost::extents[3][4][5]);
  EXPECT_EQ(bale::serialize(constant), bale::serialize(cube()));
}

TEST(MultiArray, AnArrayOfTheSameExtentsIsReadInPlace) {
  auto a = cube();
  const double* const before = a.data();
  bale::deserialize(bale::serialize(cube()), a);
  EXPECT_EQ(a.data(), before);
}

}  // namespace

namespace {

using image = boost::multi_array<std::uint8_t, 3>;
using image_view = boost::const_multi_array_ref<std::uint8_t, 3>;

image rgb(std::size_t rows, std::size_t cols, boost::general_storage_order<3> order) {
  image a(boost::extents[rows][cols][3], order);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j)
      for (std::size_t c = 0; c < 3; ++c)
        a[i][j][c] = static_cast<std::uint8_t>(i * 31 + j * 7 + c);
  return a;
}

TEST(MultiArrayView, AConstRefIsReadAsAViewIntoTheInput) {
  for (const auto order : {boost::general_storage_order<3>(boost::c_storage_order()),
                           boost::general_storage_order<3>(boost::fortran_storage_order())}) {
    const image original = rgb(4, 5, order);
    const auto bytes = bale::serialize(original);
    image_view view(static_cast<const std::uint8_t*>(nullptr), boost::extents[0][0][0]);
    bale::deserialize(bytes, view);
    // No copy: the view's elements are the input's bytes, in the order they were stored.
    const auto* first = reinterpret_cast<const std::uint8_t*>(bytes.data());
    EXPECT_GE(view.data(), first);
    EXPECT_EQ(view.data() + view.num_elements(), first + bytes.size());
    EXPECT_EQ(view.storage_order() == boost::c_storage_order(),
              original.storage_order() == boost::c_storage_order());
    expect_same_3d(view, original);
  }
}

TEST(MultiArrayView, WhereTheElementsAreNotMemoryAViewIsRefused) {
  const image original = rgb(2, 3, boost::c_storage_order());
  image_view view(static_cast<const std::uint8_t*>(nullptr), boost::extents[0][0][0]);
  // Text holds numbers, not memory.
  try {
    bale::deserialize<bale::json>(bale::serialize<bale::json>(original), view);
    FAIL() << "a view into JSON text";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::wrong_type) << e.what();
  }
  // A double's view needs aligned memory; an array's elements follow its 33-byte head (rank 3),
  // so in a buffer of its own they are not.
  const auto doubles = bale::serialize(cube());
  boost::const_multi_array_ref<double, 3> wide(static_cast<const double*>(nullptr),
                                               boost::extents[0][0][0]);
  try {
    bale::deserialize(doubles, wide);
    FAIL() << "a misaligned view";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::misaligned) << e.what();
  }
  // Extents that are not the data's count are refused before the view is pointed anywhere.
  auto lying = bale::serialize(original);
  bale::detail::put_u64(lying.data() + 1, 1);  // the first extent: 2 on the wire, now 1
  try {
    bale::deserialize(lying, view);
    FAIL() << "a view of extents that do not match its data";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::invalid_value) << e.what();
    EXPECT_NE(std::string(e.what()).find("holds 9 elements, and 18 were read"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(view.data(), nullptr);  // untouched
  // A view must not outlive the bytes: load_file frees them, so it refuses.
  const auto path = std::filesystem::temp_directory_path() / "bale_image_view.bale";
  bale::save_file(path, original);
  EXPECT_THROW(bale::load_file(path, view), bale::error);
  std::filesystem::remove(path);
}

// boost::multi_array's default constructor is explicit: a struct holding one is still counted
// member by member, and saved, printed and read whole.
struct grid {
  int n;
  boost::multi_array<double, 2> f;
  std::string name;
};
struct grid_array_first {
  boost::multi_array<double, 2> f;
  int n;
};
static_assert(bale::member_count<grid> == 3);
static_assert(bale::member_count<grid_array_first> == 2);

TEST(MultiArrayMember, AStructHoldingAnArrayIsSavedWhole) {
  grid g = grid();
  g.n = 7;
  g.f.resize(boost::extents[2][3]);
  std::iota(g.f.data(), g.f.data() + 6, 1.0);
  g.name = "density";
  const auto bytes = bale::serialize(g);
  EXPECT_EQ(bytes.size(), bale::serialized_size(g));
  EXPECT_GT(bytes.size(), 6 * sizeof(double));
  EXPECT_EQ(
      bale::to_json(g),
      R"({"n":7,"f":{"layout":"row_major","extents":[2,3],"data":[[1,2,3],[4,5,6]]},"name":"density"})");
  const auto back = bale::deserialize<grid>(bytes);
  EXPECT_EQ(back.n, 7);
  EXPECT_EQ(back.name, "density");
  EXPECT_TRUE(back.f == g.f);

  const auto path = std::filesystem::temp_directory_path() / "bale_grid_member.bale";
  bale::save_file(path, g);
  const auto loaded = bale::load_file<grid>(path);
  std::filesystem::remove(path);
  EXPECT_TRUE(loaded.f == g.f);
  EXPECT_EQ(loaded.name, "density");

  grid_array_first first = grid_array_first();
  first.f.resize(boost::extents[1][2]);
  first.f[0][1] = 2.5;
  first.n = 3;
  const auto again = bale::deserialize<grid_array_first>(bale::serialize(first));
  EXPECT_EQ(again.f[0][1], 2.5);
  EXPECT_EQ(again.n, 3);
}

}  // namespace
