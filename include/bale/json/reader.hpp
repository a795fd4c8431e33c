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
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "bale/base64/base64.hpp"
#include "bale/core/archive_base.hpp"
#include "bale/core/arithmetic.hpp"
#include "bale/core/error.hpp"
#include "bale/core/read_context.hpp"
#include "bale/core/serializer.hpp"
#include "bale/fwd.hpp"
#include "bale/json/detail/frame_stack.hpp"
#include "bale/json/detail/number_text.hpp"
#include "bale/json/detail/text.hpp"
#include "bale/json/options.hpp"
#include "bale/json/writer.hpp"
#include "bale/reflect/enum_names.hpp"

namespace bale::detail {

template <class T>
inline constexpr bool is_named_v = false;
template <class T>
inline constexpr bool is_named_v<named<T>> = true;
template <class T>
inline constexpr bool is_named_v<const named<T>> = true;

template <class Anchor = bale_global_namespace>
class json_reader : public archive_base<json_reader<Anchor>> {
 public:
  static constexpr bool is_loading = true;
  static constexpr bool is_saving = false;
  static constexpr bool self_describing = true;
  template <class T>
  static constexpr bool bulk = false;

  json_reader(std::span<const std::byte> input, read_context& context,
              const json_options& options = {}) noexcept
      : begin_(reinterpret_cast<const char*>(input.data())),
        pos_(begin_),
        end_(begin_ + input.size()),
        context_(context),
        options_(options) {}

  template <class T>
  void process(T& value) {
    static_assert(!std::is_const_v<T>, "bale: cannot read into a const object");
    require_serializable<T>();
    // placed_ is set once a value's position is dealt with (its comma read, or its member name):
    // a serializer that forwards to ar(inner) must not have inner take a second comma. Opening a
    // bracket or reading a token clears it.
    if constexpr (!is_named_v<T>) {  // bale::field(...): read_field places the value
      if (!placed_ && !frames_.empty()) {
        frame& top = frames_.back();
        if (top.kind == frame::named) fail("expected a named member, not a positional value");
        if (top.kind == frame::positional) {
          skip_space();
          if (top.count++ != 0) expect(',', "',' or the end of the array");
        }
      }
      placed_ = true;
    }
    skip_space();
    serializer<T>::load(*this, value);
    placed_ = false;
    if (frames_.empty()) skip_space();  // the top-level value: trailing whitespace is allowed
  }

  std::size_t offset() const noexcept { return static_cast<std::size_t>(pos_ - begin_); }
  std::size_t remaining() const noexcept { return static_cast<std::size_t>(end_ - pos_); }
  read_context& context() const noexcept { return context_; }

  [[noreturn]] void fail(std::string detail) const {
    fail_at(errc::invalid_value, detail, offset());
  }
  [[noreturn]] void fail(errc code, std::string detail) const {
    fail_at(code, std::move(detail), offset());
  }
  /// Errors name the line and column (1-based) as well as the byte offset.
  [[noreturn]] void fail_at(errc code, std::string detail, std::size_t at) const {
    std::size_t line = 1, column = 1;
    for (const char* p = begin_; p < begin_ + at && p < end_; ++p) {
      if (*p == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    throw error(code,
                "line " + std::to_string(line) + ", column " + std::to_string(column) + ": " +
                    std::move(detail),
                at);
  }

  // ---- the vocabulary ----

  template <class T>
  void read_scalar(T& value) {
    placed_ = false;
    if constexpr (std::is_same_v<T, bool>) {
      if (end_ - pos_ >= 5) {  // one word compared, not a call per literal
        if (same_bytes(pos_, "true", 4)) {
          value = true;
          pos_ += 4;
          return;
        }
        if (same_bytes(pos_, "false", 5)) {
          value = false;
          pos_ += 5;
          return;
        }
      }
      if (literal("true"))
        value = true;
      else if (literal("false"))
        value = false;
      else
        fail("expected true or false");
    } else if constexpr (std::is_floating_point_v<T>) {
      read_float(value);
    } else if constexpr (std::is_enum_v<T>) {
      std::underlying_type_t<T> raw;
      read_integer(raw);
      value = static_cast<T>(raw);
    } else {
      read_integer(value);
    }
  }

  /// Elements until ']': on_count is a hint JSON cannot give, so it is not called.
  template <class Element, class OnCount, class OnElement>
  void read_sequence(OnCount&&, OnElement&& on_element) {
    open('[', "'['");
    frames_.push_back({frame::managed});
    std::size_t i = 0;
    try {
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
    } catch (error& e) {
      e.prepend_index(i);
      throw;
    }
    frames_.pop_back();
    leave();
  }

  /// Into contiguous memory, sized as elements arrive: first with room for as many as the last
  /// array read into the same type on this thread, then twice the room at a time; the last
  /// target.resize(count) sets the final size. Arrays in one message often have one length (records of a batch, rows
  /// of a table), and one of elements that are costly to move (not a memcpy) is then read in place
  /// with no growth: doubling from eight moved each element about twice and built as many spare
  /// ones (the nested document's read in the benchmark: 11.9 ms, 10.1 with the guess). The guess
  /// never asks for more elements than the input left could hold (a byte and a comma each) or the
  /// budget left could pay for; the container gives back room of more than twice what it holds
  /// (load_back). The budget is charged by the elements read, so a read succeeds or fails whatever
  /// the guess.
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
    try {
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
            if (const std::size_t read = read_compact_integers(data + count, room); read != 0) {
              count += read;
              skip_space();
              if (!next_element(']')) break;
              continue;
            }
          }
          if constexpr (std::is_arithmetic_v<T>) {
            read_scalar(data[count]);  // a number needs none of process()'s bookkeeping
            ++count;
            // Compact text: a comma right before a digit or '-' starts the next number, with no
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
    } catch (error& e) {
      e.prepend_index(count);
      throw;
    }
    target.resize(count);
    last_count = count;
    frames_.pop_back();
    leave();
  }

  template <class Entry, class OnCount, class OnEntry>
  void read_map(OnCount&&, OnEntry&& on_entry) {
    using K = typename Entry::first_type;
    constexpr bool as_object = json_key<K>;
    open(as_object ? '{' : '[', as_object ? "'{'" : "'['");
    frames_.push_back({as_object ? frame::map_object : frame::managed});
    std::size_t i = 0;
    try {
      if (!close_if(as_object ? '}' : ']')) {
        do {
          charge(1, sizeof(Entry));
          skip_space();
          on_entry(*this);
          ++i;
          skip_space();
        } while (next_element(as_object ? '}' : ']'));
      }
    } catch (error& e) {
      e.prepend_index(i);
      throw;
    }
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
      if (!placed_ && !frames_.empty() && frames_.back().kind == frame::positional &&
          frames_.back().count == 0) {
        std::size_t i = 0;
        try {
          for (; i < count; ++i) {
            if (i != 0) {
              skip_space();
              expect(',', "',' or the end of the array");
              skip_space();
            }
            read_scalar(data[i]);
          }
        } catch (error& e) {
          e.prepend_index(i);
          throw;
        }
        frames_.back().count += count;
        return;
      }
    }
    std::size_t i = 0;
    try {
      for (; i < count; ++i) process(data[i]);
    } catch (error& e) {
      e.prepend_index(i);
      throw;
    }
  }

