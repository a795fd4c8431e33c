// SPDX-License-Identifier: BSL-1.0
// A consumer that builds with stricter warnings than bale's own (-Wshadow -Wconversion
// -Wsign-conversion -Wuseless-cast -Wnull-dereference -Werror, optimized) and uses every part of
// bale a README reader meets: bale's headers must stay quiet wherever a user's flags reach them.
#include <bale/all.hpp>
#include <bale/arrays/mdspan.hpp>
#include <bale/base64/base64.hpp>
#include <bale/compress/compress.hpp>
#include <bale/convert.hpp>
#include <bale/file/file.hpp>
#include <bale/file/inspect.hpp>
#include <bale/file/records.hpp>
#include <bale/json/format.hpp>
#include <bale/registry.hpp>
#include <bale/schema/message.hpp>

#include <chrono>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

namespace app {
enum class color : unsigned char { red, green };
BALE_ENUM_NAMES(color, red, green)
}  // namespace app

struct inner {
  short s;
  std::uint8_t u8;
  float f;
  bool operator==(const inner&) const = default;
};

// inner's next layout: widened, one member dropped, one added.
struct inner_v2 {
  long long s;
  double f;
  std::optional<std::string> note;
};

struct everything {
  int i;
  std::int64_t big;
  std::uint16_t u16;
  double d;
  char c;
  wchar_t w;
  char16_t c16;
  std::string name;
  std::vector<inner> inners;
  std::vector<int> ints;
  std::vector<std::uint8_t> bytes;
  std::map<std::string, double> scores;
  std::unordered_map<int, std::string> names;
  std::set<long> longs;
  std::list<short> shorts;
  std::deque<std::uint64_t> counts;
  std::optional<app::color> hue;
  std::variant<int, std::string> either;
  std::unique_ptr<inner> pointee;
  std::array<float, 3> xyz;
  std::chrono::milliseconds elapsed;
  std::chrono::sys_time<std::chrono::milliseconds> stamp;
  std::pair<int, bool> pair;
  std::tuple<int, double, std::string> tuple;
  bale::small_float<float> weight;

  bool same_as(const everything& o) const {
    return i == o.i && big == o.big && name == o.name && inners == o.inners && ints == o.ints &&
           scores == o.scores && names == o.names && hue == o.hue && either == o.either &&
           *pointee == *o.pointee && elapsed == o.elapsed && stamp == o.stamp && tuple == o.tuple;
  }
};

class hidden {
 public:
  int get() const { return x_; }

 private:
  friend struct bale::access;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bale::field("x", x_));
  }
  int x_ = 3;
};

// A pointer graph: shared identity, a polymorphic pointer through a registry, observers.
struct figure {
  virtual ~figure() = default;
  int corners = 0;
  bale::observer<figure> next;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bale::field("corners", corners), bale::field("next", next));
  }
};
struct square : figure {
  double side = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    figure::serialize(ar);
    ar(bale::field("side", side));
  }
};
struct drawing {
  std::vector<bale::observer<figure>> selected;
  std::vector<std::unique_ptr<figure>> figures;
  std::shared_ptr<inner> a, b;
  bale::owning_ptr<inner> raw;
};

template <class F>
bool graph_round_trips() {
  const auto figures = bale::registry<figure>{}.add<figure>("figure").add<square>("square");
  drawing d;
  d.figures.push_back(std::make_unique<square>());
  d.figures.push_back(std::make_unique<figure>());
  d.figures[0]->next = d.figures[1].get();
  d.selected = {d.figures[1].get(), d.figures[0].get()};
  d.a = d.b = std::make_shared<inner>(inner{1, 2, 3.f});
  const auto bytes = bale::serialize<F>(bale::with(d, figures));
  drawing back;
  auto into = bale::with(back, figures);
  bale::deserialize<F>(bytes, into);
  const bool ok = back.a == back.b && back.selected.size() == 2 &&
                  back.selected[1].get() == back.figures[0].get() &&
                  back.figures[0]->next.get() == back.figures[1].get() &&
                  dynamic_cast<square*>(back.figures[0].get()) != nullptr;
  delete back.raw.get();
  return ok;
}

// A view of the user's own, shaped like std::mdspan: read into in place.
struct grid_view {
  using element_type = double;
  double* values;
  std::size_t rows, cols;
  static constexpr std::size_t rank() { return 2; }
  std::size_t extent(std::size_t k) const { return k == 0 ? rows : cols; }
  std::ptrdiff_t stride(std::size_t k) const {
    return k == 0 ? static_cast<std::ptrdiff_t>(cols) : 1;
  }
  double* data_handle() const { return values; }
};

