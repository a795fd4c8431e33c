// SPDX-License-Identifier: BSL-1.0
// first error: this codec is not compiled in
#include <bale/compress/compress.hpp>

#include <string>

int main() {
  const std::string text = "built without BALE_WITH_ZSTD";
  return static_cast<int>(bale::compress<bale::codec::zstd>(std::as_bytes(std::span(text))).size());
}
