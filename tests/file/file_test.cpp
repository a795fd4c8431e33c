// SPDX-License-Identifier: BSL-1.0
#include <sys/stat.h>
#include <unistd.h>
#include <bale/all.hpp>
#include <bale/file/file.hpp>

#include <fstream>
#include <span>
#include <string_view>

#include "support/file_bytes.hpp"
#include "support/roundtrip.hpp"

namespace {

namespace fs = std::filesystem;

struct cell {
  int id;
  std::vector<double> values;
  std::string label;
  bool operator==(const cell&) const = default;
};

struct throws_on_save {
  template <class Archive>
  void save(Archive&) const {
    throw std::runtime_error("cannot save");
  }
  template <class Archive>
  void load(Archive&) {}
};

class FileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("bale_file_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    ::chmod(dir_.c_str(), 0755);
    fs::remove_all(dir_);
  }
  fs::path dir_;
  std::vector<cell> sample_{
      {1, {1.0, 2.0}, "a"}, {2, {}, "bb"}, {3, std::vector<double>(100, 0.5), ""}};
};

// Where a file's payload starts: after the header and the schema block.
template <class T>
std::size_t payload_offset() {
  return 40 + bale::detail::schema_block_size(bale::schema_of<T>().text().size());
}

using bale_test::read_all;
using bale_test::write_all;

TEST_F(FileTest, RoundTripEveryFormatAndCodec) {
  for (auto c : {bale::codec::none, bale::codec::lz4, bale::codec::zstd}) {
    bale::file_options options;
    options.compression = c;
    bale::save_file(dir_ / "b.bale", sample_, options);
    EXPECT_EQ(bale::load_file<std::vector<cell>>(dir_ / "b.bale"), sample_);
    bale::save_file<bale::compact>(dir_ / "c.bale", sample_, options);
    EXPECT_EQ((bale::load_file<std::vector<cell>, bale::compact>(dir_ / "c.bale")), sample_);
  }
  // No temporary file is left behind.
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir_)) ++files;
  EXPECT_EQ(files, 2u);
}

TEST_F(FileTest, CompactFileOfALargeIntegerArrayIsItsEncoding) {
  // Larger than the file's write buffer, with varints of every length: written in runs.
  std::vector<std::int64_t> values(300000);
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<std::int64_t>(i * 0x9E3779B97F4A7C15u) >> (i % 64);
  bale::save_file<bale::compact>(dir_ / "ints.bale", values);
  EXPECT_EQ((bale::load_file<std::vector<std::int64_t>, bale::compact>(dir_ / "ints.bale")),
            values);
  const auto bytes = read_all(dir_ / "ints.bale");
  const auto encoded = bale::serialize<bale::compact>(values);
  const std::size_t at = payload_offset<std::vector<std::int64_t>>();
  ASSERT_EQ(bytes.size(), at + encoded.size());
  EXPECT_EQ(std::memcmp(bytes.data() + at, encoded.data(), encoded.size()), 0);
}

TEST_F(FileTest, UncompressedPayloadIsTheBinaryEncoding) {
  bale::save_file(dir_ / "f.bale", sample_);
  const auto bytes = read_all(dir_ / "f.bale");
  const auto encoded = bale::serialize(sample_);
  const std::size_t at = payload_offset<std::vector<cell>>();
  ASSERT_EQ(bytes.size(), at + encoded.size());
  EXPECT_EQ(std::memcmp(bytes.data() + at, encoded.data(), encoded.size()), 0);
  EXPECT_EQ(std::string(bytes.data(), 4), "BALE");
}

TEST_F(FileTest, CorruptedByteAtEveryPositionIsDetected) {
  const fs::path p = dir_ / "small.bale";
  bale::save_file(p, std::vector<int>{1, 2, 3});
  const auto good = read_all(p);
  for (std::size_t i = 0; i < good.size(); ++i) {
    auto bad = good;
    bad[i] ^= 0x20;
    write_all(p, bad);
    auto r = bale::try_load_file<std::vector<int>>(p);
    ASSERT_FALSE(r) << "flip at byte " << i << " went unnoticed";
    EXPECT_NE(r.error().message().find("small.bale"), std::string::npos) << r.error().message();
  }
}

