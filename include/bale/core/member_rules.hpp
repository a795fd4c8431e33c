// SPDX-License-Identifier: BSL-1.0
#pragma once
// How a reader of a format that names members (JSON, MessagePack) treats the members of a
// reflected type that the data and the type do not share. By default both are errors: a member
// the type lacks is unknown, a member the data lacks is missing. Data written with another schema
// that resolves against the type's (bale/schema/resolution.hpp) allows both: a member only the
// data has is skipped, one only the type has keeps its default, unless it is required
// (bale::required). A format's own options may allow either on its own.

#include "bale/core/read_context.hpp"

namespace bale::detail {

/// The read context's part that says the data was written with another schema that resolves
/// against the type's. It belongs to the source, not to one message: it stays for the next.
struct other_schema_data {
  void forget_message() noexcept {}
};

/// Reading data of another schema that resolves against the type's.
inline void allow_other_members(read_context& context) {
  context.parts().get<other_schema_data>();
}

/// Whether a member that the data has and the type lacks is skipped (or else refused).
inline bool skips_unknown_member(const read_context& context, bool format_allows = false) noexcept {
  return format_allows || context.parts().find<other_schema_data>() != nullptr;
}

/// Whether a member that the type has and the data lacks keeps its default (or else is refused).
/// A required member is refused whatever this says.
inline bool keeps_missing_member(const read_context& context, bool format_allows = false) noexcept {
  return format_allows || context.parts().find<other_schema_data>() != nullptr;
}

}  // namespace bale::detail
