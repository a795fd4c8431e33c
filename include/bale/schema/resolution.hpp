// SPDX-License-Identifier: BSL-1.0
#pragma once
// Resolution of a writer's schema against a reader's: which differences a read can bridge, checked
// before a byte of the value is read, and the plan a resolving read follows (schema/resolve.hpp).
//
// The rules, applied member by member and element by element:
//   - records: members matched by name, or by a former name either side declares
//     (bale::former_names); a writer's member the reader lacks is skipped; a reader's member the
//     writer lacked keeps its default, unless it is required (bale::required_members); two
//     writer's members onto one reader's member, or records with no member in common (another
//     record, not this one evolved; unless both have none), are refused;
//   - integers widen (same signedness, or unsigned into a wider signed), f32 widens to f64;
//   - a value becomes an optional (always present), an optional becomes a value (absent: the
//     default);
//   - enums with listed names on both sides match by name (a value whose name the reader lacks is
//     an error when it is read), others by number with the underlying integer widening;
//   - variants match alternative by position (a reader may add alternatives at the end), or by
//     stable name when every alternative on both sides has one (bale::stable_name): then they
//     may be added, reordered or removed, and a value holding one the reader lacks is an error
//     when it is read;
//   - sequences, sets, maps, fixed arrays (same count), tuples (same arity), optionals, durations
//     (same period) and time points resolve their elements;
//   - a type described by hand reads data of its own version or an older one (its load branches
//     on ar.version());
//   - pointers and bitsets must be equal.
// Anything else is errc::wrong_type naming the member path and both schemas.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bale/core/error.hpp"
#include "bale/core/member_rules.hpp"
#include "bale/schema/tree.hpp"

namespace bale::detail {

/// How a value of one (writer node, reader node) pair is read.
struct resolution_step {
  enum class wrapping : std::uint8_t { none, writer_optional, reader_optional };
  std::uint32_t writer = 0, reader = 0;
  bool equal = false;  // the same structure: the reader's own path reads it at full speed
  wrapping wrap = wrapping::none;
  // The steps of what the value holds: [element] for sequences, sets, arrays, optionals and
  // durations; [key, value] for maps; one per element for tuples, per writer alternative for
  // variants, per writer member for records (no_step: skipped).
  std::vector<std::uint32_t> children;
  std::vector<std::uint32_t> reader_member;  // records: per writer member, the reader's index
  std::vector<std::pair<std::int64_t, std::int64_t>> enum_values;  // writer -> reader, by writer
};

inline constexpr std::uint32_t no_step = 0xFFFFFFFFu;

// Whether a writer's scalar reads into a reader's without loss.
constexpr bool widens(scalar_kind from, scalar_kind to) noexcept {
  const auto rank = [](scalar_kind k) -> int {
    switch (k) {
      case scalar_kind::i8:
      case scalar_kind::u8:
        return 1;
      case scalar_kind::i16:
      case scalar_kind::u16:
        return 2;
      case scalar_kind::i32:
      case scalar_kind::u32:
        return 3;
      case scalar_kind::i64:
      case scalar_kind::u64:
        return 4;
      default:
        return 0;
    }
  };
  if (from == to) return true;
  if (from == scalar_kind::f32) return to == scalar_kind::f64;
  if (rank(from) == 0 || rank(to) == 0 || rank(to) <= rank(from)) return false;
  return unsigned_scalar(from) || !unsigned_scalar(to);  // unsigned into wider signed too
}

class resolution {
 public:
  /// Checks that data of `writer`'s schema reads as `reader`'s, and plans how; throws
  /// errc::wrong_type naming the first member that cannot.
  resolution(schema_tree writer, schema_tree reader)
      : writer_(std::move(writer)), reader_(std::move(reader)) {
    (void)plan(0, 0, "", 0);
  }

