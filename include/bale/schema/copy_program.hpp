// SPDX-License-Identifier: BSL-1.0
#pragma once
// A vector of flat records (numbers and fixed arrays of numbers, nothing else) written with
// another layout, read without a call per member: where the format keeps numbers as they are in
// memory (binary on a little-endian machine), the writer's record has a fixed size, so the plan
// becomes a copy program (per reader member: where it lies in the writer's record, where it goes
// in the reader's, and whether it widens) run column by column over a block of records that the
// input has already paid for. Members the writer lacked are copied from a default-constructed
// record. Anything else (enums, which map by name; bools, which must be 0 or 1; optionals;
// text) takes the general path of schema/resolve.hpp.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "bale/core/serializer.hpp"
#include "bale/schema/resolution.hpp"
#include "bale/schema/schema_of.hpp"
#include "bale/schema/tree.hpp"

namespace bale::detail {

template <class M>
inline constexpr bool flat_number = std::is_arithmetic_v<M> && !std::is_same_v<M, bool>;

// A member the program copies: a number or a fixed array of numbers.
template <class M>
struct flat_member_traits {
  static constexpr bool flat = flat_number<M>;
  using element = M;
  static constexpr std::size_t count = 1;
};
template <class E, std::size_t N>
struct flat_member_traits<E[N]> {
  static constexpr bool flat = flat_number<E>;
  using element = E;
  static constexpr std::size_t count = N;
};
template <class E, std::size_t N>
struct flat_member_traits<std::array<E, N>> {
  static constexpr bool flat = flat_number<E> && sizeof(std::array<E, N>) == N * sizeof(E);
  using element = E;
  static constexpr std::size_t count = N;
};

template <class Product>
inline constexpr bool all_flat = false;
template <class... Ms>
inline constexpr bool all_flat<wire::product<Ms...>> = (flat_member_traits<Ms>::flat && ...);

// Whether T is reflected: its serializer writes T's own members as a record. A type that travels
// as a record of other members (an array's layout, extents and data) reads through its serializer.
template <class T, class Shape>
inline constexpr bool is_own_record = false;
template <class T, bool OmitsDefaults>
inline constexpr bool is_own_record<T, schema::record<T, OmitsDefaults>> = true;

template <class T>
constexpr bool is_flat_record() {
  if constexpr (!std::is_trivially_copyable_v<T> || !std::is_default_constructible_v<T>)
    return false;
  else if constexpr (!has_schema_shape<T>)
    return false;
  else if constexpr (!is_own_record<T, typename serializer<T>::schema_shape>)
    return false;
  else if constexpr (description_of<T>() == description::aggregate)
    return all_flat<aggregate_members<T>>;
  else if constexpr (description_of<T>() == description::reflect_macro)
    return all_flat<typename macro_members<T>::wire_shape>;
  else
    return false;
}
/// A reflected type made of numbers and fixed arrays of numbers only.
template <class T>
concept flat_record = is_flat_record<T>();

/// Where a reader's member lies in its record, and what it holds.
struct member_place {
  std::size_t offset;
  scalar_kind kind;
  std::size_t count;
};

template <flat_record T>
std::vector<member_place> member_places() {
  static const T probe{};
  std::vector<member_place> places;
  with_reflected_members<T>(probe, [&](const auto&, const auto&... members) {
    const auto place = [&]<class M>(const M& member) {
      using traits = flat_member_traits<M>;
      places.push_back({static_cast<std::size_t>(reinterpret_cast<const char*>(&member) -
                                                 reinterpret_cast<const char*>(&probe)),
                        scalar_kind_of<typename traits::element>(), traits::count});
    };
    (place(members), ...);
  });
  return places;
}

/// One step of a copy program: `count` numbers of kind `from` at `src` in the writer's record go
/// to `dst` in the reader's, as kind `to`; equal kinds are one copy of `bytes`. A member the
/// writer lacked is copied from a default-constructed record (`from_defaults`, src == dst).
struct copy_step {
  std::size_t dst = 0, src = 0, bytes = 0, count = 0;
  scalar_kind from = scalar_kind::u8, to = scalar_kind::u8;
  bool from_defaults = false;
};

/// The program for one (writer record, reader record) pair, or none (`usable` false).
struct copy_program {
  bool usable = false;
  std::size_t wire_size = 0;  // of the writer's record
  std::vector<copy_step> steps;
};

/// The size of a number of kind k in memory, or 0 for kinds the program does not copy.
inline std::size_t number_size(scalar_kind k) noexcept {
  switch (k) {
    case scalar_kind::i8:
    case scalar_kind::u8:
      return 1;
    case scalar_kind::i16:
    case scalar_kind::u16:
      return 2;
    case scalar_kind::i32:
    case scalar_kind::u32:
    case scalar_kind::f32:
      return 4;
    case scalar_kind::i64:
    case scalar_kind::u64:
    case scalar_kind::f64:
      return 8;
    default:
      return 0;
  }
}

/// Plans the copy of a writer's record (node `step.writer`) into a reader's of `record_size`
/// bytes whose members lie at `places`.
inline copy_program plan_copy(const resolution& plan, const resolution_step& step,
                              const std::vector<member_place>& places, std::size_t record_size) {
  copy_program program;
  const schema_node& w = plan.writer()[step.writer];
  if (w.kind != schema_kind::record || w.flag) return program;
  std::vector<bool> written(places.size());
  for (std::size_t i = 0; i < w.children.size(); ++i) {
    const schema_node* member = &plan.writer()[w.children[i]];
    std::size_t count = 1;
    if (member->kind == schema_kind::array) {
      count = static_cast<std::size_t>(member->count);
      member = &plan.writer()[member->children[0]];
    }
    const std::size_t size = member->kind == schema_kind::scalar ? number_size(member->scalar) : 0;
    if (size == 0 || count > (std::size_t{1} << 20)) return program;
    const std::size_t bytes = size * count;
    const std::uint32_t j = step.reader_member[i];
    if (j != no_step) {
      const member_place& to = places[j];
      if (to.count != count || !widens(member->scalar, to.kind)) return program;
      written[j] = true;
      copy_step s{to.offset, program.wire_size, bytes, count, member->scalar, to.kind};
      copy_step* last = program.steps.empty() ? nullptr : &program.steps.back();
      if (s.from == s.to && last != nullptr && last->from == last->to &&
          last->dst + last->bytes == s.dst && last->src + last->bytes == s.src) {
        last->bytes += bytes;  // one copy for members next to each other on both sides
        last->count = last->bytes / number_size(last->from);
      } else {
        program.steps.push_back(s);
      }
    }
    program.wire_size += bytes;
  }
  // Every byte of the reader's record that no step writes (members the writer lacked, padding)
  // comes from the default record, in as few runs as the written ones leave.
  std::vector<bool> covered(record_size);
  for (std::size_t j = 0; j < places.size(); ++j) {
    const std::size_t bytes = number_size(places[j].kind) * places[j].count;
    if (bytes == 0 || places[j].offset + bytes > record_size) return program;
    if (written[j])
      std::fill_n(covered.begin() + static_cast<std::ptrdiff_t>(places[j].offset), bytes, true);
  }
  for (std::size_t at = 0; at < record_size;) {
    if (covered[at]) {
      ++at;
      continue;
    }
    std::size_t end = at;
    while (end < record_size && !covered[end]) ++end;
    program.steps.push_back({at, at, end - at, 0, scalar_kind::u8, scalar_kind::u8, true});
    at = end;
  }
  program.usable = program.wire_size != 0;
  return program;
}

// Copies `bytes` per record for `n` records, from records `src_stride` apart to records
// `dst_stride` apart. The usual sizes get a loop of their own, with a copy the compiler sees
// whole.
template <std::size_t Bytes>
void copy_column_of(std::byte* dst, std::size_t dst_stride, const std::byte* src,
                    std::size_t src_stride, std::size_t n) {
  for (std::size_t k = 0; k < n; ++k)
    std::memcpy(dst + k * dst_stride, src + k * src_stride, Bytes);
}
inline void copy_column(std::byte* dst, std::size_t dst_stride, const std::byte* src,
                        std::size_t src_stride, std::size_t bytes, std::size_t n) {
  switch (bytes) {
    case 1:
      return copy_column_of<1>(dst, dst_stride, src, src_stride, n);
    case 2:
      return copy_column_of<2>(dst, dst_stride, src, src_stride, n);
    case 4:
      return copy_column_of<4>(dst, dst_stride, src, src_stride, n);
    case 8:
      return copy_column_of<8>(dst, dst_stride, src, src_stride, n);
    case 12:
      return copy_column_of<12>(dst, dst_stride, src, src_stride, n);
    case 16:
      return copy_column_of<16>(dst, dst_stride, src, src_stride, n);
    case 20:
      return copy_column_of<20>(dst, dst_stride, src, src_stride, n);
    case 24:
      return copy_column_of<24>(dst, dst_stride, src, src_stride, n);
    case 32:
      return copy_column_of<32>(dst, dst_stride, src, src_stride, n);
    default:
      for (std::size_t k = 0; k < n; ++k)
        std::memcpy(dst + k * dst_stride, src + k * src_stride, bytes);
  }
}

// Calls f(W{}) with the C++ type of number kind k (one the program copies).
template <class F>
void with_number_type(scalar_kind k, F&& f) {
  switch (k) {
    case scalar_kind::i8:
      return f(std::int8_t{});
    case scalar_kind::i16:
      return f(std::int16_t{});
    case scalar_kind::i32:
      return f(std::int32_t{});
    case scalar_kind::i64:
      return f(std::int64_t{});
    case scalar_kind::u8:
      return f(std::uint8_t{});
    case scalar_kind::u16:
      return f(std::uint16_t{});
    case scalar_kind::u32:
      return f(std::uint32_t{});
    case scalar_kind::u64:
      return f(std::uint64_t{});
    case scalar_kind::f32:
      return f(float{});
    default:
      return f(double{});
  }
}

// Widens one step's numbers for n records (the plan allowed the conversion).
inline void convert_column(const copy_step& s, std::byte* dst, std::size_t dst_stride,
                           const std::byte* src, std::size_t src_stride, std::size_t n) {
  with_number_type(s.from, [&]<class W>(W) {
    with_number_type(s.to, [&]<class R>(R) {
      for (std::size_t k = 0; k < n; ++k)
        for (std::size_t e = 0; e < s.count; ++e) {
          W w;
          std::memcpy(&w, src + k * src_stride + s.src + e * sizeof(W), sizeof(W));
          const auto r = static_cast<R>(w);
          std::memcpy(dst + k * dst_stride + s.dst + e * sizeof(R), &r, sizeof(R));
        }
    });
  });
}

/// Runs `program` over n records at src (n * program.wire_size bytes, already bounds-checked)
/// into data[0..n), in blocks that stay in the first-level cache.
template <flat_record T>
void run_copy(const copy_program& program, const std::byte* src, std::size_t n, T* data) {
  // A default record's bytes, with room after them: a step copies 1 to 32 bytes at a time, and
  // the compiler must not see a read that could pass the end of a small record.
  static const auto defaults = [] {
    std::array<std::byte, sizeof(T) + 32> bytes{};
    const T value = T();
    std::memcpy(bytes.data(), &value, sizeof(T));
    return bytes;
  }();
  const std::byte* const default_bytes = defaults.data();
  constexpr std::size_t block = 256;
  for (std::size_t first = 0; first < n; first += block) {
    const std::size_t m = std::min(block, n - first);
    auto* const dst = reinterpret_cast<std::byte*>(data + first);
    const std::byte* const from = src + first * program.wire_size;
    for (const copy_step& s : program.steps) {
      if (s.from_defaults)
        copy_column(dst + s.dst, sizeof(T), default_bytes + s.src, 0, s.bytes, m);
      else if (s.from == s.to)
        copy_column(dst + s.dst, sizeof(T), from + s.src, program.wire_size, s.bytes, m);
      else
        convert_column(s, dst, sizeof(T), from, program.wire_size, m);
    }
  }
}

}  // namespace bale::detail
