// SPDX-License-Identifier: BSL-1.0
// The archive contract: every archive in bale satisfies the concepts, an archive missing a verb
// does not, and one write context is shared by every writer a call builds.
#include <gtest/gtest.h>
#include <unistd.h>

#include <bale/all.hpp>
#include <bale/file/file.hpp>
#include <bale/file/records.hpp>
#include <filesystem>
#include <vector>

namespace {

static_assert(bale::format<bale::binary> && bale::format<bale::compact>);
static_assert(bale::format<bale::json> && bale::format<bale::msgpack>);
static_assert(bale::input_archive<bale::json::reader> &&
              bale::input_archive<bale::msgpack::reader>);
static_assert(!bale::output_archive<int> && !bale::input_archive<int> && !bale::format<int>);

// The binary writer without its variant verb: no longer an output archive.
template <class Sink>
struct without_variant : bale::binary::writer<Sink> {
  using bale::binary::writer<Sink>::writer;
  void write_variant() = delete;
};
static_assert(bale::output_archive<bale::binary::writer<bale::detail::size_counter>>);
static_assert(!bale::output_archive<without_variant<bale::detail::size_counter>>);

// Records the context of every writer that saves it.
struct witness {
  static inline std::vector<const void*> seen;
  int value = 0;
  template <class Archive>
  void save(Archive& ar) const {
    seen.push_back(&ar.context());
    ar(value);
  }
  template <class Archive>
  void load(Archive& ar) {
    ar(value);
  }
};

// Every save of one call saw the same context; returns how many saves there were.
std::size_t saves_with_one_context() {
  const std::size_t saves = witness::seen.size();
  for (const void* context : witness::seen) EXPECT_EQ(context, witness::seen.front());
  witness::seen.clear();
  return saves;
}

// Three values, each saved once per pass: sizing and writing for the byte formats, writing only
// for JSON, and MessagePack counts a hand-described type's values before writing its header. A
// record writer keeps its buffer, which the byte formats write into in one pass.
template <class Format>
void check_entry_points(std::size_t saves_per_call, std::size_t saves_per_record) {
  SCOPED_TRACE(std::string(Format::name));
  const std::vector<witness> values(3);
  (void)bale::serialize<Format>(values);
  EXPECT_EQ(saves_with_one_context(), saves_per_call);
  std::vector<char> buffer;
  bale::serialize_into<Format>(buffer, values);
  EXPECT_EQ(saves_with_one_context(), saves_per_call);
  std::vector<std::byte> out(bale::serialized_size<Format>(values));
  witness::seen.clear();
  bale::serialize_to<Format>(out, values);
  EXPECT_GE(saves_with_one_context(), 3u);  // the byte formats write a fixed buffer in one pass
  const auto path = std::filesystem::temp_directory_path() /
                    ("contract_" + std::string(Format::name) + std::to_string(::getpid()));
  if constexpr (!std::is_same_v<Format, bale::json>) {  // files hold the byte formats
    bale::save_file<Format>(path, values);
    EXPECT_GE(saves_with_one_context(), 3u);
  }
  {
    bale::record_writer<std::vector<witness>, Format> records(path);
    records.write(values);
    EXPECT_EQ(saves_with_one_context(), saves_per_record);
  }
  std::filesystem::remove(path);
}

TEST(ArchiveContract, OneWriteContextPerCall) {
  check_entry_points<bale::binary>(6, 3);
  check_entry_points<bale::compact>(6, 3);
  check_entry_points<bale::msgpack>(12, 12);
  check_entry_points<bale::json>(3, 3);
}

}  // namespace
