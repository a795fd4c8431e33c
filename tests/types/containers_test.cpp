// SPDX-License-Identifier: BSL-1.0
// deque, list, forward_list, valarray: the sequence containers other than vector.
#include <bale/types/deque.hpp>
#include <bale/types/forward_list.hpp>
#include <bale/types/list.hpp>
#include <bale/types/string.hpp>
#include <bale/types/valarray.hpp>

#include "support/roundtrip.hpp"

namespace {

using bale_test::expect_roundtrip;

TEST(Deque, RoundTrip) {
  std::deque<int> d;
  for (int i = 0; i < 5000; ++i) d.push_back(bale_test::random_integer<int>());
  expect_roundtrip(d);
  expect_roundtrip(std::deque<std::string>{"a", "", "ccc"});
}

TEST(List, RoundTrip) {
  expect_roundtrip(std::list<std::string>{"x", "yy", ""});
  expect_roundtrip(std::list<double>{});
}

TEST(ForwardList, RoundTripKeepsOrder) {
  const std::forward_list<int> list{5, 4, 3, 2, 1};
  const auto bytes = expect_roundtrip(list);
  EXPECT_EQ(bytes.size(), 8u + 5u * 4u);
}

TEST(Valarray, RoundTrip) {
  std::valarray<double> v(1.25, 1000);
  v[17] = -3.0;
  expect_roundtrip(v);
  expect_roundtrip(std::valarray<int>());
  expect_roundtrip(std::valarray<bool>{true, false, true});
}

}  // namespace
