// SPDX-License-Identifier: BSL-1.0
#pragma once
// Errors: bale::errc, bale::error (thrown) and bale::result<T> (returned by the try_ forms).

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

#include "bale/core/error_text.hpp"

namespace bale {

/// What went wrong while decoding (or, for a few codes, encoding).
enum class errc : std::uint8_t {
  end_of_input = 1,   ///< the input ended inside a value
  trailing_bytes,     ///< a whole-buffer read left bytes unread
  length_too_large,   ///< a length prefix claims more elements than the bytes left can hold
  invalid_value,      ///< a value the type cannot hold: bool not 0/1, bad variant index, a user's
                      ///< load() threw, ...
  depth_exceeded,     ///< nesting deeper than limits::max_depth
  allocation_limit,   ///< the message would allocate more than limits::max_allocation
  element_limit,      ///< past max_empty_elements / max_empty_bytes / max_bucket_keys
  misaligned,         ///< a zero-copy view was asked for on input not aligned for its type
  buffer_too_small,   ///< serialize_to: the output span cannot hold the encoding
  io_error,           ///< a file could not be opened, mapped, written, synced or renamed
  checksum_mismatch,  ///< a file's payload does not match its checksum
  wrong_type,         ///< a file holds another format or another C++ type
  timed_out,          ///< a peer did not send what a receive waited for before its deadline
};

/// A short English name for a code ("end_of_input", ...).
constexpr std::string_view to_string(errc code) noexcept {
  switch (code) {
    case errc::end_of_input:
      return "end_of_input";
    case errc::trailing_bytes:
      return "trailing_bytes";
    case errc::length_too_large:
      return "length_too_large";
    case errc::invalid_value:
      return "invalid_value";
    case errc::depth_exceeded:
      return "depth_exceeded";
    case errc::allocation_limit:
      return "allocation_limit";
    case errc::element_limit:
      return "element_limit";
    case errc::misaligned:
      return "misaligned";
    case errc::buffer_too_small:
      return "buffer_too_small";
    case errc::io_error:
      return "io_error";
    case errc::checksum_mismatch:
      return "checksum_mismatch";
    case errc::wrong_type:
      return "wrong_type";
    case errc::timed_out:
      return "timed_out";
  }
  return "unknown";
}

/// The exception bale throws on bad input. `what()` reads like
/// `bale: invalid_value: bool byte is 7, not 0 or 1 at byte 12 in cells[3].corners[1].flag`.
class error : public std::runtime_error {
 public:
  /// The offset of an error that is about no byte of an input (a file that cannot be opened, a
  /// buffer too small to write into): what() then names no byte.
  static constexpr std::size_t no_offset = static_cast<std::size_t>(-1);

  error(errc code, std::string detail, std::size_t offset = no_offset)
      : std::runtime_error("bale"), code_(code), offset_(offset), detail_(std::move(detail)) {
    compose();
  }

  errc code() const noexcept { return code_; }
  /// Byte offset in the input where the problem was found, or no_offset.
  std::size_t offset() const noexcept { return offset_; }
  bool has_offset() const noexcept { return offset_ != no_offset; }
  /// The offset in a whole input of which the input of this error started at `start`.
  std::size_t offset_in_whole(std::size_t start) const noexcept {
    return has_offset() ? start + offset_ : no_offset;
  }
  /// Field path of the value being read, e.g. `cells[3].corners[1].label` (empty at top level).
  const std::string& path() const noexcept { return path_; }
  /// The description without code, offset or path.
  const std::string& detail() const noexcept { return detail_; }
  /// The full message, same as what().
  const std::string& message() const noexcept { return message_; }
  const char* what() const noexcept override { return message_.c_str(); }

  // The two below are called from the catch blocks of the readers' hot loops: out of line, so
  // that those blocks stay one call each.
  /// Called while the exception unwinds through a named member.
  [[gnu::cold, gnu::noinline]] void prepend_field(std::string_view name) {
    prepend(name, "", joiner() ? "." : "");
  }
  /// Called while the exception unwinds through a sequence element.
  [[gnu::cold, gnu::noinline]] void prepend_index(std::size_t index) {
    char digits[24];
    char* const end = digits + sizeof digits;
    char* const first = detail::write_decimal(index, end);
    *(first - 1) = '[';
    prepend(std::string_view(first - 1, static_cast<std::size_t>(end - first + 1)), "]",
            joiner() ? "." : "");
  }

 private:
  // A field name is followed by '.', unless the path goes on with an index.
  bool joiner() const noexcept { return !path_.empty() && path_.front() != '['; }
  // Cold, and built with append alone: this runs once per error and segment, but every
  // translation unit that reads anything compiles it.
  [[gnu::cold]] void prepend(std::string_view a, std::string_view b, std::string_view c) {
    path_ = detail::error_text({a, b, c, path_});
    compose();
  }
  [[gnu::cold]] void compose() {
    char digits[24];
    const char* const first = detail::write_decimal(offset_, digits + sizeof digits);
    const std::string_view offset_text(first,
                                       static_cast<std::size_t>(digits + sizeof digits - first));
    message_ = detail::error_text({"bale: ", to_string(code_), ": ", detail_,
                                   has_offset() ? " at byte " : "", has_offset() ? offset_text : "",
                                   path_.empty() ? "" : " in ", path_});
  }

  errc code_;
  std::size_t offset_;
  std::string detail_;
  std::string path_;
  std::string message_;
};

/// The outcome of a try_ function: a value, or the bale::error that would have been thrown.
template <class T>
class result {
 public:
  result(T&& value) : state_(std::in_place_index<0>, std::move(value)) {}
  result(const T& value) : state_(std::in_place_index<0>, value) {}
  result(bale::error err) : state_(std::in_place_index<1>, std::move(err)) {}

  bool has_value() const noexcept { return state_.index() == 0; }
  explicit operator bool() const noexcept { return has_value(); }

  T& operator*() & { return std::get<0>(state_); }
  const T& operator*() const& { return std::get<0>(state_); }
  T&& operator*() && { return std::get<0>(std::move(state_)); }
  T* operator->() { return &std::get<0>(state_); }
  const T* operator->() const { return &std::get<0>(state_); }

  /// The value, or throws the stored error.
  T& value() & {
    if (!has_value()) throw std::get<1>(state_);
    return std::get<0>(state_);
  }
  T&& value() && {
    if (!has_value()) throw std::get<1>(state_);
    return std::get<0>(std::move(state_));
  }
  /// Precondition: !has_value().
  const bale::error& error() const { return std::get<1>(state_); }

 private:
  std::variant<T, bale::error> state_;
};

/// result<void>: success or an error.
template <>
class result<void> {
 public:
  result() = default;
  result(bale::error err) : error_(std::move(err)), failed_(true) {}
  bool has_value() const noexcept { return !failed_; }
  explicit operator bool() const noexcept { return has_value(); }
  void value() const {
    if (failed_) throw error_;
  }
  const bale::error& error() const { return error_; }

 private:
  bale::error error_{errc::invalid_value, "", 0};
  bool failed_ = false;
};

}  // namespace bale
