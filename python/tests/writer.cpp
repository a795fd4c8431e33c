// SPDX-License-Identifier: BSL-1.0
// Writes the files the Python tests read: `bale_python_writer DIR`. Every value is built from
// fixed numbers, so the tests know what each file holds (python/tests/test_read.py). With
// `--check DIR` it reads the files the Python tests wrote as the same C++ types instead.

#include <bale/all.hpp>
#include <bale/arrays/eigen.hpp>
#include <bale/arrays/multi_array.hpp>
#include <bale/arrays/xtensor.hpp>
#include <bale/file/file.hpp>
#include <bale/file/records.hpp>
#include <bale/formats.hpp>
#include <bale/reflect/enum_names.hpp>
#include <xtensor/xtensor.hpp>
#include <xtensor/xview.hpp>

#include <array>
#include <bitset>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <list>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

namespace demo {

enum class color : std::uint8_t { red, green, blue };

struct point {
  double x = 0, y = 0, z = 0;
  bool operator==(const point&) const = default;
};

struct body {
  point at;
  std::array<float, 3> velocity{};
  std::int8_t tag = 0;
  std::array<std::array<std::int16_t, 2>, 2> cells{};
  bool operator==(const body&) const = default;
};

struct everything {
  bool yes = true;
  char letter = 'q';
  std::int8_t i8 = -8;
  std::int16_t i16 = -1600;
  std::int32_t i32 = -320000;
  std::int64_t i64 = -6400000000;
  std::uint8_t u8 = 200;
  std::uint16_t u16 = 60000;
  std::uint32_t u32 = 4000000000U;
  std::uint64_t u64 = 18000000000000000000ULL;
  float f32 = 1.5F;
  double f64 = -2.25;
  std::string text = "h\xc3\xa9llo";
  std::string not_utf8 = std::string("\xff\xfe", 2);
  std::u16string wide = u"w\u00e9";
  std::vector<std::int32_t> ints{1, -2, 3};
  std::vector<double> reals{0.5, 1.5};
  std::array<float, 3> triple{1, 2, 3};
  std::list<std::string> words{"a", "b"};
  std::set<int> unique{3, 1, 2};
  std::multiset<int> repeated{1, 1, 2};
  std::map<std::string, int> named{{"one", 1}, {"two", 2}};
  std::map<int, std::string> numbered{{1, "one"}, {2, "two"}};
  std::multimap<int, int> pairs{{1, 10}, {1, 11}};
  std::map<std::vector<int>, int> list_keys{{{1, 2}, 3}};
  std::pair<int, std::string> pair{7, "seven"};
  std::tuple<int, double, std::string> triplet{1, 2.5, "three"};
  std::optional<int> some = 42;
  std::optional<int> nothing;
  std::variant<int, std::string> either = std::string("right");
  color shade = color::blue;
  std::bitset<70> flags = std::bitset<70>(0b1011).set(69);
  std::chrono::milliseconds wait{1500};
  std::vector<point> points{{1, 2, 3}, {4, 5, 6}};
  std::vector<body> bodies{{{1, 2, 3}, {4, 5, 6}, -7, {{{1, 2}, {3, 4}}}},
                           {{8, 9, 10}, {11, 12, 13}, 14, {{{5, 6}, {7, 8}}}}};
  bool operator==(const everything&) const = default;
};

struct particle {
  double x = 0, y = 0, z = 0;
  float mass = 0;
  std::int32_t id = 0;
  bool operator==(const particle&) const = default;
};

struct grids {
  Eigen::MatrixXd column_major;
  Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> row_major;
  boost::multi_array<std::int32_t, 3> cube;
  xt::xtensor<double, 4> four;
  xt::xtensor<double, 1> one;
};

}  // namespace demo

BALE_ENUM_NAMES(demo::color, red, green, blue);

namespace {

demo::grids make_grids() {
  demo::grids g;
  g.column_major.resize(3, 4);
  g.row_major.resize(2, 3);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c) g.column_major(r, c) = 10 * r + c;
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 3; ++c) g.row_major(r, c) = static_cast<float>(10 * r + c);
  g.cube.resize(boost::extents[2][3][4]);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k) g.cube[i][j][k] = 100 * i + 10 * j + k;
  g.four = xt::xtensor<double, 4>::from_shape({2, 1, 3, 2});
  for (std::size_t n = 0; n < g.four.size(); ++n) g.four.data()[n] = static_cast<double>(n);
  g.one = xt::xtensor<double, 1>::from_shape({5});
  for (std::size_t n = 0; n < 5; ++n) g.one(n) = 0.5 * static_cast<double>(n);
  return g;
}

