// SPDX-License-Identifier: BSL-1.0
// Framed messages: the writer's schema travels with a message, or its fingerprint does and the
// reader's cache knows the schema. Equal schemas read directly, others resolve; a frame is input
// like any other: cut, damaged or lying frames are errors with offsets.

#include <gtest/gtest.h>
#include <bale/all.hpp>
#include <bale/schema/message.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace yesterday {
struct order {
  std::uint32_t id = 0;
  std::string item;
  std::int32_t count = 0;
};
}  // namespace yesterday

namespace today {
struct order {
  std::uint64_t id = 0;
  std::string item;
  std::int64_t count = 0;
  std::optional<std::string> coupon;
  bool operator==(const order&) const = default;
};
}  // namespace today

namespace {

const yesterday::order sent{7, "tea", 3};
const today::order expected{7, "tea", 3, std::nullopt};

TEST(Framed, OwnSchemaReadsDirectly) {
  bale::schema_cache cache;
  const today::order value{1, "jam", 2, "half"};
  EXPECT_EQ(bale::deserialize_framed<today::order>(bale::serialize_framed(value), cache), value);
  EXPECT_EQ(cache.size(), 0U);  // nothing to learn or plan
  const auto bytes = bale::serialize_framed(value);
  EXPECT_EQ(bytes.size(), 33 + bale::serialized_size(value));  // kind and SHA-256 digest
}

TEST(Framed, TheSchemaTravelsOnceThenTheFingerprintSuffices) {
  bale::schema_cache cache;
  const auto plain = bale::serialize_framed(sent);
  try {
    (void)bale::deserialize_framed<today::order>(plain, cache);
    FAIL() << "read a message of an unknown schema";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::wrong_type);
    EXPECT_NE(std::string(e.what()).find("not in the cache"), std::string::npos) << e.what();
  }
  const auto first = bale::serialize_framed(sent, {.with_schema = true});
  EXPECT_EQ(first.size(), plain.size() + 4 + bale::schema_of<yesterday::order>().text().size());
  EXPECT_EQ(bale::deserialize_framed<today::order>(first, cache), expected);
  EXPECT_TRUE(cache.contains(bale::schema_of<yesterday::order>().digest()));
  EXPECT_FALSE(
      cache.contains(bale::schema_of<yesterday::order>().fingerprint()));  // format 1's name
  EXPECT_EQ(bale::deserialize_framed<today::order>(plain, cache), expected);
  // Every format; a cache filled by hand.
  bale::schema_cache known;
  known.add<yesterday::order>();
  EXPECT_EQ((bale::deserialize_framed<today::order, bale::compact>(
                bale::serialize_framed<bale::compact>(sent), known)),
            expected);
  EXPECT_EQ((bale::deserialize_framed<today::order, bale::json>(
                bale::serialize_framed<bale::json>(sent), known)),
            expected);
  EXPECT_EQ((bale::deserialize_framed<today::order, bale::msgpack>(
                bale::serialize_framed<bale::msgpack>(sent), known)),
            expected);
}

TEST(Framed, BadFramesAreErrorsWithOffsets) {
  bale::schema_cache cache;
  const auto first = bale::serialize_framed(sent, {.with_schema = true});
  const auto expect_error = [&](std::vector<std::byte> bytes, bale::errc code, std::size_t at) {
    try {
      (void)bale::deserialize_framed<today::order>(bytes, cache);
      FAIL() << "read a bad frame";
    } catch (const bale::error& e) {
      EXPECT_EQ(e.code(), code) << e.what();
      EXPECT_EQ(e.offset(), at) << e.what();
    }
  };
  expect_error({first.begin(), first.begin() + 5}, bale::errc::end_of_input, 5);
  expect_error({first.begin(), first.begin() + 35}, bale::errc::end_of_input, 35);
  auto kind = first;
  kind[0] = std::byte{5};
  expect_error(kind, bale::errc::invalid_value, 0);
  auto size = first;
  bale::detail::put_u32(size.data() + 33, 0xFFFFFFF0U);
  expect_error(size, bale::errc::length_too_large, 33);
  auto text = first;
  text[40] = std::byte{'#'};  // a changed schema: its digest no longer matches
  expect_error(text, bale::errc::checksum_mismatch, 1);
  auto name = first;
  name[5] ^= std::byte{1};  // a changed digest
  expect_error(name, bale::errc::checksum_mismatch, 1);
  auto payload = first;
  payload.pop_back();  // the value cut short: the offset counts from the frame's start
  try {
    (void)bale::deserialize_framed<today::order>(payload, cache);
    FAIL();
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::end_of_input);
    EXPECT_GT(e.offset(), 37 + bale::schema_of<yesterday::order>().text().size());
  }
  EXPECT_EQ(cache.size(), 1U);  // the good schema was learnt; the damaged one was not
}

