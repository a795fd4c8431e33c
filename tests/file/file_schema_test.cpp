// SPDX-License-Identifier: BSL-1.0
// The schema a .bale file carries: written after the header, checked against the reader's type
// (a layout change is a clear error, not garbage), portable across compilers, guarded against
// damage; version 1 files (no schema) still read.
#include <unistd.h>
#include <bale/all.hpp>
#include <bale/file/file.hpp>

#include <cstring>
#include <fstream>

#include "support/file_bytes.hpp"
#include "support/roundtrip.hpp"

namespace {

namespace fs = std::filesystem;

namespace v1 {
struct hero {
  std::int32_t mana;
  std::string name;
  bool operator==(const hero&) const = default;
};
}  // namespace v1
namespace retyped {
struct hero {
  float mana;
  std::string name;
};
}  // namespace retyped
namespace grown {
struct hero {
  std::int32_t mana;
  std::string name;
  std::vector<std::string> items;
};
}  // namespace grown
namespace renamed_class {
struct champion {  // another C++ name, the same members: the same bytes
  std::int32_t mana;
  std::string name;
};
}  // namespace renamed_class

class FileSchema : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("bale_file_schema_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

std::vector<std::byte> read_all(const fs::path& p) {
  return bale_test::read_all<std::byte>(p);
}
using bale_test::write_all;

using bale_test::reseal;

TEST_F(FileSchema, TheSchemaFollowsTheHeader) {
  const fs::path p = dir_ / "hero.bale";
  bale::save_file(p, v1::hero{7, "ada"});
  const auto bytes = read_all(p);
  const std::string& text = bale::schema_of<v1::hero>().text();
  EXPECT_EQ(std::to_integer<int>(bytes[4]), 2);  // the file version
  EXPECT_EQ(bale::detail::get_u64(bytes.data() + 8), bale::schema_of<v1::hero>().fingerprint());
  ASSERT_EQ(bale::detail::get_u32(bytes.data() + 40), text.size());
  EXPECT_EQ(std::string_view(reinterpret_cast<const char*>(bytes.data() + 44), text.size()), text);
  const std::size_t padded = (4 + text.size() + 15) / 16 * 16;  // zeros up to a multiple of 16
  for (std::size_t i = 44 + text.size(); i < 40 + padded; ++i) EXPECT_EQ(bytes[i], std::byte{0});
  const auto payload = bale::serialize(v1::hero{7, "ada"});
  ASSERT_EQ(bytes.size(), 40 + padded + payload.size());
  EXPECT_EQ(std::memcmp(bytes.data() + 40 + padded, payload.data(), payload.size()), 0);
  EXPECT_EQ(bale::detail::get_u64(bytes.data() + 24), payload.size());  // the raw size
}

TEST_F(FileSchema, ALayoutChangeThatDoesNotResolveIsAnErrorThatSaysWhere) {
  const fs::path p = dir_ / "hero.bale";
  for (const auto c : {bale::codec::none, bale::codec::zstd}) {
    bale::file_options options;
    options.compression = c;
    bale::save_file<bale::compact>(p, v1::hero{7, "ada"}, options);
    const auto retyped = bale::try_load_file<retyped::hero>(p);
    ASSERT_FALSE(retyped);
    EXPECT_EQ(retyped.error().code(), bale::errc::wrong_type);
    const std::string message = retyped.error().message();
    EXPECT_NE(message.find("hero.bale"), std::string::npos) << message;
    EXPECT_NE(message.find(R"(it has "i32" where the type has "f32")"), std::string::npos)
        << message;
    EXPECT_EQ(retyped.error().path(), "mana");
    EXPECT_EQ(retyped.error().offset(), 44u);
    // A member added: the file resolves, the new member keeps its default.
    const auto grown = bale::load_file<grown::hero>(p);
    EXPECT_EQ(grown.mana, 7);
    EXPECT_EQ(grown.name, "ada");
    EXPECT_TRUE(grown.items.empty());
    // The same members under another class name: the same schema, read.
    const auto champion = bale::load_file<renamed_class::champion>(p);
    EXPECT_EQ(champion.mana, 7);
    EXPECT_EQ(champion.name, "ada");
  }
}

TEST_F(FileSchema, ADamagedSchemaIsRefusedEvenUnchecked) {
  const fs::path p = dir_ / "hero.bale";
  bale::save_file(p, v1::hero{7, "ada"});
  const auto good = read_all(p);
  bale::file_options unchecked;
  unchecked.verify_checksum = false;
  unchecked.check_type = false;
  auto longer = good;  // a schema size past the end of the file
  bale::detail::put_u32(longer.data() + 40, 0xFFFFFF00U);
  reseal(longer);
  write_all(p, longer);
  auto r = bale::try_load_file<v1::hero>(p, unchecked);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::length_too_large);
  auto padding = good;  // a byte of the padding after the schema
  padding[44 + bale::schema_of<v1::hero>().text().size()] = std::byte{1};
  reseal(padding);
  write_all(p, padding);
  r = bale::try_load_file<v1::hero>(p, unchecked);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::length_too_large);
  auto flipped = good;  // a character of the schema
  flipped[50] ^= std::byte{0x01};
  reseal(flipped);
  write_all(p, flipped);
  r = bale::try_load_file<v1::hero>(p, unchecked);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::checksum_mismatch);
  EXPECT_NE(r.error().message().find("schema"), std::string::npos) << r.error().message();
  // check_type off reads a file of another layout as the type asked for, schema unchecked.
  write_all(p, good);
  const auto loose = bale::try_load_file<renamed_class::champion>(p, unchecked);
  ASSERT_TRUE(loose);
  EXPECT_EQ(loose->name, "ada");
}

// A file as bale wrote it before schemas: version 1, the compiler's fingerprint of the type, the
// payload right after the header.
template <class T>
std::vector<std::byte> version_1_file(const T& value) {
  const auto payload = bale::serialize(value);
  std::vector<std::byte> bytes(40 + payload.size());
  std::memcpy(bytes.data(), "BALE", 4);
  bytes[4] = std::byte{1};
  bytes[5] = std::byte{bale::binary::id};
  bale::detail::put_u64(bytes.data() + 8, bale::detail::type_fingerprint<T>());
  bale::detail::put_u64(bytes.data() + 16, payload.size());
  bale::detail::put_u64(bytes.data() + 24, payload.size());
  std::memcpy(bytes.data() + 40, payload.data(), payload.size());
  reseal(bytes);
  return bytes;
}

TEST_F(FileSchema, VersionOneFilesStillRead) {
  const fs::path p = dir_ / "old.bale";
  write_all(p, version_1_file(v1::hero{3, "grace"}));
  EXPECT_EQ(bale::load_file<v1::hero>(p), (v1::hero{3, "grace"}));
  const auto other = bale::try_load_file<retyped::hero>(p);
  ASSERT_FALSE(other);
  EXPECT_EQ(other.error().code(), bale::errc::wrong_type);
  EXPECT_NE(other.error().message().find("version 1"), std::string::npos);
  auto future = version_1_file(v1::hero{3, "grace"});
  future[4] = std::byte{3};
  reseal(future);
  write_all(p, future);
  const auto r = bale::try_load_file<v1::hero>(p);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message().find("unknown version 3"), std::string::npos);
}

}  // namespace
