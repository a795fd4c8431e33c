// SPDX-License-Identifier: BSL-1.0
#pragma once
// How a reader treats the members that the data and the type do not share, written once for
// every format. By default both kinds are errors: a member only the data has is unknown, one only
// the type has is missing, except an optional, which reads as empty. Data written with another
// schema that resolves against the type's (bale/schema/resolution.hpp) allows both: a member only
// the data has is skipped, one only the type has keeps its value (a new value's default). A
// format's own options may allow either on its own. A missing required member
// (bale::required_members) is refused whatever the rules.
//
// Formats that name members (JSON, MessagePack) ask these rules member by member as they meet
// names, for reflected and hand-described types alike; the resolution of byte formats asks them
// when it plans, before any byte is read.

#include <cstddef>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>

#include "bale/core/archive_base.hpp"
#include "bale/core/error_text.hpp"
#include "bale/core/read_context.hpp"
#include "bale/core/serializer.hpp"

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

/// What becomes of a member that the type has and the data lacks.
enum class missing_member { keeps_value, reads_empty, refused, refused_as_required };
constexpr bool is_refused(missing_member fate) noexcept {
  return fate == missing_member::refused || fate == missing_member::refused_as_required;
}

class member_rules {
 public:
  /// The rules for data of another schema that resolves against the type's.
  static constexpr member_rules of_other_schema() noexcept { return member_rules(true, true); }
  /// The rules of a reader in `context`: another schema's if the context says the data has one,
  /// or else what the format's own options allow.
  static member_rules in(const read_context& context, bool format_skips_unknown = false,
                         bool format_keeps_missing = false) noexcept {
    if (context.parts().find<other_schema_data>() != nullptr) return of_other_schema();
    return member_rules(format_skips_unknown, format_keeps_missing);
  }

  /// Whether a member that the data has and the type lacks is skipped (or else refused).
  constexpr bool skips_unknown() const noexcept { return skips_unknown_; }

  /// The fate of a member the type has and the data lacks.
  constexpr missing_member when_missing(bool required, bool optional) const noexcept {
    if (required) return missing_member::refused_as_required;
    if (keeps_missing_) return missing_member::keeps_value;
    return optional ? missing_member::reads_empty : missing_member::refused;
  }

  /// Settles a member named `name` the data lacks: empties it or leaves it as its fate says, or
  /// returns the error text when it is refused.
  template <class T>
  std::optional<std::string> settle_missing(std::string_view name, bool required, T& value) const {
    switch (when_missing(required, is_std_optional<T>)) {
      case missing_member::keeps_value:
        return std::nullopt;
      case missing_member::reads_empty:
        if constexpr (is_std_optional<T>) value.reset();
        return std::nullopt;
      case missing_member::refused_as_required:
        return error_text({"missing required member \"", name, "\""});
      case missing_member::refused:
        break;
    }
    return error_text({"missing member \"", name, "\""});
  }

  /// Settles, in order, the members of the reflected type whose names Names lists that `seen`
  /// says the data lacked; the error text of the first refused, if one is.
  template <class Names, class Seen, class... Members>
  std::optional<std::string> settle_missing_members(const Seen& seen, Members&... members) const {
    std::optional<std::string> refusal;
    std::size_t k = 0;
    [[maybe_unused]] const auto settle = [&](auto& member) {
      if (!refusal && !seen[k])
        refusal = settle_missing(Names::value[k], member_required<Names>(k), member);
      ++k;
    };
    (settle(members), ...);
    return refusal;
  }

  /// The error text for a member only the data has, when it is not skipped.
  static std::string unknown_text(std::string_view name) {
    return error_text({"unknown member \"", name, "\""});
  }

 private:
  constexpr member_rules(bool skips_unknown, bool keeps_missing) noexcept
      : skips_unknown_(skips_unknown), keeps_missing_(keeps_missing) {}
  bool skips_unknown_;
  bool keeps_missing_;
};

/// The member of the reflected type whose names Names lists that a name read from the data
/// names: its own name, tried first at `expected` (members usually come in declaration order),
/// else one of its bale::former_names; the member count if none.
template <class Names>
constexpr std::size_t member_named(std::string_view key, std::size_t expected = 0) {
  constexpr std::size_t count = std::size(Names::value);
  if (expected < count && Names::value[expected] == key) return expected;
  for (std::size_t k = 0; k < count; ++k)
    if (Names::value[k] == key) return k;
  return member_by_former_name<Names>(key);
}

}  // namespace bale::detail
