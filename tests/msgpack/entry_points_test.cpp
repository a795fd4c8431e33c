// SPDX-License-Identifier: BSL-1.0
// MessagePack through every entry point: buffers, spans, readers, checksummed files, records.
#include <unistd.h>

#include <bale/all.hpp>
#include <bale/file/file.hpp>
#include <bale/file/records.hpp>
#include <filesystem>

#include "support/roundtrip.hpp"

namespace {

struct event {
  std::uint64_t time = 0;
  std::string name;
  std::vector<double> values;
  bool operator==(const event&) const = default;
};

std::filesystem::path temp_path(const char* name) {
  return std::filesystem::temp_directory_path() /
         (std::string(name) + "_" + std::to_string(::getpid()));
}

TEST(MsgpackEntryPoints, BuffersAndSpans) {
  const event e{7, "start", {0.5, 1.5}};
  const auto bytes = bale::serialize<bale::msgpack>(e);
  EXPECT_EQ(bale::serialized_size<bale::msgpack>(e), bytes.size());
  std::vector<std::byte> exact(bytes.size());
  EXPECT_EQ(bale::serialize_to<bale::msgpack>(exact, e), bytes.size());
  EXPECT_EQ(exact, bytes);
  std::string text = "prefix";
  bale::serialize_into<bale::msgpack>(text, e);
  EXPECT_EQ(text.size(), 6 + bytes.size());
  EXPECT_EQ((bale::deserialize<event, bale::msgpack>(std::string_view(text).substr(6))), e);
  event into;
  bale::deserialize<bale::msgpack>(bytes, into);
  EXPECT_EQ(into, e);
}

TEST(MsgpackEntryPoints, ManyValuesInOneBuffer) {
  // A stream of values, each its own MessagePack object, as MessagePack streams are.
  std::vector<std::byte> buffer;
  bale::writer<bale::msgpack> out(buffer);
  out(1, std::string("two"), event{3, "three", {}});
  bale::reader<bale::msgpack> in(buffer);
  int one = 0;
  std::string two;
  event three;
  in(one, two, three);
  EXPECT_EQ(one, 1);
  EXPECT_EQ(two, "two");
  EXPECT_EQ(three, (event{3, "three", {}}));
}

TEST(MsgpackEntryPoints, Files) {
  const auto path = temp_path("msgpack.bale");
  const std::vector<event> events{{1, "a", {1.0}}, {2, "b", {}}};
  bale::save_file<bale::msgpack>(path, events);
  EXPECT_EQ((bale::load_file<std::vector<event>, bale::msgpack>(path)), events);
  // The header records the format: another format's reader refuses the file.
  EXPECT_FALSE((bale::try_load_file<std::vector<event>, bale::binary>(path)));
  std::filesystem::remove(path);
}

TEST(MsgpackEntryPoints, Records) {
  const auto path = temp_path("msgpack.bales");
  {
    bale::record_writer<event, bale::msgpack> out(path);
    for (std::uint64_t i = 0; i < 1000; ++i) out.write(event{i, std::to_string(i), {0.25}});
    out.close();
  }
  bale::record_reader<event, bale::msgpack> in(path);
  std::uint64_t n = 0;
  while (auto e = in.next()) {
    ASSERT_EQ(*e, (event{n, std::to_string(n), {0.25}}));
    ++n;
  }
  EXPECT_EQ(n, 1000u);
  EXPECT_THROW((bale::record_reader<event, bale::compact>(path)), bale::error);
  std::filesystem::remove(path);
}

}  // namespace
