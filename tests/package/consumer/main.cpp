// SPDX-License-Identifier: BSL-1.0
#include <bale/bale.hpp>
#include <cstdio>
#include <map>
#include <string>

struct point {
  double x, y;
  std::string label;
};

int main() {
  const std::map<std::string, point> points{{"origin", {0, 0, "o"}}, {"unit", {1, 1, "u"}}};
  const auto bytes = bale::serialize(points);
  const auto back = bale::deserialize<std::map<std::string, point>>(bytes);
  if (back.at("unit").label != "u" || bytes.size() != bale::serialized_size(points)) return 1;
  std::printf("consumer ok: %zu bytes\n", bytes.size());
  return 0;
}
