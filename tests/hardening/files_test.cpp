// SPDX-License-Identifier: BSL-1.0
// Files and record streams: whatever is at the path or happens to it, an error, never a signal,
// an abort, a hang, silent loss or memory the file did not pay for.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bale/all.hpp>
#include <bale/compress/compress.hpp>
#include <bale/file/file.hpp>
#include <bale/file/records.hpp>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <span>
#include <stdexcept>
#include <string_view>

#include "counting_allocator.hpp"

namespace {

namespace fs = std::filesystem;
using hardening::measure_heap;
using hardening::mib;

// Where the first record of a record file of strings starts: after the 8-byte header, the
// schema's 16-byte head and its text.
std::size_t first_record_of_strings() {
  return 8 + 16 + bale::schema_of<std::string>().text().size();
}

class HostileFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("bale_hostile_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  static void write_bytes(const fs::path& p, std::span<const std::byte> bytes) {
    std::ofstream(p, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
  }
  static std::vector<std::byte> read_bytes(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::byte> bytes(chars.size());
    std::memcpy(bytes.data(), chars.data(), chars.size());
    return bytes;
  }
  fs::path dir_;
};

TEST_F(HostileFiles, AFifoIsRefusedWithoutBlocking) {
  const fs::path p = dir_ / "pipe";
  ASSERT_EQ(::mkfifo(p.c_str(), 0600), 0);
  auto r = bale::try_load_file<int>(p);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::io_error);
  EXPECT_THROW(bale::record_reader<int> in(p), bale::error);
}

TEST_F(HostileFiles, ALargeFileThatIsNotBaleCostsItsHeader) {
  const fs::path p = dir_ / "big.bin";
  write_bytes(p, std::vector<std::byte>(64 * mib, std::byte{'x'}));
  bale::result<std::vector<double>> r = bale::error(bale::errc::io_error, "", 0);
  const auto use = measure_heap([&] { r = bale::try_load_file<std::vector<double>>(p); });
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::invalid_value);
  EXPECT_LE(use.peak_bytes, 64u * 1024);
}

TEST_F(HostileFiles, SizesInHeadersAreCheckedAgainstTheFile) {
  const fs::path p = dir_ / "claims.bale";
  bale::save_file(p, std::vector<int>{1, 2, 3});
  std::vector<std::byte> bytes = read_bytes(p);
  bale::detail::put_u64(bytes.data() + 16, std::uint64_t{1} << 30);  // stored size: 1 GiB
  bale::detail::put_u32(bytes.data() + 36, bale::detail::crc32c(std::span(bytes).first(36)));
  write_bytes(p, bytes);
  const auto use = measure_heap([&] {
    auto r = bale::try_load_file<std::vector<int>>(p);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code(), bale::errc::end_of_input);
  });
  EXPECT_LE(use.peak_bytes, 64u * 1024);

  // A record claiming 512 MiB in a file of a few dozen bytes.
  const fs::path q = dir_ / "claims.bales";
  {
    bale::record_writer<std::string> out(q);
    out.write("hello");
    out.close();
  }
  std::vector<std::byte> records = read_bytes(q);
  bale::detail::put_u32(records.data() + first_record_of_strings(), 512u << 20);
  write_bytes(q, records);
  const auto use2 = measure_heap([&] {
    bale::record_reader<std::string> in(q);
    try {
      (void)in.next();
      ADD_FAILURE() << "a cut-off record read";
    } catch (const bale::error& e) {
      EXPECT_EQ(e.code(), bale::errc::end_of_input);
    }
  });
  EXPECT_LE(use2.peak_bytes, 256u * 1024);
}

struct indexed {
  std::span<const std::uint64_t> numbers;
  std::string_view name;
};

TEST_F(HostileFiles, ViewsNeverDangle) {
  const std::vector<std::uint64_t> numbers{1, 2, 3};
  const fs::path p = dir_ / "views.bale";
  bale::save_file(p, indexed{numbers, "index"});
  auto r = bale::try_load_file<indexed>(p);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().detail().find("load_file_owned"), std::string::npos);
  // The owned form keeps the bytes the views point into.
  auto owned = bale::load_file_owned<indexed>(p);
  auto moved = std::move(owned);
  EXPECT_EQ(moved->name, "index");
  ASSERT_EQ(moved->numbers.size(), 3u);
  EXPECT_EQ(moved->numbers[2], 3u);

  const fs::path q = dir_ / "views.bales";
  {
    bale::record_writer<std::string_view> out(q);
    out.write("a view");
    out.close();
  }
  bale::record_reader<std::string_view> in(q);
  EXPECT_THROW((void)in.next(), bale::error);
}

TEST_F(HostileFiles, AViewOfVarintsInACompactFileIsAnError) {
  const std::vector<std::uint64_t> numbers{1, 2, 3};
  const fs::path p = dir_ / "views.compact.bale";
  bale::save_file<bale::compact>(p, indexed{numbers, "index"});
  try {
    (void)bale::load_file_owned<indexed>(p);
    ADD_FAILURE() << "a span of varints was read as a view";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::wrong_type);
  }
}

TEST_F(HostileFiles, AFullDiskIsAnErrorFromCloseAndNeverATerminate) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  {
    bale::record_writer<std::string> out("/dev/full");
    out.write(std::string(100, 'x'));
    EXPECT_THROW(out.close(), bale::error);
  }
  {
    bale::record_writer<std::string> out("/dev/full");
    for (int i = 0; i < 10; ++i) out.write(std::string(100, 'x'));
    // Destroyed with its records unwritten: reported on stderr, the program goes on.
  }
  SUCCEED();
}

