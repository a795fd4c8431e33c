// SPDX-License-Identifier: BSL-1.0
#pragma once
// Shared checks for the tests: a value survives a round trip, its size is exact, and every damaged
// form of its encoding fails cleanly.

#include <gtest/gtest.h>

#include <bale/all.hpp>
#include <cstddef>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace bale_test {

template <class T>
struct is_pointer_like : std::false_type {};
template <class T>
struct is_pointer_like<std::unique_ptr<T>> : std::true_type {};
template <class T>
struct is_pointer_like<std::shared_ptr<T>> : std::true_type {};

inline std::span<const std::byte> prefix(const std::vector<std::byte>& bytes, std::size_t n) {
  return {bytes.data(), n};
}

/// Round trip, exact size, every strict prefix rejected, a trailing byte rejected, in one format.
template <class Format, class T>
std::vector<std::byte> expect_roundtrip_in(const T& value) {
  SCOPED_TRACE(std::string(Format::name));
  const std::vector<std::byte> bytes = bale::serialize<Format>(value);
  EXPECT_EQ(bale::serialized_size<Format>(value), bytes.size());

  T back = bale::deserialize<T, Format>(bytes);
  if constexpr (!is_pointer_like<T>::value && requires {
                  { back == value } -> std::convertible_to<bool>;
                }) {
    EXPECT_TRUE(back == value);
  } else {
    EXPECT_EQ(bale::serialize<Format>(back), bytes);
  }

  // The encoding is prefix-free: a strict prefix never decodes. Long encodings are sampled.
  const std::size_t step = bytes.size() > 4096 ? bytes.size() / 512 : 1;
  for (std::size_t n = 0; n < bytes.size(); n += step) {
    auto r = bale::try_deserialize<T, Format>(prefix(bytes, n));
    EXPECT_FALSE(r.has_value()) << "prefix of " << n << " of " << bytes.size() << " bytes decoded";
  }

  std::vector<std::byte> longer = bytes;
  longer.push_back(std::byte{0});
  auto r = bale::try_deserialize<T, Format>(longer);
  EXPECT_FALSE(r.has_value());
  if (!r.has_value()) {
    EXPECT_EQ(r.error().code(), bale::errc::trailing_bytes);
  }
  return bytes;
}

/// The same value through JSON: it reads back equal (or, for pointers, writes the same text). A
/// value JSON cannot hold (a string that is not UTF-8) must be refused with invalid_value.
template <class T>
void expect_json_roundtrip(const T& value) {
  SCOPED_TRACE("json");
  bale::json_options options;
  options.allow_non_finite = true;
  std::string text;
  try {
    text = bale::to_json(value, options);
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::invalid_value) << e.what();
    return;
  }
  auto back = bale::try_from_json<T>(text, options);
  ASSERT_TRUE(back.has_value()) << back.error().what() << " in " << text;
  if constexpr (!is_pointer_like<T>::value && requires {
                  { *back == value } -> std::convertible_to<bool>;
                }) {
    EXPECT_TRUE(*back == value) << text;
  } else {
    EXPECT_EQ(bale::to_json(*back, options), text);
  }
}

/// expect_roundtrip_in for MessagePack, where a value it has no form for (an empty optional inside
/// an optional) must be refused with invalid_value.
template <class T>
void expect_msgpack_roundtrip(const T& value) {
  try {
    (void)bale::serialize<bale::msgpack>(value);
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::invalid_value) << e.what();
    return;
  }
  expect_roundtrip_in<bale::msgpack>(value);
}

/// expect_roundtrip_in for every byte format, JSON and MessagePack; returns the binary encoding.
template <class T>
std::vector<std::byte> expect_roundtrip(const T& value) {
  expect_json_roundtrip(value);
  expect_msgpack_roundtrip(value);
  expect_roundtrip_in<bale::compact>(value);
  return expect_roundtrip_in<bale::binary>(value);
}

/// Same bytes through every entry point and buffer type.
template <class T>
void expect_entry_points_agree(const T& value) {
  const std::vector<std::byte> bytes = bale::serialize(value);
  std::vector<char> chars;
  bale::serialize_into(chars, value);
  std::string text;
  bale::serialize_into(text, value);
  std::vector<unsigned char> uchars(3, 7);  // appends after what is there
  bale::serialize_into(uchars, value);
  ASSERT_EQ(chars.size(), bytes.size());
  ASSERT_EQ(text.size(), bytes.size());
  ASSERT_EQ(uchars.size(), bytes.size() + 3);
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    EXPECT_EQ(static_cast<std::byte>(chars[i]), bytes[i]);
    EXPECT_EQ(static_cast<std::byte>(text[i]), bytes[i]);
    EXPECT_EQ(static_cast<std::byte>(uchars[i + 3]), bytes[i]);
  }
}

/// A seeded generator, so that a failure repeats.
inline std::mt19937_64& rng() {
  static std::mt19937_64 generator(20261122);
  return generator;
}

template <class T>
T random_integer() {
  if constexpr (std::is_same_v<T, bool>) {
    return (rng()() & 1U) != 0;
  } else if constexpr (sizeof(T) == 1) {
    return static_cast<T>(rng()() & 0xFFU);
  } else {
    return static_cast<T>(rng()());
  }
}

inline std::string random_string(std::size_t max_length) {
  std::string s(rng()() % (max_length + 1), '\0');
  for (char& c : s) c = static_cast<char>(rng()() & 0xFFU);
  return s;
}

}  // namespace bale_test
