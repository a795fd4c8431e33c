// SPDX-License-Identifier: BSL-1.0
#pragma once
// What every archive repeats, written once: ar(a, b, c) over values, the field path that errors
// carry, and entering and leaving a level of nesting on the read side. The path helpers are always
// inlined: each is a try block around its caller's own code, and as a call of its own it would
// cost the levels of inlining that the readers' hot loops need.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "bale/core/error.hpp"
#include "bale/core/error_text.hpp"
#include "bale/core/nesting.hpp"
#include "bale/core/read_context.hpp"
#include "bale/core/version.hpp"

namespace bale::detail {

template <class T>
inline constexpr bool is_std_optional = false;
template <class U>
inline constexpr bool is_std_optional<std::optional<U>> = true;

/// Base of every archive: `ar(a, b, c)` hands each value to the archive's process().
template <class Archive>
class archive_base {
 public:
  template <class... Ts>
  void operator()(Ts&&... values) {
    (static_cast<Archive&>(*this).process(values), ...);
  }
  /// Inside a save or load of a type with a bale::version: the version being written, or the
  /// version the data being read was written with (core/version.hpp). 0 elsewhere.
  std::uint32_t version() const noexcept {
    return current_version(static_cast<const Archive&>(*this).context());
  }
};

/// Ends a message that `ar` wrote (its first pass) or read: every object its observers point at
/// is owned by a pointer of the message.
template <class Archive>
void end_message(const Archive& ar) {
  std::string problem = ar.context().why_incomplete();
  if (!problem.empty()) [[unlikely]]
    ar.fail(errc::invalid_value, std::move(problem));
}

/// Runs f(); an error thrown inside gets `name` in front of its field path.
template <class F>
[[gnu::always_inline]] inline decltype(auto) within_field(std::string_view name, F&& f) {
  try {
    return f();
  } catch (error& e) {
    e.prepend_field(name);
    throw;
  }
}

/// Runs f(), which reads an object's members in turn and counts them in `index`; an error thrown
/// inside gets the name of member `index` (Names::value[index]) in front of its path.
template <class Names, class F>
[[gnu::always_inline]] inline void within_member(const std::size_t& index, F&& f) {
  try {
    f();
  } catch (error& e) {
    e.prepend_field(Names::value[index]);
    throw;
  }
}

/// Runs f(); an error thrown inside gets `[index]` in front of its path, index read as it is
/// when thrown: for loops that count their elements as they go.
template <class F>
[[gnu::always_inline]] inline void within_index(const std::size_t& index, F&& f) {
  try {
    f();
  } catch (error& e) {
    e.prepend_index(index);
    throw;
  }
}

/// Calls f(i) for i in [first, count); an error thrown inside gets `[i]` in front of its path.
template <class F>
[[gnu::always_inline]] inline void for_each_index(std::size_t count, F&& f, std::size_t first = 0) {
  std::size_t i = first;
  try {
    for (; i < count; ++i) f(i);
  } catch (error& e) {
    e.prepend_index(i);
    throw;
  }
}

template <class Archive>
[[noreturn, gnu::cold, gnu::noinline]] void fail_allocation(const Archive& ar) {
  ar.fail(errc::allocation_limit,
          error_text({"the allocation limit of ", ar.context().limits().max_allocation,
                      " bytes is reached"}));
}
/// Charges `count` allocations of `size` bytes each to the decode's budget before a type makes them
/// (a pointee, a container's nodes), or fails with errc::allocation_limit through the archive.
template <class Archive>
inline void charge_allocation(const Archive& ar, std::size_t count, std::size_t size) {
  if (!ar.context().try_charge(count, size)) [[unlikely]]
    fail_allocation(ar);
}

/// Fails unless a view into the input may be kept by the value being read.
template <class Archive>
inline void require_views_allowed(const Archive& ar) {
  if (!ar.context().views_allowed()) [[unlikely]]
    ar.fail(errc::invalid_value,
            error_text({"a string_view or span would point into a buffer that is freed or reused "
                        "when this call returns: ",
                        ar.context().views_instead()}));
}

/// A view of `Element`s into the input (std::span<const T>, an array view). A runtime error, not a
/// compile-time one, where the format does not hold them as memory: a file's header picks its
/// format only when it is read, so every decoder is built for every type a file may hold.
template <class Element, class Archive>
std::span<const Element> read_input_view(Archive& ar, std::string_view what,
                                         std::string_view instead) {
  if constexpr (!Archive::template bulk<Element>) {
    ar.fail(errc::wrong_type,
            error_text({what,
                        " is read as a view into the input, and this format does not hold its "
                        "elements as they are in memory (compact's varints, text): read it from "
                        "binary, or ",
                        instead}));
    return {};
  } else {
    require_views_allowed(ar);
    return ar.template read_view<Element>();
  }
}

/// Whether a level wraps one value (an optional, a variant), which is then counted with it.
enum class level_kind : bool { own, wraps_one };

/// One level of nesting for the lifetime of the guard (see core/nesting.hpp for what counts);
/// past limits::max_depth the archive fails with errc::depth_exceeded through its own fail(), so
/// a text format adds line and column. Reading and writing archives alike.
template <class Archive>
class nesting_guard {
 public:
  explicit nesting_guard(const Archive& ar, level_kind kind = level_kind::own)
      : state_(ar.context()), counted_(!state_.take_wrapped()) {
    if (counted_) {
      if (!state_.try_enter()) [[unlikely]]
        fail_too_deep(ar);
      state_.set_wrapped(kind == level_kind::wraps_one);
    }
  }
  ~nesting_guard() {
    state_.set_wrapped(false);
    if (counted_) state_.leave();
  }
  nesting_guard(const nesting_guard&) = delete;
  nesting_guard& operator=(const nesting_guard&) = delete;

 private:
  [[noreturn, gnu::cold, gnu::noinline]] void fail_too_deep(const Archive& ar) {
    state_.leave();
    ar.fail(errc::depth_exceeded, error_text({"nesting deeper than ", state_.max_depth()}));
  }
  nesting_state& state_;
  bool counted_;
};

}  // namespace bale::detail
