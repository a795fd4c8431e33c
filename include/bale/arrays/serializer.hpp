// SPDX-License-Identifier: BSL-1.0
#pragma once
// Arrays of any rank (boost::multi_array, Eigen, xtensor, mdspan-shaped views): one serializer
// for every array type an adapter describes through bale::array_traits. An array travels as a
// record of three members, in every format:
//   layout   row_major or column_major: the order of the elements that follow
//   extents  one count per index (a fixed number of them for a type of fixed rank, so a change of
//            rank is refused by schema resolution)
//   data     the elements, as a sequence: one memcpy where the format allows; lists of lists
//            of numbers, one level per index, in a format that nests them (JSON, MessagePack)
// Contiguous memory is written as it is stored and tagged with its layout; strided memory (a
// block, a slice) is gathered a block of elements at a time, in the layout whose fastest index
// steps least through memory (column by column for a block of a column-major matrix). Reading into
// a type of the other layout transposes. Nothing is allocated before the input has paid for it: the
// array is sized when the format hands over a count it checked, and extents whose product overflows
// are refused first. A view of const elements whose adapter can point it at memory (view_over) is
// read as a view into the input, with no copy, where the format holds the elements as memory does
// (binary).

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "bale/arrays/shape.hpp"
#include "bale/core/archive_base.hpp"
#include "bale/core/error.hpp"
#include "bale/core/error_text.hpp"
#include "bale/core/schema_shape.hpp"
#include "bale/core/serializer.hpp"
#include "bale/core/shaped_sequence.hpp"
#include "bale/types/array.hpp"
#include "bale/types/scalar.hpp"
#include "bale/types/vector.hpp"

namespace bale {

/// How bale sees an array type A; each adapter specialises it:
///   using element_type = E;                          // the elements' type, const for a view
///   static constexpr std::size_t rank = R;           // or bale::dynamic_rank
///   static array_ref<const E, R> view(const A&);     // the elements where they are
/// and, to be read into:
///   static bool holds(const A&, const array_extents<R>&);    // can A take these extents?
///   static array_ref<E, R> reshape(A&, const array_extents<R>&);  // A sized to them
/// or, for a view of const elements, to be read as a view into the input:
///   static std::optional<A> view_over(const E*, const array_extents<R>&, array_layout);
///                                    // A over elements of that shape and layout, or none
template <class A>
struct array_traits;

/// A type bale reads and writes as an array of any rank.
template <class A>
concept array_type = requires {
  typename array_traits<A>::element_type;
  { array_traits<A>::rank } -> std::convertible_to<std::size_t>;
};

namespace detail {

struct array_member_names {
  static constexpr std::array<std::string_view, 3> value{"layout", "extents", "data"};
};

/// What an array looks like to bale::schema_of: the members of the record it travels as.
template <class Element, std::size_t Rank>
struct array_record {
  array_layout layout;
  array_extents<Rank> extents;
  std::vector<Element> data;
};

template <class A>
using array_element = std::remove_const_t<typename array_traits<A>::element_type>;

/// An array type that is read as a view into the input (array_traits<A>::view_over).
template <class A>
concept array_view = requires(const array_element<A>* data,
                              const array_extents<array_traits<A>::rank>& extents) {
  {
    array_traits<A>::view_over(data, extents, array_layout::row_major)
    } -> std::same_as<std::optional<A>>;
};

/// A member read through a stand-in that remembers it was read.
template <class T>
struct noted_member {
  T& value;
  bool& seen;
};

/// An array's elements on their way out, in `layout`.
template <class Element, std::size_t Rank>
struct array_elements_out {
  array_ref<const Element, Rank> array;
  bool contiguous;
  array_layout layout;
};

/// An array's elements on their way in, with the layout and extents read before them.
template <class A>
struct array_elements_in {
  A& array;
  const array_layout& layout;
  const array_extents<array_traits<A>::rank>& extents;
  bool layout_seen = false;
  bool extents_seen = false;
  bool data_seen = false;
};

/// The extents in the order the elements of `layout` run, outermost first: the nesting of the
/// lists a format that nests them writes. Kept alive by the caller's full expression.
template <std::size_t Rank>
struct shape_in {
  array_extents<Rank> in_order;
  shape_in(const array_extents<Rank>& extents, array_layout layout) : in_order(extents) {
    if (layout == array_layout::column_major) std::reverse(in_order.begin(), in_order.end());
  }
  operator sequence_shape() const noexcept { return {in_order.data(), in_order.size()}; }
};

/// Where the elements read go: straight into the array when the wire's layout is the array's
/// and the format hands over exactly the count the extents say; into a staging buffer otherwise
/// (a text format's growing guesses, a transposition), copied into place at the end.
template <class A>
class array_target {
 public:
  using element = array_element<A>;
  static constexpr std::size_t rank = array_traits<A>::rank;

