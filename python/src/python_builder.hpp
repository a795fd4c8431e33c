// SPDX-License-Identifier: BSL-1.0
#pragma once
// The builder bale's decoder by schema (bale/schema/decode.hpp) fills with Python objects: the
// decoder reads and checks every byte, this only makes the objects. Numbers in a sequence or a
// fixed array become one NumPy array: a read-only view of the input where its bytes are the
// elements (binary, uncompressed, kept alive by `owner`), otherwise an array of its own.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "bale/core/error.hpp"
#include "bale/schema/tree.hpp"

namespace bale::python {

namespace py = pybind11;
using namespace py::literals;

/// The Python classes values are made of, looked up once (bale/_types.py).
struct value_types {
  py::object record;      // bale.Record: a dict with attribute access
  py::object variant;     // bale.Variant(index, value)
  py::object structured;  // bale._types.structured(records, dtype): a list of them as an ndarray
};

template <class T>
const char* dtype_name() {
  if constexpr (std::is_same_v<T, float>) return "<f4";
  if constexpr (std::is_same_v<T, double>) return "<f8";
  if constexpr (std::is_signed_v<T>) {
    constexpr const char* names[] = {"", "i1", "<i2", "", "<i4", "", "", "", "<i8"};
    return names[sizeof(T)];
  } else {
    constexpr const char* names[] = {"", "u1", "<u2", "", "<u4", "", "", "", "<u8"};
    return names[sizeof(T)];
  }
}

inline void make_read_only(py::array& a) {
  py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
}

class python_builder {
 public:
  using node = py::object;
  using list = py::list;
  struct map {
    py::dict entries;
    py::list pairs;  // once a key is unhashable or repeated (a multimap): every entry, in order
    bool as_pairs = false;
  };
  using record = py::object;
  static constexpr bool builds = true;

  /// `owner` keeps the input alive for views into it; none makes every array a copy.
  python_builder(const value_types& types, const schema_tree& tree, py::object owner)
      : types_(&types), tree_(&tree), owner_(std::move(owner)) {}

