// SPDX-License-Identifier: BSL-1.0
#pragma once
// MessagePack's type bytes, and the choices bale makes among them, shared by the writer and the
// reader. docs/format/msgpack.md has the format as bale writes and reads it.

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace bale::detail::msgpack_wire {

enum : std::uint8_t {
  positive_fixint_max = 0x7f,
  fixmap = 0x80,    // 0x80..0x8f: a map of up to 15 entries
  fixarray = 0x90,  // 0x90..0x9f: an array of up to 15 values
  fixstr = 0xa0,    // 0xa0..0xbf: a string of up to 31 bytes
  nil = 0xc0,
  never_used = 0xc1,
  false_ = 0xc2,
  true_ = 0xc3,
  bin8 = 0xc4,
  bin16 = 0xc5,
  bin32 = 0xc6,
  ext8 = 0xc7,
  ext16 = 0xc8,
  ext32 = 0xc9,
  float32 = 0xca,
  float64 = 0xcb,
  uint8 = 0xcc,
  uint16 = 0xcd,
  uint32 = 0xce,
  uint64 = 0xcf,
  int8 = 0xd0,
  int16 = 0xd1,
  int32 = 0xd2,
  int64 = 0xd3,
  fixext1 = 0xd4,  // 0xd4..0xd8: 1, 2, 4, 8, 16 bytes of extension data
  fixext16 = 0xd8,
  str8 = 0xd9,
  str16 = 0xda,
  str32 = 0xdb,
  array16 = 0xdc,
  array32 = 0xdd,
  map16 = 0xde,
  map32 = 0xdf,
  negative_fixint_min = 0xe0,  // 0xe0..0xff: -32..-1
};

/// The three kinds of length header: each has a one-byte form for small counts (none for bin),
/// then 8-, 16- and 32-bit forms.
enum class container : std::uint8_t { str, bin, array, map };

/// Element types whose dynamic contiguous sequences are `bin` (as msgpack-cxx writes a
/// std::vector<char> or std::vector<unsigned char>): they move as one memcpy.
template <class T>
inline constexpr bool byte_like =
    std::is_same_v<T, std::byte> || std::is_same_v<T, char> || std::is_same_v<T, unsigned char>;

/// The largest count any header can hold.
inline constexpr std::uint64_t max_count = 0xffffffffU;

}  // namespace bale::detail::msgpack_wire
