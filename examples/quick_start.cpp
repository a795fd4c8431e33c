// SPDX-License-Identifier: BSL-1.0
#include <bale/bale.hpp>

#include <cassert>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

struct point {  // an aggregate: bale reflects it, nothing to write
  double x, y;
  std::string label;
};

class account {  // private members: one serialize() for reading and writing
 public:
  account() = default;
  account(std::string owner, long long cents) : owner_(std::move(owner)), cents_(cents) {}
  long long cents() const { return cents_; }

 private:
  friend struct bale::access;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(owner_, cents_);
  }
  std::string owner_;
  long long cents_ = 0;
};

int main() {
  const std::map<std::string, std::vector<point>> shapes{{"square", {{0, 0, "a"}, {1, 1, "b"}}}};
  std::vector<std::byte> bytes = bale::serialize(shapes);  // exact size, one allocation
  assert(bytes.size() == bale::serialized_size(shapes));
  auto back = bale::deserialize<std::map<std::string, std::vector<point>>>(bytes);
  assert(back.at("square")[1].label == "b");

  bale::serialize_into(bytes, account("ada", 4200));  // appends
  bale::reader in(bytes);                             // several values in a row
  in(back);
  account acct;
  in(acct);
  assert(acct.cents() == 4200 && in.remaining() == 0);

  const std::vector<std::byte> cut(bytes.begin(), bytes.begin() + 50);  // damaged input
  auto broken = bale::try_deserialize<std::map<std::string, std::vector<point>>>(cut);
  std::printf("%s\n", broken ? "decoded" : broken.error().what());
}