  /// Members in any order; each at most once; unknown and missing ones as json_options says.
  template <class Names, class... Members>
  void read_object(Members&... members) {
    constexpr std::size_t count = sizeof...(Members);
    if constexpr (json_flat_object<Members...>) {
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
        std::size_t index = count;
        std::string_view key;
        // The expected name, quotes included, compared in place: a byte-exact match is that
        // string token (a C++ name has nothing to escape), so nearly every key is never scanned.
        if (expected < count) {
          key = Names::value[expected];
          if (static_cast<std::size_t>(end_ - pos_) >= key.size() + 2 && pos_[0] == '"' &&
              same_bytes(pos_ + 1, key.data(), key.size()) && pos_[key.size() + 1] == '"') {
            index = expected;
            pos_ += key.size() + 2;
          }
        }
        if (index == count) {
          key = read_key();
          for (std::size_t k = 0; k < count; ++k)
            if (same_name(Names::value[k], key)) index = k;
        }
        skip_space();
        expect(':', "':' after the member name");
        if (index == count) {  // the value: process() and skip_value() skip space before it
          if (!options_.skip_unknown_members)
            fail_at(errc::invalid_value, "unknown member \"" + std::string(key) + "\"", at);
          skip_value();
        } else {
          if (seen[index])
            fail_at(errc::invalid_value, "duplicate member \"" + std::string(key) + "\"", at);
          seen[index] = true;
          expected = index + 1;
          try {
            std::size_t k = 0;
            ((k++ == index ? process_managed(members) : void()), ...);
          } catch (error& e) {
            e.prepend_field(Names::value[index]);
            throw;
          }
        }
        skip_space();
      } while (next_element('}'));
    }
    if (!options_.allow_missing_members && !seen.all()) {
      for (std::size_t k = 0; k < count; ++k)
        if (!seen[k])
          fail_at(errc::invalid_value, "missing member \"" + std::string(Names::value[k]) + "\"",
                  offset() - 1);
    }
    frames_.pop_back();
    leave();
  }