template <class F>
bool array_round_trips() {
  std::array<double, 6> in{1, 2, 3, 4, 5, 6}, out{};
  grid_view into{out.data(), 2, 3};
  bale::deserialize<F>(bale::serialize<F>(grid_view{in.data(), 2, 3}), into);
  return in == out;
}

// Pointers back to an object that owns others, without a cycle: checked as they are read.
struct chain_link {
  int value = 0;
  std::shared_ptr<chain_link> next, side;
};
struct two_lists {
  std::shared_ptr<chain_link> b, a;
};

bool shared_back_pointers_read() {
  two_lists t{std::make_shared<chain_link>(), std::make_shared<chain_link>()};
  t.b->next = std::make_shared<chain_link>();
  std::shared_ptr<chain_link> at = t.a;
  for (int i = 0; i < 100; ++i, at = at->next) {
    at->side = t.b;
    at->next = std::make_shared<chain_link>();
  }
  const auto back = bale::deserialize<two_lists>(bale::serialize(t));
  for (at = t.a; at; at = at->next) at->side.reset();
  return back.a->next->side == back.b && back.b->next != nullptr;
}

template <class F>
bool round_trips(const everything& e) {
  const auto bytes = bale::serialize<F>(e);
  std::vector<unsigned char> fixed(bale::serialized_size<F>(e));
  bale::serialize_to<F>(fixed, e);
  std::string text;
  bale::serialize_into<F>(text, e);
  bale::serialize_assign<F>(text, e);
  return bale::deserialize<everything, F>(bytes).same_as(e) &&
         bale::deserialize<everything, F>(fixed).same_as(e) &&
         bale::deserialize<everything, F>(text).same_as(e);
}

int main() {
  everything e{};
  e.big = -1234567890123;
  e.name = "strict";
  e.inners = {{1, 2, 3.f}};
  e.ints = {1, -2, 3};
  e.scores = {{"a", 0.5}};
  e.names = {{7, "seven"}};
  e.hue = app::color::green;
  e.either = std::string("right");
  e.pointee = std::make_unique<inner>(inner{4, 5, 6.f});
  e.elapsed = std::chrono::milliseconds(42);
  e.stamp = std::chrono::sys_time<std::chrono::milliseconds>(std::chrono::milliseconds(-1));
  e.tuple = {1, 2.5, "three"};
  bool ok = round_trips<bale::binary>(e) && round_trips<bale::compact>(e) &&
            round_trips<bale::msgpack>(e);
  ok = ok && bale::from_json<everything>(bale::to_json(e)).same_as(e);
  ok = ok && graph_round_trips<bale::binary>() && graph_round_trips<bale::compact>() &&
       graph_round_trips<bale::msgpack>() && graph_round_trips<bale::json>();
  ok = ok && bale::deserialize<hidden>(bale::serialize(hidden{})).get() == 3;
  const auto encoded = bale::base64::encode(bale::serialize(e));
  const auto frame = bale::compress(bale::base64::decode(encoded), bale::codec::none);
  ok = ok && bale::deserialize<everything>(bale::decompress(frame)).same_as(e);

  const auto dir = std::filesystem::temp_directory_path();
  const auto file = dir / "bale_strict_consumer.bale";
  const auto records = dir / "bale_strict_consumer.bales";
  bale::save_file<bale::compact>(file, e);
  ok = ok && bale::load_file<everything>(file).same_as(e);
  {
    bale::record_writer<everything> out(records);
    out.write(e);
    out.close();
  }
  bale::record_reader<everything> in(records);
  const auto first = in.next();
  ok = ok && first && first->same_as(e);
  ok =
      ok && bale::schema_of<everything>().fingerprint() != bale::schema_of<drawing>().fingerprint();
  const auto plain = dir / "bale_strict_plain.bale";
  bale::save_file(plain, e.inners);
  const auto seen = bale::inspect_file(plain);
  ok = ok && seen.content && bale::to_json(*seen.content) == bale::to_json(e.inners);
  const auto newer = bale::load_file<std::vector<inner_v2>>(plain);
  ok = ok && newer.size() == 1 && newer[0].s == 1 && newer[0].f == 3.0 && !newer[0].note;
  std::filesystem::remove(plain);
  ok = ok && array_round_trips<bale::binary>() && array_round_trips<bale::json>();
  ok = ok && shared_back_pointers_read();
  bale::schema_cache cache;
  const auto framed = bale::serialize_framed(e.inners, {.with_schema = true});
  const auto resolved = bale::deserialize_framed<std::vector<inner_v2>>(framed, cache);
  ok = ok && resolved.size() == 1 && resolved[0].s == 1 &&
       cache.contains(bale::schema_of<std::vector<inner>>().digest());
  bale::json_converter converter;
  converter.add<everything>("everything");
  std::filesystem::remove(file);
  std::filesystem::remove(records);
  std::printf("strict consumer %s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
