// SPDX-License-Identifier: BSL-1.0
#pragma once
// Python values written by a schema, through a byte format's writer archive (binary, compact):
// the same verbs a type's serializer calls, so the bytes are those C++ writes for the same value.
// What the reader gives (python_builder.hpp) is what this takes, and the obvious alternatives:
// any sequence for a list, a NumPy array for numbers, a dict or a structured array's element
// for a record, an ndarray for an array of bale/arrays.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bale/core/archive_base.hpp"
#include "bale/core/error.hpp"
#include "bale/core/error_text.hpp"
#include "bale/schema/tree.hpp"
#include "python_builder.hpp"

namespace bale::python {

namespace py = pybind11;
using detail::error_text;
using detail::within_field;

template <class Archive>
class python_encoder {
 public:
  python_encoder(Archive& ar, const schema_tree& tree) : ar_(ar), tree_(tree) {}

  void write(std::uint32_t n, py::handle v) {
    const schema_node& s = tree_[n];
    switch (s.kind) {
      case schema_kind::scalar:
        return write_scalar(s.scalar, v);
      case schema_kind::enumeration:
        return write_enum(s, v);
      case schema_kind::text:
        return write_text(s.scalar, v);
      case schema_kind::bits:
        return write_bits(s, v);
      case schema_kind::sequence:
      case schema_kind::set:
        return write_elements(s, v);
      case schema_kind::array:
        return write_fixed(s, v);
      case schema_kind::map:
        return write_map(s, v);
      case schema_kind::tuple:
        return write_tuple(s, v);
      case schema_kind::optional:
        if (v.is_none()) return ar_.write_optional(false, [] {});
        return ar_.write_optional(true, [&] { write(s.children[0], v); });
      case schema_kind::none:
        return ar_.write_none();
      case schema_kind::variant:
        return write_variant(s, v);
      case schema_kind::record:
        return write_record(s, v);
      case schema_kind::duration:
      case schema_kind::time_point:
        return write(s.children[0], v);
      case schema_kind::pointer:
      case schema_kind::opaque:
        fail("a pointer or a type described by hand is written only by its C++ type");
    }
  }

 private:
  [[noreturn]] static void fail(std::string what) {
    throw error(errc::invalid_value, std::move(what));
  }

  template <class T>
  static T integer(py::handle v) {
    if (PyBool_Check(v.ptr()) && !std::is_same_v<T, bool>) fail("a bool where a number is");
    PyObject* index = PyNumber_Index(v.ptr());
    if (index == nullptr) {
      PyErr_Clear();
      fail(error_text({"not an integer: ", py::str(py::type::of(v)).cast<std::string>()}));
    }
    const py::object i = py::reinterpret_steal<py::object>(index);
    int overflow = 0;
    if constexpr (std::is_signed_v<T>) {
      const long long x = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
      if (overflow == 0 && x >= std::numeric_limits<T>::min() && x <= std::numeric_limits<T>::max())
        return static_cast<T>(x);
    } else {
      const unsigned long long x = PyLong_AsUnsignedLongLong(i.ptr());
      if (!PyErr_Occurred() && x <= std::numeric_limits<T>::max()) return static_cast<T>(x);
      PyErr_Clear();
    }
    fail(error_text({py::str(i).cast<std::string>(), " is out of the range of ", sizeof(T) * 8,
                     "-bit ", std::is_signed_v<T> ? "signed" : "unsigned", " integers"}));
  }
  template <class T>
  static T real(py::handle v) {
    const double x = PyFloat_AsDouble(v.ptr());
    if (x == -1.0 && PyErr_Occurred()) {
      PyErr_Clear();
      fail("not a number");
    }
    return static_cast<T>(x);
  }

