// SPDX-License-Identifier: BSL-1.0
// core/member_rules.hpp: one statement of how a reader treats the members that the data and the
// type do not share, asked by every format. With the type's own schema, a member only the data
// has is refused, one only the type has is refused unless it is an optional (it reads as empty);
// data of another schema skips the first and leaves the second at its value, unless required.
// The same holds for reflected types and for types described by hand with named fields.

#include <gtest/gtest.h>
#include <bale/all.hpp>
#include <bale/schema/message.hpp>

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace older {
struct part {
  std::uint32_t id = 0;
  std::string label;  // dropped by the newer type
};
struct tool {  // described by hand, its values named
  std::string name;
  std::int32_t weight = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bale::field("name", name), bale::field("weight", weight));
  }
};
struct kit {
  tool t;
  std::uint32_t spare = 0;  // dropped by the newer kit, whose schema is thus another
};
}  // namespace older

namespace newer {
struct part {
  std::uint32_t id = 0;
  std::int32_t size = 0;            // the older type lacked it
  std::optional<std::string> note;  // and this
  bool operator==(const part&) const = default;
};
struct tool {
  std::string name;
  std::int32_t cost = 0;  // "weight" is gone, "cost" is new
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bale::field("name", name), bale::field("cost", cost));
  }
};
struct kit {
  tool t;
};
}  // namespace newer

namespace {

template <class Format>
class MemberRules : public ::testing::Test {};
using named_formats = ::testing::Types<bale::json, bale::msgpack>;
TYPED_TEST_SUITE(MemberRules, named_formats);

template <class T, class Format>
std::string error_reading(const std::vector<std::byte>& bytes) {
  try {
    (void)bale::deserialize<T, Format>(bytes);
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::invalid_value) << e.what();
    return e.what();
  }
  return "read";
}

bool says(const std::string& what, std::string_view part) {
  return what.find(part) != std::string::npos;
}

TYPED_TEST(MemberRules, WithTheTypesOwnSchemaUnsharedMembersAreRefused) {
  using F = TypeParam;
  const auto old_part = bale::serialize<F>(older::part{3, "bolt"});
  // Its own schema's rules: "label" is unknown; "size" is missing.
  EXPECT_TRUE(says(error_reading<newer::part, F>(old_part), "unknown member \"label\""));
  struct only_id {
    std::uint32_t id = 0;
    std::optional<std::string> note;
  };
  struct id_and_size {
    std::uint32_t id = 0;
    std::int32_t size = 0;
  };
  // An absent optional reads as empty, in every format that names members.
  const auto with_size = bale::serialize<F>(id_and_size{4, 9});
  EXPECT_EQ((bale::deserialize<newer::part, F>(with_size)), (newer::part{4, 9, std::nullopt}));
  const auto just_id = bale::serialize<F>(only_id{4, "x"});
  EXPECT_TRUE(says(error_reading<newer::part, F>(just_id), "missing member \"size\""));
  // The same for a type described by hand.
  const auto old_tool = bale::serialize<F>(older::tool{"saw", 2});
  EXPECT_TRUE(says(error_reading<newer::tool, F>(old_tool), "missing member \"cost\""));
}

// A framed message that carries its schema, as an older build of the same type would have
// written it: a type described by hand is known by its name, so the name is made today's.
template <class Format, class T>
std::vector<std::byte> framed_by_an_older_build(const T& value) {
  auto bytes = bale::serialize_framed<Format>(value, {.with_schema = true});
  std::string text = bale::schema_of<T>().text();
  for (std::size_t at = text.find("older::"); at != std::string::npos; at = text.find("older::"))
    text.replace(at, 7, "newer::");
  std::memcpy(bytes.data() + 37, text.data(), text.size());  // kind, digest, length, text
  const auto digest = bale::sha256(text);
  std::memcpy(bytes.data() + 1, digest.data(), digest.size());
  return bytes;
}

TYPED_TEST(MemberRules, DataOfAnotherSchemaSkipsAndKeeps) {
  using F = TypeParam;
  bale::schema_cache cache;
  const auto part = bale::deserialize_framed<newer::part, F>(
      framed_by_an_older_build<F>(older::part{3, "bolt"}), cache);
  EXPECT_EQ(part, (newer::part{3, 0, std::nullopt}));
  // A type described by hand, inside data of another schema, follows the same rules: "weight"
  // skipped, "cost" kept.
  newer::kit kit{{"", 5}};
  bale::deserialize_framed<F>(framed_by_an_older_build<F>(older::kit{{"saw", 2}, 1}), cache, kit);
  EXPECT_EQ(kit.t.name, "saw");
  EXPECT_EQ(kit.t.cost, 5);
}

struct reads_twice {  // a hand serializer with a bug: it asks for one field twice
  std::int32_t n = 0;
  template <class Archive>
  void save(Archive& ar) const {
    ar(bale::field("n", n));
  }
  template <class Archive>
  void load(Archive& ar) {
    ar(bale::field("n", n), bale::field("n", n));
  }
};

TYPED_TEST(MemberRules, AFieldReadTwiceIsRefused) {
  using F = TypeParam;
  const auto bytes = bale::serialize<F>(reads_twice{4});
  EXPECT_TRUE(says(error_reading<reads_twice, F>(bytes), "field \"n\" read twice"));
}

TEST(MemberRulesStated, OneFateForEachCase) {
  using bale::detail::member_rules;
  using bale::detail::missing_member;
  constexpr member_rules other = member_rules::of_other_schema();
  static_assert(other.skips_unknown());
  static_assert(other.when_missing(false, false) == missing_member::keeps_value);
  static_assert(other.when_missing(false, true) == missing_member::keeps_value);
  static_assert(other.when_missing(true, true) == missing_member::refused_as_required);
  const bale::detail::read_context context(bale::limits{});
  const member_rules own = member_rules::in(context);
  EXPECT_FALSE(own.skips_unknown());
  EXPECT_EQ(own.when_missing(false, true), missing_member::reads_empty);
  EXPECT_EQ(own.when_missing(false, false), missing_member::refused);
  EXPECT_EQ(member_rules::in(context, false, true).when_missing(false, false),
            missing_member::keeps_value);
  EXPECT_TRUE(member_rules::in(context, true).skips_unknown());
}

}  // namespace
