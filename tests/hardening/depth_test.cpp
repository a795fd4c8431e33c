// SPDX-License-Identifier: BSL-1.0
// Depth: writing fails where reading would (errc::depth_exceeded, never a stack overflow), one
// level per level of the value, and the stack a level takes, measured for docs/limitations.md.
#include <gtest/gtest.h>

#include <bale/all.hpp>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace {

struct link {
  std::int32_t value = 0;
  std::unique_ptr<link> next;
};

// A list of n nodes, freed without recursion (a long one would overflow the stack in ~link).
struct chain {
  std::unique_ptr<link> head;
  explicit chain(std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
      auto node = std::make_unique<link>();
      node->value = static_cast<std::int32_t>(i);
      node->next = std::move(head);
      head = std::move(node);
    }
  }
  ~chain() {
    while (head) head = std::move(head->next);
  }
};

struct tree {
  std::vector<tree> children;
};

tree tree_chain(std::size_t depth) {
  tree root;
  tree* at = &root;
  for (std::size_t i = 0; i < depth; ++i) at = &at->children.emplace_back();
  return root;
}

template <class Format, class T>
bool writes(const T& value, const bale::limits& lim = {}) {
  try {
    (void)bale::serialize<Format>(value, lim);
    return true;
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::depth_exceeded);
    return false;
  }
}

template <class Format>
void a_long_list_reads_and_a_deep_tree_fails_cleanly() {
  SCOPED_TRACE(std::string(Format::name));
  // A list through pointers is written breadth first: no level per node, any length.
  const chain long_list(100'000);
  const auto bytes = bale::serialize<Format>(long_list.head);
  auto back = bale::try_deserialize<std::unique_ptr<link>, Format>(bytes);
  ASSERT_TRUE(back);
  std::size_t n = 0;
  for (const link* at = back->get(); at != nullptr; at = at->next.get()) ++n;
  EXPECT_EQ(n, 100'000u);
  chain release(0);
  release.head = std::move(*back);
  // Values nested in values are levels: too deep fails cleanly on writing.
  EXPECT_FALSE(writes<Format>(tree_chain(1000)));  // past max_depth, small enough to destroy
}

TEST(Depth, LongListsReadAndDeepValuesFailCleanlyInEveryFormat) {
  a_long_list_reads_and_a_deep_tree_fails_cleanly<bale::binary>();
  a_long_list_reads_and_a_deep_tree_fails_cleanly<bale::compact>();
  a_long_list_reads_and_a_deep_tree_fails_cleanly<bale::msgpack>();
  a_long_list_reads_and_a_deep_tree_fails_cleanly<bale::json>();
}

// Whatever the depth, a value that writes under some limits reads back under the same ones, and
// one that does not write does not read either.
template <class Format>
void writing_fails_where_reading_would() {
  SCOPED_TRACE(std::string(Format::name));
  const bale::limits lim{.max_depth = 40};
  const bale::limits roomy{.max_depth = 1000};
  for (std::size_t n = 30; n < 50; ++n) {
    const tree t = tree_chain(n / 2);
    const bool tree_wrote = writes<Format>(t, lim);
    EXPECT_EQ(
        tree_wrote,
        (bale::try_deserialize<tree, Format>(bale::serialize<Format>(t, roomy), lim)).has_value())
        << "tree of " << n / 2;
  }
}

TEST(Depth, WritingFailsWhereReadingWould) {
  writing_fails_where_reading_would<bale::binary>();
  writing_fails_where_reading_would<bale::compact>();
  writing_fails_where_reading_would<bale::msgpack>();
  writing_fails_where_reading_would<bale::json>();
}

// The exact depth of a value: the smallest max_depth it writes and reads back under.
template <class Format, class T>
std::size_t depth_of(const T& value) {
  for (std::size_t d = 0; d < 16; ++d) {
    const bale::limits lim{.max_depth = d};
    if (!writes<Format>(value, lim)) continue;
    EXPECT_TRUE((bale::try_deserialize<T, Format>(bale::serialize<Format>(value), lim)));
    return d;
  }
  return 16;
}

// A wrapper (an optional, a variant) counts with the value it wraps, and passes that on to no
// further level: in an optional of an optional, the vector inside is the second level.
template <class Format>
void wrappers_count_with_their_value() {
  SCOPED_TRACE(std::string(Format::name));
  using ints = std::vector<std::int32_t>;
  EXPECT_EQ(depth_of<Format>(ints{1}), 1u);
  EXPECT_EQ(depth_of<Format>(std::vector<ints>{{1}}), 2u);
  EXPECT_EQ(depth_of<Format>(std::optional<ints>(ints{1})), 1u);
  EXPECT_EQ(depth_of<Format>(std::optional<ints>()), 0u);  // nothing inside: no level
  EXPECT_EQ(depth_of<Format>(std::vector<std::optional<ints>>{ints{1}}), 2u);
  EXPECT_EQ(depth_of<Format>(std::optional<std::optional<ints>>(ints{1})), 2u);
  EXPECT_EQ(depth_of<Format>(std::variant<std::int32_t, ints>(ints{1})), 1u);
  EXPECT_EQ(depth_of<Format>(std::variant<std::int32_t, std::vector<ints>>(std::vector<ints>{{1}})),
            2u);
  EXPECT_EQ(depth_of<Format>(std::vector<std::variant<std::int32_t, ints>>{ints{1}, 2}), 2u);
}

TEST(Depth, WrappersCountWithTheirValue) {
  wrappers_count_with_their_value<bale::binary>();
  wrappers_count_with_their_value<bale::compact>();
  wrappers_count_with_their_value<bale::msgpack>();
}

// The stack one level takes: a node that notes the lowest frame address its serialize runs at.
// Each node is two levels: its vector of (at most one) next node and the node itself.
struct probe {
  std::vector<probe> next;
  static inline std::uintptr_t lowest = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    const auto here = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
    if (lowest == 0 || here < lowest) lowest = here;
    ar(bale::field("next", next));
  }
};

template <class Format>
std::size_t stack_per_level(bool reading, std::size_t levels) {
  probe root;
  probe* at = &root;
  for (std::size_t i = 1; i < levels; ++i) at = &at->next.emplace_back();
  const bale::limits roomy{.max_depth = 10 * levels};
  const auto bytes = bale::serialize<Format>(root, roomy);
  const auto top = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
  probe::lowest = 0;
  if (reading)
    (void)bale::deserialize<probe, Format>(bytes, roomy);
  else
    (void)bale::serialize<Format>(root, roomy);
  return (top - probe::lowest) / (2 * levels);
}

template <class Format>
void measure_stack() {
  for (const bool reading : {false, true}) {
    const std::size_t per_level = stack_per_level<Format>(reading, 250);
    // The default thread stack of 8 MiB, less 1 MiB for the caller and the rest of the program.
    const std::size_t safe = (std::size_t{7} << 20) / per_level;
    std::printf("[ stack    ] %-8s %-8s %5zu bytes per level: max_depth up to %zu\n",
                std::string(Format::name).c_str(), reading ? "reading" : "writing", per_level,
                safe);
    EXPECT_GE(safe, bale::limits{}.max_depth) << "the default max_depth overflows the stack";
  }
}

TEST(Depth, StackPerLevelLeavesTheDefaultLimitSafe) {
  measure_stack<bale::binary>();
  measure_stack<bale::compact>();
  measure_stack<bale::msgpack>();
  measure_stack<bale::json>();
}

}  // namespace