  node none() { return py::none(); }
  node boolean(bool b) { return py::bool_(b); }
  template <class T>
  node number(T x) {
    if constexpr (std::is_floating_point_v<T>)
      return py::float_(static_cast<double>(x));
    else if constexpr (std::is_signed_v<T>)
      return py::int_(static_cast<long long>(x));
    else
      return py::int_(static_cast<unsigned long long>(x));
  }
  // A char is one character, its byte the code point (Latin-1).
  node character(char c) { return steal(PyUnicode_FromOrdinal(static_cast<unsigned char>(c))); }
  // A string is str when it is UTF-8, its bytes otherwise: nothing is lost either way.
  node text(std::string&& s) {
    PyObject* decoded = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), nullptr);
    if (decoded != nullptr) return py::reinterpret_steal<py::object>(decoded);
    PyErr_Clear();
    return py::bytes(s);
  }
  template <class Ch>
  node code_units(const std::basic_string<Ch>& s) {
    int order = -1;  // little-endian
    const auto size = static_cast<Py_ssize_t>(s.size() * sizeof(Ch));
    const char* data = reinterpret_cast<const char*>(s.data());
    PyObject* decoded = sizeof(Ch) == 2
                            ? PyUnicode_DecodeUTF16(data, size, "surrogatepass", &order)
                            : PyUnicode_DecodeUTF32(data, size, "surrogatepass", &order);
    if (decoded != nullptr) return py::reinterpret_steal<py::object>(decoded);
    PyErr_Clear();  // a code unit past U+10FFFF: the numbers themselves
    py::list units;
    for (const Ch c : s) units.append(py::int_(static_cast<unsigned long>(c)));
    return units;
  }
  node enum_name(const schema_node& s, std::size_t i) { return names_of(s)[i]; }

  list start_list(schema_kind, std::size_t) { return py::list(); }
  void append(list& out, node&& v) {
    if (PyList_Append(out.ptr(), v.ptr()) != 0) throw py::error_already_set();
  }
  node finish_list(list&& out, const schema_node& s) {
    switch (s.kind) {
      case schema_kind::tuple:
        return steal(PyList_AsTuple(out.ptr()));
      case schema_kind::set:
        return as_set(std::move(out));
      case schema_kind::bits:
        return bits_as_int(out);
      default: {
        // Records of numbers the format could not hand over whole (compact's varints): the
        // same structured array as from binary, a copy.
        const schema_node& element = (*tree_)[s.children[0]];
        if (element.kind == schema_kind::record && fixed_layout(element))
          return types_->structured(out, dtype_of(element));
        return std::move(out);
      }
    }
  }

  map start_map(bool, std::size_t) { return map{py::dict(), py::list(), false}; }
  void map_entry(map& out, node&& key, node&& mapped) {
    if (!out.as_pairs) {
      const int present = PyDict_Contains(out.entries.ptr(), key.ptr());
      if (present == 0) {
        if (PyDict_SetItem(out.entries.ptr(), key.ptr(), mapped.ptr()) != 0)
          throw py::error_already_set();
        return;
      }
      if (present < 0) PyErr_Clear();  // unhashable
      for (auto [k, v] : out.entries) out.pairs.append(py::make_tuple(k, v));
      out.as_pairs = true;
    }
    out.pairs.append(py::make_tuple(std::move(key), std::move(mapped)));
  }
  node finish_map(map&& out) {
    if (out.as_pairs) return std::move(out.pairs);
    return std::move(out.entries);
  }

  record start_record(const schema_node&) { return types_->record(); }
  void member(record& out, const schema_node& s, std::size_t i, node&& v) {
    if (PyDict_SetItem(out.ptr(), names_of(s)[i].ptr(), v.ptr()) != 0)
      throw py::error_already_set();
  }
  node finish_record(record&& out, const schema_node& s) {
    if (is_array_record(s)) return shaped(out);
    return std::move(out);
  }

  node variant(std::size_t i, node&& alternative) {
    return types_->variant(py::int_(i), std::move(alternative));
  }

  template <class T>
  node number_run(std::span<const std::byte> bytes, std::size_t count) {
    return run(py::dtype(dtype_name<T>()), bytes, count);
  }
  // Records of numbers at fixed places: one structured array whose fields are the members.
  node record_run(const schema_node& record, std::span<const std::byte> bytes, std::size_t count) {
    const py::dtype type = dtype_of(record);
    return run(type, bytes, count);
  }
  /// Whether a value is numbers at fixed places, and then its NumPy type.
  bool fixed(const schema_node& s) { return fixed_layout(s); }
  py::dtype dtype_for(const schema_node& s) { return dtype_of(s); }
  template <class T>
  node number_array(std::vector<T>&& decoded) {
    py::array copy(py::dtype(dtype_name<T>()),
                   std::vector<py::ssize_t>{static_cast<py::ssize_t>(decoded.size())});
    if (!decoded.empty())
      std::memcpy(copy.mutable_data(), decoded.data(), decoded.size() * sizeof(T));
    return copy;
  }

 private:
  static node steal(PyObject* p) {
    if (p == nullptr) throw py::error_already_set();
    return py::reinterpret_steal<py::object>(p);
  }
  // `count` elements of `type` whose bytes are `bytes`: a read-only view kept alive by the owner,
  // or a copy without one.
  node run(const py::dtype& type, std::span<const std::byte> bytes, std::size_t count) {
    const auto n = static_cast<py::ssize_t>(count);
    if (!owner_.is_none()) {
      py::array view(type, {n}, {static_cast<py::ssize_t>(type.itemsize())},
                     const_cast<std::byte*>(bytes.data()), owner_);
      make_read_only(view);
      return view;
    }
    py::array copy(type, std::vector<py::ssize_t>{n});
    if (count != 0) std::memcpy(copy.mutable_data(), bytes.data(), bytes.size());
    return copy;
  }
  // Whether a value is numbers at fixed places (bulk_sizes' rule, for any format): a number, a
  // fixed array of such values, a record of them without a presence mask.
  bool fixed_layout(const schema_node& s) {
    const auto known = fixed_.find(&s);
    if (known != fixed_.end()) return known->second;
    fixed_[&s] = false;  // a record inside itself is not
    bool fixed = false;
    switch (s.kind) {
      case schema_kind::scalar:
        fixed = s.scalar >= scalar_kind::i8 && s.scalar <= scalar_kind::f64;
        break;
      case schema_kind::array:
        fixed = s.count > 0 && fixed_layout((*tree_)[s.children[0]]);
        break;
      case schema_kind::record:
        fixed = !s.flag && !s.children.empty();
        for (const std::uint32_t child : s.children) fixed = fixed && fixed_layout((*tree_)[child]);
        break;
      default:
        break;
    }
    fixed_[&s] = fixed;
    return fixed;
  }
  // The NumPy type of a value of numbers at fixed places (bulk_sizes, decode.hpp): a number's,
  // a fixed array's subarray, a record's fields at the offsets binary puts them.
  py::dtype dtype_of(const schema_node& s) {
    auto& known = dtypes_[&s];
    if (known) return known.cast<py::dtype>();
    py::object made;
    switch (s.kind) {
      case schema_kind::array:
        made = py::dtype::from_args(py::make_tuple(
            dtype_of((*tree_)[s.children[0]]), py::make_tuple(static_cast<py::ssize_t>(s.count))));
        break;
      case schema_kind::record: {
        py::list names, formats, offsets;
        py::ssize_t at = 0;
        for (std::size_t i = 0; i < s.children.size(); ++i) {
          const py::dtype member = dtype_of((*tree_)[s.children[i]]);
          names.append(names_of(s)[i]);
          formats.append(member);
          offsets.append(at);
          at += member.itemsize();
        }
        made = py::dtype::from_args(py::dict("names"_a = names, "formats"_a = formats,
                                             "offsets"_a = offsets, "itemsize"_a = at));
        break;
      }
      default:
        made = scalar_dtype(s.scalar);
    }
    known = made;
    return made.cast<py::dtype>();
  }
  static py::dtype scalar_dtype(scalar_kind k) {
    switch (k) {
      case scalar_kind::i8:
        return py::dtype(dtype_name<std::int8_t>());
      case scalar_kind::i16:
        return py::dtype(dtype_name<std::int16_t>());
      case scalar_kind::i32:
        return py::dtype(dtype_name<std::int32_t>());
      case scalar_kind::i64:
        return py::dtype(dtype_name<std::int64_t>());
      case scalar_kind::u8:
        return py::dtype(dtype_name<std::uint8_t>());
      case scalar_kind::u16:
        return py::dtype(dtype_name<std::uint16_t>());
      case scalar_kind::u32:
        return py::dtype(dtype_name<std::uint32_t>());
      case scalar_kind::u64:
        return py::dtype(dtype_name<std::uint64_t>());
      case scalar_kind::f32:
        return py::dtype(dtype_name<float>());
      default:
        return py::dtype(dtype_name<double>());
    }
  }
  // A set of unhashable elements (records, lists) or a multiset with repeats stays a list.
  static node as_set(py::list&& elements) {
    PyObject* set = PySet_New(elements.ptr());
    if (set == nullptr) {
      PyErr_Clear();
      return std::move(elements);
    }
    if (PySet_GET_SIZE(set) != PyList_GET_SIZE(elements.ptr())) {
      Py_DECREF(set);
      return std::move(elements);
    }
    return py::reinterpret_steal<py::object>(set);
  }
  // A bitset's 64-bit words, the first the lowest, as one int.
  static node bits_as_int(const py::list& words) {
    py::object value = py::int_(0);
    const py::int_ shift(64);
    for (Py_ssize_t i = PyList_GET_SIZE(words.ptr()); i-- > 0;)
      value = (value.attr("__lshift__")(shift)).attr("__or__")(words[static_cast<std::size_t>(i)]);
    return value;
  }
  const std::vector<py::object>& names_of(const schema_node& s) {
    std::vector<py::object>& names = names_[&s];
    if (names.empty())
      for (const std::string& name : s.names)
        names.push_back(steal(PyUnicode_InternFromString(name.c_str())));
    return names;
  }
  // The record bale/arrays writes: its layout, its extents and its elements.
  static bool is_array_record(const schema_node& s) {
    return s.names.size() == 3 && s.names[0] == "layout" && s.names[1] == "extents" &&
           s.names[2] == "data";
  }
  node shaped(const py::object& r) {
    const py::dict members = r.cast<py::dict>();
    if (members.size() != 3) return r;
    const py::object data = members["data"];
    if (!py::isinstance<py::array>(data)) return r;  // elements that are not numbers
    const py::object layout = members["layout"];
    const bool row = py::isinstance<py::str>(layout) && layout.cast<std::string>() == "row_major";
    const bool column =
        py::isinstance<py::str>(layout) && layout.cast<std::string>() == "column_major";
    if (!row && !column) return r;
    py::tuple shape = py::tuple(members["extents"].attr("tolist")());
    std::uint64_t product = 1;
    for (const py::handle e : shape) {
      const auto n = e.cast<std::uint64_t>();
      if (n != 0 && product > UINT64_MAX / n)
        throw error(errc::invalid_value, "array extents whose product overflows");
      product *= n;
    }
    if (product != static_cast<std::uint64_t>(data.cast<py::array>().size()))
      throw error(errc::invalid_value, "an array whose element count is not its extents' product");
    return data.attr("reshape")(shape, py::arg("order") = row ? "C" : "F");
  }

  const value_types* types_;
  const schema_tree* tree_;
  py::object owner_;
  std::unordered_map<const schema_node*, py::object> dtypes_;
  std::unordered_map<const schema_node*, bool> fixed_;
  std::unordered_map<const schema_node*, std::vector<py::object>> names_;
};

}  // namespace bale::python
