// SPDX-License-Identifier: BSL-1.0
#pragma once
// Every format bale has, with the number that .bale files, record files, framed messages and
// bale::mpi headers record for it: the one place that knows them all. Files, records and
// bale-inspect ask it what a number found in a header is. A new format is its folder (a tag that
// satisfies bale::format) and one entry in all_formats.

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "bale/binary/format.hpp"
#include "bale/compact/format.hpp"
#include "bale/core/error_text.hpp"
#include "bale/core/format.hpp"
#include "bale/json/format.hpp"
#include "bale/msgpack/format.hpp"

namespace bale {

/// A list of format tags.
template <format... Formats>
struct format_list {};

/// Every format, each with a number of its own.
using all_formats = format_list<binary, compact, json, msgpack>;

namespace detail {

template <class... Formats>
consteval bool distinct_ids(format_list<Formats...>) {
  const std::uint8_t ids[] = {Formats::id...};
  for (std::size_t i = 0; i < sizeof...(Formats); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (ids[i] == ids[j] || ids[i] == 0) return false;
  return true;
}
static_assert(distinct_ids(all_formats{}), "two formats share a number (or one has 0)");

/// Filters for visit_format: every format, and the packed ones.
template <class F>
struct is_format : std::true_type {};
template <class F>
struct is_packed : std::bool_constant<packed_format<F>> {};

template <template <class> class Wanted, class Fn, class... Formats>
bool visit_format_in(std::uint8_t id, Fn& f, format_list<Formats...>) {
  bool found = false;
  const auto try_one = [&]<class F>(F tag) {
    if constexpr (Wanted<F>::value) {
      if (!found && id == F::id) {
        found = true;
        f(tag);
      }
    }
  };
  (try_one(Formats{}), ...);
  return found;
}

/// Calls f(F{}) with the tag of the format of number `id` among those of List that satisfy
/// Wanted; returns whether one did.
template <template <class> class Wanted = is_format, class List = all_formats, class Fn>
bool visit_format(std::uint8_t id, Fn&& f) {
  return visit_format_in<Wanted>(id, f, List{});
}

/// Whether `id` is the number of a format.
inline bool known_format(std::uint8_t id) {
  return visit_format<is_format>(id, [](auto) {});
}
/// Whether `id` is the number of a format whose data holds no member names.
inline bool known_packed_format(std::uint8_t id) {
  return visit_format<is_packed>(id, [](auto) {});
}

/// The name of the format of number `id`, for messages.
inline std::string format_name_of(std::uint8_t id) {
  std::string name;
  if (visit_format<is_format>(id, [&]<class F>(F) { name = F::name; })) return name;
  return error_text({"an unknown format (", id, ")"});
}

}  // namespace detail
}  // namespace bale
