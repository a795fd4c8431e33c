// SPDX-License-Identifier: BSL-1.0
#include <unistd.h>
#include <bale/all.hpp>
#include <bale/file/records.hpp>

#include <fstream>

#include "support/file_bytes.hpp"
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

// Where the first record starts: after the header and the schema.
template <class T>
std::size_t first_record() {
  return 8 + 16 + bale::schema_of<T>().text().size();
}

using bale_test::read_all;
using bale_test::write_all;

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
  EXPECT_EQ(fs::file_size(path), first_record<int>() + 8u + 1u);  // the schema "i32", a record
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
  bale::detail::put_u32(reinterpret_cast<std::byte*>(huge.data()) + first_record<std::string>(),
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

namespace v1 {
struct event {
  std::uint64_t time;
  std::string name;
};
}  // namespace v1
namespace v2 {
struct event {
  std::uint64_t time;
  std::string name;
  std::optional<double> value;
};
}  // namespace v2
struct renamed_event {
  std::uint64_t time;
  std::string name;
};
struct retimed_event {
  std::uint32_t time;  // narrower: does not resolve
  std::string name;
};

TEST(Records, TheFileCarriesItsSchema) {
  const auto path = temp_path("schema.bales");
  {
    bale::record_writer<v1::event, bale::compact> out(path);
    out.write({1, "one"});
  }
  const auto bytes = read_all(path);
  const std::string& text = bale::schema_of<v1::event>().text();
  EXPECT_EQ(bytes[4], 2);  // the version
  ASSERT_GE(bytes.size(), first_record<v1::event>());
  EXPECT_EQ(std::string(bytes.data() + 24, text.size()), text);
  // Records of an older layout resolve: the added member keeps its default.
  bale::record_reader<v2::event> grown(path);
  const auto event = grown.next();
  ASSERT_TRUE(event);
  EXPECT_EQ(event->time, 1u);
  EXPECT_EQ(event->name, "one");
  EXPECT_FALSE(event->value);
  try {
    bale::record_reader<retimed_event> in(path);
    ADD_FAILURE() << "read records of a layout that does not resolve";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::wrong_type);
    EXPECT_EQ(e.path(), "time");
    EXPECT_EQ(e.offset(), 24u);
  }
  bale::record_reader<renamed_event> same(path);  // the same members: the same schema
  const auto first = same.next();
  ASSERT_TRUE(first);
  EXPECT_EQ(first->name, "one");
  fs::remove(path);
}

TEST(Records, ADamagedOrCutSchemaIsAnError) {
  const auto path = temp_path("bad_schema.bales");
  {
    bale::record_writer<v1::event> out(path);
    out.write({1, "one"});
  }
  const auto good = read_all(path);
  auto flipped = good;
  flipped[30] ^= 1;  // inside the schema text
  write_all(path, flipped);
  try {
    bale::record_reader<v1::event> in(path);
    ADD_FAILURE() << "read a damaged schema";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::checksum_mismatch) << e.what();
  }
  for (const std::size_t cut : {std::size_t{12}, std::size_t{30}}) {
    write_all(path,
              std::vector<char>(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(cut)));
    try {
      bale::record_reader<v1::event> in(path);
      ADD_FAILURE() << "read a cut schema";
    } catch (const bale::error& e) {
      EXPECT_EQ(e.code(), bale::errc::end_of_input) << e.what();
    }
  }
  auto longer = good;  // a schema size past the end of the file
  bale::detail::put_u32(reinterpret_cast<std::byte*>(longer.data()) + 16, 0xFFFFFFF0u);
  write_all(path, longer);
  try {
    bale::record_reader<v1::event> in(path);
    ADD_FAILURE() << "read a schema longer than the file";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::end_of_input) << e.what();
  }
  fs::remove(path);
}

TEST(Records, VersionOneFilesStillRead) {
  // As bale wrote them before schemas: 8 bytes of header, then the records.
  const auto path = temp_path("old.bales");
  const auto payload = bale::serialize(v1::event{5, "five"});
  std::vector<char> bytes = {'B', 'A', 'L', 'S', 1, static_cast<char>(bale::binary::id), 0, 0};
  bytes.resize(16 + payload.size());
  auto* record = reinterpret_cast<std::byte*>(bytes.data()) + 8;
  bale::detail::put_u32(record, static_cast<std::uint32_t>(payload.size()));
  bale::detail::put_u32(record + 4, bale::detail::crc32c(payload));
  std::memcpy(record + 8, payload.data(), payload.size());
  write_all(path, bytes);
  bale::record_reader<v1::event> in(path);
  const auto first = in.next();
  ASSERT_TRUE(first);
  EXPECT_EQ(first->name, "five");
  EXPECT_FALSE(in.next());
  fs::remove(path);
}

}  // namespace
