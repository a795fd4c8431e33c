// SPDX-License-Identifier: BSL-1.0
// The stability promise, kept: every golden file of every format version reads back as the value
// it was written from, and today's writer produces the current version's files byte for byte.
// A change to any wire format fails here until BALE_FORMAT_VERSION is raised and the new
// version's files are written (write_golden) beside the old ones, which must still read.
#include <gtest/gtest.h>

#include <bale/release.hpp>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "golden/cases.hpp"

namespace {

namespace fs = std::filesystem;
const fs::path golden_dir = BALE_GOLDEN_DIR;

fs::path version_dir(int version) {
  return golden_dir / ("format-" + std::to_string(version));
}

std::vector<std::byte> read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> out(text.size());
  std::memcpy(out.data(), text.data(), text.size());
  return out;
}

TEST(Golden, CurrentFormatVersionHasItsFiles) {
  ASSERT_TRUE(fs::is_directory(version_dir(BALE_FORMAT_VERSION)))
      << "no golden files for format version " << BALE_FORMAT_VERSION << ": run write_golden "
      << version_dir(BALE_FORMAT_VERSION) << " and commit them";
}

TEST(Golden, EveryVersionsFilesRead) {
  int versions = 0;
  for (int version = 1; version <= BALE_FORMAT_VERSION; ++version) {
    if (!fs::is_directory(version_dir(version))) continue;
    ++versions;
    for (const golden::golden_case& c : golden::all_cases()) {
      const fs::path path = version_dir(version) / c.name;
      if (!fs::exists(path)) {
        // A case added after this version has no file of it; the current version has all.
        EXPECT_NE(version, BALE_FORMAT_VERSION) << "missing " << path;
        continue;
      }
      SCOPED_TRACE(path.string());
      const auto bytes = read_all(path);
      try {
        c.read(bytes);
      } catch (const std::exception& e) {
        ADD_FAILURE() << "format version " << version << ", " << c.name << ": " << e.what();
      }
    }
  }
  EXPECT_GE(versions, 1);
}

TEST(Golden, TodaysWriterWritesTheCurrentVersionsBytes) {
  for (const golden::golden_case& c : golden::all_cases()) {
    if (!c.exact) continue;
    const fs::path path = version_dir(BALE_FORMAT_VERSION) / c.name;
    SCOPED_TRACE(path.string());
    const auto committed = read_all(path);
    const auto today = c.write();
    if (today == committed) continue;
    std::size_t at = 0;
    while (at < today.size() && at < committed.size() && today[at] == committed[at]) ++at;
    ADD_FAILURE() << c.name << ": today's writer writes other bytes (" << today.size()
                  << " bytes, the committed file " << committed.size()
                  << "; first difference at byte " << at
                  << "). A wire format changed: raise BALE_FORMAT_VERSION and write the new "
                     "version's files, or undo the change";
  }
}

// A damaged golden file must fail its read: the checks above could not pass on bytes that do not
// hold the value.
TEST(Golden, ReadsRefuseOtherBytes) {
  for (const golden::golden_case& c : golden::all_cases()) {
    const fs::path path = version_dir(BALE_FORMAT_VERSION) / c.name;
    auto bytes = read_all(path);
    ASSERT_GT(bytes.size(), 2u) << path;
    bytes.resize(bytes.size() / 2);
    EXPECT_ANY_THROW(c.read(bytes)) << "half of " << path << " read as the whole value";
  }
}

}  // namespace
