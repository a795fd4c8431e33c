#include <unistd.h>
#include <bale/bale.hpp>
#include <bale/file/records.hpp>

#include <fstream>

#include "support/roundtrip.hpp"

namespace {

namespace fs = std::filesystem;

struct event {
  std::uint64_t time;
  std::string name;
  std::vector<double> values;
  bool operator==(const event&) const = default;
};

fs::path temp_path(const char* name) {
  return fs::temp_directory_path() / (std::string(name) + "_" + std::to_string(::getpid()));
}

TEST(Records, WriteManyReadOneAtATime) {
  const auto path = temp_path("records.bales");
  {
    bale::record_writer<event> out(path);
    for (std::uint64_t i = 0; i < 10000; ++i)
      out.write(event{i, "e" + std::to_string(i), std::vector<double>(i % 5, 0.5)});
    EXPECT_EQ(out.count(), 10000u);
    out.close();
  }
  bale::record_reader<event> in(path);
  std::uint64_t n = 0;
  while (auto e = in.next()) {
    ASSERT_EQ(e->time, n);
    ASSERT_EQ(e->values.size(), n % 5);
    ++n;
  }
  EXPECT_EQ(n, 10000u);
  fs::remove(path);
}

TEST(Records, CompactFormatAndEmptyFile) {
  const auto path = temp_path("compact.bales");
  { bale::record_writer<int, bale::compact> out(path); }
  bale::record_reader<int, bale::compact> empty(path);
  EXPECT_FALSE(empty.next());
  {
    bale::record_writer<int, bale::compact> out(path);
    out.write(-33);
  }
  EXPECT_EQ(fs::file_size(path), 8u + 8u + 1u);
  bale::record_reader<int, bale::compact> in(path);
  EXPECT_EQ(in.next(), -33);
  EXPECT_FALSE(in.next());
  EXPECT_THROW((bale::record_reader<int, bale::binary>(path)), bale::error);  // another format
  bale::record_reader<int> from_header(path);  // reads the format the header names
  EXPECT_EQ(from_header.next(), -33);
  fs::remove(path);
}

TEST(Records, DamageAndTruncationAreErrors) {
  const auto path = temp_path("damaged.bales");
  {
    bale::record_writer<std::string> out(path);
    out.write("first");
    out.write("second");
  }
  std::vector<char> bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  auto rewrite = [&](const std::vector<char>& b) {
    std::ofstream(path, std::ios::binary | std::ios::trunc)
        .write(b.data(), static_cast<std::streamsize>(b.size()));
  };
  auto flipped = bytes;
  flipped.back() ^= 1;  // inside "second"
  rewrite(flipped);
  {
    bale::record_reader<std::string> in(path);
    EXPECT_EQ(in.next(), "first");
    try {
      (void)in.next();
      FAIL();
    } catch (const bale::error& e) {
      EXPECT_EQ(e.code(), bale::errc::checksum_mismatch);
      EXPECT_NE(std::string(e.what()).find("damaged.bales"), std::string::npos);
    }
  }
  rewrite(std::vector<char>(bytes.begin(), bytes.end() - 3));
  {
    bale::record_reader<std::string> in(path);
    EXPECT_EQ(in.next(), "first");
    EXPECT_THROW((void)in.next(), bale::error);
  }
  auto huge = bytes;
  bale::detail::put_u32(reinterpret_cast<std::byte*>(huge.data()) + 8,
                        0xFFFFFFF0u);  // first record's size
  rewrite(huge);
  {
    bale::limits small;
    small.max_allocation = 1 << 20;
    bale::record_reader<std::string> in(path, small);
    try {
      (void)in.next();
      FAIL();
    } catch (const bale::error& e) {
      EXPECT_EQ(e.code(), bale::errc::allocation_limit);
    }
  }
  fs::remove(path);
}

}  // namespace
