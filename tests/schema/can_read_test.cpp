// SPDX-License-Identifier: BSL-1.0
// bale::can_read<Reader, Writer> answers at compile time what deserialize_as does at run time.

#include <gtest/gtest.h>
#include <bale/all.hpp>
#include <bale/schema/can_read.hpp>
#include <bale/schema/resolve.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace older {
enum class mood : std::uint8_t { calm, angry };
struct pet {
  std::string name;
  std::int32_t age;
  mood state;
  std::vector<std::int16_t> marks;
  std::variant<std::int32_t, std::string> tag;
};
struct tree {
  std::int32_t value;
  std::vector<tree> children;
};
}  // namespace older

namespace newer {
enum class mood : std::uint16_t { calm, angry, sleepy };
struct pet {
  std::optional<std::string> name;  // became optional
  std::int64_t age;                 // widened
  mood state;
  std::vector<std::int32_t> marks;                      // elements widened
  std::variant<std::int32_t, std::string, double> tag;  // an alternative added
  double weight = 0;                                    // added
};
struct tree {
  std::int64_t value;
  std::vector<tree> children;  // recursive: resolved through itself
  std::string label;
};
struct narrowed {
  std::string name;
  std::int16_t age;
};
struct retyped {
  std::string name;
  std::string age;
};
struct handmade {
  std::int32_t age;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(age);
  }
};
struct holds_handmade {
  handmade age;
};
struct pointers {
  std::unique_ptr<std::int32_t> p;
};
struct other_pointers {
  std::unique_ptr<std::int64_t> p;
};
}  // namespace newer

// Today's build reads yesterday's data, and yesterday's reads today's where nothing narrowed.
static_assert(bale::can_read<newer::pet, older::pet>);
static_assert(!bale::can_read<older::pet, newer::pet>);
static_assert(bale::can_read<newer::tree, older::tree>);
static_assert(!bale::can_read<older::tree, newer::tree>);
static_assert(bale::can_read<std::vector<newer::pet>, std::vector<older::pet>>);
static_assert(bale::can_read<std::map<std::string, newer::pet>, std::map<std::string, older::pet>>);
static_assert(!bale::can_read<newer::narrowed, older::pet>);
static_assert(!bale::can_read<newer::retyped, older::pet>);
static_assert(!bale::can_read<newer::holds_handmade, older::pet>);
static_assert(!bale::can_read<newer::other_pointers, newer::pointers>);
static_assert(bale::can_read<newer::pointers, newer::pointers>);
static_assert(bale::can_read<std::optional<std::int64_t>, std::int32_t>);
static_assert(bale::can_read<std::int64_t, std::optional<std::int32_t>>);
static_assert(!bale::can_read<std::int32_t, float>);
static_assert(bale::can_read<double, float>);

namespace {

TEST(CanRead, SaysWhereAndWhy) {
  constexpr bale::readability narrow = bale::why_not<newer::narrowed, older::pet>();
  static_assert(!narrow.ok);
  EXPECT_EQ(narrow.member, "age");
  EXPECT_EQ(narrow.reason, "a narrower or other kind of number");
  constexpr auto text = bale::why_not<newer::retyped, older::pet>();
  EXPECT_EQ(text.member, "age");
  EXPECT_EQ(text.reason, "another kind of value");
  constexpr auto tree = bale::why_not<older::tree, newer::tree>();
  EXPECT_EQ(tree.member, "value");
  EXPECT_TRUE((bale::why_not<newer::pet, older::pet>().ok));
}

// The compile-time answer agrees with the run-time plan.
template <class Reader, class Writer>
bool resolves() {
  try {
    (void)bale::detail::resolution_for<Reader>(bale::schema_of<Writer>().text());
    return true;
  } catch (const bale::error&) {
    return false;
  }
}

TEST(CanRead, AgreesWithTheRunTimePlan) {
  EXPECT_EQ((resolves<newer::pet, older::pet>()), (bale::can_read<newer::pet, older::pet>));
  EXPECT_EQ((resolves<older::pet, newer::pet>()), (bale::can_read<older::pet, newer::pet>));
  EXPECT_EQ((resolves<newer::tree, older::tree>()), (bale::can_read<newer::tree, older::tree>));
  EXPECT_EQ((resolves<older::tree, newer::tree>()), (bale::can_read<older::tree, newer::tree>));
  EXPECT_EQ((resolves<newer::narrowed, older::pet>()),
            (bale::can_read<newer::narrowed, older::pet>));
  EXPECT_EQ((resolves<newer::retyped, older::pet>()), (bale::can_read<newer::retyped, older::pet>));
  EXPECT_EQ((resolves<newer::other_pointers, newer::pointers>()),
            (bale::can_read<newer::other_pointers, newer::pointers>));
}

}  // namespace