  template <class F>
  static void with_scalar(scalar_kind k, F&& f) {
    switch (k) {
      case scalar_kind::boolean:
        return f.template operator()<bool>();
      case scalar_kind::character:
        return f.template operator()<char>();
      case scalar_kind::char8:
        return f.template operator()<char8_t>();
      case scalar_kind::char16:
      case scalar_kind::wchar16:
        return f.template operator()<char16_t>();
      case scalar_kind::char32:
      case scalar_kind::wchar32:
        return f.template operator()<char32_t>();
      case scalar_kind::i8:
        return f.template operator()<std::int8_t>();
      case scalar_kind::i16:
        return f.template operator()<std::int16_t>();
      case scalar_kind::i32:
        return f.template operator()<std::int32_t>();
      case scalar_kind::i64:
        return f.template operator()<std::int64_t>();
      case scalar_kind::u8:
        return f.template operator()<std::uint8_t>();
      case scalar_kind::u16:
        return f.template operator()<std::uint16_t>();
      case scalar_kind::u32:
        return f.template operator()<std::uint32_t>();
      case scalar_kind::u64:
        return f.template operator()<std::uint64_t>();
      case scalar_kind::f32:
        return f.template operator()<float>();
      case scalar_kind::f64:
        return f.template operator()<double>();
      default:
        fail("bale writes no long double values");
    }
  }
  void write_scalar(scalar_kind k, py::handle v) {
    with_scalar(k, [&]<class T>() {
      if constexpr (std::is_same_v<T, bool>) {
        if (!PyBool_Check(v.ptr()) &&
            !py::isinstance(v, py::module_::import("numpy").attr("bool_")))
          fail("not a bool");
        ar_.write_scalar(static_cast<bool>(PyObject_IsTrue(v.ptr())));
      } else if constexpr (std::is_same_v<T, char>) {
        ar_.write_scalar(character(v));
      } else if constexpr (std::is_floating_point_v<T>) {
        ar_.write_scalar(real<T>(v));
      } else if constexpr (std::is_same_v<T, char8_t> || std::is_same_v<T, char16_t> ||
                           std::is_same_v<T, char32_t>) {
        ar_.write_scalar(static_cast<T>(integer<std::uint32_t>(v)));
      } else {
        ar_.write_scalar(integer<T>(v));
      }
    });
  }
  static char character(py::handle v) {
    if (!PyUnicode_Check(v.ptr()) || PyUnicode_GetLength(v.ptr()) != 1)
      fail("a char is a str of one character");
    const Py_UCS4 c = PyUnicode_ReadChar(v.ptr(), 0);
    if (c > 0xFF) fail("a char holds code points up to U+00FF");
    return static_cast<char>(static_cast<unsigned char>(c));
  }
  void write_enum(const schema_node& s, py::handle v) {
    std::int64_t bits = 0;
    if (PyUnicode_Check(v.ptr())) {
      const std::string name = v.cast<std::string>();
      std::size_t i = 0;
      while (i < s.names.size() && s.names[i] != name) ++i;
      if (i == s.names.size()) fail("'" + name + "' is not a name of this enum");
      bits = s.values[i];
    } else {
      bits = integer<std::int64_t>(v);
    }
    // The enum's bits as its underlying type writes them.
    with_scalar(s.scalar, [&]<class T>() {
      if constexpr (std::is_same_v<T, bool> || std::is_floating_point_v<T>)
        fail("an enum over a non-integer type");
      else
        ar_.write_scalar(static_cast<T>(bits));
    });
  }
  void write_text(scalar_kind k, py::handle v) {
    if (k == scalar_kind::character || k == scalar_kind::char8) {
      std::string bytes;
      if (PyBytes_Check(v.ptr()))
        bytes = v.cast<std::string>();
      else if (PyUnicode_Check(v.ptr()))
        bytes = v.cast<std::string>();  // UTF-8
      else
        fail("a string is a str or bytes");
      if (k == scalar_kind::char8) {
        const std::u8string units(bytes.begin(), bytes.end());
        return ar_.write_text(std::u8string_view(units));
      }
      return ar_.write_text(std::string_view(bytes));
    }
    if (!PyUnicode_Check(v.ptr())) fail("a wide string is a str");
    const bool narrow = k == scalar_kind::char16 || k == scalar_kind::wchar16;
    const py::bytes encoded = py::reinterpret_steal<py::bytes>(
        narrow ? PyUnicode_AsEncodedString(v.ptr(), "utf-16-le", "surrogatepass")
               : PyUnicode_AsEncodedString(v.ptr(), "utf-32-le", "surrogatepass"));
    if (!encoded) throw py::error_already_set();
    const std::string raw = encoded;
    if (narrow) {
      std::u16string units(raw.size() / 2, u'\0');
      std::memcpy(units.data(), raw.data(), raw.size());
      return ar_.write_text(std::u16string_view(units));
    }
    std::u32string units(raw.size() / 4, U'\0');
    std::memcpy(units.data(), raw.data(), raw.size());
    ar_.write_text(std::u32string_view(units));
  }
  void write_bits(const schema_node& s, py::handle v) {
    py::int_ rest = py::reinterpret_borrow<py::object>(v);
    const std::uint64_t words = s.count / 64 + (s.count % 64 != 0);
    const py::int_ mask(std::numeric_limits<std::uint64_t>::max());
    for (std::uint64_t i = 0; i < words; ++i) {
      ar_.write_scalar(rest.attr("__and__")(mask).cast<std::uint64_t>());
      rest = rest.attr("__rshift__")(64);
    }
    if (PyObject_IsTrue(rest.ptr()) != 0)
      fail(error_text({"a bitset of ", s.count, " bits cannot hold this int"}));
  }