TEST_F(FileTest, UnverifiedChecksumStillDecodesSafely) {
  const fs::path p = dir_ / "u.bale";
  bale::save_file(p, std::vector<int>{1, 2, 3});
  auto bad = read_all(p);
  const std::size_t at = payload_offset<std::vector<int>>();
  bad[at + 8] ^= 0x01;  // the first element: 1 becomes 0
  write_all(p, bad);
  bale::file_options trusting;
  trusting.verify_checksum = false;
  EXPECT_EQ(bale::load_file<std::vector<int>>(p, trusting), (std::vector<int>{0, 2, 3}));
  EXPECT_EQ(bale::try_load_file<std::vector<int>>(p).error().code(), bale::errc::checksum_mismatch);
  bad[at] ^= 0x40;  // the length: still refused by the decoder, not read past the end
  write_all(p, bad);
  const auto r = bale::try_load_file<std::vector<int>>(p, trusting);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::length_too_large);
}

struct viewed {
  std::string_view name;
  std::span<const double> values;
};
struct stored {
  std::string name;
  std::vector<double> values;
};

TEST_F(FileTest, AMappedFileReadsAsARead) {
  bale::file_options mapped;
  mapped.map = true;
  for (auto c : {bale::codec::none, bale::codec::zstd}) {
    bale::file_options options;
    options.compression = c;
    bale::save_file(dir_ / "m.bale", sample_, options);
    EXPECT_EQ(bale::load_file<std::vector<cell>>(dir_ / "m.bale", mapped), sample_);
    EXPECT_EQ(*bale::load_file_owned<std::vector<cell>>(dir_ / "m.bale", mapped), sample_);
  }
  // Views of a mapped file point into its pages, which the result keeps mapped (a name of 8
  // characters keeps the doubles after it aligned).
  const std::vector<double> values(1000, 2.5);
  bale::save_file(dir_ / "v.bale", stored{"particle", values});
  const auto view = bale::load_file_owned<viewed>(dir_ / "v.bale", mapped);
  EXPECT_EQ(view->name, "particle");
  EXPECT_TRUE(std::equal(view->values.begin(), view->values.end(), values.begin(), values.end()));
  // Every check holds: a flipped byte, a cut file, an empty one.
  const fs::path p = dir_ / "small.bale";
  bale::save_file(p, std::vector<int>{1, 2, 3});
  const auto good = read_all(p);
  for (std::size_t i = 0; i < good.size(); ++i) {
    auto bad = good;
    bad[i] ^= 0x20;
    write_all(p, bad);
    ASSERT_FALSE(bale::try_load_file<std::vector<int>>(p, mapped)) << i;
  }
  for (std::size_t n : {std::size_t{0}, std::size_t{39}, std::size_t{40}, good.size() - 1}) {
    write_all(p, std::vector<char>(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n)));
    const auto r = bale::try_load_file<std::vector<int>>(p, mapped);
    ASSERT_FALSE(r) << n;
    EXPECT_EQ(r.error().code(), bale::errc::end_of_input) << n;
  }
}

TEST_F(FileTest, TruncatedAndEmptyFiles) {
  const fs::path p = dir_ / "t.bale";
  bale::save_file(p, sample_);
  const auto good = read_all(p);
  for (std::size_t n :
       {std::size_t{0}, std::size_t{10}, std::size_t{39}, std::size_t{40}, good.size() - 1}) {
    write_all(p, std::vector<char>(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n)));
    auto r = bale::try_load_file<std::vector<cell>>(p);
    ASSERT_FALSE(r) << n;
    EXPECT_EQ(r.error().code(), bale::errc::end_of_input) << n;
  }
}

TEST_F(FileTest, AnotherTypeOrFormat) {
  const fs::path p = dir_ / "x.bale";
  bale::save_file(p, sample_);
  auto r = bale::try_load_file<std::vector<int>>(p);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::wrong_type);
  auto f = bale::try_load_file<std::vector<cell>, bale::compact>(p);
  ASSERT_FALSE(f);
  EXPECT_EQ(f.error().code(), bale::errc::wrong_type);
  bale::file_options loose;
  loose.check_type = false;  // the fingerprint is not compared; the decoder still refuses
  const auto unchecked = bale::try_load_file<std::vector<int>>(p, loose);
  ASSERT_FALSE(unchecked);
  EXPECT_NE(unchecked.error().code(), bale::errc::wrong_type);
}

TEST_F(FileTest, TheFormatComesFromTheHeader) {
  const fs::path p = dir_ / "compact.bale";
  bale::save_file<bale::compact>(p, sample_);
  EXPECT_EQ(bale::load_file<std::vector<cell>>(p), sample_);
  EXPECT_EQ(*bale::load_file_owned<std::vector<cell>>(p), sample_);
  EXPECT_EQ((bale::load_file<std::vector<cell>, bale::compact>(p)), sample_);  // a check that holds
  auto wrong = bale::try_load_file<std::vector<cell>, bale::binary>(p);
  ASSERT_FALSE(wrong);
  EXPECT_EQ(wrong.error().code(), bale::errc::wrong_type);
  EXPECT_NE(std::string(wrong.error().what()).find("holds compact, not binary"), std::string::npos)
      << wrong.error().what();
  EXPECT_EQ(wrong.error().offset(), 5u);
}