  array_target(A& array, const array_extents<rank>& extents, array_layout layout, std::size_t count)
      : array_(array), extents_(extents), layout_(layout), count_(count) {}

  element* resize(std::size_t n) {
    last_ = n;
    if (n == count_ && !in_place_) {
      shape();
      if (contiguous_in(shaped_, layout_)) {
        std::copy_n(staging_.data(), std::min(staging_.size(), n), shaped_.data);
        staging_ = {};
        in_place_ = true;
      }
    }
    if (in_place_) {
      if (n <= count_) return shaped_.data;
      staging_.assign(shaped_.data, shaped_.data + count_);
      in_place_ = false;
    }
    staging_.resize(n);
    return staging_.data();
  }

  template <class Archive>
  void finish(Archive& ar) {
    if (last_ != count_)
      ar.fail(errc::invalid_value,
              error_text({"an array of extents ", extents_text(extents_), " holds ", count_,
                          " elements, and ", last_, " were read"}));
    if (in_place_) return;
    shape();
    const array_ref<const element, rank> staged{staging_.data(), extents_,
                                                contiguous_strides<rank>(extents_, layout_)};
    copy_elements(staged, shaped_);
  }

 private:
  void shape() {
    if (!shaped_once_) shaped_ = array_traits<A>::reshape(array_, extents_);
    shaped_once_ = true;
  }

  A& array_;
  const array_extents<rank>& extents_;
  array_layout layout_;
  std::size_t count_;
  std::size_t last_ = 0;
  std::vector<element> staging_;
  array_ref<element, rank> shaped_{};
  bool shaped_once_ = false;
  bool in_place_ = false;
};

/// Elements that are not contiguous go out a block at a time, in `layout`.
template <class Archive, class Element, std::size_t Rank>
void write_gathered(Archive& ar, const array_ref<const Element, Rank>& in_memory, std::size_t count,
                    array_layout layout) {
  const auto array = layout == array_layout::row_major ? in_memory : reversed(in_memory);
  const sequence_shape shape(array.extents.data(), array.extents.size());
  const auto dense = contiguous_strides<Rank>(array.extents, array_layout::row_major);
  if constexpr (sizeof(Element) == 1 || !std::is_trivially_copyable_v<Element> ||
                !std::is_default_constructible_v<Element>) {
    // Gathered whole: bytes, which formats write as one binary string rather than block by
    // block, and elements that a stack buffer cannot hold by plain copies.
    std::vector<Element> gathered(count);
    walk_row_major<Rank>(array.extents, array.strides, dense,
                         [&](std::ptrdiff_t from, std::ptrdiff_t to) {
                           gathered[static_cast<std::size_t>(to)] = array.data[from];
                         });
    write_shaped_contiguous_sequence(ar, gathered.data(), count, shape);
  } else {
    constexpr std::size_t block = std::max<std::size_t>(1, 4096 / sizeof(Element));
    write_shaped_sequence<Element>(ar, count, shape, [&](auto&& write_run) {
      std::array<Element, block> buffer;
      std::size_t filled = 0;
      walk_row_major<Rank>(array.extents, array.strides, dense,
                           [&](std::ptrdiff_t from, std::ptrdiff_t) {
                             buffer[filled++] = array.data[from];
                             if (filled == block) {
                               write_run(buffer.data(), filled);
                               filled = 0;
                             }
                           });
      if (filled != 0) write_run(buffer.data(), filled);
    });
  }
}

}  // namespace detail

template <class T>
struct serializer<detail::noted_member<T>> {
  using schema_shape = schema::same_as<T>;

  template <class Archive>
  static void save(Archive& ar, const detail::noted_member<T>& member) {
    ar(member.value);
  }
  template <class Archive>
  static void load(Archive& ar, detail::noted_member<T>& member) {
    ar(member.value);
    member.seen = true;
  }
};

template <class Element, std::size_t Rank>
struct serializer<detail::array_elements_out<Element, Rank>> {
  using schema_shape = schema::sequence<Element>;