  const schema_tree& writer() const noexcept { return writer_; }
  const schema_tree& reader() const noexcept { return reader_; }
  const resolution_step& operator[](std::uint32_t step) const noexcept { return steps_[step]; }
  const resolution_step& root() const noexcept { return steps_.front(); }
  /// Types described by hand that the writer wrote without a version and the reader has one:
  /// their data holds no version (it reads as version 0).
  const std::vector<std::string>& unversioned_types() const noexcept { return unversioned_; }
  /// Whether a variant alternative reads into one at another position (or none): formats that
  /// write a variant's position (JSON, MessagePack) cannot follow such a plan.
  bool moves_alternatives() const noexcept { return moves_alternatives_; }
  /// Whether a member reads into a reader's member of its former name, which the writer's schema
  /// declares and the reader's type does not: formats that find members by name cannot follow it.
  bool renames_by_writer() const noexcept { return renames_by_writer_; }
  /// The memory the plan holds, its two trees included, as allocated (what a cache counts).
  std::size_t memory_bytes() const noexcept {
    // A std::map node: the value and about four pointers' worth of links and colour.
    constexpr std::size_t map_node = 4 * sizeof(void*);
    std::size_t bytes =
        sizeof(*this) + writer_.memory_bytes() + reader_.memory_bytes() +
        steps_.capacity() * sizeof(resolution_step) +
        planned_.size() * (map_node + sizeof(std::pair<const std::uint64_t, std::uint32_t>)) +
        same_.size() * (map_node + sizeof(std::pair<const std::uint64_t, bool>)) +
        same_log_.capacity() * sizeof(std::uint64_t) +
        unversioned_.capacity() * sizeof(std::string);
    for (const resolution_step& step : steps_)
      bytes += step.children.capacity() * sizeof(std::uint32_t) +
               step.reader_member.capacity() * sizeof(std::uint32_t) +
               step.enum_values.capacity() * sizeof(std::pair<std::int64_t, std::int64_t>);
    for (const std::string& name : unversioned_) bytes += name.capacity();
    return bytes;
  }

 private:
  [[noreturn]] void refuse(std::uint32_t w, std::uint32_t r, const std::string& path,
                           std::string_view why = {}) const {
    const auto shown = [](std::string text) {
      if (text.size() > 120) text = text.substr(0, 117) + "...";
      return text;
    };
    std::string detail = "the data cannot be read as this type: ";
    if (!why.empty()) {
      detail += why;
      detail += ": ";
    }
    detail += "it has " + shown(schema_printer(writer_).print(w)) + " where the type has " +
              shown(schema_printer(reader_).print(r));
    error e(errc::wrong_type, std::move(detail));
    if (!path.empty()) e.prepend_field(path);
    throw e;
  }

  // Whether two nodes describe the same structure. A pair met again inside itself is assumed
  // equal; when the outer pair turns out unequal, the answers that may have leant on that
  // assumption (the equal ones found meanwhile) are forgotten. An unequal answer never leans on it.
  bool same(std::uint32_t w, std::uint32_t r, std::size_t depth) {
    if (depth > max_depth) too_deep();
    const std::uint64_t key = std::uint64_t{w} << 32 | r;
    if (const auto found = same_.find(key); found != same_.end()) return found->second;
    const std::size_t first = same_log_.size();
    same_[key] = true;
    same_log_.push_back(key);
    const schema_node& a = writer_[w];
    const schema_node& b = reader_[r];
    bool equal = a.kind == b.kind && a.scalar == b.scalar && a.owner == b.owner &&
                 a.flag == b.flag && a.count == b.count && a.period_num == b.period_num &&
                 a.period_den == b.period_den && a.names == b.names && a.values == b.values &&
                 a.children.size() == b.children.size();
    for (std::size_t i = 0; equal && i < a.children.size(); ++i)
      equal = same(a.children[i], b.children[i], depth + 1);
    if (!equal) {
      for (std::size_t i = first + 1; i < same_log_.size(); ++i)
        if (same_[same_log_[i]]) same_.erase(same_log_[i]);
      same_log_.resize(first + 1);
    }
    same_[key] = equal;
    return equal;
  }

  std::uint32_t add(std::uint32_t w, std::uint32_t r) {
    const auto step = static_cast<std::uint32_t>(steps_.size());
    steps_.push_back({});
    steps_.back().writer = w;
    steps_.back().reader = r;
    planned_[std::uint64_t{w} << 32 | r] = step;
    return step;
  }
  // Both walks follow the two schemas side by side; a pair met again is not walked again, so
  // only a hostile writer's schema nests past what bale reads anyway.
  static constexpr std::size_t max_depth = 256;
  [[noreturn]] static void too_deep() {
    throw error(errc::depth_exceeded,
                detail::error_text({"the schemas nest deeper than ", max_depth, " levels"}));
  }

  void child(std::uint32_t step, std::uint32_t w, std::uint32_t r, const std::string& path) {
    const std::uint32_t c = plan(w, r, path, depth_of_[step] + 1);
    steps_[step].children.push_back(c);
  }