  // Numbers in one NumPy array of the element's dtype: one contiguous write; anything else
  // element by element.
  template <class T>
  bool numbers(py::handle v, std::size_t fixed_count, bool fixed) {
    if (!py::isinstance<py::array>(v)) return false;
    const py::array given = py::reinterpret_borrow<py::array>(v);
    if (given.ndim() != 1 || given.dtype().kind() == 'O') return false;
    const py::array_t<T, py::array::c_style | py::array::forcecast> a(given);
    const auto n = static_cast<std::size_t>(a.size());
    if (fixed) {
      if (n != fixed_count) fail(error_text({"an array of ", fixed_count, " elements, not ", n}));
      ar_.write_tuple(n, [&] { ar_.write_contiguous(a.data(), n); });
    } else {
      ar_.write_contiguous_sequence(a.data(), n);
    }
    return true;
  }
  bool number_array(const schema_node& element, py::handle v, std::size_t count, bool fixed) {
    if (element.kind != schema_kind::scalar || element.scalar < scalar_kind::i8 ||
        element.scalar > scalar_kind::f64)
      return false;
    bool done = false;
    with_scalar(element.scalar, [&]<class T>() {
      if constexpr (!std::is_same_v<T, bool> && !std::is_same_v<T, char> &&
                    !std::is_same_v<T, char8_t> && !std::is_same_v<T, char16_t> &&
                    !std::is_same_v<T, char32_t>)
        done = numbers<T>(v, count, fixed);
    });
    return done;
  }
  std::vector<py::object> items(py::handle v) {
    if (PyUnicode_Check(v.ptr()) || PyBytes_Check(v.ptr()) || PyDict_Check(v.ptr()))
      fail("a list is any sequence but a str, bytes or dict");
    PyObject* iterator = PyObject_GetIter(v.ptr());
    if (iterator == nullptr) {
      PyErr_Clear();
      fail("not a sequence");
    }
    std::vector<py::object> out;
    const py::object it = py::reinterpret_steal<py::object>(iterator);
    while (PyObject* item = PyIter_Next(it.ptr()))
      out.push_back(py::reinterpret_steal<py::object>(item));
    if (PyErr_Occurred()) throw py::error_already_set();
    return out;
  }
  void each(const std::vector<py::object>& elements, std::uint32_t child) {
    for (std::size_t i = 0; i < elements.size(); ++i) {
      try {
        write(child, elements[i]);
      } catch (error& e) {
        e.prepend_index(i);
        throw;
      }
    }
  }
  void write_elements(const schema_node& s, py::handle v) {
    if (s.kind == schema_kind::sequence && number_array(tree_[s.children[0]], v, 0, false)) return;
    const std::vector<py::object> elements = items(v);
    ar_.write_sequence(elements.size(), [&] { each(elements, s.children[0]); });
  }
  void write_fixed(const schema_node& s, py::handle v) {
    const auto count = static_cast<std::size_t>(s.count);
    if (number_array(tree_[s.children[0]], v, count, true)) return;
    const std::vector<py::object> elements = items(v);
    if (elements.size() != count)
      fail(error_text({"an array of ", count, " elements, not ", elements.size()}));
    ar_.write_tuple(count, [&] { each(elements, s.children[0]); });
  }
  void write_tuple(const schema_node& s, py::handle v) {
    const std::vector<py::object> elements = items(v);
    if (elements.size() != s.children.size())
      fail(error_text({"a tuple of ", s.children.size(), " elements, not ", elements.size()}));
    ar_.write_tuple(elements.size(), [&] {
      for (std::size_t i = 0; i < elements.size(); ++i) write(s.children[i], elements[i]);
    });
  }
  void write_map(const schema_node& s, py::handle v) {
    std::vector<std::pair<py::object, py::object>> entries;
    if (PyDict_Check(v.ptr())) {
      for (auto [key, mapped] : py::reinterpret_borrow<py::dict>(v))
        entries.emplace_back(py::reinterpret_borrow<py::object>(key),
                             py::reinterpret_borrow<py::object>(mapped));
    } else {
      for (const py::object& pair : items(v)) {
        const std::vector<py::object> kv = items(pair);
        if (kv.size() != 2) fail("a map entry is a (key, value) pair");
        entries.emplace_back(kv[0], kv[1]);
      }
    }
    ar_.template write_map<int>(entries.size(), [&] {
      for (const auto& [key, mapped] : entries) {
        write(s.children[0], key);
        write(s.children[1], mapped);
      }
    });
  }
  void write_variant(const schema_node& s, py::handle v) {
    if (!py::hasattr(v, "index") || !py::hasattr(v, "value"))
      fail("a variant is a bale.Variant(index, value)");
    const auto index = integer<std::size_t>(v.attr("index"));
    if (index >= s.children.size())
      fail(error_text({"variant alternative ", index, " of ", s.children.size()}));
    ar_.write_variant(index, [&] { write(s.children[index], v.attr("value")); });
  }
  // A member of a dict, a Record or an element of a structured array, or nothing.
  static py::object member(py::handle v, const std::string& name) {
    if (PyDict_Check(v.ptr())) {
      PyObject* found = PyDict_GetItemString(v.ptr(), name.c_str());
      return found ? py::reinterpret_borrow<py::object>(found) : py::object();
    }
    const py::object fields = py::getattr(py::getattr(v, "dtype", py::none()), "names", py::none());
    if (!fields.is_none()) {
      for (const py::handle f : fields)
        if (f.cast<std::string>() == name) return v[py::str(name)];
      return {};
    }
    fail("a record is a dict, a bale.Record or an element of a structured array");
  }
  void write_record(const schema_node& s, py::handle v) {
    if (py::isinstance<py::array>(v) && is_array_record(s)) return write_shaped(s, v);
    const std::size_t count = s.names.size();
    std::vector<py::object> members(count);
    for (std::size_t i = 0; i < count; ++i) {
      members[i] = member(v, s.names[i]);
      if (!members[i] && !s.flag) fail("the record has no member '" + s.names[i] + "'");
    }
    if (s.flag) {  // the presence mask of a record that omits defaults
      std::vector<std::uint8_t> mask((count + 7) / 8);
      for (std::size_t i = 0; i < count; ++i)
        if (members[i]) mask[i / 8] = static_cast<std::uint8_t>(mask[i / 8] | (1U << (i % 8)));
      ar_.write_contiguous(mask.data(), mask.size());
    }
    for (std::size_t i = 0; i < count; ++i)
      if (members[i]) within_field(s.names[i], [&] { write(s.children[i], members[i]); });
  }
  static bool is_array_record(const schema_node& s) {
    return s.names.size() == 3 && s.names[0] == "layout" && s.names[1] == "extents" &&
           s.names[2] == "data";
  }
  // An ndarray for an array of bale/arrays: its extents, and its elements in its own layout
  // (column-major when it is Fortran-ordered and not C-ordered).
  void write_shaped(const schema_node& s, py::handle v) {
    const py::array a = py::reinterpret_borrow<py::array>(v);
    const bool column =
        (a.flags() & py::array::f_style) != 0 && (a.flags() & py::array::c_style) == 0;
    py::list extents;
    for (py::ssize_t d = 0; d < a.ndim(); ++d) extents.append(a.shape(d));
    const py::object flat = a.attr("ravel")(py::arg("order") = column ? "F" : "C");
    within_field("layout",
                 [&] { write(s.children[0], py::str(column ? "column_major" : "row_major")); });
    within_field("extents", [&] { write(s.children[1], extents); });
    within_field("data", [&] { write(s.children[2], flat); });
  }

  Archive& ar_;
  const schema_tree& tree_;
};

}  // namespace bale::python