TEST(Framed, TheCacheIsBoundedAndForgetsTheLeastRecentlyUsed) {
  bale::schema_cache cache({.max_schemas = 1});
  cache.add<yesterday::order>();
  cache.add<yesterday::order>();  // known: not stored twice
  EXPECT_EQ(cache.size(), 1U);
  cache.add<today::order>();  // a full cache makes room: nothing refuses a writer for good
  EXPECT_EQ(cache.size(), 1U);
  EXPECT_TRUE(cache.contains(bale::schema_of<today::order>().digest()));
  EXPECT_FALSE(cache.contains(bale::schema_of<yesterday::order>().digest()));
  EXPECT_THROW(bale::schema_cache().add("{not a schema"), bale::error);
  // By bytes too: a text over the whole bound is refused, the rest evict the oldest.
  const std::size_t one = bale::schema_of<yesterday::order>().text().size();
  bale::schema_cache small({.max_bytes = one});
  small.add<yesterday::order>();
  EXPECT_EQ(small.bytes(), one);
  ASSERT_GT(bale::schema_of<today::order>().text().size(), one);
  EXPECT_THROW(small.add<today::order>(), bale::error);
  EXPECT_EQ(small.size(), 1U);
}

// Plans count in the bound with the texts: a plan holds two parsed schemas, many times its text.
TEST(Framed, PlansCountInTheCachesBound) {
  const auto hello = bale::serialize_framed(yesterday::order{7, "ada"}, {.with_schema = true});
  const std::size_t text = bale::schema_of<yesterday::order>().text().size();
  bale::schema_cache roomy;
  EXPECT_EQ(bale::deserialize_framed<today::order>(hello, roomy).id, 7U);
  const std::size_t with_plan = roomy.bytes();
  EXPECT_GT(with_plan, 4 * text);  // the plan, its trees and steps
  // Room for the text but not for its plan: refused, and nothing is kept but the text.
  bale::schema_cache tight({.max_bytes = text + 16});
  try {
    (void)bale::deserialize_framed<today::order>(hello, tight);
    ADD_FAILURE() << "a plan over the bound was kept";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::element_limit) << e.what();
  }
  EXPECT_LE(tight.bytes(), text + 16);
  // Room for one schema and its plan, not for a second text beside them: the second writer's
  // text makes the first go with its plan, and the bound holds throughout.
  const std::size_t bound = with_plan + bale::schema_of<today::order>().text().size() - 1;
  bale::schema_cache one_plan({.max_bytes = bound});
  EXPECT_EQ(bale::deserialize_framed<today::order>(hello, one_plan).id, 7U);
  EXPECT_EQ(one_plan.bytes(), with_plan);
  one_plan.add<today::order>();
  EXPECT_LE(one_plan.bytes(), bound);
  EXPECT_EQ(one_plan.size(), 1U);
  EXPECT_FALSE(one_plan.contains(bale::schema_of<yesterday::order>().digest()));
}

// Refused or unused schemas fill nothing for good: a later writer still gets in.
TEST(Framed, ManySchemasDoNotLockTheCache) {
  bale::schema_cache cache({.max_schemas = 4});
  for (int i = 0; i < 20; ++i) {
    const std::string text =
        R"({"record":[{"name":"m)" + std::to_string(i) + R"(","type":"i32"}]})";
    EXPECT_NO_THROW(cache.add(text));
  }
  EXPECT_EQ(cache.size(), 4U);
  const auto hello = bale::serialize_framed(yesterday::order{7, "ada"}, {.with_schema = true});
  EXPECT_NO_THROW((void)bale::deserialize_framed<today::order>(hello, cache));
}

struct unrelated {
  double q;
};

// A plan that failed is remembered as its error: later messages of that schema are refused
// without parsing and planning again.
TEST(Framed, AFailedPlanIsRememberedAsItsError) {
  bale::schema_cache cache;
  const auto first = bale::serialize_framed(unrelated{1}, {.with_schema = true});
  const auto next = bale::serialize_framed(unrelated{2});
  EXPECT_THROW((void)bale::deserialize_framed<today::order>(first, cache), bale::error);
  for (int i = 0; i < 3; ++i) {
    try {
      (void)bale::deserialize_framed<today::order>(next, cache);
      ADD_FAILURE() << "read an unrelated record";
    } catch (const bale::error& e) {
      EXPECT_EQ(e.code(), bale::errc::wrong_type) << e.what();
      EXPECT_NE(std::string(e.what()).find("another record"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(cache.plans_made(), 1U);
}

}  // namespace