  // An object of numbers and arrays of numbers (json_flat_object) as compact text writes it:
  // every member in declaration order, no space, each byte of punctuation compared in place and
  // each number read straight into its member. Any other text (spaces, another order, a missing
  // or unknown member, an error) leaves pos_ where it was and returns false for read_object's
  // general path, which reads the members again from the start and reports any error; the values
  // already stored are those of the same text, so no member ends up different.
  template <class Names, class... Members>
  bool read_flat_object(Members&... members) {
    constexpr std::size_t nesting = (std::is_arithmetic_v<Members> && ...) ? 1 : 2;
    if (context_.depth() + nesting > context_.limits().max_depth) return false;
    placed_ = false;  // as read_scalar would: tokens are read from here on
    const char* const start = pos_;
    auto punctuation = [&](char c) {
      if (pos_ == end_ || *pos_ != c) return false;
      ++pos_;
      return true;
    };
    auto member = [&]<std::size_t I, class M>(std::integral_constant<std::size_t, I>, M& value) {
      constexpr auto& prefix = json_member_prefix<Names, I>;
      if (static_cast<std::size_t>(end_ - pos_) < prefix.size() ||
          !same_bytes(pos_, prefix.data(), prefix.size()))
        return false;
      pos_ += prefix.size();
      // A number's usual text is read inline here, once per member, not in a call per number.
      auto number = [&]<class N>(N& x) {
        if constexpr (std::is_floating_point_v<N>) {
          if (read_plain_float(x)) return;
        } else if constexpr (std::is_integral_v<N> && !std::is_same_v<N, bool>) {
          if (read_plain_integer(x)) return;
        }
        read_scalar(x);
      };
      if constexpr (std::is_arithmetic_v<M>) {
        number(value);
      } else {
        if (!punctuation('[')) return false;
        auto* data = std::data(value);
        for (std::size_t i = 0; i < std::size(value); ++i) {
          if (i != 0 && !punctuation(',')) return false;
          number(data[i]);
        }
        if (!punctuation(']')) return false;
      }
      return true;
    };
    try {
      const bool all = [&]<std::size_t... I>(std::index_sequence<I...>) {
        return (member(std::integral_constant<std::size_t, I>{}, members) && ...);
      }
      (std::index_sequence_for<Members...>{});
      if (all && punctuation('}')) return true;
    } catch (const error&) {
      // The general path reads the same text and reports the error with the member's name.
    }
    pos_ = start;
    return false;
  }

  // The leading members that come in declaration order in compact text, just after '{': each
  // one's punctuation and quoted name is compared with the writer's constant, its value read
  // with no lookup. Returns how many; read_object goes on from there by name.
  template <class Names, class... Members>
  std::size_t read_members_in_order(Members&... members) {
    std::size_t done = 0;
    auto in_order = [&]<std::size_t I>(std::integral_constant<std::size_t, I>, auto& member) {
      // Member 0's '{' is read already.
      constexpr auto& prefix = json_member_prefix<Names, I>;
      constexpr std::size_t skip = I == 0 ? 1 : 0, n = prefix.size() - skip;
      if (static_cast<std::size_t>(end_ - pos_) < n || !same_bytes(pos_, prefix.data() + skip, n))
        return false;
      pos_ += n;
      process_managed(member);
      ++done;
      return true;
    };
    try {
      [&]<std::size_t... I>(std::index_sequence<I...>) {
        (void)(in_order(std::integral_constant<std::size_t, I>{}, members) && ...);
      }
      (std::index_sequence_for<Members...>{});
    } catch (error& e) {
      e.prepend_field(Names::value[done]);
      throw;
    }
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
    for (std::size_t k = first; k < members_.size(); ++k) {
      if (members_[k].key != name) continue;
      if (members_[k].used)
        fail_at(errc::invalid_value, "field \"" + std::string(name) + "\" read twice",
                members_[k].value_at);
      members_[k].used = true;
      const char* resume = pos_;
      pos_ = begin_ + members_[k].value_at;
      try {
        placed_ = true;
        process(value);
      } catch (error& e) {
        e.prepend_field(name);
        throw;
      }
      pos_ = resume;
      return;
    }
    if (!options_.allow_missing_members)
      fail_at(errc::invalid_value, "missing member \"" + std::string(name) + "\"", top.object_at);
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
      placed_ = false;
    else
      on_present();
  }
  template <class F>
  void read_variant(std::size_t count, F&& on_index) {
    open('[', "'[' (a variant is [index, value])");
    frames_.push_back({frame::positional});
    skip_space();
    const std::size_t at = offset();
    std::uint64_t index = 0;
    read_integer(index);
    if (index >= count)
      fail_at(errc::invalid_value,
              "variant index " + std::to_string(index) + " but only " + std::to_string(count) +
                  " alternatives",
              at);
    frames_.back().count = 1;
    on_index(static_cast<std::size_t>(index));
    skip_space();
    expect(']', "']' after the variant's value");
    frames_.pop_back();
    leave();
  }
  template <class Ch, class Traits, class Alloc>
  void read_text(std::basic_string<Ch, Traits, Alloc>& text) {
    placed_ = false;
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
    placed_ = false;
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
  };
  struct member {
    std::string_view key;  // raw, with escapes undone into keys_ when there were any
    std::size_t value_at;
    bool used;
  };

  // Member names are short: words compared inline beat a call to memcmp.
  static bool same_name(std::string_view a, std::string_view b) noexcept {
    return a.size() == b.size() && same_bytes(a.data(), b.data(), a.size());
  }
  template <class T>
  void process_managed(T& value) {
    placed_ = true;
    process(value);
  }

