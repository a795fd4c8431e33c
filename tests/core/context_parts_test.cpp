// SPDX-License-Identifier: BSL-1.0
// The parts that features keep in a message's context: made on first use, found by type, told
// when the message starts over, asked at its end.
#include <gtest/gtest.h>
#include <bale/all.hpp>

#include <stdexcept>
#include <string>

namespace {

using bale::detail::context_parts;

int alive = 0;

struct counter_part {  // neither hook: destroyed when the message starts over
  counter_part() { ++alive; }
  ~counter_part() { --alive; }
  int count = 0;
};

struct pass_part {  // kept between passes, dropped for a new message
  int restarts = 0;
  void restart_message() noexcept { ++restarts; }
};

struct source_part {  // kept for every message; refuses one with a problem
  std::string problem;
  void restart_message() noexcept {}
  void forget_message() noexcept {}
  std::string why_incomplete() const { return problem; }
};

template <int N>
struct numbered_part {};

TEST(ContextParts, MadeOnFirstUseAndFoundByType) {
  context_parts parts;
  EXPECT_EQ(parts.find<counter_part>(), nullptr);
  parts.get<counter_part>().count = 7;
  ASSERT_NE(parts.find<counter_part>(), nullptr);
  EXPECT_EQ(parts.find<counter_part>()->count, 7);
  EXPECT_EQ(&parts.get<counter_part>(), parts.find<counter_part>());
  EXPECT_EQ(parts.find<pass_part>(), nullptr);  // another type, another part
  EXPECT_EQ(alive, 1);
}

TEST(ContextParts, StartingOverKeepsOnlyPartsThatAskToBeTold) {
  {
    context_parts parts;
    parts.get<counter_part>();
    parts.get<pass_part>();
    parts.get<source_part>();
    parts.restart_message();
    EXPECT_EQ(parts.find<counter_part>(), nullptr);
    EXPECT_EQ(alive, 0);
    ASSERT_NE(parts.find<pass_part>(), nullptr);
    EXPECT_EQ(parts.find<pass_part>()->restarts, 1);
    parts.forget_message();
    EXPECT_EQ(parts.find<pass_part>(), nullptr);
    EXPECT_NE(parts.find<source_part>(), nullptr);
    parts.get<counter_part>();
    EXPECT_EQ(alive, 1);
  }
  EXPECT_EQ(alive, 0);  // the context destroys what is left
}

TEST(ContextParts, TheEndAsksEveryPart) {
  context_parts parts;
  EXPECT_EQ(parts.why_incomplete(), "");
  parts.get<counter_part>();
  parts.get<source_part>();
  EXPECT_EQ(parts.why_incomplete(), "");
  parts.get<source_part>().problem = "object 3 dangles";
  EXPECT_EQ(parts.why_incomplete(), "object 3 dangles");
}

TEST(ContextParts, MorePartsThanTheCapacityAreRefused) {
  context_parts parts;
  parts.get<numbered_part<0>>();
  parts.get<numbered_part<1>>();
  parts.get<numbered_part<2>>();
  parts.get<numbered_part<3>>();
  parts.get<numbered_part<4>>();
  parts.get<numbered_part<5>>();
  parts.get<numbered_part<6>>();
  parts.get<numbered_part<7>>();
  static_assert(context_parts::capacity == 8);
  EXPECT_THROW(parts.get<numbered_part<8>>(), std::length_error);
  EXPECT_NE(parts.find<numbered_part<7>>(), nullptr);
}

struct plain {
  int a;
  std::string b;
};
struct versioned {
  int a = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(a);
  }
};
struct holder {
  std::shared_ptr<int> p;
};

}  // namespace

template <>
inline constexpr std::uint32_t bale::version<versioned> = 2;

namespace {

// A message makes the parts of the features it meets, and no other: plain values none.
TEST(ContextParts, MessagesMakeThePartsOfWhatTheyMeet) {
  {
    bale::detail::write_context context;
    (void)bale::detail::serialized_size_in<bale::binary>(context, plain{1, "x"});
    EXPECT_EQ(context.parts().size(), 0U);
  }
  {
    bale::detail::write_context context;
    (void)bale::detail::serialized_size_in<bale::binary>(context, versioned{3});
    EXPECT_EQ(context.parts().size(), 1U);
    EXPECT_NE(context.parts().find<bale::detail::version_table>(), nullptr);
  }
  {
    bale::detail::write_context context;
    (void)bale::detail::serialized_size_in<bale::binary>(context, holder{std::make_shared<int>(4)});
    EXPECT_EQ(context.parts().size(), 1U);  // the object table
  }
  const auto bytes = bale::serialize(versioned{5});
  EXPECT_EQ(bale::deserialize<versioned>(bytes).a, 5);
}

}  // namespace
