// SPDX-License-Identifier: BSL-1.0
// The file readers on any bytes at the path: bale::load_file (the .bale header, schema block,
// checksum, compressed payloads) and bale::record_reader (record after record, going on after a
// damaged one; with a record index, through it too), or, typeless, bale::inspect_file and
// bale::record_inspector, which decode by the schema the file carries. Nothing but bale::error
// escapes; a record file always ends.
#include <unistd.h>

#include <algorithm>
#include <bale/file/file.hpp>
#include <bale/file/inspect.hpp>
#include <bale/file/records.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "message.hpp"

namespace {

const std::filesystem::path& scratch() {
  static const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("bale_fuzz_file_" + std::to_string(::getpid()));
  return path;
}

void inspect(std::uint8_t mode, std::size_t size, const bale::limits& lim) {
  try {
    if (mode % 2 == 0) {
      const auto f =
          bale::inspect_file(scratch(), {.verify_checksum = mode % 4 == 0, .limits = lim});
      if (f.content) (void)bale::to_json(*f.content);
      return;
    }
    bale::record_inspector in(scratch(), lim);
    for (std::size_t records = 0;; ++records) {
      if (records > size) std::abort();
      try {
        if (!in.next()) break;
      } catch (const bale::error&) {
      }
    }
  } catch (const bale::error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  // The first byte chooses the reader, whether checksums are checked (without them the decoders
  // see every damaged byte), whether the schema is compared with the type's and (8) whether the
  // file is read without a type.
  const std::uint8_t mode = data[0];
  std::ofstream(scratch(), std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data + 1), static_cast<std::streamsize>(size - 1));
  const bale::limits lim{.max_allocation = std::size_t{16} << 20};
  if (mode & 8) {
    inspect(mode, size, lim);
  } else if (mode % 2 == 0) {
    const bale::file_options options{
        .check_type = (mode & 4) != 0, .verify_checksum = mode % 4 == 0, .limits = lim};
    try {
      (void)bale::load_file<fuzz::message>(scratch(), options);
    } catch (const bale::error&) {
    }
  } else {
    try {
      bale::record_reader<fuzz::message> in(scratch(), lim);
      if (in.indexed()) {                    // through the index: the last record, then all of them
        if (in.size() > size) std::abort();  // the index's length paid for its count
        try {
          in.seek(in.size() - std::min<std::size_t>(in.size(), 1));
          (void)in.next();
        } catch (const bale::error&) {
        }
        try {
          (void)in.read(0, in.size());
        } catch (const bale::error&) {
        }
        in.seek(0);
      }
      for (std::size_t records = 0;; ++records) {
        if (records > size) std::abort();  // each record takes at least 8 bytes: it must end
        try {
          if (!in.next()) break;
        } catch (const bale::error&) {
        }
      }
    } catch (const bale::error&) {
    }
  }
  return 0;
}