  void skip_space() noexcept {
    if (pos_ < end_ && ' ' < static_cast<unsigned char>(*pos_)) [[likely]]
      return;  // compact text: no space between tokens
    skip_space_run();
  }
  [[gnu::noinline]] void skip_space_run() noexcept {
    while (pos_ < end_ && (*pos_ == ' ' || *pos_ == '\n' || *pos_ == '\t' || *pos_ == '\r')) ++pos_;
  }
  void expect(char c, const char* what) {
    if (pos_ >= end_ || *pos_ != c) [[unlikely]]
      fail_expected(what);
    ++pos_;
  }
  // The failure paths are out of line: the readers above stay small enough to inline.
  [[noreturn, gnu::cold, gnu::noinline]] void fail_expected(const char* what) const {
    if (pos_ >= end_) fail(errc::end_of_input, std::string("expected ") + what + ", input ends");
    fail(std::string("expected ") + what + ", found " + describe(*pos_));
  }
  static std::string describe(char c) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x21 && u < 0x7F) return std::string("'") + c + "'";
    return "byte " + std::to_string(u);
  }
  bool literal(std::string_view word) noexcept {
    if (static_cast<std::size_t>(end_ - pos_) >= word.size() &&
        std::string_view(pos_, word.size()) == word) {
      pos_ += word.size();
      return true;
    }
    return false;
  }
  void open(char bracket, const char* what) {
    placed_ = false;
    skip_space();
    expect(bracket, what);
    if (!context_.try_enter()) [[unlikely]]
      fail_depth();
    skip_space();
  }
  [[noreturn, gnu::cold, gnu::noinline]] void fail_depth() {
    context_.leave();
    fail(errc::depth_exceeded,
         "nesting deeper than " + std::to_string(context_.limits().max_depth));
  }
  void leave() noexcept { context_.leave(); }
  bool close_if(char bracket) noexcept {
    if (pos_ < end_ && *pos_ == bracket) {
      ++pos_;
      return true;
    }
    return false;
  }
  // After an element: ',' means another follows (and must: no trailing comma), the bracket ends.
  bool next_element(char bracket) {
    if (pos_ < end_) [[likely]] {
      if (*pos_ == ',') {
        ++pos_;
        skip_space();
        if (pos_ < end_ && (*pos_ == ']' || *pos_ == '}')) [[unlikely]]
          fail("trailing comma");
        return true;
      }
      if (*pos_ == bracket) {
        ++pos_;
        return false;
      }
    }
    fail_next(bracket);
  }
  [[noreturn, gnu::cold, gnu::noinline]] void fail_next(char bracket) const {
    if (pos_ >= end_) fail(errc::end_of_input, std::string("expected ',' or '") + bracket + "'");
    fail(std::string("expected ',' or '") + bracket + "', found " + describe(*pos_));
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
  void charge(std::size_t count, std::size_t size) {
    if (!context_.try_charge(count, size)) [[unlikely]]
      fail_allocation();
  }
  [[noreturn, gnu::cold, gnu::noinline]] void fail_allocation() const {
    fail(errc::allocation_limit, "the allocation limit of " +
                                     std::to_string(context_.limits().max_allocation) +
                                     " bytes is reached");
  }

  // ---- numbers ----

  // Checks the RFC 8259 number grammar from pos_ and gathers the parts that decide its value in
  // the same pass; returns where it ends and whether it is an integer (no fraction, no exponent).
  [[gnu::always_inline]] const char* scan_number(bool& integral, decimal_parts& parts) {
    const char* p = pos_;
    integral = true;
    parts = {};
    auto digit_at = [](const char* q) { return static_cast<unsigned>(*q - '0'); };
    std::uint64_t significand = 0;
    if (p < end_ && *p == '-') {
      parts.negative = true;
      ++p;
    }
    if (p >= end_) fail(errc::end_of_input, "expected a number, input ends");
    const char* const first_digit = p;
    if (*p == '0') {
      ++p;
      if (p < end_ && digit_at(p) < 10)
        fail_at(errc::invalid_value, "leading zero in a number", offset());
    } else if (digit_at(p) < 10) {
      p = append_digits(p, significand);
    } else {
      fail(pos_ < end_ ? "expected a number, found " + describe(*pos_) : "expected a number");
    }
    std::ptrdiff_t digits = p - first_digit;
    if (p < end_ && *p == '.') {
      integral = false;
      ++p;
      if (p >= end_ || digit_at(p) >= 10)
        fail_at(errc::invalid_value, "expected a digit after '.'",
                static_cast<std::size_t>(p - begin_));
      const char* const fraction = p;
      p = append_digits(p, significand);
      parts.exponent = -static_cast<int>(p - fraction);
      digits += p - fraction;
    }
    if (digits > 19) {
      // Leading zeros (0.000...) do not count.
      std::ptrdiff_t significant = 0;
      for (const char* q = first_digit; q < p; ++q)
        significant += (significant != 0 || (*q != '0' && *q != '.')) && *q != '.';
      parts.exact = significant <= 19;
    }
    parts.significand = significand;
    if (p < end_ && (*p == 'e' || *p == 'E')) {
      integral = false;
      ++p;
      bool negative_exponent = false;
      if (p < end_ && (*p == '+' || *p == '-')) negative_exponent = *p++ == '-';
      if (p >= end_ || digit_at(p) >= 10)
        fail_at(errc::invalid_value, "expected a digit in the exponent",
                static_cast<std::size_t>(p - begin_));
      int exponent = 0;
      for (; p < end_ && digit_at(p) < 10; ++p)
        if (exponent < 100000) exponent = exponent * 10 + static_cast<int>(digit_at(p));
      parts.exponent += negative_exponent ? -exponent : exponent;
    }
    return p;
  }

  // The usual number of compact text, -?digits.digits with at most 19 digits and no exponent,
  // while 40 bytes are left: its parts from a few word-wise digit runs, with no loop over the
  // input's end. Anything else returns nullptr and scan_number reads it (and reports errors).
  [[gnu::always_inline]] const char* scan_plain_decimal(decimal_parts& parts) const noexcept {
    const char* p = pos_;
    if (end_ - p < 40) return nullptr;
    parts.negative = *p == '-';
    p += parts.negative;
    // One to seven digits with no leading zero, then the point; one digit is the usual case.
    digit_run whole{1, static_cast<unsigned>(*p - '0')};
    if (whole.value >= 10 || p[1] != '.') {
      whole = leading_digits(p);
      if (whole.count < 2 || whole.count == 8 || *p == '0' || p[whole.count] != '.') return nullptr;
    }
    p += whole.count + 1;
    const char* const fraction = p;
    std::uint64_t significand = whole.value;
    for (int runs = 0;; ++runs) {  // at most 24 fraction digits: within the 40 bytes
      const digit_run run = leading_digits(p);
      significand = significand * powers_of_ten[run.count] + run.value;
      p += run.count;
      // A run of eight ends the fraction when no digit follows (a float's eight digits).
      if (run.count != 8 || static_cast<unsigned>(*p - '0') >= 10) break;
      if (runs == 2) return nullptr;
    }
    const std::ptrdiff_t fraction_digits = p - fraction;
    if (fraction_digits == 0 || whole.count + fraction_digits > 19 || (*p | 0x20) == 'e')
      return nullptr;
    parts.significand = significand;
    parts.exponent = -static_cast<int>(fraction_digits);
    return p;
  }

  // The run of digits at q appended to significand, which wraps past 19 digits (scan_number
  // counts those again); returns the run's end. Inlined: it is most of a number's reading.
  [[gnu::always_inline]] const char* append_digits(const char* q,
                                                   std::uint64_t& significand) const noexcept {
    // Up to eight digits per step while eight bytes are left, then one at a time.
    std::uint64_t value = significand;
    while (end_ - q >= 8) {
      const digit_run run = leading_digits(q);
      value = value * powers_of_ten[run.count] + run.value;
      q += run.count;
      // A shorter run ends here; so does a run of exactly eight before a non-digit.
      if (run.count != 8 || (q < end_ && static_cast<unsigned>(*q - '0') >= 10)) {
        significand = value;
        return q;
      }
    }
    for (; q < end_ && static_cast<unsigned>(*q - '0') < 10; ++q)
      value = value * 10 + static_cast<unsigned>(*q - '0');
    significand = value;
    return q;
  }

  template <class T>
  void read_integer(T& value) {
    if (!read_plain_integer(value)) read_integer_long(value);
  }
  // The usual integer, one to seven digits with room to read a word past it: one word-wise
  // digit run; the byte after it is known not to be a digit. Such a magnitude fits any integer
  // of 32 bits or more, so only narrower ones and unsigned negatives check the range. False for
  // every other form and every error.
  template <class T>
  [[gnu::always_inline]] bool read_plain_integer(T& value) {
    if (end_ - pos_ >= 20) {
      const char* p = pos_;
      const bool negative = *p == '-';
      p += negative;
      const digit_run run = leading_digits(p);
      const char next = p[run.count];
      if (run.count - 1U < 7U && next != '.' && (next | 0x20) != 'e' &&
          (run.count == 1 || *p != '0')) {
        using limits_t = std::numeric_limits<T>;
        const std::uint64_t magnitude = run.value;
        bool fits = true;
        if constexpr (std::is_signed_v<T>) {
          if constexpr (sizeof(T) < 4)
            fits = magnitude <= static_cast<std::uint64_t>(limits_t::max()) + negative;
          if (fits) {
            value = negative ? static_cast<T>(0 - magnitude) : static_cast<T>(magnitude);
            pos_ = p + run.count;
            return true;
          }
        } else {
          if constexpr (sizeof(T) < 4) fits = magnitude <= limits_t::max();
          if (fits && (!negative || magnitude == 0)) {
            value = static_cast<T>(magnitude);
            pos_ = p + run.count;
            return true;
          }
        }
      }
    }
    return false;
  }
  // The integers of an array in compact text, the commonest numbers of all, from pos_ (on one)
  // and at most `room` of them: each an optional '-', one to seven digits (no leading zero), then
  // ',' or ']'. Where the numbers end comes from 32 bytes at a time, so finding the next one does
  // not wait on the digits of this one. Stops before anything else (which the general reader then
  // takes, errors included) and after a number closed by ']'. pos_ is left on the delimiter after
  // the last number read; returns how many were read.
  template <class T>
  std::size_t read_compact_integers(T* out, std::size_t room) {
    std::size_t n = 0;
    const char* p = pos_;
    // 32 bytes of delimiters, and a word read at any number in them.
    while (end_ - p >= 40) {
      std::uint32_t delimiters = json_delimiter_bits(p);
      unsigned start = 0;
      for (; delimiters != 0; delimiters &= delimiters - 1) {
        const auto delimiter = static_cast<unsigned>(std::countr_zero(delimiters));
        const bool negative = p[start] == '-';
        const char* digits_at = p + start + negative;
        const unsigned digits = delimiter - start - negative;
        std::uint64_t word;
        std::memcpy(&word, digits_at, 8);
        if constexpr (std::endian::native == std::endian::big) word = __builtin_bswap64(word);
        if (digits - 1U >= 7U ||
            static_cast<unsigned>(std::countr_zero(non_digit_bytes(word))) < digits * 8 ||
            (digits > 1 && (word & 0xFF) == '0'))
          return n;
        const std::uint64_t magnitude = digits_value_below_8(word, digits);
        using limits_t = std::numeric_limits<T>;
        if constexpr (std::is_signed_v<T>) {
          if constexpr (sizeof(T) < 4)
            if (magnitude > static_cast<std::uint64_t>(limits_t::max()) + negative) return n;
          out[n] = static_cast<T>(negative ? 0 - magnitude : magnitude);
        } else {
          if constexpr (sizeof(T) < 4)
            if (magnitude > limits_t::max()) return n;
          if (negative) return n;
          out[n] = static_cast<T>(magnitude);
        }
        pos_ = p + delimiter;
        if (++n == room || p[delimiter] == ']') return n;
        start = delimiter + 1;
      }
      if (start == 0) break;  // no number ends in these 32 bytes
      p += start;
    }
    return n;
  }
  // Up to 18 digits (they cannot overflow 64 bits) followed by a plain delimiter; anything else
  // goes to read_integer_checked, which reports errors.
  template <class T>
  [[gnu::noinline]] void read_integer_long(T& value) {
    {
      const char* p = pos_;
      const bool negative = p < end_ && *p == '-';
      if (negative) ++p;
      const char* digits = p;
      std::uint64_t magnitude = 0;
      if (end_ - p >= 16) {  // up to sixteen digits in two steps
        digit_run run = leading_digits(p);
        magnitude = run.value;
        p += run.count;
        if (run.count == 8) {
          run = leading_digits(p);
          magnitude = magnitude * powers_of_ten[run.count] + run.value;
          p += run.count;
        }
      } else {
        while (p < end_ && p - digits < 19 && static_cast<unsigned>(*p - '0') < 10)
          magnitude = magnitude * 10 + static_cast<unsigned>(*p++ - '0');
      }
      const std::ptrdiff_t n = p - digits;
      const bool delimited = p == end_ || (*p != '.' && *p != 'e' && *p != 'E' &&
                                           static_cast<unsigned>(*p - '0') >= 10);
      if (n > 0 && n < 19 && delimited && (n == 1 || *digits != '0')) {
        using limits_t = std::numeric_limits<T>;
        if constexpr (std::is_signed_v<T>) {
          if (negative ? magnitude <= static_cast<std::uint64_t>(limits_t::max()) + 1
                       : magnitude <= static_cast<std::uint64_t>(limits_t::max())) {
            value = negative ? static_cast<T>(0 - magnitude) : static_cast<T>(magnitude);
            pos_ = p;
            return;
          }
        } else if ((!negative || magnitude == 0) && magnitude <= limits_t::max()) {
          value = static_cast<T>(magnitude);
          pos_ = p;
          return;
        }
      }
    }
    read_integer_checked(value);
  }
  template <class T>
  [[gnu::noinline]] void read_integer_checked(T& value) {
    const std::size_t at = offset();
    bool integral = true;
    decimal_parts parts;
    const char* end = scan_number(integral, parts);
    if (!integral) fail_at(errc::invalid_value, "expected an integer", at);
    const char* p = pos_;
    const bool negative = *p == '-';
    if (negative) ++p;
    std::uint64_t magnitude = 0;
    for (; p < end; ++p) {
      const auto digit = static_cast<unsigned>(*p - '0');
      if (magnitude > (std::numeric_limits<std::uint64_t>::max() - digit) / 10)
        fail_at(errc::invalid_value, "integer does not fit 64 bits", at);
      magnitude = magnitude * 10 + digit;
    }
    using limits_t = std::numeric_limits<T>;
    bool fits;
    if constexpr (std::is_signed_v<T>) {
      fits = negative ? magnitude <= static_cast<std::uint64_t>(limits_t::max()) + 1
                      : magnitude <= static_cast<std::uint64_t>(limits_t::max());
    } else {
      fits = (!negative || magnitude == 0) && magnitude <= limits_t::max();
    }
    if (!fits)
      fail_at(errc::invalid_value,
              std::string(pos_, end) + " does not fit a " + std::to_string(sizeof(T) * 8) +
                  "-bit " + (std::is_signed_v<T> ? "signed" : "unsigned") + " integer",
              at);
    if constexpr (std::is_signed_v<T>)
      value = negative ? static_cast<T>(0 - magnitude) : static_cast<T>(magnitude);
    else
      value = static_cast<T>(magnitude);
    pos_ = end;
  }

  // The usual number in a few instructions; false for every other form and every error.
  template <class T>
  [[gnu::always_inline]] bool read_plain_float(T& value) {
    decimal_parts parts;
    if (const char* end = scan_plain_decimal(parts); end != nullptr) {
      // A plain decimal is exact and has 1 to 18 fraction digits: only the significand's size
      // decides whether one division is exact enough.
      bool done = parts.significand <= (std::uint64_t{1} << 53) &&
                  exact_quotient_to_float(parts.significand, parts.exponent, parts.negative, value);
      if constexpr (std::is_same_v<T, double>) {
        if (!done) done = decimal_to_double_product(parts, value);
      }
      if (done) {
        pos_ = end;
        return true;
      }
    }
    return false;
  }

  template <class T>
  void read_float(T& value) {
    if (!read_plain_float(value)) read_float_general(value);
  }
  template <class T>
  [[gnu::noinline]] void read_float_general(T& value) {
    const std::size_t at = offset();
    if (options_.allow_non_finite) {
      if (literal("NaN")) {
        value = std::numeric_limits<T>::quiet_NaN();
        return;
      }
      if (literal("Infinity")) {
        value = std::numeric_limits<T>::infinity();
        return;
      }
      if (literal("-Infinity")) {
        value = -std::numeric_limits<T>::infinity();
        return;
      }
    }
    bool integral = true;
    decimal_parts parts;
    const char* end = scan_number(integral, parts);
    bool done = decimal_to_float_exact(parts, value);
    if constexpr (std::is_same_v<T, double>) {
      if (!done) done = decimal_to_double_product(parts, value);
    }
    if (!done) {
      const auto result = std::from_chars(pos_, end, value);
      if (result.ec == std::errc::result_out_of_range)
        fail_at(errc::invalid_value, std::string(pos_, end) + " is out of range", at);
      if (result.ec != std::errc{} || result.ptr != end)
        fail_at(errc::invalid_value, "not a number", at);
    }
    pos_ = end;
  }

  // ---- strings ----

  // Walks a string's body from just after its opening quote to just after its closing quote,
  // checking escapes and UTF-8; calls on_piece(data, n) with the unescaped text in pieces (raw
  // runs point into the input). With views_only, an escape is an error.
  template <class OnPiece>
  void read_string_into(OnPiece&& on_piece) {
    skip_space();
    const std::size_t at = offset();
    expect('"', "a string");
    walk_string(at, on_piece, false);
  }
  void scan_string_raw(std::size_t at, bool views_only) {
    walk_string(
        at, [](const char*, std::size_t) {}, views_only);
  }
  template <class OnPiece>
  void walk_string(std::size_t at, OnPiece&& on_piece, bool views_only) {
    // Raw text not yet passed on: plain bytes and checked UTF-8 sequences go out as one piece at
    // the next escape or the closing quote, so a string without escapes is a single piece.
    const char* run = pos_;
    for (;;) {
      pos_ += json_plain_run(pos_, end_);
      if (pos_ >= end_) fail_at(errc::end_of_input, "string is not closed", at);
      const auto c = static_cast<unsigned char>(*pos_);
      if (c == '"') {
        if (pos_ != run) on_piece(run, static_cast<std::size_t>(pos_ - run));
        ++pos_;
        return;
      }
      if (c >= 0x80) {
        const std::size_t length = utf8_sequence(pos_, end_);
        if (length == 0) fail("invalid UTF-8 in a string");
        pos_ += length;
        continue;
      }
      if (c < 0x20) fail("control character in a string (escape it)");
      // A backslash.
      if (views_only) fail("a string with escapes cannot be viewed in place");
      if (pos_ != run) on_piece(run, static_cast<std::size_t>(pos_ - run));
      char decoded[4];
      on_piece(decoded, unescape(decoded));
      run = pos_;
    }
  }
  // At a backslash: consumes the escape, writes its UTF-8, returns the length.
  std::size_t unescape(char* out) {
    const std::size_t at = offset();
    ++pos_;
    if (pos_ >= end_) fail_at(errc::end_of_input, "escape is cut off", at);
    const char c = *pos_++;
    switch (c) {
      case '"':
        out[0] = '"';
        return 1;
      case '\\':
        out[0] = '\\';
        return 1;
      case '/':
        out[0] = '/';
        return 1;
      case 'b':
        out[0] = '\b';
        return 1;
      case 'f':
        out[0] = '\f';
        return 1;
      case 'n':
        out[0] = '\n';
        return 1;
      case 'r':
        out[0] = '\r';
        return 1;
      case 't':
        out[0] = '\t';
        return 1;
      case 'u': {
        std::uint32_t cp = hex4(at);
        if (cp >= 0xDC00 && cp <= 0xDFFF) fail_at(errc::invalid_value, "lone low surrogate", at);
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          if (end_ - pos_ < 2 || pos_[0] != '\\' || pos_[1] != 'u')
            fail_at(errc::invalid_value, "high surrogate without a low surrogate", at);
          pos_ += 2;
          const std::uint32_t low = hex4(at);
          if (low < 0xDC00 || low > 0xDFFF)
            fail_at(errc::invalid_value, "high surrogate without a low surrogate", at);
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        }
        return utf8_encode(cp, out);
      }
      default:
        fail_at(errc::invalid_value, "unknown escape \\" + describe(c), at);
    }
  }
  std::uint32_t hex4(std::size_t at) {
    if (end_ - pos_ < 4) fail_at(errc::end_of_input, "\\u escape is cut off", at);
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = *pos_++;
      v <<= 4;
      if (h >= '0' && h <= '9')
        v |= static_cast<std::uint32_t>(h - '0');
      else if (h >= 'a' && h <= 'f')
        v |= static_cast<std::uint32_t>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F')
        v |= static_cast<std::uint32_t>(h - 'A' + 10);
      else
        fail_at(errc::invalid_value, "bad hex digit in a \\u escape", at);
    }
    return v;
  }

  // A member name: a view into the input when it has no escapes, else unescaped into key_.
  std::string_view read_key() {
    const std::size_t at = offset();
    expect('"', "a member name (a string)");
    const char* start = pos_;
    bool escaped = false;
    const char* raw_end = start;  // end of the raw pieces before the first escape
    // Names without escapes (nearly all) are views; key_ is filled only once an escape appears.
    walk_string(
        at,
        [&](const char* data, std::size_t n) {
          const bool decoded = data < begin_ || data >= end_;
          if (!escaped && !decoded) {
            raw_end = data + n;
            return;
          }
          if (!escaped) {
            key_.assign(start, static_cast<std::size_t>(raw_end - start));
            escaped = true;
          }
          key_.append(data, n);
        },
        false);
    if (!escaped) return {start, static_cast<std::size_t>(pos_ - 1 - start)};
    return key_;
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
    placed_ = false;
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
      fail_at(errc::invalid_value, e.detail(), at + 1 + e.offset());
    }
  }

  template <class F>
  void read_named_composite(F& read_members) {
    const std::size_t object_at = offset();
    open('{', "'{'");
    frame f{frame::named};
    f.first_member = members_.size();
    f.object_at = object_at;
    // Index the members (names and where their values start), then let the type ask for them.
    if (!close_if('}')) {
      do {
        skip_space();
        const std::size_t key_at = offset();
        const std::string_view key = read_key();
        for (std::size_t k = f.first_member; k < members_.size(); ++k)
          if (members_[k].key == key)
            fail_at(errc::invalid_value, "duplicate member \"" + std::string(key) + "\"", key_at);
        // Escaped names are copied so they outlive key_.
        std::string_view stored = key;
        if (key.data() == key_.data()) stored = escaped_keys_.emplace_back(key);
        skip_space();
        expect(':', "':' after the member name");
        skip_space();
        members_.push_back({stored, offset(), false});
        skip_value();
        skip_space();
      } while (next_element('}'));
    }
    const char* after = pos_;
    frames_.push_back(f);
    read_members();
    for (std::size_t k = f.first_member; k < members_.size(); ++k)
      if (!members_[k].used && !options_.skip_unknown_members)
        fail_at(errc::invalid_value, "unknown member \"" + std::string(members_[k].key) + "\"",
                members_[k].value_at);
    members_.resize(f.first_member);
    frames_.pop_back();
    pos_ = after;
    leave();
  }

  // Skips one value, checking it as strictly as reading it would.
  void skip_value() {
    skip_space();
    if (pos_ >= end_) fail(errc::end_of_input, "expected a value, input ends");
    switch (*pos_) {
      case '"': {
        const std::size_t at = offset();
        ++pos_;
        walk_string(
            at, [](const char*, std::size_t) {}, false);
        return;
      }
      case '[':
      case '{': {
        const char close = *pos_ == '[' ? ']' : '}';
        open(*pos_, "a value");
        if (!close_if(close)) {
          do {
            skip_space();
            if (close == '}') {
              read_key();
              skip_space();
              expect(':', "':' after the member name");
            }
            skip_value();
            skip_space();
          } while (next_element(close));
        }
        leave();
        return;
      }
      case 't':
        if (literal("true")) return;
        break;
      case 'f':
        if (literal("false")) return;
        break;
      case 'n':
        if (literal("null")) return;
        break;
      default: {
        if (options_.allow_non_finite &&
            (literal("NaN") || literal("Infinity") || literal("-Infinity")))
          return;
        bool integral;
        decimal_parts parts;
        pos_ = scan_number(integral, parts);
        return;
      }
    }
    fail("expected a value, found " + describe(*pos_));
  }

  const char* begin_;
  const char* pos_;
  const char* end_;
  read_context& context_;
  json_options options_;
  frame_stack<frame> frames_;
  std::vector<member> members_;
  std::deque<std::string> escaped_keys_;  // stable addresses: members_ holds views of them
  std::string key_;
  bool placed_ = false;
};

}  // namespace bale::detail
