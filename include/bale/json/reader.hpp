// SPDX-License-Identifier: BSL-1.0
#pragma once
// The JSON input archive: strict RFC 8259 (no comments, no trailing commas, no leading zeros, no
// NaN unless asked), valid UTF-8 with no lone surrogates, members in any order, duplicates an
// error, unknown and missing members errors unless json_options says otherwise. Errors carry the
// byte offset and, in their text, the line and column. Nesting is limited by bale::limits, and
// what containers allocate is charged to its allocation budget.

#include <algorithm>
#include <bitset>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "bale/base64/codec.hpp"
#include "bale/core/archive_base.hpp"
#include "bale/core/arithmetic.hpp"
#include "bale/core/error.hpp"
#include "bale/core/member_rules.hpp"
#include "bale/core/named_pointers.hpp"
#include "bale/core/named_values.hpp"
#include "bale/core/read_context.hpp"
#include "bale/core/serializer.hpp"
#include "bale/core/shaped_sequence.hpp"
#include "bale/fwd.hpp"
#include "bale/json/detail/fast_paths.hpp"
#include "bale/json/detail/frame_stack.hpp"
#include "bale/json/detail/text.hpp"
#include "bale/json/options.hpp"
#include "bale/json/writer.hpp"
#include "bale/reflect/enum_names.hpp"

namespace bale::detail {

template <class Anchor = bale_global_namespace>
class json_reader : public archive_base<json_reader<Anchor>>,
                    public named_pointer_reader<json_reader<Anchor>>,
                    public json_fast_paths {
 public:
  static constexpr bool is_loading = true;
  static constexpr bool is_saving = false;
  static constexpr bool self_describing = true;
  static constexpr bool human_readable = true;
  template <class T>
  static constexpr bool bulk = false;

  json_reader(std::span<const std::byte> input, read_context& context,
              const json_options& options = {}) noexcept
      : json_fast_paths(input, context, options) {}

  template <class T>
  void process(T& value) {
    static_assert(!std::is_const_v<T>, "bale: cannot read into a const object");
    require_serializable<T>();
    // at_value_ says the value's place is already taken care of (its comma read, or its member
    // name): a serializer that forwards to ar(inner) must not have inner take a second comma.
    // Opening a bracket or reading a token clears it.
    if constexpr (!is_named_value<T>) {  // bale::field(...): read_field places the value
      if (!at_value_ && !frames_.empty()) {
        frame& top = frames_.back();
        if (top.kind == frame::named) fail("expected a named member, not a positional value");
        if (top.kind == frame::positional) {
          skip_space();
          if (top.count++ != 0) expect(',', "',' or the end of the array");
        }
      }
      at_value_ = true;
    }
    skip_space();
    serializer<T>::load(*this, value);
    at_value_ = false;
    if (frames_.empty()) skip_space();  // the top-level value: trailing whitespace is allowed
  }

  // ---- the vocabulary ----

  template <class T>
  void read_scalar(T& value) {
    at_value_ = false;
    if constexpr (std::is_enum_v<T>) {
      std::underlying_type_t<T> raw;
      read_integer(raw);
      value = static_cast<T>(raw);
    } else {
      read_number(value);
    }
  }
  template <class E>
  void read_enum(E& value) {
    read_named_enum(*this, value);
  }
  void read_none() { read_named_none(*this); }

  /// Elements until ']': on_count is a hint JSON cannot give, so it is not called.
  template <class Element, class OnCount, class OnElement>
  void read_sequence(OnCount&&, OnElement&& on_element) {
    open('[', "'['");
    frames_.push_back({frame::managed});
    std::size_t i = 0;
    within_index(i, [&] {
      if (!close_if(']')) {
        do {
          charge(1, sizeof(Element));
          skip_space();
          if constexpr (std::is_invocable_v<OnElement&, json_reader&, std::size_t>)
            on_element(*this, i);
          else
            on_element(*this);
          ++i;
          skip_space();
        } while (next_element(']'));
      }
    });
    frames_.pop_back();
    leave();
  }

  /// Into contiguous memory, sized as elements arrive: first with room for as many as the last
  /// array read into the same type on this thread, then twice the room at a time; the last
  /// target.resize(count) sets the final size. Arrays in one message often have one length (records
  /// of a batch, rows of a table), and one of elements that are costly to move (not a memcpy) is
  /// then read in place with no growth: doubling from eight moved each element about twice and
  /// built as many spare ones. The guess never asks for more elements than the input left could
  /// hold (a byte and a comma each) or the budget left could pay for; the container gives back room
  /// of more than twice what it holds (load_back). The budget is charged by the elements read, so a
  /// read succeeds or fails whatever the guess.
  template <class T, class Target>
  void read_sequence_into(Target&& target) {
    if constexpr (json_byte<T>) {
      if (std::is_same_v<T, std::byte> || options_.uint8_as_base64) {
        read_base64(target);
        return;
      }
    }
    thread_local std::size_t last_count = 0;
    open('[', "'['");
    frames_.push_back({frame::managed});
    // What is charged to the budget depends on the text alone: 8 elements, then twice as many
    // each time the elements read reach it, whatever the room.
    std::size_t count = 0, capacity = 0, charged = 0;
    T* data = nullptr;
    within_index(count, [&] {
      if (!close_if(']')) {
        for (;;) {
          if (count == charged) {
            const std::size_t more = charged == 0 ? 8 : charged;
            charge(more, sizeof(T));
            charged += more;
          }
          if (count == capacity) {
            capacity = capacity != 0 ? capacity * 2 : first_room<T>(last_count);
            data = target.resize(capacity);
          }
          // open() and next_element() leave pos_ on the element.
          if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
            const std::size_t room = std::min(capacity, charged) - count;
            if (const std::size_t read = read_minified_integers(data + count, room); read != 0) {
              count += read;
              skip_space();
              if (!next_element(']')) break;
              continue;
            }
          }
          if constexpr (std::is_arithmetic_v<T>) {
            read_scalar(data[count]);  // a number needs none of process()'s bookkeeping
            ++count;
            // Minified text: a comma right before a digit or '-' starts the next number, with no
            // space to skip and no trailing comma to report.
            if (end_ - pos_ >= 2 && pos_[0] == ',' &&
                (static_cast<unsigned>(pos_[1] - '0') < 10 || pos_[1] == '-')) {
              ++pos_;
              continue;
            }
          } else {
            process_managed(data[count]);
            ++count;
          }
          skip_space();
          if (!next_element(']')) break;
        }
      }
    });
    target.resize(count);
    last_count = count;
    frames_.pop_back();
    leave();
  }

