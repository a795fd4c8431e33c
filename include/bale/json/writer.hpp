// SPDX-License-Identifier: BSL-1.0
#pragma once
// The JSON output archive: the same vocabulary as the byte formats, rendered as RFC 8259 text.
// Reflected types and named fields are objects; positional values (ar(a, b), tuples, arrays) are
// arrays; maps with string, integer or enum keys are objects, other maps arrays of [key, value];
// optionals are the value or null; a variant is [index, value]; std::byte containers are base64.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "bale/base64/codec.hpp"
#include "bale/core/archive_base.hpp"
#include "bale/core/arithmetic.hpp"
#include "bale/core/error.hpp"
#include "bale/core/named_pointers.hpp"
#include "bale/core/named_values.hpp"
#include "bale/core/serializer.hpp"
#include "bale/core/shaped_sequence.hpp"
#include "bale/core/write_context.hpp"
#include "bale/fwd.hpp"
#include "bale/json/detail/escape.hpp"
#include "bale/json/detail/frame_stack.hpp"
#include "bale/json/detail/number_text.hpp"
#include "bale/json/detail/text.hpp"
#include "bale/json/options.hpp"
#include "bale/reflect/enum_names.hpp"

namespace bale::detail {

/// Keys a JSON object can have: strings, integers and enums (written as quoted numbers, or as
/// their names when listed).
template <class K>
inline constexpr bool json_key =
    std::is_convertible_v<const K&, std::string_view> ||
    (std::is_integral_v<K> && !std::is_same_v<K, bool>) || std::is_enum_v<K>;

/// Containers of these are base64 strings: std::byte always, unsigned char when asked.
template <class T>
inline constexpr bool json_byte = std::is_same_v<T, std::byte> || std::is_same_v<T, unsigned char>;

/// Elements an array writes as nested lists: numbers (and characters), whose text is never a
/// list, so that a reader tells nested lists from one flat list by the first element.
template <class T>
inline constexpr bool json_number = std::is_arithmetic_v<T> && !std::is_same_v<T, bool>;

template <class Sink, class Anchor = bale_global_namespace>
class json_writer : public archive_base<json_writer<Sink, Anchor>>,
                    public named_pointer_writer<json_writer<Sink, Anchor>> {
 public:
  static constexpr bool is_loading = false;
  static constexpr bool is_saving = true;
  static constexpr bool self_describing = true;
  static constexpr bool human_readable = true;
  template <class T>
  static constexpr bool bulk = false;

  json_writer(Sink& sink, write_context& context, const json_options& options = {})
      : sink_(sink), context_(context), options_(options) {
    if (options.indent < 0 || options.indent > max_indent)
      throw error(
          errc::invalid_value,
          error_text({"json_options::indent is ", options.indent, ", outside 0..", max_indent}), 0);
  }
  static constexpr int max_indent = 16;

  template <class T>
  void process(const T& value) {
    using U = std::remove_cv_t<T>;
    require_serializable<U>();
    serializer<U>::save(*this, value);
  }

  // ---- the vocabulary ----

  template <class T>
  void write_scalar(T value) {
    begin_value();
    put_direct<max_scalar_text>([&](char* out) { return format_scalar(out, value); });
    need_comma_ = true;
  }

  template <class E>
  void write_enum(E value) {
    write_named_enum(*this, value);
  }
  void write_none() { write_named_none(*this); }

  template <class F>
  void write_sequence(std::size_t, F&& write_elements) {
    open('[', frame::array);
    write_elements();
    close(']');
  }
  /// A sequence whose length is known once write_elements() has written it (a graph's bodies).
  template <class F>
  void write_deferred_sequence(F&& write_elements) {
    open('[', frame::array);
    (void)write_elements();
    close(']');
  }
  template <class T>
  void write_contiguous_sequence(const T* data, std::size_t count) {
    if constexpr (json_byte<T>) {
      if (std::is_same_v<T, std::byte> || options_.uint8_as_base64) {
        write_base64(data, count);
        return;
      }
    }
    write_sequence(count, [&] { write_contiguous(data, count); });
  }
  /// An array's elements of any rank: numbers as lists of lists, one level per index, each
  /// innermost list on a line of its own in pretty text; other elements (and bytes written as
  /// base64) as one list.
  template <class T>
  void write_shaped_contiguous_sequence(const T* data, std::size_t count, sequence_shape shape) {
    if constexpr (json_number<T>) {
      if (nested_numbers<T>(shape, count)) {
        write_nested_lists<T>(shape, [&](auto&& write_run) { write_run(data, count); });
        return;
      }
    }
    write_contiguous_sequence(data, count);
  }
  template <class T, class F>
  void write_shaped_sequence(std::size_t count, sequence_shape shape, F&& write_elements) {
    if constexpr (json_number<T>) {
      if (nested_numbers<T>(shape, count)) {
        write_nested_lists<T>(shape, write_elements);
        return;
      }
    }
    write_sequence(count, [&] {
      write_elements([&](const T* run, std::size_t n) { write_contiguous(run, n); });
    });
  }
  template <class T>
  void write_contiguous(const T* data, std::size_t count) {
    if constexpr (wire_arithmetic<T>) {
      // Numbers in minified text just after '[': a comma and the number each, with no per-value
      // bookkeeping.
      if constexpr (!Sink::counts_only) {
        if (!options_.pretty && !after_key_ && !frames_.empty() && frames_.back() == frame::array) {
          // Room for a chunk of numbers at a time, each written as a comma and its text.
          constexpr std::size_t max_text = max_scalar_text + 1, chunk = 256;
          for (std::size_t first = 0; first < count; first += chunk) {
            const std::size_t last = count - first < chunk ? count : first + chunk;
            char* const start = reinterpret_cast<char*>(sink_.ensure((last - first) * max_text));
            char* out = start;
            std::size_t i = first;
            if (!need_comma_) out = format_scalar(out, data[i++]);
            for (; i < last; ++i) {
              *out = ',';
              out = format_scalar(out + 1, data[i]);
            }
            sink_.advance(static_cast<std::size_t>(out - start));
            need_comma_ = true;
          }
          return;
        }
      }
    }
    for (std::size_t i = 0; i < count; ++i) process(data[i]);
  }
  template <class Key, class F>
  void write_map(std::size_t, F&& write_entries) {
    if constexpr (json_key<Key>) {
      open('{', frame::object);
      write_entries();
      close('}');
    } else {
      open('[', frame::array);
      write_entries();
      close(']');
    }
  }
  template <class K, class V>
  void write_map_entry(const K& key, const V& value) {
    if constexpr (json_key<K>) {
      if constexpr (std::is_convertible_v<const K&, std::string_view>) {
        if (write_plain_key(std::string_view(key), value)) {
          if constexpr (json_flat_member<V>) return;  // written with the key
        } else {
          write_key(std::string_view(key));
        }
      } else if constexpr (named_enum<K>) {
        const auto name = enum_name_of(key);
        if (!name) fail(errc::invalid_value, unnamed_enum_value_message(key));
        write_key(*name);
      } else {
        char buffer[24];
        const char* end = write_integer(buffer, integer_value(key));
        write_key(std::string_view(buffer, static_cast<std::size_t>(end - buffer)));
      }
      process(value);
    } else {
      open('[', frame::array);
      process(key);
      process(value);
      close(']');
    }
  }
  template <class F>
  void write_tuple(std::size_t, F&& write_elements) {
    open('[', frame::array);
    write_elements();
    close(']');
  }
  template <class Names, class... Members>
  void write_object(const Members&... members) {
    if (options_.pretty || sizeof...(Members) == 0) {
      open('{', frame::object);
      std::size_t i = 0;
      ((write_name(Names::value[i++]), process(members)), ...);
      close('}');
      return;
    }
    if constexpr (json_flat_object<Members...> && !Sink::counts_only) {
      write_flat_object<Names>(members...);
      return;
    }
    // Minified text: each member's punctuation and name are one constant. A member of numbers
    // (json_flat_member) goes in with it under one room check, with none of a value's bookkeeping.
    check_depth(1);
    begin_value();
    frames_.push_back(frame::object);
    auto member = [&]<std::size_t I, class M>(std::integral_constant<std::size_t, I>,
                                              const M& value) {
      constexpr auto& prefix = json_member_prefix<Names, I>;
      if constexpr (json_flat_member<M> && !Sink::counts_only) {
        write_flat_member(prefix, value);
      } else {
        put_constant(prefix);
        after_key_ = true;
        process(value);
      }
    };
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (member(std::integral_constant<std::size_t, I>{}, members), ...);
    }
    (std::index_sequence_for<Members...>{});
    frames_.pop_back();
    put('}');
    need_comma_ = true;
  }
  // A json_flat_member and the constant before it under one room check.
  template <std::size_t N, class M>
  void write_flat_member(const std::array<char, N>& prefix, const M& value) {
    char* const start = reinterpret_cast<char*>(sink_.ensure(N + flat_value_room<M>));
    std::memcpy(start, prefix.data(), N);
    char* const end = write_flat_value(start + N, value);
    sink_.advance(static_cast<std::size_t>(end - start));
    need_comma_ = true;
  }
  // Minified text of an object of numbers and fixed arrays of numbers (json_flat_object): its
  // longest text is known, so one room check covers it and every byte goes straight in.
  template <class Names, class... Members>
  void write_flat_object(const Members&... members) {
    constexpr std::size_t room = []<std::size_t... I>(std::index_sequence<I...>) {
      // Per member its constant and value; the object's '}'.
      return (std::size_t{1} + ... +
              (json_member_prefix<Names, I>.size() + flat_value_room<Members>));
    }
    (std::index_sequence_for<Members...>{});
    check_depth((std::is_arithmetic_v<Members> && ...) ? 1 : 2);
    begin_value();
    char* const start = reinterpret_cast<char*>(sink_.ensure(room));
    char* out = start;
    auto member = [&]<std::size_t I, class M>(std::integral_constant<std::size_t, I>,
                                              const M& value) {
      constexpr auto& prefix = json_member_prefix<Names, I>;
      std::memcpy(out, prefix.data(), prefix.size());
      out = write_flat_value(out + prefix.size(), value);
    };
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (member(std::integral_constant<std::size_t, I>{}, members), ...);
    }
    (std::index_sequence_for<Members...>{});
    *out++ = '}';
    sink_.advance(static_cast<std::size_t>(out - start));
    need_comma_ = true;
  }
  template <class T>
  void write_field(std::string_view name, const T& value) {
    write_key(name);
    process(value);
  }
  /// A user type writing itself: an object if it names its fields, an array if not (decided by its
  /// first member).
  template <class F>
  void write_composite(F&& write_members) {
    check_depth(1);
    begin_value();
    frames_.push_back(frame::undecided);
    need_comma_ = false;
    write_members();
    if (frames_.back() == frame::undecided) decide_frame(false);
    close(frames_.back() == frame::object ? '}' : ']');
  }
  /// A versioned type's version, once per message: the first member of its object
  /// ("bale_version") or the first value of its array, written when its first member decides.
  void write_version(std::uint32_t v) { pending_version_ = v; }
  template <class F>
  void write_optional(bool present, F&& write_value) {
    if (present) {
      value_of_optional_ = true;  // cleared by the value's first output
      write_value();
    } else {
      // optional<optional<T>> holding an empty optional would read back as an empty outer one.
      if (value_of_optional_)
        fail(errc::invalid_value, "an empty optional inside an optional has no JSON form");
      begin_value();
      put("null");
      need_comma_ = true;
    }
  }
  template <class F>
  void write_variant(std::size_t index, F&& write_value) {
    open('[', frame::array);
    write_scalar(std::uint64_t{index});
    write_value();
    close(']');
  }
  template <class Ch, class Traits>
  void write_text(std::basic_string_view<Ch, Traits> text) {
    if constexpr (sizeof(Ch) == 1) {
      begin_value();
      write_string(std::string_view(reinterpret_cast<const char*>(text.data()), text.size()));
      need_comma_ = true;
    } else {
      write_sequence(text.size(), [&] { write_contiguous(text.data(), text.size()); });
    }
  }

  [[noreturn]] void fail(errc code, std::string detail) const {
    throw error(code, std::move(detail), sink_.size());
  }
  write_context& context() const noexcept { return context_; }

 private:
  enum class frame : std::uint8_t { array, object, undecided };

  template <class T>
  static auto integer_value(T value) {
    if constexpr (std::is_enum_v<T>)
      return integer_value(static_cast<std::underlying_type_t<T>>(value));
    else if constexpr (std::is_signed_v<T>)
      return static_cast<long long>(value);
    else
      return static_cast<unsigned long long>(value);
  }

  void put(char c) {
    if constexpr (requires { sink_.put(c); })
      sink_.put(c);
    else
      sink_.put(&c, 1);
  }
  void put(const char* text, std::size_t n) { sink_.put(text, n); }
  // At most Max bytes written by f(out) -> end straight into the sink.
  template <std::size_t Max, class F>
  void put_direct(F&& f) {
    if constexpr (Sink::counts_only) {
      char scratch[Max];
      sink_.skip(static_cast<std::size_t>(f(scratch) - scratch));
    } else {
      char* out = reinterpret_cast<char*>(sink_.ensure(Max));
      sink_.advance(static_cast<std::size_t>(f(out) - out));
    }
  }
  template <std::size_t N>
  void put(const char (&text)[N]) {
    sink_.put(text, N - 1);
  }

  // Before every value: a comma after a sibling, the indentation, or the bracket of a user type
  // whose kind its first member decides. A value after its key needs none of it, and is the most
  // common case, so that test is inlined and the rest is not.
  [[gnu::always_inline]] void begin_value(bool named = false) {
    value_of_optional_ = false;
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (!named && !options_.pretty && !frames_.empty() && frames_.back() == frame::array) {
      if (need_comma_) put(',');
      return;
    }
    begin_value_after_sibling(named);
  }
  [[gnu::noinline]] void begin_value_after_sibling(bool named) {
    if (!frames_.empty()) {
      frame& top = frames_.back();
      if (top == frame::undecided) {
        decide_frame(named);
      } else if (named != (top == frame::object)) {
        fail(errc::invalid_value, named ? "a named field among positional values"
                                        : "a value without a name among named fields");
      }
    }
    if (need_comma_) put(',');
    if (options_.pretty && !frames_.empty()) newline(frames_.size());
  }
  // A composite's first value (or its end) makes it an object or an array; a version waiting
  // for it goes first.
  void decide_frame(bool named) {
    frames_.back() = named ? frame::object : frame::array;
    put(named ? '{' : '[');
    if (!pending_version_) return;
    if (options_.pretty) newline(frames_.size());
    if (named) {
      write_string(version_key);
      put(':');
      if (options_.pretty) put(' ');
    }
    put_direct<max_scalar_text>([&](char* out) { return format_scalar(out, *pending_version_); });
    pending_version_.reset();
    need_comma_ = true;
  }
  void newline(std::size_t depth) {
    put('\n');
    const std::size_t spaces = depth * static_cast<std::size_t>(options_.indent);
    for (std::size_t i = 0; i < spaces; ++i) put(' ');
  }
  void open(char bracket, frame kind) {
    check_depth(1);
    begin_value();
    put(bracket);
    frames_.push_back(kind);
    need_comma_ = false;
  }
  // Every bracket is a level, as the reader counts them: writing fails where reading would.
  void check_depth(std::size_t levels) const {
    if (frames_.size() + levels > context_.max_depth()) [[unlikely]]
      fail(errc::depth_exceeded, error_text({"nesting deeper than ", context_.max_depth()}));
  }
  void close(char bracket) {
    frames_.pop_back();
    if (options_.pretty && need_comma_) newline(frames_.size());
    put(bracket);
    need_comma_ = true;
  }
  // Where out, a place in the room the sink lent (text not yet committed may come before it),
  // lies in the output; for errors.
  std::size_t offset_in_room(const char* out) {
    if constexpr (Sink::counts_only)
      return sink_.size();  // out is scratch
    else
      return sink_.size() +
             static_cast<std::size_t>(out - reinterpret_cast<char*>(sink_.ensure(0)));
  }
  template <std::size_t N>
  void put_constant(const std::array<char, N>& text) {
    if constexpr (Sink::counts_only) {
      sink_.skip(N);
    } else {
      std::memcpy(sink_.ensure(N), text.data(), N);
      sink_.advance(N);
    }
  }
  // A reflected member name: a C++ identifier, so nothing to escape.
  void write_name(std::string_view name) {
    begin_value(true);
    if constexpr (Sink::counts_only) {
      sink_.skip(name.size() + 3);
    } else {
      char* out = reinterpret_cast<char*>(sink_.ensure(name.size() + 3));
      out[0] = '"';
      std::memcpy(out + 1, name.data(), name.size());
      out[name.size() + 1] = '"';
      out[name.size() + 2] = ':';
      sink_.advance(name.size() + 3);
    }
    if (options_.pretty) put(' ');
    after_key_ = true;
  }
  // A key in minified text that needs no escape: its comma, quotes and colon in the same write as
  // its bytes, and a json_flat_member value after it too (a map of numbers takes one room check
  // per entry). False (nothing written) otherwise.
  template <class V>
  bool write_plain_key(std::string_view name, const V& value) {
    if constexpr (Sink::counts_only) {
      return false;
    } else {
      if (options_.pretty) return false;
      constexpr bool with_value = json_flat_member<V>;
      constexpr std::size_t value_room = [] {
        if constexpr (with_value)
          return flat_value_room<V>;
        else
          return std::size_t{0};
      }();
      const std::size_t n = name.size();
      char* const out = reinterpret_cast<char*>(sink_.ensure(n + 4 + value_room));
      out[0] = ',';
      char* const quote = out + (need_comma_ ? 1 : 0);
      if (!json_copy_plain(name.data(), n, quote + 1)) return false;
      quote[0] = '"';
      quote[n + 1] = '"';
      quote[n + 2] = ':';
      char* end = quote + n + 3;
      if constexpr (with_value) {
        end = write_flat_value(end, value);
        need_comma_ = true;
      } else {
        after_key_ = true;
      }
      sink_.advance(static_cast<std::size_t>(end - out));
      return true;
    }
  }
  void write_key(std::string_view name) {
    begin_value(true);
    write_string(name);
    put(':');
    if (options_.pretty) put(' ');
    after_key_ = true;
  }

  // Numbers nest unless written as base64, and not in an empty array or one of rank 0 or 1.
  template <class T>
  bool nested_numbers(sequence_shape shape, std::size_t count) const {
    if constexpr (json_byte<T>)
      if (options_.uint8_as_base64) return false;
    return nests(shape, count);
  }
  // Opens a list per index; write_elements(write_run) hands its numbers to write_run a run at a
  // time, and they go into the lists, which close as they fill; then the outermost closes.
  template <class T, class F>
  void write_nested_lists(sequence_shape shape, F&& write_elements) {
    nested_lists lists(shape);
    for (std::size_t k = 0; k < lists.levels(); ++k) open('[', frame::array);
    write_elements([&](const T* run, std::size_t n) { write_in_lists(lists, run, n); });
    if (!lists.done())
      fail(errc::invalid_value, "an array wrote fewer elements than its extents hold");
    close(']');
  }
  template <class T>
  void write_in_lists(nested_lists& lists, const T* data, std::size_t count) {
    while (count != 0) {
      if (lists.done())
        fail(errc::invalid_value, "an array wrote more elements than its extents hold");
      const std::size_t run = std::min<std::uint64_t>(count, lists.left_in_row());
      if (options_.pretty)
        write_row_of_numbers(data, run);
      else
        write_contiguous(data, run);
      data += run;
      count -= run;
      const std::size_t ended = lists.advance(run);
      for (std::size_t k = 0; k < ended; ++k) {
        if (k == 0) {  // the innermost list, on the line it began
          frames_.pop_back();
          put(']');
          need_comma_ = true;
        } else {
          close(']');
        }
      }
      if (!lists.done())
        for (std::size_t k = 0; k < ended; ++k) open('[', frame::array);
    }
  }
  // Numbers of an innermost list in pretty text: on one line.
  template <class T>
  void write_row_of_numbers(const T* data, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
      if (need_comma_) put(", ", 2);
      put_direct<max_scalar_text>([&](char* out) { return format_scalar(out, data[i]); });
      need_comma_ = true;
    }
  }

  // A number's or a bool's text at out (at most 32 bytes); returns its end.
  // The longest text format_scalar writes: 24 bytes for a double ("-2.2250738585072014e-308"),
  // 20 for a 64-bit integer; rounded up.
  static constexpr std::size_t max_scalar_text = 32;
  // The longest minified text of a json_flat_member: each number's with a comma or a bracket
  // before it, and an array's ']'.
  template <class M>
  static constexpr std::size_t flat_value_room = json_flat_count<M>*(max_scalar_text + 1) + 1;
  // A json_flat_member's minified text at out (room for flat_value_room<M>); returns its end.
  template <class M>
  char* write_flat_value(char* out, const M& value) {
    if constexpr (std::is_arithmetic_v<M>) {
      return format_scalar(out, value);
    } else {
      *out++ = '[';
      const auto* data = std::data(value);
      for (std::size_t i = 0; i < std::size(value); ++i) {
        if (i != 0) *out++ = ',';
        out = format_scalar(out, data[i]);
      }
      *out++ = ']';
      return out;
    }
  }
  template <class T>
  char* format_scalar(char* out, T value) {
    if constexpr (std::is_same_v<T, bool>) {
      std::memcpy(out, value ? "true" : "false", value ? 4 : 5);
      return out + (value ? 4 : 5);
    } else if constexpr (std::is_floating_point_v<T>) {
      if (std::isfinite(value)) [[likely]]
        return write_shortest(out, value);  // the shortest text that reads back to the same bits
      if (!options_.allow_non_finite) {
        throw error(errc::invalid_value,
                    "JSON has no NaN or infinity (json_options::allow_non_finite)",
                    offset_in_room(out));
      }
      const std::string_view name = std::isnan(value) ? "NaN"
                                    : value > 0       ? "Infinity"
                                                      : "-Infinity";
      std::memcpy(out, name.data(), name.size());
      return out + name.size();
    } else {
      return write_integer(out, integer_value(value));
    }
  }

  void write_string(std::string_view text) {
    const std::size_t n = text.size();
    if constexpr (!Sink::counts_only) {
      // Most strings need no escape: copied eight bytes at a time and checked as they go; the
      // copy is only kept (advance) if nothing needed attention.
      char* out = reinterpret_cast<char*>(sink_.ensure(n + 2));
      if (json_copy_plain(text.data(), n, out + 1)) {
        out[0] = '"';
        out[n + 1] = '"';
        sink_.advance(n + 2);
        return;
      }
    }
    write_string_escaped(text);
  }
  // Out of line, so that the common case above stays small where it is inlined.
  [[gnu::noinline]] void write_string_escaped(std::string_view text) {
    const std::size_t n = text.size();
    if constexpr (!Sink::counts_only) {
      // Strings of a bounded length go straight into room for the longest escaping (six bytes a
      // byte) and the slack write_escaped needs; longer ones a run at a time.
      if (n <= direct_escape_limit) {
        char* const start = reinterpret_cast<char*>(sink_.ensure(6 * n + 1 + json_escape_slack));
        *start = '"';
        char* const end = json_write_escaped(text, 0, start + 1, offset_in_room(start + 1));
        *end = '"';
        sink_.advance(static_cast<std::size_t>(end + 1 - start));
        return;
      }
    }
    put('"');
    // Pieces of up to direct_escape_limit bytes, cut only between UTF-8 sequences.
    char piece[6 * direct_escape_limit + json_escape_slack];
    std::size_t done = 0;
    while (done < n) {
      std::size_t size = n - done < direct_escape_limit ? n - done : direct_escape_limit;
      while (done + size < n && (static_cast<unsigned char>(text[done + size]) & 0xC0) == 0x80 &&
             size > direct_escape_limit - 4)
        --size;
      const char* end = json_write_escaped(text.substr(done, size), done, piece, sink_.size());
      put(piece, static_cast<std::size_t>(end - piece));
      done += size;
    }
    put('"');
  }
  static constexpr std::size_t direct_escape_limit = 1024;

  template <class T>
  void write_base64(const T* data, std::size_t count) {
    begin_value();
    put('"');
    const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), count);
    const std::size_t size = base64::encoded_size(count);
    if constexpr (Sink::counts_only) {
      sink_.skip(size);
    } else {
      std::byte* out = sink_.ensure(size);
      base64::encode_to(bytes, reinterpret_cast<char*>(out));
      sink_.advance(size);
    }
    put('"');
    need_comma_ = true;
  }

  Sink& sink_;
  write_context& context_;
  json_options options_;
  frame_stack<frame> frames_;
  bool need_comma_ = false;
  bool after_key_ = false;
  std::optional<std::uint32_t> pending_version_;
  bool value_of_optional_ = false;  // an optional's value is being written and nothing is out yet
};

}  // namespace bale::detail
