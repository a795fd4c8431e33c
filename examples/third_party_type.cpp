// SPDX-License-Identifier: BSL-1.0
// A type you cannot edit: describe it from outside, once, and it works in every format.
#include <bale/bale.hpp>
#include <bale/compact/format.hpp>
#include <bale/json/format.hpp>
#include <bale/msgpack/format.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace vendor {  // a library's header: private members, a constructor, accessors
class color {
 public:
  color() = default;
  color(unsigned char r, unsigned char g, unsigned char b) : r_(r), g_(g), b_(b) {}
  unsigned char r() const { return r_; }
  unsigned char g() const { return g_; }
  unsigned char b() const { return b_; }
  bool operator==(const color&) const = default;

 private:
  unsigned char r_ = 0, g_ = 0, b_ = 0;
};

struct point {  // public members: BALE_REFLECT, in the type's namespace, keeps their names
  double x = 0, y = 0;
  bool operator==(const point&) const = default;
};
BALE_REFLECT(point, x, y)
}  // namespace vendor

// Private members reached through the public interface: save and load as free functions in the
// type's namespace (or the global one), found by argument-dependent lookup.
namespace vendor {
template <class Archive>
void save(Archive& ar, const color& c) {
  ar(bale::field("r", c.r()), bale::field("g", c.g()), bale::field("b", c.b()));
}
template <class Archive>
void load(Archive& ar, color& c) {
  unsigned char r = 0, g = 0, b = 0;
  ar(bale::field("r", r), bale::field("g", g), bale::field("b", b));
  c = color(r, g, b);
}
}  // namespace vendor

struct stroke {  // your own aggregate holding the vendor's types: nothing to write
  vendor::color color;
  std::vector<vendor::point> path;
  bool operator==(const stroke&) const = default;
};

int main() {
  const stroke s{{255, 128, 0}, {{0, 0}, {1.5, 2}, {3, -1}}};
  const std::string text = bale::to_json(s);
  std::printf("%s\n", text.c_str());
  if (bale::from_json<stroke>(text) != s) return 1;
  if (bale::deserialize<stroke>(bale::serialize(s)) != s) return 1;
  if (bale::deserialize<stroke, bale::compact>(bale::serialize<bale::compact>(s)) != s) return 1;
  return bale::deserialize<stroke, bale::msgpack>(bale::serialize<bale::msgpack>(s)) == s ? 0 : 1;
}
