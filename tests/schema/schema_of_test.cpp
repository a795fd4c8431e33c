// SPDX-License-Identifier: BSL-1.0
// bale::schema_of<T>(): the canonical text of every form, the same for every C++ type that writes
// the same bytes, and different for every change of layout. The expected texts are literal, so the
// GCC and Clang builds of this test check that both compilers produce the same text.

#include <gtest/gtest.h>
#include <bale/all.hpp>
#include <bale/schema.hpp>

#include <array>
#include <bitset>
#include <chrono>
#include <cstdint>
#include <deque>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <variant>
#include <vector>

namespace game {

enum class school : std::uint8_t { fire, frost };
BALE_ENUM_NAMES(school, fire, frost)
enum class unlisted : std::int16_t { a, b };

struct spell {
  std::string name;
  school kind;
  std::optional<float> cost;
};

struct hero {
  std::int32_t level;
  std::vector<spell> spells;
  std::map<std::string, std::uint64_t> gold;
};

// Not an aggregate (it has a constructor): described by BALE_REFLECT.
class account {
 public:
  explicit account(std::uint32_t id = 0) : id_(id) {}
  std::uint32_t id_;
  std::string owner_;
};
BALE_REFLECT(account, id_, owner_)

struct node {
  std::int32_t value;
  std::unique_ptr<node> next;
  bale::observer<node> previous;
};

// A type described by hand: opaque to the schema.
struct roster {
  std::vector<std::string> names;
  template <class Archive>
  void save(Archive& ar) const {
    ar(names);
  }
  template <class Archive>
  void load(Archive& ar) {
    ar(names);
  }
};

struct settings {
  std::int32_t volume = 5;
  bool muted = false;
};

}  // namespace game

template <>
inline constexpr bool bale::omit_defaults<game::settings> = true;