  template <class Archive>
  static void save(Archive& ar, const detail::array_elements_out<Element, Rank>& out) {
    std::size_t count = 0;
    (void)detail::element_count<Element>(out.array.extents, count);
    if (out.contiguous)
      detail::write_shaped_contiguous_sequence(
          ar, out.array.data, count, detail::shape_in<Rank>(out.array.extents, out.layout));
    else
      detail::write_gathered(ar, out.array, count, out.layout);
  }
};

template <class A>
struct serializer<detail::array_elements_in<A>> {
  using schema_shape = schema::sequence<detail::array_element<A>>;
  using traits = array_traits<A>;

  template <class Archive>
  static void load(Archive& ar, detail::array_elements_in<A>& in) {
    if (!in.layout_seen || !in.extents_seen)
      ar.fail(errc::invalid_value, "an array's data comes after its layout and extents");
    if (in.layout != array_layout::row_major && in.layout != array_layout::column_major)
      ar.fail(errc::invalid_value,
              detail::error_text({"an array's layout is 0 (row-major) or 1 (column-major), not ",
                                  static_cast<unsigned>(in.layout)}));
    std::size_t count = 0;
    if (!detail::element_count<detail::array_element<A>>(in.extents, count))
      ar.fail(errc::invalid_value, "an array's extents " + detail::extents_text(in.extents) +
                                       " hold more elements than memory can");
    if constexpr (detail::array_view<A>) {
      read_view(ar, in, count);
    } else {
      read_elements(ar, in, count);
    }
    in.data_seen = true;
  }

 private:
  template <class Archive>
  static void read_elements(Archive& ar, detail::array_elements_in<A>& in, std::size_t count) {
    if (!traits::holds(in.array, in.extents))
      ar.fail(errc::invalid_value, "an array's extents " + detail::extents_text(in.extents) +
                                       " do not fit the type read into (its extents are fixed)");
    detail::array_target<A> target(in.array, in.extents, in.layout, count);
    detail::read_shaped_sequence_into<detail::array_element<A>>(
        ar, target, detail::shape_in<traits::rank>(in.extents, in.layout));
    target.finish(ar);
  }

  // The elements stay in the input: the view is pointed at them.
  template <class Archive>
  static void read_view(Archive& ar, detail::array_elements_in<A>& in, std::size_t count) {
    using element = detail::array_element<A>;
    const std::size_t at = ar.offset();
    const std::span<const element> elements = detail::read_input_view<element>(
        ar, "an array of const elements", "read into an array that owns its elements");
    if (elements.size() != count)
      ar.fail_at(
          errc::invalid_value,
          detail::error_text({"an array of extents ", detail::extents_text(in.extents), " holds ",
                              count, " elements, and ", elements.size(), " were read"}),
          at);
    std::optional<A> view = traits::view_over(elements.data(), in.extents, in.layout);
    if (!view)
      ar.fail_at(errc::invalid_value,
                 "an array of extents " + detail::extents_text(in.extents) +
                     " in this layout cannot be shown by the view read into (its layout or "
                     "extents are fixed)",
                 at);
    std::destroy_at(&in.array);  // a view: pointed anew, not assigned (that would copy elements)
    std::construct_at(&in.array, std::move(*view));
  }
};

template <class A>
requires array_type<A>
struct serializer<A> {
  using traits = array_traits<A>;
  using element = detail::array_element<A>;
  static constexpr std::size_t rank = traits::rank;
  using schema_shape = schema::record<detail::array_record<element, rank>>;
  static_assert(!std::is_same_v<element, bool>,
                "bale: arrays of bool are not supported (std::vector<bool> has no memory to read "
                "into): hold std::uint8_t elements");

  template <class Archive>
  static void save(Archive& ar, const A& array) {
    const array_ref<const element, rank> view = traits::view(array);
    const bool contiguous = detail::stored_layout(view).has_value();
    const array_layout layout = detail::nearest_layout(view);
    ar.template write_object<detail::array_member_names>(
        layout, view.extents, detail::array_elements_out<element, rank>{view, contiguous, layout});
  }

  template <class Archive>
  static void load(Archive& ar, A& array) {
    static_assert(!std::is_const_v<typename traits::element_type> || detail::array_view<A>,
                  "bale: an array of const elements can be written, and read only as a view into "
                  "the input when its array_traits has view_over");
    array_layout layout = array_layout::row_major;
    auto extents = detail::extents_of_rank<rank>(0);
    detail::array_elements_in<A> data{array, layout, extents};
    detail::noted_member<array_layout> noted_layout{layout, data.layout_seen};
    detail::noted_member<array_extents<rank>> noted_extents{extents, data.extents_seen};
    ar.template read_object<detail::array_member_names>(noted_layout, noted_extents, data);
    if (!data.data_seen) ar.fail(errc::invalid_value, "an array without its data");
  }
};

}  // namespace bale
