// SPDX-License-Identifier: BSL-1.0
// docs/extending.md, "A type": a class bale cannot see into, described once by a serializer<T>
// specialisation, and then readable and writable in every format.
#include <gtest/gtest.h>

#include <bale/all.hpp>
#include <stdexcept>
#include <string>
#include <vector>

// A third-party class: private storage, an invariant (at most `capacity` names), no serialize.
namespace league {
class roster {
 public:
  explicit roster(std::size_t capacity = 4) : capacity_(capacity) {}
  void add(std::string name) {
    if (names_.size() == capacity_) throw std::length_error("roster is full");
    names_.push_back(std::move(name));
  }
  std::size_t capacity() const { return capacity_; }
  const std::vector<std::string>& names() const { return names_; }
  bool operator==(const roster&) const = default;

 private:
  std::size_t capacity_;
  std::vector<std::string> names_;
};
}  // namespace league

// [type]
template <>
struct bale::serializer<league::roster> {
  template <class Archive>
  static void save(Archive& ar, const league::roster& r) {
    const std::uint64_t capacity = r.capacity();
    ar.write_composite(
        [&] { ar(bale::field("capacity", capacity), bale::field("names", r.names())); });
  }
  template <class Archive>
  static void load(Archive& ar, league::roster& r) {
    std::uint64_t capacity = 0;
    std::vector<std::string> names;
    ar.read_composite([&] { ar(bale::field("capacity", capacity), bale::field("names", names)); });
    if (names.size() > capacity) ar.fail(bale::errc::invalid_value, "more names than capacity");
    r = league::roster(capacity);
    for (auto& name : names) r.add(std::move(name));
  }
};
// [type]

namespace {

league::roster sample() {
  league::roster r(3);
  r.add("ada");
  r.add("grace");
  return r;
}

TEST(ExtendingType, EveryFormat) {
  const league::roster r = sample();
  EXPECT_EQ(bale::deserialize<league::roster>(bale::serialize(r)), r);
  EXPECT_EQ((bale::deserialize<league::roster, bale::compact>(bale::serialize<bale::compact>(r))),
            r);
  EXPECT_EQ((bale::deserialize<league::roster, bale::msgpack>(bale::serialize<bale::msgpack>(r))),
            r);
  EXPECT_EQ(bale::to_json(r), R"({"capacity":3,"names":["ada","grace"]})");
  EXPECT_EQ(bale::from_json<league::roster>(R"({"names":["ada","grace"],"capacity":3})"), r);
  // Nested in std types, as any other type.
  const std::vector<std::optional<league::roster>> many{r, std::nullopt};
  EXPECT_EQ(bale::deserialize<std::vector<std::optional<league::roster>>>(bale::serialize(many)),
            many);
}

TEST(ExtendingType, TheInvariantIsCheckedOnLoad) {
  auto r = bale::try_from_json<league::roster>(R"({"capacity":1,"names":["a","b"]})");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::invalid_value);
  EXPECT_NE(std::string(r.error().what()).find("more names than capacity"), std::string::npos);
}

}  // namespace
