// SPDX-License-Identifier: BSL-1.0
// The README's quick start (examples/quick_start.cpp) written for cereal, for the compile-time
// benchmark: the same types and the same round trips through cereal's binary archive.
#include <cereal/archives/binary.hpp>
#include <cereal/types/map.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>

#include <cassert>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

struct point {
  double x, y;
  std::string label;
  template <class A>
  void serialize(A& ar) {
    ar(x, y, label);
  }
};

class account {
 public:
  account() = default;
  account(std::string owner, long long cents) : owner_(std::move(owner)), cents_(cents) {}
  long long cents() const { return cents_; }

 private:
  friend class cereal::access;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(owner_, cents_);
  }
  std::string owner_;
  long long cents_ = 0;
};

int main() {
  const std::map<std::string, std::vector<point>> shapes{{"square", {{0, 0, "a"}, {1, 1, "b"}}}};
  std::stringstream s;
  {
    cereal::BinaryOutputArchive out(s);
    out(shapes);
    out(account("ada", 4200));
  }
  std::map<std::string, std::vector<point>> back;
  account acct;
  {
    cereal::BinaryInputArchive in(s);
    in(back, acct);
  }
  assert(back.at("square")[1].label == "b" && acct.cents() == 4200);
  const std::string text = s.str();
  std::stringstream cut(text.substr(0, 50));
  try {
    cereal::BinaryInputArchive in(cut);
    in(back);
    std::printf("decoded\n");
  } catch (const std::exception& e) {
    std::printf("%s\n", e.what());
  }
}