namespace {

// The same members as game::hero under other names and containers.
struct other_hero {
  std::int32_t level;
  std::deque<game::spell> spells;
  std::unordered_map<std::string, std::uint64_t> gold;
};

template <class T>
const std::string& text() {
  return bale::schema_of<T>().text();
}

TEST(SchemaOf, ScalarsByKindAndWidth) {
  EXPECT_EQ(text<bool>(), R"("bool")");
  EXPECT_EQ(text<char>(), R"("char")");
  EXPECT_EQ(text<char32_t>(), R"("char32")");
  EXPECT_EQ(text<std::int8_t>(), R"("i8")");
  EXPECT_EQ(text<std::uint16_t>(), R"("u16")");
  EXPECT_EQ(text<std::int32_t>(), R"("i32")");
  EXPECT_EQ(text<std::uint64_t>(), R"("u64")");
  EXPECT_EQ(text<float>(), R"("f32")");
  EXPECT_EQ(text<double>(), R"("f64")");
  // long and long long are one type on the wire where they have one width.
  if constexpr (sizeof(long) == sizeof(long long)) {
    EXPECT_EQ(text<long>(), text<long long>());
  }
  EXPECT_EQ(text<const std::int32_t>(), text<std::int32_t>());
}

TEST(SchemaOf, ContainersAndSumTypes) {
  EXPECT_EQ(text<std::string>(), R"("string")");
  EXPECT_EQ(text<std::u16string>(), R"({"string":"char16"})");
  EXPECT_EQ(text<std::vector<std::int32_t>>(), R"({"sequence":"i32"})");
  EXPECT_EQ((text<std::array<double, 3>>()), R"({"array":"f64","count":3})");
  EXPECT_EQ(text<float[4]>(), R"({"array":"f32","count":4})");
  EXPECT_EQ(text<std::set<std::string>>(), R"({"set":"string"})");
  EXPECT_EQ((text<std::map<std::string, double>>()), R"({"map":["string","f64"]})");
  EXPECT_EQ((text<std::pair<std::int8_t, bool>>()), R"({"tuple":["i8","bool"]})");
  EXPECT_EQ((text<std::tuple<>>()), R"({"tuple":[]})");
  EXPECT_EQ(text<std::optional<std::uint8_t>>(), R"({"optional":"u8"})");
  EXPECT_EQ((text<std::variant<std::monostate, std::int64_t, std::string>>()),
            R"({"variant":["none","i64","string"]})");
  EXPECT_EQ(text<std::bitset<10>>(), R"({"bits":10})");
  EXPECT_EQ(text<std::chrono::milliseconds>(), R"({"duration":"i64","period":[1,1000]})");
  EXPECT_EQ((text<std::chrono::sys_time<std::chrono::seconds>>()),
            R"({"time":{"duration":"i64","period":[1,1]}})");
  EXPECT_EQ((text<std::shared_ptr<const double>>()), R"({"shared":"f64"})");
}

TEST(SchemaOf, RecordsNameTheirMembersInOrder) {
  EXPECT_EQ(text<game::spell>(),
            R"({"record":[{"name":"name","type":"string"},)"
            R"({"name":"kind","type":{"enum":"u8","names":{"fire":0,"frost":1}}},)"
            R"({"name":"cost","type":{"optional":"f32"}}]})");
  EXPECT_EQ(text<game::account>(),
            R"({"record":[{"name":"id_","type":"u32"},{"name":"owner_","type":"string"}]})");
  EXPECT_EQ(text<game::unlisted>(), R"({"enum":"i16"})");
  EXPECT_EQ(text<game::settings>(),
            R"({"record":[{"name":"volume","type":"i32"},{"name":"muted","type":"bool"}],)"
            R"("omit_defaults":true})");
}

TEST(SchemaOf, ARecordMetAgainIsAReference) {
  // A list of nodes: the node's own pointers refer to record 0, itself.
  EXPECT_EQ(text<game::node>(), R"({"record":[{"name":"value","type":"i32"},)"
                                R"({"name":"next","type":{"unique":{"ref":0}}},)"
                                R"({"name":"previous","type":{"observer":{"ref":0}}}]})");
  // Two members of one record type: the second refers to the first.
  EXPECT_EQ((text<std::pair<game::spell, game::spell>>()),
            "{\"tuple\":[" + text<game::spell>() + ",{\"ref\":0}]}");
}

TEST(SchemaOf, AHandWrittenTypeIsOpaqueByItsName) {
  EXPECT_EQ(text<game::roster>(), R"({"opaque":"game::roster"})");
  EXPECT_EQ(text<std::vector<game::roster>>(), R"({"sequence":{"opaque":"game::roster"}})");
}

TEST(SchemaOf, TypesThatWriteTheSameBytesShareASchema) {
  EXPECT_EQ(bale::schema_of<game::hero>(), bale::schema_of<other_hero>());
  EXPECT_EQ(bale::schema_of<game::hero>().fingerprint(),
            bale::schema_of<other_hero>().fingerprint());
  EXPECT_EQ(text<std::vector<std::int32_t>>(), text<std::list<std::int32_t>>());
}

// Every change of layout changes the schema and its fingerprint.
namespace v1 {
struct item {
  std::int32_t mana;
  std::string label;
};
}  // namespace v1
namespace retyped {
struct item {
  float mana;
  std::string label;
};
}  // namespace retyped
namespace grown {
struct item {
  std::int32_t mana;
  std::string label;
  std::int32_t weight;
};
}  // namespace grown
namespace renamed {
struct item {
  std::int32_t power;
  std::string label;
};
}  // namespace renamed
namespace reordered {
struct item {
  std::string label;
  std::int32_t mana;
};
}  // namespace reordered
namespace widened {
struct item {
  std::int64_t mana;
  std::string label;
};
}  // namespace widened

TEST(SchemaOf, EveryLayoutChangeChangesTheFingerprint) {
  const std::uint64_t base = bale::schema_of<v1::item>().fingerprint();
  EXPECT_EQ(text<v1::item>(),
            R"({"record":[{"name":"mana","type":"i32"},{"name":"label","type":"string"}]})");
  for (const std::uint64_t changed : {
           bale::schema_of<retyped::item>().fingerprint(),
           bale::schema_of<grown::item>().fingerprint(),
           bale::schema_of<renamed::item>().fingerprint(),
           bale::schema_of<reordered::item>().fingerprint(),
           bale::schema_of<widened::item>().fingerprint(),
       })
    EXPECT_NE(changed, base);
  // FNV-1a 64 of the text: a value any implementation can recompute.
  EXPECT_EQ(bale::schema_of<bool>().fingerprint(), 0xc6abb96f874af36dULL);
}

}  // namespace