  /// An array's elements: nested lists of numbers, each list as long as its extent says, or one
  /// flat list (as other elements, and arrays before nesting, are written).
  template <class T, class Target>
  void read_shaped_sequence_into(Target&& target, sequence_shape shape) {
    if constexpr (json_number<T>) {
      if (shape.size() >= 2 && nested_list_ahead() && !(json_byte<T> && options_.uint8_as_base64)) {
        read_nested_lists<T>(target, shape);
        return;
      }
    }
    read_sequence_into<T>(target);
  }

  template <class Entry, class OnCount, class OnEntry>
  void read_map(OnCount&&, OnEntry&& on_entry) {
    using K = typename Entry::first_type;
    constexpr bool as_object = json_key<K>;
    open(as_object ? '{' : '[', as_object ? "'{'" : "'['");
    frames_.push_back({as_object ? frame::map_object : frame::managed});
    std::size_t i = 0;
    within_index(i, [&] {
      if (!close_if(as_object ? '}' : ']')) {
        do {
          charge(1, sizeof(Entry));
          skip_space();
          on_entry(*this);
          ++i;
          skip_space();
        } while (next_element(as_object ? '}' : ']'));
      }
    });
    frames_.pop_back();
    leave();
  }
  template <class K, class V>
  void read_map_entry(K& key, V& value) {
    if constexpr (json_key<K>) {
      const std::size_t at = offset();
      read_key_into(key, at);
      skip_space();
      expect(':', "':' after the key");
      skip_space();
      process_managed(value);
    } else {
      read_tuple(2, [&] { (*this)(key, value); });
    }
  }
  template <class F>
  void read_tuple(std::size_t, F&& read_elements) {
    open('[', "'['");
    frames_.push_back({frame::positional});
    read_elements();
    skip_space();
    if (pos_ < end_ && *pos_ == ',') fail("more values than the type holds");
    expect(']', frames_.back().count == 0 ? "']' (an empty array)" : "']'");
    frames_.pop_back();
    leave();
  }
  template <class T>
  void read_contiguous(T* data, std::size_t count) {
    if constexpr (wire_arithmetic<T>) {
      // Numbers just after '[' (std::array, C arrays): commas and numbers without process()'s
      // per-value bookkeeping; the frame's count is brought up to date for read_tuple's checks.
      if (!at_value_ && !frames_.empty() && frames_.back().kind == frame::positional &&
          frames_.back().count == 0) {
        for_each_index(count, [&](std::size_t i) {
          if (i != 0) {
            skip_space();
            expect(',', "',' or the end of the array");
            skip_space();
          }
          read_scalar(data[i]);
        });
        frames_.back().count += count;
        return;
      }
    }
    for_each_index(count, [&](std::size_t i) { process(data[i]); });
  }

