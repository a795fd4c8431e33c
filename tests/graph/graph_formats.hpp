// SPDX-License-Identifier: BSL-1.0
#pragma once
// The formats every graph test runs in.
#include <gtest/gtest.h>

#include <bale/all.hpp>
#include <bale/json/format.hpp>
#include <bale/msgpack/format.hpp>

struct format_names {
  template <class Format>
  static std::string GetName(int) {
    return std::string(Format::name);
  }
};

using graph_formats = ::testing::Types<bale::binary, bale::compact, bale::msgpack, bale::json>;
