// SPDX-License-Identifier: BSL-1.0
#pragma once
// std::basic_string (string, wstring, u8/u16/u32string) and std::basic_string_view, which reads as
// a zero-copy view into the input.

#include <string>
#include <string_view>

#include "bale/core/archive_base.hpp"
#include "bale/core/serializer.hpp"
#include "bale/core/wire.hpp"
#include "bale/types/scalar.hpp"

namespace bale {

template <class Ch, class Traits, class Alloc>
struct serializer<std::basic_string<Ch, Traits, Alloc>> {
  using schema_shape = schema::text<Ch>;

  template <class Archive>
  [[gnu::always_inline]] static void save(Archive& ar,
                                          const std::basic_string<Ch, Traits, Alloc>& text) {
    ar.write_text(std::basic_string_view<Ch, Traits>(text));
  }
  template <class Archive>
  static void load(Archive& ar, std::basic_string<Ch, Traits, Alloc>& text) {
    ar.read_text(text);
  }
};

/// Reading gives a view into the input buffer: it is valid as long as that buffer is.
template <class Ch, class Traits>
struct serializer<std::basic_string_view<Ch, Traits>> {
  using schema_shape = schema::text<Ch>;

  template <class Archive>
  static void save(Archive& ar, const std::basic_string_view<Ch, Traits>& text) {
    ar.write_text(text);
  }
  template <class Archive>
  static void load(Archive& ar, std::basic_string_view<Ch, Traits>& text) {
    detail::require_views_allowed(ar);
    const auto view = ar.template read_view<Ch>();
    text = std::basic_string_view<Ch, Traits>(view.data(), view.size());
  }
};

}  // namespace bale
