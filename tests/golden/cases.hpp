// SPDX-License-Identifier: BSL-1.0
#pragma once
// The golden cases: for each, how today's writer produces its bytes and how a reader checks that
// bytes of that name hold the expected value. tools: write_golden writes them; golden_test reads
// the committed ones back and compares today's bytes with them.

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace golden {

struct golden_case {
  /// The file's path under tests/golden/format-N/, e.g. "binary/scalars".
  std::string name;
  /// Today's bytes for the case's value.
  std::function<std::vector<std::byte>()> write;
  /// Reads `bytes` and throws std::runtime_error unless they hold the case's value.
  std::function<void(std::span<const std::byte> bytes)> read;
  /// Whether today's writer must reproduce the bytes exactly. Compressed files are read only:
  /// their bytes are the compression library's, which may change between its releases.
  bool exact = true;
};

/// Every case, in a fixed order.
std::vector<golden_case> all_cases();

}  // namespace golden