  /// Members in any order; each at most once; unknown and missing ones as json_options says.
  template <class Names, class... Members>
  void read_object(Members&... members) {
    constexpr std::size_t count = sizeof...(Members);
    if constexpr (json_flat_object<Members...>) {
      at_value_ = false;  // as read_scalar would: the fast path reads tokens from here on
      if (read_flat_object<Names>(members...)) return;
    }
    open('{', "'{'");
    frames_.push_back({frame::managed});
    std::bitset<count == 0 ? 1 : count> seen;
    bool more = !close_if('}');
    std::size_t expected = 0;  // members usually come in declaration order
    if (more) {
      expected = read_members_in_order<Names>(members...);
      for (std::size_t k = 0; k < expected; ++k) seen[k] = true;
      if (expected != 0) {
        skip_space();
        more = next_element('}');
      }
    }
    if (more) {
      do {
        // open() and next_element() leave pos_ on the name.
        const std::size_t at = offset();
        std::string_view key;
        const std::size_t index = member_of_key<Names, count>(expected, key);
        skip_space();
        expect(':', "':' after the member name");
        if (index == count) {  // the value: process() and skip_value() skip space before it
          if (!rules().skips_unknown()) fail_at(errc::invalid_value, rules().unknown_text(key), at);
          skip_value();
        } else {
          if (seen[index])
            fail_at(errc::invalid_value, error_text({"duplicate member \"", key, "\""}), at);
          seen[index] = true;
          expected = index + 1;
          within_field(Names::value[index], [&] {
            std::size_t k = 0;
            ((k++ == index ? process_managed(members) : void()), ...);
          });
        }
        skip_space();
      } while (next_element('}'));
    }
    if (!seen.all()) {
      if (auto refused = rules().template settle_missing_members<Names>(seen, members...))
        fail_at(errc::invalid_value, std::move(*refused), offset() - 1);
    }
    frames_.pop_back();
    leave();
  }

  // The index of the member the name at pos_ names (count if none), the name in `key`. The
  // expected name, quotes included, is compared in place first: a byte-exact match is that string
  // token (a C++ name has nothing to escape), so nearly every key is never scanned.
  template <class Names, std::size_t count>
  std::size_t member_of_key(std::size_t expected, std::string_view& key) {
    if (expected < count) {
      key = Names::value[expected];
      if (static_cast<std::size_t>(end_ - pos_) >= key.size() + 2 && pos_[0] == '"' &&
          same_bytes(pos_ + 1, key.data(), key.size()) && pos_[key.size() + 1] == '"') {
        pos_ += key.size() + 2;
        return expected;
      }
    }
    key = read_key();
    return bale::detail::member_named<Names>(key);
  }

