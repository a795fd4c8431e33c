// SPDX-License-Identifier: BSL-1.0
#pragma once
// What coreutils' base64 does (map the file, code it a block at a time, write standard output),
// with bale's codec, so the two compare as whole processes (bench/tools/base64_tool.cpp).
#include <unistd.h>
#include <bale/base64/base64.hpp>

#include <cstdio>
#include <string_view>
#include <vector>

#include "common/files.hpp"

namespace bench {

inline bool write_out(const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(STDOUT_FILENO, data, size);
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

inline int base64_tool(std::string_view mode, const char* path) {
  // Blocks of 48 KiB of bytes (64 KiB of text): whole groups, so only the last block is padded;
  // the output buffer stays in cache, as coreutils' does.
  constexpr std::size_t raw_block = 3 * 16384, text_block = 4 * 16384;
  try {
    const mapped_file file(path);
    const auto in = file.bytes();
    std::vector<char> out(text_block);
    const bool encode = mode == "encode";
    const std::size_t step = encode ? raw_block : text_block;
    for (std::size_t at = 0; at < in.size(); at += step) {
      const std::size_t n = in.size() - at < step ? in.size() - at : step;
      std::size_t produced;
      if (encode) {
        const auto bytes = std::as_bytes(in.subspan(at, n));
        produced = bale::base64::encoded_size(n);
        bale::base64::encode_to(bytes, out.data());
      } else {
        produced = bale::base64::decode_to(std::string_view(in.data() + at, n),
                                           reinterpret_cast<std::byte*>(out.data()));
      }
      if (!write_out(out.data(), produced)) return 1;
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bale_base64_tool: %s\n", e.what());
    return 1;
  }
}

}  // namespace bench
