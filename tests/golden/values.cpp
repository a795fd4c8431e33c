// SPDX-License-Identifier: BSL-1.0
#include "golden/values.hpp"

#include <algorithm>
#include <iterator>
#include <limits>

namespace golden {

scalars make_scalars() {
  scalars v;
  v.yes = true;
  v.letter = 'b';
  v.i8 = -128;
  v.u8 = 255;
  v.i16 = -300;
  v.u16 = 60000;
  v.i32 = -33;
  v.u32 = 4000000000u;
  v.i64 = std::numeric_limits<std::int64_t>::min();
  v.u64 = 0x0123456789abcdefULL;
  v.f = -1.5f;
  v.d = 3.141592653589793;
  v.raw = std::byte{0xa5};
  v.wide = U'\u00e9';
  v.c = colour::blue;
  v.s = school::frost;
  v.text = "golden \"bytes\"\n\u00e9";
  return v;
}

sequences make_sequences() {
  sequences v;
  v.ints = {0, -1, 1, 127, -128, 1000000, std::numeric_limits<std::int32_t>::min()};
  v.reals = {0.0, -0.0, 0.5, 1e300, -2.25};
  v.flags = {true, false, true, true};
  v.words = {"", "one", "two words"};
  v.fixed = {-1, 0, 300};
  v.grid[0][0] = 1, v.grid[0][2] = 3, v.grid[1][1] = 5;
  v.queue = {"front", "back"};
  v.linked = {-7, 8};
  v.forward = {1, 2, 3};
  v.samples = {0.25f, -4.0f};
  v.utf8 = u8"caf\u00e9";
  v.utf16 = u"\u03bb\U0001f600";
  v.utf32 = U"\U0001f600x";
  v.bits = std::bitset<10>(0x2a5);
  v.z = {1.5, -2.0};
  return v;
}

associative make_associative() {
  associative v;
  v.ordered = {-5, 0, 9};
  v.repeated = {"a", "a", "b"};
  v.named = {{"alpha", -1}, {"beta", 1LL << 40}};
  v.many = {{1, "x"}, {1, "y"}, {2, "z"}};
  v.hashed = {{"only", 0.75}};
  v.bucket = {42};
  return v;
}

sums make_sums() {
  sums v;
  v.both = {-2, "pair"};
  v.three = {7, -0.125, "tuple"};
  v.present = 12;
  v.chosen = std::string("chosen");
  v.timeout = std::chrono::milliseconds(1500);
  v.when = decltype(v.when)(std::chrono::microseconds(1764000000000000LL));
  return v;
}

nested make_nested() {
  nested v;
  v.deep["a"] = {std::nullopt, std::pair<std::int32_t, std::string>{1, "one"}};
  v.deep["b"] = {};
  v.cube = {{{1, -2}, {}}, {{3}}};
  return v;
}

described make_described() {
  described v;
  v.one = account("ada", 4200);
  v.book.accounts = {account("grace", -1), account("", 0)};
  v.book.checked = 2;
  v.cells = {cell{1, {0.5f, 1.5f}}, cell{2, {}}};
  v.spells = {{"fire", 9}, {"frost", -3}};
  return v;
}

settings make_settings() {
  settings v;
  v.height = 1080;
  v.scale = bale::small_float<float>(2.5f);
  v.ratio = bale::small_float<double>(0.3);
  return v;
}

graph make_graph() {
  graph g;
  auto a = std::make_shared<node>();
  auto b = std::make_shared<node>();
  a->value = 1, b->value = 2;
  a->next = b;  // b is reached twice: through a and from the list
  b->back = a;  // a weak cycle
  b->seen = a.get();
  a->seen = b.get();
  g.nodes = {a, b, a};
  g.name = std::make_unique<std::string>("graph");
  g.counter = std::make_unique<std::int64_t>(-99);
  g.watch = g.counter.get();
  return g;
}

scene make_scene() {
  scene s;
  auto c = std::make_unique<circle>();
  c->x = 1, c->radius = 2;
  s.owned.push_back(std::move(c));
  auto p = std::make_shared<polygon>();
  p->x = -1;
  p->corners = {{0, 0}, {1, 0}, {0, 1}};
  auto small = std::make_shared<circle>();
  small->radius = 0.5;
  s.shared = {p, small, p};
  return s;
}

arrays make_arrays() {
  arrays v;
  v.rows.resize(boost::extents[2][3]);
  const std::int32_t rows[] = {-1, 0, 1, 300, -70000, 2147483647};
  std::copy(std::begin(rows), std::end(rows), v.rows.data());
  v.columns.resize(boost::extents[4][3][3]);
  for (std::size_t i = 0; i < v.columns.num_elements(); ++i)
    v.columns.data()[i] = 0.5 * static_cast<double>(i) - 4;
  return v;
}

}  // namespace golden
