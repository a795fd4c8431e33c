// SPDX-License-Identifier: BSL-1.0
#pragma once
// A std::streambuf over bytes that already are in memory, so stream-based libraries read a buffer
// without first copying it into a std::string.

#include <span>
#include <streambuf>

namespace bench {

class memory_streambuf : public std::streambuf {
 public:
  explicit memory_streambuf(std::span<const char> bytes) {
    char* begin = const_cast<char*>(bytes.data());
    setg(begin, begin, begin + bytes.size());
  }
};

}  // namespace bench