// A record file with an index, as bale::mpi::save_file writes it from two ranks (3 and 2 records).
void write_indexed(const std::filesystem::path& path) {
  std::vector<std::byte> file = bale::detail::record_file_head<demo::particle, bale::binary>(
      bale::wire_versions::indexed_record_file);
  std::vector<std::uint64_t> offsets;
  for (int i = 0; i < 5; ++i) {
    offsets.push_back(file.size());
    bale::detail::append_record<bale::binary>(file, demo::particle{1.0 * i, 0, 0, 1.0F, 100 + i});
  }
  const std::uint64_t records_end = file.size();
  const std::vector<std::uint64_t> counts{3, 2};
  const std::vector<std::byte> head = bale::detail::record_index_head(counts);
  file.insert(file.end(), head.begin(), head.end());
  bale::detail::append_record_offsets(file, offsets, 0);
  bale::detail::append_record_index_end(file, records_end, 0, records_end);
  std::FILE* out = std::fopen(path.c_str(), "wb");
  if (out == nullptr || std::fwrite(file.data(), 1, file.size(), out) != file.size() ||
      std::fclose(out) != 0)
    throw std::runtime_error("cannot write " + path.string());
}

void write_all(const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  const demo::everything all;
  bale::save_file(dir / "everything.bale", all);
  bale::save_file<bale::compact>(dir / "everything_compact.bale", all);
  bale::save_file(dir / "grids.bale", make_grids());
  {
    // Strided views, written as arrays of their own extents: an Eigen block, an xtensor view.
    const demo::grids g = make_grids();
    bale::save_file(dir / "block.bale", g.column_major.block(1, 1, 2, 2));
    bale::save_file(dir / "strided.bale",
                    xt::view(g.four, xt::all(), 0, xt::range(0, 3, 2), xt::all()));
  }
  bale::save_file<bale::compact>(dir / "grids_compact.bale", make_grids());
  bale::file_options lz4;
  lz4.compression = bale::codec::lz4;
  bale::save_file(dir / "grids_lz4.bale", make_grids(), lz4);
  bale::file_options zstd;
  zstd.compression = bale::codec::zstd;
  bale::save_file(dir / "grids_zstd.bale", make_grids(), zstd);
  std::vector<double> big(100000);
  for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<double>(i) * 0.25;
  bale::save_file(dir / "reals.bale", big);
  bale::save_file<bale::json>(dir / "points.json.bale", all.points);
  bale::save_file<bale::msgpack>(dir / "points.msgpack.bale", all.points);
  {
    bale::record_writer<demo::particle> out(dir / "particles.bales");
    for (int i = 0; i < 100; ++i)
      out.write(demo::particle{1.0 * i, 2.0 * i, 3.0 * i, 0.5F * static_cast<float>(i), i});
    out.close();
  }
  {
    bale::record_writer<demo::particle, bale::compact> out(dir / "particles_compact.bales");
    for (int i = 0; i < 10; ++i)
      out.write(demo::particle{1.0 * i, 2.0 * i, 3.0 * i, 0.5F * static_cast<float>(i), i});
    out.close();
  }
  write_indexed(dir / "indexed.bales");
}

template <class A, class B>
void expect_equal(const A& a, const B& b, const char* what) {
  if (!(a == b)) throw std::runtime_error(std::string(what) + " differs");
}

// Reads the files the Python tests wrote into DIR (python/tests/test_write.py) as their C++ types.
void check_all(const std::filesystem::path& dir) {
  const demo::everything all;
  expect_equal(bale::load_file<demo::everything>(dir / "everything.bale"), all, "everything");
  expect_equal(bale::load_file<demo::everything>(dir / "everything_compact.bale"), all,
               "everything_compact");
  const demo::grids g = bale::load_file<demo::grids>(dir / "grids.bale");
  const demo::grids want = make_grids();
  expect_equal(g.column_major, want.column_major, "column_major");
  expect_equal(g.row_major, want.row_major, "row_major");
  expect_equal(g.cube, want.cube, "cube");
  expect_equal(g.four, want.four, "four");
  expect_equal(g.one, want.one, "one");
  bale::record_reader<demo::particle> in(dir / "particles.bales");
  int i = 0;
  while (auto r = in.next()) {
    expect_equal(*r, demo::particle{1.0 * i, 2.0 * i, 3.0 * i, 0.5F * static_cast<float>(i), i},
                 "particle");
    ++i;
  }
  expect_equal(i, 100, "the particle count");
  // Written from NumPy alone: a Fortran-ordered array and a structured one.
  const auto m = bale::load_file<Eigen::MatrixXd>(dir / "numpy_matrix.bale");
  expect_equal(m.rows() == 2 && m.cols() == 3 && m(1, 2) == 12.0 && m(0, 1) == 1.0, true,
               "numpy_matrix");
  const auto v = bale::load_file<std::vector<demo::point>>(dir / "numpy_points.bale");
  expect_equal(v, std::vector<demo::point>{{1, 2, 3}, {4, 5, 6}}, "numpy_points");
}

}  // namespace

int main(int argc, char** argv) {
  const bool check = argc == 3 && std::string(argv[1]) == "--check";
  if (argc != 2 && !check) {
    std::fprintf(stderr, "usage: %s [--check] DIR\n", argv[0]);
    return 2;
  }
  try {
    if (check)
      check_all(argv[2]);
    else
      write_all(argv[1]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bale_python_writer: %s\n", e.what());
    return 1;
  }
  return 0;
}