  // The leading members that come in declaration order in minified text, just after '{': each
  // one's punctuation and quoted name is compared with the writer's constant, its value read
  // with no lookup. Returns how many; read_object goes on from there by name.
  template <class Names, class... Members>
  std::size_t read_members_in_order(Members&... members) {
    std::size_t done = 0;
    auto in_order = [&]<std::size_t I>(std::integral_constant<std::size_t, I>, auto& target) {
      // Member 0's '{' is read already.
      constexpr auto& prefix = json_member_prefix<Names, I>;
      constexpr std::size_t skip = I == 0 ? 1 : 0, n = prefix.size() - skip;
      if (static_cast<std::size_t>(end_ - pos_) < n || !same_bytes(pos_, prefix.data() + skip, n))
        return false;
      pos_ += n;
      within_field(Names::value[I], [&] { process_managed(target); });
      ++done;
      return true;
    };
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (void)(in_order(std::integral_constant<std::size_t, I>{}, members) && ...);
    }
    (std::index_sequence_for<Members...>{});
    return done;
  }

  /// A named field of a user type that reads itself (read_composite found an object).
  template <class T>
  void read_field(std::string_view name, T& value) {
    if (frames_.empty() || frames_.back().kind != frame::named) {
      process(value);  // positional type: the name is not on the wire
      return;
    }
    frame& top = frames_.back();
    const std::size_t first = top.first_member;
    std::size_t k = first;
    if (top.sorted) {
      const auto found =
          std::lower_bound(members_.begin() + static_cast<std::ptrdiff_t>(first), members_.end(),
                           name, [](const member& m, std::string_view key) { return m.key < key; });
      k = static_cast<std::size_t>(found - members_.begin());
    }
    for (; k < members_.size(); ++k) {
      if (members_[k].key != name) {
        if (top.sorted) break;
        continue;
      }
      if (members_[k].used)
        fail_at(errc::invalid_value, error_text({"field \"", name, "\" read twice"}),
                members_[k].value_at);
      members_[k].used = true;
      const char* resume = pos_;
      pos_ = begin_ + members_[k].value_at;
      at_value_ = true;
      within_field(name, [&] { process(value); });
      pos_ = resume;
      return;
    }
    if (auto refused = rules().settle_missing(name, false, value))
      fail_at(errc::invalid_value, std::move(*refused), top.object_at);
  }

  // What becomes of members the text and the type do not share (core/member_rules.hpp).
  member_rules rules() const noexcept {
    return member_rules::in(context_, options_.skip_unknown_members,
                            options_.allow_missing_members);
  }

  /// A versioned type's version: its object's "bale_version" member, or its array's first value.
  std::uint32_t read_version() {
    std::uint32_t v = 0;
    read_field(version_key, v);
    return v;
  }
  /// A user type that reads itself: an object if it names its fields, else an array.
  template <class F>
  void read_composite(F&& read_members) {
    skip_space();
    if (pos_ < end_ && *pos_ == '{') {
      read_named_composite(read_members);
    } else {
      read_tuple(0, read_members);
    }
  }
  template <class F>
  void read_optional(F&& on_present) {
    skip_space();
    if (literal("null"))
      at_value_ = false;
    else
      on_present();
  }
  template <class F>
  void read_variant(std::size_t count, F&& on_index) {
    open('[', "'[' (a variant is [index, value])");
    frames_.push_back({frame::positional});
    skip_space();
    const std::size_t at = offset();
    std::size_t index = 0;
    read_integer(index);
    if (index >= count)
      fail_at(errc::invalid_value,
              error_text({"variant index ", index, " but only ", count, " alternatives"}), at);
    frames_.back().count = 1;
    on_index(index);
    skip_space();
    expect(']', "']' after the variant's value");
    frames_.pop_back();
    leave();
  }
  template <class Ch, class Traits, class Alloc>
  void read_text(std::basic_string<Ch, Traits, Alloc>& text) {
    at_value_ = false;
    if constexpr (sizeof(Ch) == 1) {
      text.clear();
      read_string_into([&](const char* data, std::size_t n) {
        charge(n, 1);
        text.append(reinterpret_cast<const Ch*>(data), n);  // no zero-fill, unlike resize
      });
    } else {
      text.clear();
      read_sequence<Ch>([](std::size_t) {},
                        [&](auto& ar) {
                          Ch unit{};
                          ar(unit);
                          text.push_back(unit);
                        });
    }
  }
  /// string_view into the input: only for strings without escapes.
  template <class T>
  std::span<const T> read_view() {
    static_assert(sizeof(T) == 1, "bale: JSON gives views of strings only");
    at_value_ = false;
    skip_space();
    const std::size_t at = offset();
    expect('"', "a string");
    const char* start = pos_;
    scan_string_raw(at, true);
    return {reinterpret_cast<const T*>(start), static_cast<std::size_t>(pos_ - 1 - start)};
  }

 private:
  struct frame {
    enum kind_type : std::uint8_t { managed, positional, named, map_object } kind;
    std::size_t count = 0;         // positional: values read so far
    std::size_t first_member = 0;  // named: its members in members_
    std::size_t object_at = 0;     // named: where its '{' is
    bool sorted = false;           // named: its members sorted by key (a large object)
  };
  struct member {
    std::string_view key;  // raw, with escapes undone into keys_ when there were any
    std::size_t value_at;
    bool used;
    std::size_t key_at = 0;
  };
  /// Objects with more members than this are sorted by name once, so that finding each member
  /// and checking for repeats takes n log n, not n^2; below it a scan is cheaper.
  static constexpr std::size_t scanned_members = 16;

  template <class T>
  void process_managed(T& value) {
    at_value_ = true;
    process(value);
  }
  void open(char bracket, const char* what) {
    at_value_ = false;
    enter(bracket, what);
  }

  // Whether the value here is a list whose first element is a list.
  bool nested_list_ahead() const noexcept {
    const char* p = pos_;
    if (p == end_ || *p != '[') return false;
    ++p;
    while (p < end_ && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')) ++p;
    return p < end_ && *p == '[';
  }
  // Every element is paid for before the array is sized: a number and a separator each take a
  // byte of the text left, and the budget is charged for all of them.
  template <class T, class Target>
  void read_nested_lists(Target& target, sequence_shape shape) {
    const std::size_t count = element_count_of(shape);
    if (count > remaining() / 2 + 1)
      fail(errc::length_too_large,
           error_text({"an array of ", count, " numbers in ", remaining(), " bytes of text"}));
    charge(count, sizeof(T));
    T* const data = target.resize(count);
    std::size_t filled = 0;
    read_list_level(shape, 0, data, filled);
  }
  // One list of level k and the lists inside it; its length must be shape[k].
  template <class T>
  void read_list_level(sequence_shape shape, std::size_t k, T* data, std::size_t& filled) {
    open('[', "'['");
    frames_.push_back({frame::managed});
    std::size_t i = 0, index = 0;
    within_index(index, [&] {
      if (shape[k] != 0 && pos_ < end_ && *pos_ == ']') fail_list_length(shape, k, 0);
      while (i < shape[k]) {
        index = i;
        if (k + 1 == shape.size()) {
          const std::size_t read = read_numbers(data + filled, shape[k] - i, index);
          filled += read;
          i += read;
        } else {
          read_list_level(shape, k + 1, data, filled);
          ++i;
        }
        skip_space();
        index = i;  // a list too short or too long fails at its end
        if (i != shape[k] && !next_element(']')) fail_list_length(shape, k, i);
      }
      if (!close_if(']')) {
        if (pos_ < end_ && *pos_ == ',') fail_list_length(shape, k, i + 1);
        fail_next(']');
      }
    });
    frames_.pop_back();
    leave();
  }
  // Numbers of an innermost list from pos_ (on one), at most `room`, the index of each counted
  // in `index` for errors: short integers of minified text a run at a time; other numbers one by
  // one while a comma and the next number follow with no space. pos_ is left after the last one.
  template <class T>
  std::size_t read_numbers(T* data, std::size_t room, std::size_t& index) {
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      if (const std::size_t read = read_minified_integers(data, room); read != 0) return read;
    }
    std::size_t read = 0;
    for (;;) {
      read_scalar(data[read++]);
      if (read == room || end_ - pos_ < 2 || pos_[0] != ',' ||
          (static_cast<unsigned>(pos_[1] - '0') >= 10 && pos_[1] != '-'))
        return read;
      ++pos_;
      ++index;
    }
  }
  [[noreturn, gnu::cold, gnu::noinline]] void fail_list_length(sequence_shape shape, std::size_t k,
                                                               std::uint64_t found) const {
    fail(errc::invalid_value,
         error_text({"a list of ", found < shape[k] ? "" : "more than ",
                     found < shape[k] ? found : shape[k], " elements where the array needs ",
                     shape[k], " (its lists nest as ", extents_text(shape), ", outermost first)"}));
  }

  // The first room of read_sequence_into: the guess within the bounds it describes, and at
  // least eight elements.
  template <class T>
  std::size_t first_room(std::size_t guess) const noexcept {
    if (guess <= 8) return 8;
    const std::size_t input_left = remaining() / 2 + 1;
    const std::size_t budget_left =
        (context_.limits().max_allocation - context_.allocated()) / sizeof(T);
    return std::max<std::size_t>(8, std::min({guess, input_left, budget_left}));
  }

  template <class K>
  void read_key_into(K& key, std::size_t at) {
    if constexpr (std::is_convertible_v<const K&, std::string_view>) {
      key.clear();
      read_string_into([&](const char* data, std::size_t n) {
        charge(n, 1);
        key.append(data, n);
      });
    } else if constexpr (named_enum<K>) {
      const std::string_view name = read_key();
      const auto found = enum_value_named<K>(name);
      if (!found) fail_at(errc::invalid_value, unknown_enum_name_message<K>(name), at);
      key = *found;
    } else {
      // An integer or enum key: the quoted number, exactly.
      expect('"', "a member name (a string)");
      const char* quote = pos_;
      while (pos_ < end_ && *pos_ != '"') ++pos_;
      if (pos_ >= end_) fail_at(errc::end_of_input, "key is not closed", at);
      const char* close = pos_;
      const char* saved_end = end_;
      pos_ = quote;
      end_ = close;
      try {
        read_scalar(key);
        if (pos_ != close) fail("key is not a number");
      } catch (...) {
        end_ = saved_end;
        throw;
      }
      end_ = saved_end;
      pos_ = close + 1;
    }
  }

  template <class Target>
  void read_base64(Target& target) {
    at_value_ = false;
    skip_space();
    const std::size_t at = offset();
    expect('"', "a base64 string");
    const char* start = pos_;
    scan_string_raw(at, true);
    const std::string_view text(start, static_cast<std::size_t>(pos_ - 1 - start));
    try {
      const std::size_t size = base64::decoded_size(text);
      charge(size, 1);
      auto* out = target.resize(size);
      base64::decode_to(text, reinterpret_cast<std::byte*>(out));
    } catch (const error& e) {
      fail_at(errc::invalid_value, e.detail(), e.offset_in_whole(at + 1));
    }
  }

  template <class F>
  void read_named_composite(F& read_members) {
    const std::size_t object_at = offset();
    open('{', "'{'");
    frame f{frame::named};
    f.first_member = members_.size();
    f.object_at = object_at;
    skipped_.enter_composite();
    // Index the members (names and where their values start), then let the type ask for them.
    skipped_.start_indexing();
    if (!close_if('}')) {
      do {
        skip_space();
        const std::size_t key_at = offset();
        const std::string_view key = read_key();
        if (members_.size() - f.first_member < scanned_members)
          for (std::size_t k = f.first_member; k < members_.size(); ++k)
            if (members_[k].key == key) fail_duplicate(key, key_at);
        // Escaped names are copied so they outlive key_.
        std::string_view stored = key;
        if (key.data() == key_.data()) stored = escaped_keys_.emplace_back(key);
        skip_space();
        expect(':', "':' after the member name");
        skip_space();
        members_.push_back({stored, offset(), false, key_at});
        skip_value();
        skip_space();
      } while (next_element('}'));
    }
    skipped_.stop_indexing();
    const char* after = pos_;
    if (members_.size() - f.first_member > scanned_members) sort_members(f);
    frames_.push_back(f);
    read_members();
    for (std::size_t k = f.first_member; k < members_.size(); ++k)
      if (!members_[k].used && !rules().skips_unknown())
        fail_at(errc::invalid_value, rules().unknown_text(members_[k].key), members_[k].value_at);
    members_.resize(f.first_member);
    frames_.pop_back();
    skipped_.leave_composite();
    pos_ = after;
    leave();
  }

  // Sorts a large object's members by name and reports the first repeated name in the text.
  void sort_members(frame& f) {
    const auto first = members_.begin() + static_cast<std::ptrdiff_t>(f.first_member);
    std::stable_sort(first, members_.end(),
                     [](const member& a, const member& b) { return a.key < b.key; });
    const member* repeated = nullptr;
    for (auto it = first; it + 1 < members_.end(); ++it)
      if (it->key == (it + 1)->key && (repeated == nullptr || (it + 1)->key_at < repeated->key_at))
        repeated = &*(it + 1);
    if (repeated != nullptr) fail_duplicate(repeated->key, repeated->key_at);
    f.sorted = true;
  }
  [[noreturn]] void fail_duplicate(std::string_view key, std::size_t at) const {
    fail_at(errc::invalid_value, error_text({"duplicate member \"", key, "\""}), at);
  }

  frame_stack<frame> frames_;
  std::vector<member> members_;
  std::deque<std::string> escaped_keys_;  // stable addresses: members_ holds views of them
  bool at_value_ = false;
};

}  // namespace bale::detail