TEST_F(FileTest, AMessagePackFileIsReadWithItsFormatNamed) {
  const fs::path p = dir_ / "msgpack.bale";
  bale::save_file<bale::msgpack>(p, sample_);
  auto unnamed = bale::try_load_file<std::vector<cell>>(p);
  ASSERT_FALSE(unnamed);
  EXPECT_EQ(unnamed.error().code(), bale::errc::wrong_type);
  EXPECT_NE(std::string(unnamed.error().what()).find("load_file<T, bale::msgpack>"),
            std::string::npos)
      << unnamed.error().what();
  EXPECT_EQ((bale::load_file<std::vector<cell>, bale::msgpack>(p)), sample_);
}

TEST_F(FileTest, MissingAndReadOnlyDirectories) {
  auto missing = bale::try_save_file(dir_ / "no" / "such" / "dir" / "f.bale", 1);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code(), bale::errc::io_error);
  auto absent = bale::try_load_file<int>(dir_ / "absent.bale");
  ASSERT_FALSE(absent);
  EXPECT_EQ(absent.error().code(), bale::errc::io_error);
  EXPECT_NE(absent.error().message().find("absent.bale"), std::string::npos);
  // About no byte of any input: the message names none.
  EXPECT_FALSE(absent.error().has_offset());
  EXPECT_EQ(absent.error().message().find("at byte"), std::string::npos);
  EXPECT_EQ(missing.error().message().find("at byte"), std::string::npos);

  if (::geteuid() != 0) {  // root writes anywhere
    const fs::path ro = dir_ / "ro";
    fs::create_directories(ro);
    ::chmod(ro.c_str(), 0555);
    auto r = bale::try_save_file(ro / "f.bale", 1);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code(), bale::errc::io_error);
  }
}

TEST_F(FileTest, FailedSaveKeepsTheOldFile) {
  const fs::path p = dir_ / "keep.bale";
  bale::save_file(p, std::string("old"));
  EXPECT_THROW(bale::save_file(p, throws_on_save{}), std::runtime_error);
  EXPECT_EQ(bale::load_file<std::string>(p), "old");
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir_)) ++files;
  EXPECT_EQ(files, 1u);  // the temporary file is gone
}

TEST_F(FileTest, ErrorsInsideThePayloadNameFileAndField) {
  const fs::path p = dir_ / "v.bale";
  bale::save_file(p, std::vector<cell>{{1, {}, "x"}});
  bale::file_options options;
  options.check_type = false;
  auto r = bale::try_load_file<std::vector<std::vector<bool>>>(p, options);  // misread on purpose
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message().find("v.bale"), std::string::npos);
}

TEST(Checksum, KnownValueAndBothPaths) {
  const std::string text = "123456789";
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(text.data()),
                                         text.size());
  EXPECT_EQ(bale::detail::crc32c(bytes), 0xE3069283u);  // the CRC32C check value
  // Lengths around the three-chain block (3 x 8192 bytes), whole and in pieces.
  std::vector<std::byte> data(100000);
  for (auto& b : data) b = static_cast<std::byte>(bale_test::rng()());
  for (const std::size_t n : {0u, 1u, 1000u, 24575u, 24576u, 24577u, 49165u, 100000u}) {
    const std::span<const std::byte> part(data.data(), n);
    const std::uint32_t expected = ~bale::detail::crc32c_portable(0xFFFFFFFFu, part);
    EXPECT_EQ(bale::detail::crc32c(part), expected) << n;
    const std::size_t cut = n / 3;
    EXPECT_EQ(bale::detail::crc32c_extend(bale::detail::crc32c(part.first(cut)), part.subspan(cut)),
              expected)
        << n;
    // Joined from the two parts' checksums alone, as ranks that each wrote a part do.
    EXPECT_EQ(bale::detail::crc32c_combine(bale::detail::crc32c(part.first(cut)),
                                           bale::detail::crc32c(part.subspan(cut)), n - cut),
              expected)
        << n;
  }
  EXPECT_EQ(bale::detail::crc32c_combine(0, bale::detail::crc32c(bytes), bytes.size()),
            0xE3069283u);
  EXPECT_EQ(bale::detail::crc32c_combine(0xE3069283u, 0, 0), 0xE3069283u);
}

}  // namespace