  std::uint32_t plan(std::uint32_t w, std::uint32_t r, const std::string& path, std::size_t depth) {
    if (const auto found = planned_.find(std::uint64_t{w} << 32 | r); found != planned_.end())
      return found->second;
    if (depth > max_depth) too_deep();
    const std::uint32_t step = add(w, r);
    depth_of_.push_back(depth);
    if (same(w, r, 0)) {
      steps_[step].equal = true;
      return step;
    }
    const schema_node& a = writer_[w];
    const schema_node& b = reader_[r];
    if (a.kind == schema_kind::optional && b.kind != schema_kind::optional) {
      steps_[step].wrap = resolution_step::wrapping::writer_optional;
      child(step, a.children[0], r, path);
      return step;
    }
    if (b.kind == schema_kind::optional && a.kind != schema_kind::optional) {
      steps_[step].wrap = resolution_step::wrapping::reader_optional;
      child(step, w, b.children[0], path);
      return step;
    }
    if (a.kind == schema_kind::array && b.kind == schema_kind::sequence) {
      child(step, a.children[0], b.children[0], path + "[]");  // a fixed count into a sequence
      return step;
    }
    if (a.kind != b.kind) refuse(w, r, path);
    plan_same_kind(step, a, b, path);
    return step;
  }

  void plan_same_kind(std::uint32_t step, const schema_node& a, const schema_node& b,
                      const std::string& path) {
    const std::uint32_t w = steps_[step].writer, r = steps_[step].reader;
    switch (a.kind) {
      case schema_kind::scalar:
        if (!widens(a.scalar, b.scalar)) refuse(w, r, path, "a narrower or other kind of number");
        return;
      case schema_kind::enumeration:
        return plan_enum(step, a, b, path);
      case schema_kind::array:
        if (a.count != b.count) refuse(w, r, path, "another count");
        [[fallthrough]];
      case schema_kind::sequence:
      case schema_kind::set:
      case schema_kind::optional:
      case schema_kind::time_point:
        return child(step, a.children[0], b.children[0], path + "[]");
      case schema_kind::map:
        child(step, a.children[0], b.children[0], path + "[key]");
        return child(step, a.children[1], b.children[1], path + "[]");
      case schema_kind::tuple:
        if (a.children.size() != b.children.size()) refuse(w, r, path, "another arity");
        for (std::size_t i = 0; i < a.children.size(); ++i)
          child(step, a.children[i], b.children[i], path + "[" + std::to_string(i) + "]");
        return;
      case schema_kind::variant:
        if (!a.names.empty() && !b.names.empty()) return plan_named_variant(step, a, b, path);
        if (a.children.size() > b.children.size()) refuse(w, r, path, "fewer alternatives");
        for (std::size_t i = 0; i < a.children.size(); ++i)
          child(step, a.children[i], b.children[i], path + "<" + std::to_string(i) + ">");
        return;
      case schema_kind::duration:
        if (a.period_num != b.period_num || a.period_den != b.period_den)
          refuse(w, r, path, "another period");
        return child(step, a.children[0], b.children[0], path);
      case schema_kind::record:
        return plan_record(step, a, b, path);
      case schema_kind::opaque:
        return plan_opaque(step, a, b, path);
      default:
        refuse(w, r, path);  // text of another character, bits, pointers
    }
  }