struct picky {
  int value = 0;
  template <class Archive>
  void save(Archive& ar) const {
    ar(value);
    if (value < 0) throw std::runtime_error("negative");
    ar(value);
  }
  template <class Archive>
  void load(Archive& ar) {
    int again = 0;
    ar(value, again);
  }
};

TEST_F(HostileFiles, ARecordWhoseSaveThrowsLeavesNothingBehind) {
  const fs::path p = dir_ / "picky.bales";
  {
    bale::record_writer<picky> out(p);
    out.write(picky{1});
    EXPECT_THROW(out.write(picky{-1}), std::runtime_error);
    out.write(picky{2});
    EXPECT_EQ(out.count(), 2u);
    out.close();
  }
  bale::record_reader<picky> in(p);
  EXPECT_EQ(in.next()->value, 1);
  EXPECT_EQ(in.next()->value, 2);
  EXPECT_FALSE(in.next());
}

TEST_F(HostileFiles, AfterADamagedRecordTheNextOnesReadWithTheirOffsets) {
  const fs::path p = dir_ / "damaged.bales";
  {
    bale::record_writer<std::string> out(p);
    for (const char* s : {"first", "second", "third"}) out.write(s);
    out.close();
  }
  std::vector<std::byte> bytes = read_bytes(p);
  // Records: the file header and schema, then per record 8 bytes of prefix and the payload.
  const std::size_t first = first_record_of_strings(), second = first + 8 + 8 + 5;
  bytes[second + 8 + 9] ^= std::byte{1};  // a letter of "second"
  write_bytes(p, bytes);
  bale::record_reader<std::string> in(p);
  EXPECT_EQ(*in.next(), "first");
  try {
    (void)in.next();
    ADD_FAILURE() << "a damaged record read";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::checksum_mismatch);
    EXPECT_EQ(e.offset(), second);
  }
  EXPECT_EQ(*in.next(), "third");
  EXPECT_FALSE(in.next());
}

TEST_F(HostileFiles, SaveFileKeepsModeLinksAndLongNames) {
  const fs::path target = dir_ / "kept.bale";
  bale::save_file(target, 1);
  ASSERT_EQ(::chmod(target.c_str(), 0600), 0);
  bale::save_file(target, 2);
  struct stat st {};
  ASSERT_EQ(::stat(target.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);

  const fs::path link = dir_ / "link.bale";
  fs::create_symlink(target, link);
  bale::save_file(link, 3);
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(bale::load_file<int>(target), 3);

  const fs::path longest = dir_ / std::string(250, 'n');
  bale::save_file(longest, 4);
  EXPECT_EQ(bale::load_file<int>(longest), 4);
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir_)) ++files;
  EXPECT_EQ(files, 3u);  // no temporary file left behind
}

// A save() that writes one size while the size is counted and another when it is written (the
// counting pass calls it `per_pass` times: MessagePack's twice, to count values first).
struct fickle {
  mutable int calls = 0;
  int per_pass = 1;
  bool grows = true;
  template <class Archive>
  void save(Archive& ar) const {
    const bool counting = calls++ % (2 * per_pass) < per_pass;
    ar(std::vector<std::uint64_t>(counting == grows ? 1 : 1000, 7));
  }
  template <class Archive>
  void load(Archive& ar) {
    std::vector<std::uint64_t> v;
    ar(v);
  }
};

TEST_F(HostileFiles, ASaveThatChangesItsSizeIsAnErrorNotAnOverflow) {
  for (const bool grows : {true, false}) {
    fickle f;
    f.grows = grows;
    const auto fails = [&](auto serialize) {
      try {
        serialize();
        ADD_FAILURE() << "a changing save() was written, grows: " << grows;
      } catch (const bale::error& e) {
        EXPECT_EQ(e.code(), bale::errc::invalid_value);
      }
    };
    fails([&] { (void)bale::serialize(f); });
    fails([&] { (void)bale::serialize<bale::compact>(f); });
    f.per_pass = 2;
    fails([&] { (void)bale::serialize<bale::msgpack>(f); });
    f.per_pass = 1;
    std::vector<std::byte> buffer(3, std::byte{1});
    EXPECT_THROW(bale::serialize_into(buffer, f), bale::error);
    EXPECT_EQ(buffer.size(), 3u);  // left as it was
  }
}

TEST_F(HostileFiles, EveryFlippedBitOfACompressedFrameIsDetected) {
  std::vector<std::byte> data(3000);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::byte>(i * 7 % 13);
  for (auto codec : {bale::codec::none, bale::codec::lz4, bale::codec::zstd}) {
    if (!bale::codec_available(codec)) continue;
    const auto frame = bale::compress(data, codec);
    for (std::size_t i = 0; i < frame.size(); ++i)
      for (int bit = 0; bit < 8; ++bit) {
        auto damaged = frame;
        damaged[i] ^= static_cast<std::byte>(1 << bit);
        // Detected, or a bit the codec does not depend on (the same bytes come out).
        auto r = bale::try_decompress(damaged);
        EXPECT_TRUE(!r || *r == data) << bale::to_string(codec) << " byte " << i << " bit " << bit;
      }
  }
}

}  // namespace
