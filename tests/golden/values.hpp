// SPDX-License-Identifier: BSL-1.0
#pragma once
// The values the golden files hold: every kind of type bale writes, one struct per family, with
// values chosen so that every branch of each encoding shows (negative, wide, empty, absent).
// Changing a value here changes the golden bytes: add new values in new types instead.

#include <bale/all.hpp>
#include <bale/arrays/multi_array.hpp>
#include <bale/registry.hpp>

#include <array>
#include <bitset>
#include <chrono>
#include <complex>
#include <cstdint>
#include <deque>
#include <forward_list>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <valarray>
#include <variant>
#include <vector>

namespace golden {

enum class colour : std::uint8_t { red, green, blue };
enum class school : std::int32_t { fire = -1, frost = 7 };

struct scalars {
  bool yes = false;
  char letter = 0;
  std::int8_t i8 = 0;
  std::uint8_t u8 = 0;
  std::int16_t i16 = 0;
  std::uint16_t u16 = 0;
  std::int32_t i32 = 0;
  std::uint32_t u32 = 0;
  std::int64_t i64 = 0;
  std::uint64_t u64 = 0;
  float f = 0;
  double d = 0;
  std::byte raw{};
  char32_t wide = 0;
  colour c = colour::red;
  school s = school::fire;
  std::string text;
};

struct sequences {
  std::vector<std::int32_t> ints;
  std::vector<double> reals;
  std::vector<bool> flags;
  std::vector<std::string> words;
  std::array<std::int16_t, 3> fixed{};
  std::uint8_t grid[2][3]{};
  std::deque<std::string> queue;
  std::list<std::int16_t> linked;
  std::forward_list<std::uint8_t> forward;
  std::valarray<float> samples;
  std::u8string utf8;
  std::u16string utf16;
  std::u32string utf32;
  std::bitset<10> bits;
  std::complex<double> z;
};

// Unordered containers hold one element each: their order is the standard library's.
struct associative {
  std::set<std::int32_t> ordered;
  std::multiset<std::string> repeated;
  std::map<std::string, std::int64_t> named;
  std::multimap<std::int32_t, std::string> many;
  std::unordered_map<std::string, double> hashed;
  std::unordered_set<std::uint32_t> bucket;
};

struct sums {
  std::pair<std::int32_t, std::string> both;
  std::tuple<std::uint8_t, double, std::string> three;
  std::optional<std::int32_t> present;
  std::optional<std::string> absent;
  std::variant<std::monostate, std::int32_t, std::string> chosen;
  std::variant<std::monostate, std::int32_t, std::string> empty;
  std::chrono::milliseconds timeout{};
  std::chrono::time_point<std::chrono::system_clock, std::chrono::microseconds> when{};
};

struct nested {
  std::map<std::string, std::vector<std::optional<std::pair<std::int32_t, std::string>>>> deep;
  std::vector<std::vector<std::vector<std::int8_t>>> cube;
};

// Described by hand: a member serialize with names, split save/load, and BALE_REFLECT.
class account {
 public:
  account() = default;
  account(std::string owner, std::int64_t cents) : owner_(std::move(owner)), cents_(cents) {}
  bool operator==(const account&) const = default;

 private:
  friend struct bale::access;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bale::field("owner", owner_), bale::field("cents", cents_));
  }
  std::string owner_;
  std::int64_t cents_ = 0;
};

struct ledger {
  std::vector<account> accounts;
  std::uint32_t checked = 0;
  template <class Archive>
  void save(Archive& ar) const {
    ar(bale::field("accounts", accounts), bale::field("checked", checked));
  }
  template <class Archive>
  void load(Archive& ar) {
    ar(bale::field("accounts", accounts), bale::field("checked", checked));
  }
};

class cell {
 public:
  std::int32_t id = 0;
  std::vector<float> corners;
};

// Class versions: stored once per type per message.
struct spell {
  std::string name;
  std::int32_t power = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bale::field("name", name), bale::field("power", power));
  }
};

struct described {
  account one;
  ledger book;
  std::vector<cell> cells;
  std::vector<spell> spells;
};

// The compact format's helpers.
struct settings {
  std::int32_t width = 640;
  std::int32_t height = 480;
  std::string title = "bale";
  bale::small_float<float> scale{1.0f};
  bale::small_float<double> ratio{0.1};
};

// Pointer graphs: shared identity, a weak_ptr, a cycle, observers.
struct node {
  std::int32_t value = 0;
  std::shared_ptr<node> next;
  std::weak_ptr<node> back;
  bale::observer<node> seen;
};

struct graph {
  std::vector<std::shared_ptr<node>> nodes;
  std::unique_ptr<std::string> name;
  std::unique_ptr<std::int64_t> counter;
  bale::observer<std::int64_t> watch;
  std::shared_ptr<std::int32_t> empty;
};

// Polymorphism through a registry.
struct shape {
  virtual ~shape() = default;
  double x = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bale::field("x", x));
  }
};
struct circle : shape {
  double radius = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    shape::serialize(ar);
    ar(bale::field("radius", radius));
  }
};
struct polygon : shape {
  std::vector<std::array<float, 2>> corners;
  template <class Archive>
  void serialize(Archive& ar) {
    shape::serialize(ar);
    ar(bale::field("corners", corners));
  }
};

struct scene {
  std::vector<std::unique_ptr<shape>> owned;
  std::vector<std::shared_ptr<shape>> shared;
};

inline const auto& shapes() {
  static const auto registry =
      bale::registry<shape>{}.add<circle>("circle").add<polygon>("polygon");
  return registry;
}

// Arrays of any rank (bale/arrays/): both storage orders. A strided view of `columns` is written
// in the layout nearest its memory, column by column (golden case "strided_array").
struct arrays {
  arrays() = default;  // multi_array's default constructor is explicit: no aggregate
  boost::multi_array<std::int32_t, 2> rows;
  boost::multi_array<double, 3> columns{boost::extents[0][0][0], boost::fortran_storage_order()};
};

scalars make_scalars();
sequences make_sequences();
associative make_associative();
sums make_sums();
nested make_nested();
described make_described();
settings make_settings();
graph make_graph();
scene make_scene();
arrays make_arrays();

}  // namespace golden

BALE_REFLECT(golden::cell, id, corners)
BALE_REFLECT(golden::arrays, rows, columns)
BALE_ENUM_NAMES(golden::colour, red, green, blue)
template <>
inline constexpr std::uint32_t bale::version<golden::spell> = 3;
template <>
inline constexpr bool bale::omit_defaults<golden::settings> = true;