  void plan_enum(std::uint32_t step, const schema_node& a, const schema_node& b,
                 const std::string& path) {
    if (!widens(a.scalar, b.scalar))
      refuse(steps_[step].writer, steps_[step].reader, path, "a narrower underlying type");
    if (a.names.empty() || b.names.empty()) return;         // by number
    std::map<std::string_view, std::int64_t> reader_value;  // names are distinct (parse_schema)
    for (std::size_t j = 0; j < b.names.size(); ++j) reader_value.emplace(b.names[j], b.values[j]);
    for (std::size_t i = 0; i < a.names.size(); ++i)
      if (const auto found = reader_value.find(a.names[i]); found != reader_value.end())
        steps_[step].enum_values.emplace_back(a.values[i], found->second);
    // Sorted by the writer's value, so that a read finds a value in log time.
    std::stable_sort(steps_[step].enum_values.begin(), steps_[step].enum_values.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
  }

  // Alternatives with stable names on both sides match by name; a writer's alternative the
  // reader lacks is an error only when a value holds it.
  void plan_named_variant(std::uint32_t step, const schema_node& a, const schema_node& b,
                          const std::string& path) {
    for (std::size_t i = 0; i < a.names.size(); ++i) {
      const auto found = std::find(b.names.begin(), b.names.end(), a.names[i]);
      if (found == b.names.end()) {
        moves_alternatives_ = true;
        steps_[step].reader_member.push_back(no_step);
        steps_[step].children.push_back(no_step);
        continue;
      }
      const auto j = static_cast<std::uint32_t>(found - b.names.begin());
      if (j != i) moves_alternatives_ = true;
      steps_[step].reader_member.push_back(j);
      child(step, a.children[i], b.children[j], path + "<" + a.names[i] + ">");
    }
  }

  // A type described by hand reads its own data, branching on the version it was written with:
  // the same type of the same or an older version reads as it is.
  void plan_opaque(std::uint32_t step, const schema_node& a, const schema_node& b,
                   const std::string& path) {
    const std::uint32_t w = steps_[step].writer, r = steps_[step].reader;
    if (a.names != b.names) refuse(w, r, path, "another type described by hand");
    if (a.count > b.count) refuse(w, r, path, "a newer version");
    if (a.count == 0 &&
        std::find(unversioned_.begin(), unversioned_.end(), a.names[0]) == unversioned_.end())
      unversioned_.push_back(a.names[0]);
    steps_[step].equal = true;
  }

  // The reader's member that writer member `i` of `writer` reads into: the one of its name, the
  // one that declares its name as a former name, or the one whose name the writer's member
  // declares as its own former name (a rename seen from the older side); the member count when
  // none does. `by_writer_rename` tells the last case, which only the plan knows.
  static std::uint32_t reader_member_for(const schema_node& reader, const schema_node& writer,
                                         std::size_t i, bool& by_writer_rename) {
    by_writer_rename = false;
    const auto count = static_cast<std::uint32_t>(reader.names.size());
    const std::string& name = writer.names[i];
    for (std::uint32_t j = 0; j < count; ++j)
      if (reader.names[j] == name) return j;
    for (std::uint32_t j = 0; j < count; ++j)
      for (const std::string& former : reader.former[j])
        if (former == name) return j;
    for (const std::string& former : writer.former[i])
      for (std::uint32_t j = 0; j < count; ++j)
        if (reader.names[j] == former) {
          by_writer_rename = true;
          return j;
        }
    return count;
  }

  // Members are matched by name (and former names, both ways). Two writer members onto one
  // reader member would read it twice; a record with no member in common with the reader's is
  // another record, not this one evolved: both are refused.
  void plan_record(std::uint32_t step, const schema_node& a, const schema_node& b,
                   const std::string& path) {
    const std::string prefix = path.empty() ? path : path + ".";
    const std::uint32_t w = steps_[step].writer, r = steps_[step].reader;
    std::vector<std::uint32_t> written_by(b.names.size(), no_step);
    std::size_t matched = 0;
    for (std::size_t i = 0; i < a.names.size(); ++i) {
      bool by_writer_rename = false;
      const std::uint32_t j = reader_member_for(b, a, i, by_writer_rename);
      if (j == b.names.size()) {  // a member only the data has: skipped
        static_assert(member_rules::of_other_schema().skips_unknown());
        steps_[step].reader_member.push_back(no_step);
        steps_[step].children.push_back(no_step);
        continue;
      }
      if (written_by[j] != no_step)
        refuse(w, r, prefix + b.names[j],
               "two members of the data (\"" + a.names[written_by[j]] + "\" and \"" + a.names[i] +
                   "\") read into this one member");
      written_by[j] = static_cast<std::uint32_t>(i);
      ++matched;
      renames_by_writer_ = renames_by_writer_ || by_writer_rename;
      steps_[step].reader_member.push_back(j);
      child(step, a.children[i], b.children[j], prefix + a.names[i]);
    }
    if (matched == 0 && !(a.names.empty() && b.names.empty()))
      refuse(w, r, path, "another record: no member of the data is a member of the type");
    // The members the writer lacked, by the rules every format reads by (core/member_rules.hpp);
    // those not refused are reset to the type's defaults when read.
    constexpr member_rules rules = member_rules::of_other_schema();
    for (std::size_t j = 0; j < b.names.size(); ++j)
      if (written_by[j] == no_step && is_refused(rules.when_missing(b.required[j], false)))
        refuse(w, r, prefix + b.names[j], "a required member the data lacks");
  }

  schema_tree writer_, reader_;
  std::vector<resolution_step> steps_;
  std::map<std::uint64_t, std::uint32_t> planned_;
  std::map<std::uint64_t, bool> same_;
  std::vector<std::uint64_t> same_log_;
  std::vector<std::size_t> depth_of_;  // per step, how deep its pair lies
  std::vector<std::string> unversioned_;
  bool moves_alternatives_ = false;
  bool renames_by_writer_ = false;
};

}  // namespace bale::detail
