// SPDX-License-Identifier: BSL-1.0
// A std adapter declares its structure once (schema_shape); its wire shape, which formats use to
// size and bounds-check, follows from it.
#include <gtest/gtest.h>
#include <bale/all.hpp>
#include <bale/types/all.hpp>

#include <array>
#include <bitset>
#include <chrono>
#include <complex>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

namespace {

namespace wire = bale::wire;
template <class T>
using shape = typename bale::detail::wire_shape_of<T>::type;

enum class colour : std::uint16_t { red };
struct hand_written {
  int a;
  template <class Archive>
  void save(Archive& ar) const {
    ar(a);
  }
  template <class Archive>
  void load(Archive& ar) {
    ar(a);
  }
};

static_assert(std::is_same_v<shape<int>, wire::scalar<int>>);
static_assert(std::is_same_v<shape<colour>, wire::scalar<std::uint16_t>>);
static_assert(std::is_same_v<shape<std::string>, wire::length_prefixed>);
static_assert(std::is_same_v<shape<std::vector<int>>, wire::length_prefixed>);
static_assert(std::is_same_v<shape<std::vector<bool>>, wire::length_prefixed>);
static_assert(std::is_same_v<shape<std::map<int, int>>, wire::length_prefixed>);
static_assert(std::is_same_v<shape<std::array<int, 3>>, wire::repeat<int, 3>>);
static_assert(std::is_same_v<shape<std::complex<float>>, wire::repeat<float, 2>>);
static_assert(std::is_same_v<shape<std::tuple<int, char>>, wire::product<int, char>>);
static_assert(std::is_same_v<shape<std::pair<int, char>>, wire::product<int, char>>);
static_assert(std::is_same_v<shape<std::optional<int>>, wire::flag_prefixed>);
static_assert(std::is_same_v<shape<std::shared_ptr<int>>, wire::flag_prefixed>);
static_assert(std::is_same_v<shape<bale::observer<int>>, wire::flag_prefixed>);
static_assert(std::is_same_v<shape<std::variant<int, char>>, wire::index_prefixed>);
static_assert(std::is_same_v<shape<std::monostate>, wire::product<>>);
// The library's own representation: long with libstdc++, long long with libc++.
static_assert(
    std::is_same_v<shape<std::chrono::milliseconds>, wire::scalar<std::chrono::milliseconds::rep>>);
static_assert(
    std::is_same_v<shape<std::chrono::sys_seconds>, shape<std::chrono::sys_seconds::duration>>);
static_assert(!std::is_same_v<shape<std::bitset<70>>, wire::opaque>);  // declared: its words
static_assert(std::is_same_v<shape<hand_written>, wire::opaque>);      // no structure declared

// What the shapes are for: sizes known without walking the value, and the same bytes as before.
TEST(WireShape, FollowsFromTheSchemaShape) {
  EXPECT_TRUE((bale::wire_size_of<bale::detail::binary_codec, std::array<std::int32_t, 3>>.fixed));
  EXPECT_EQ((bale::wire_size_of<bale::detail::binary_codec, std::array<std::int32_t, 3>>.min), 12U);
  EXPECT_EQ((bale::wire_size_of<bale::detail::binary_codec, std::vector<int>>.min), 8U);
  EXPECT_EQ(bale::serialized_size(std::make_tuple(std::int32_t{1}, std::optional<char>('x'))), 6U);
}

}  // namespace
