// SPDX-License-Identifier: BSL-1.0
// bale._core: bale's own file readers and its decoder by schema, with a builder of Python
// objects. Every check the C++ readers make (header, checksums, sizes, limits, nesting) is made
// here by the same code; a bale::error becomes a bale.Error with its code, offset and path.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <bale/bale.hpp>
#include <bale/file/inspect.hpp>
#include <bale/file/record_file.hpp>
#include <bale/file/records.hpp>
#include <bale/schema/decode.hpp>
#include <bale/schema/tree.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "python_builder.hpp"
#include "python_encoder.hpp"

namespace py = pybind11;
using namespace py::literals;

namespace bale::python {
namespace {

value_types& types() {
  static value_types* t = new value_types{};  // never destroyed: Python owns the objects
  return *t;
}
py::object& error_class() {
  static py::object* e = new py::object();
  return *e;
}

limits limits_from(const py::dict& given) {
  limits lim;
  const auto take = [&](const char* name, std::size_t& field) {
    if (given.contains(name)) field = given[name].cast<std::size_t>();
  };
  take("max_depth", lim.max_depth);
  take("max_allocation", lim.max_allocation);
  take("max_empty_elements", lim.max_empty_elements);
  take("max_empty_bytes", lim.max_empty_bytes);
  take("max_bucket_keys", lim.max_bucket_keys);
  take("max_objects", lim.max_objects);
  take("max_stack_bytes", lim.max_stack_bytes);
  return lim;
}

// Decodes binary or compact bytes by a schema; views into them are kept alive by `owner`
// (none: every array is a copy).
py::object decode_bytes(std::uint8_t format_id, const schema_tree& tree,
                        std::span<const std::byte> bytes, const limits& lim, py::object owner) {
  py::object result;
  detail::visit_format<detail::is_packed>(format_id, [&]<class F>(F) {
    detail::read_context context(lim);
    typename F::reader ar(bytes, context);
    detail::schema_decoder<typename F::reader, python_builder> decoder(
        ar, tree, {}, python_builder(types(), tree, std::move(owner)));
    result = decoder.read(0);
    if (ar.remaining() != 0)
      ar.fail(errc::trailing_bytes, detail::error_text({ar.remaining(), " bytes after the value"}));
  });
  return result;
}

std::uint8_t format_id_of(const std::string& name) {
  std::uint8_t id = 0;
  for (std::uint8_t i = 1; i < 16 && id == 0; ++i)
    if (detail::known_format(i) && detail::format_name_of(i) == name) id = i;
  if (id == 0) throw error(errc::invalid_value, "no format is named '" + name + "'");
  return id;
}

// A file read and checked whole; the value decoded on demand, views into it kept alive by the
// Python object that holds this.
class file_reader {
 public:
  file_reader(std::filesystem::path path, bool verify, bool map, const py::dict& lim)
      : path_(std::move(path)), limits_(limits_from(lim)) {
    file_options options;
    options.verify_checksum = verify;
    options.map = map;
    options.limits = limits_;
    contents_ = detail::read_file_as<detail::any_format>(path_, options, detail::expected_type{});
    tree_ = detail::parse_file_schema(path_, contents_.version != 1, contents_.schema(),
                                      detail::file_header_size + detail::schema_block_prefix);
  }

  py::dict header() const {
    return py::dict(
        "format"_a = detail::format_name_of(contents_.format_id), "version"_a = contents_.version,
        "compression"_a = std::string(to_string(contents_.compression)),
        "fingerprint"_a = contents_.fingerprint, "schema"_a = std::string(contents_.schema()),
        "payload_offset"_a = detail::file_header_size + contents_.payload_offset,
        "payload_size"_a = contents_.value_bytes().size());
  }
  bool packed() const {
    return detail::visit_format<detail::is_packed>(contents_.format_id, [](auto) {});
  }
  /// The value, decoded by the file's schema; `self` owns the bytes its arrays view.
  py::object value(py::object self) const {
    if (!tree_)
      detail::file_error(
          errc::wrong_type, path_,
          "is a version 1 file: it carries no schema, so only its C++ type reads it");
    py::object result;
    detail::within_file(path_, contents_, [&] {
      result = decode_bytes(contents_.format_id, *tree_, contents_.value_bytes(), limits_,
                            std::move(self));
    });
    return result;
  }
  /// The payload as stored, decompressed: what a self-describing format's reader takes.
  py::bytes payload() const {
    const auto bytes = contents_.value_bytes();
    return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
  }

 private:
  std::filesystem::path path_;
  limits limits_;
  detail::file_contents contents_;
  std::optional<schema_tree> tree_;
};

// A record file read one record at a time; an indexed one (version 3) also by number.
class records_reader : private detail::record_file {
 public:
  records_reader(std::filesystem::path path, const py::dict& lim)
      : record_file(std::move(path), limits_from(lim),
                    &detail::check_file_format<detail::any_format>),
        tree_(detail::parse_file_schema(
            file_path(), version() >= 2, schema(),
            detail::records_header_size + detail::records_schema_head_size)) {
    start_ = position();
  }

  py::dict header() const {
    py::dict h("format"_a = detail::format_name_of(format_id()), "version"_a = version(),
               "schema"_a = schema(), "indexed"_a = indexed());
    if (indexed()) {
      h["count"] = index().records;
      h["first_of_writers"] = index().first_of_writer;
    }
    return h;
  }
  void rewind() { seek_offset(start_); }
  /// Where the records are: from the first one's prefix to the index (or the end of the file).
  std::pair<std::uint64_t, std::uint64_t> extent() const {
    return {start_, indexed() ? index().records_end : std::filesystem::file_size(file_path())};
  }
  /// Checks that records [begin, end) of `mapped` (the file's bytes) all hold `size` bytes, at the
  /// stride of one prefix and one payload, with their checksums (and, in an indexed file, where
  /// the index says), and returns their count: the records are then one array.
  std::uint64_t check_fixed(py::buffer mapped, std::size_t size, bool verify) const {
    const py::buffer_info info = mapped.request();
    const auto* bytes = static_cast<const std::byte*>(info.ptr);
    const auto [begin, end] = extent();
    if (static_cast<std::uint64_t>(info.size) < end)
      detail::file_error(errc::end_of_input, file_path(), "shrank while it was being read", end);
    const std::uint64_t stride = detail::record_prefix_size + size;
    if ((end - begin) % stride != 0)
      detail::file_error(errc::invalid_value, file_path(),
                         "has records of other sizes: they are not one array", begin);
    const std::uint64_t count = (end - begin) / stride;
    if (indexed() && count != index().records)
      detail::file_error(errc::invalid_value, file_path(),
                         "has a record index that disagrees with its records", begin);
    for (std::uint64_t i = 0, at = begin; i < count; ++i, at += stride) {
      if (detail::get_u32(bytes + at) != size)
        detail::file_error(errc::invalid_value, file_path(),
                           "has records of other sizes: they are not one array", at);
      if (indexed() && index().offsets[i] != at)
        detail::file_error(errc::invalid_value, file_path(),
                           "has a record index that disagrees with its records", at);
      const std::span<const std::byte> payload(bytes + at + detail::record_prefix_size, size);
      if (verify && detail::crc32c(payload) != detail::get_u32(bytes + at + 4))
        detail::file_error(errc::checksum_mismatch, file_path(), "has a damaged record", at);
    }
    return count;
  }
  /// The NumPy type of one record when records are numbers at fixed places (else None), and
  /// their size when the file holds them as memory does (binary: a view can show them all), else
  /// 0.
  py::object fixed_dtype() const {
    if (!tree_) return py::none();
    python_builder builder(types(), *tree_, py::none());
    if (tree_->root().kind != schema_kind::record || !builder.fixed(tree_->root()))
      return py::none();
    std::size_t size = 0;
    if (format_id() == binary::id) size = detail::bulk_sizes<binary::reader>(*tree_).of(0);
    return py::make_tuple(builder.dtype_for(tree_->root()), size);
  }
  void seek(std::uint64_t i) { seek_record(i); }
  /// The next record: its value (packed formats) or its payload bytes (JSON, MessagePack), or
  /// None at the end. Arrays are copies: the payload's buffer is reused by the next record.
  py::object next() {
    std::size_t at = 0;
    const auto payload = next_payload(at);
    if (!payload) return py::none();
    if (!detail::visit_format<detail::is_packed>(format_id(), [](auto) {}))
      return py::bytes(reinterpret_cast<const char*>(payload->data()), payload->size());
    if (!tree_)
      detail::file_error(errc::wrong_type, file_path(),
                         "is a version 1 record file: it carries no schema");
    try {
      return decode_bytes(format_id(), *tree_, *payload, record_limits(), py::none());
    } catch (const error& e) {
      if (e.offset() == error::no_offset) throw;
      throw in_record(e, at);
    }
  }
  /// Records [first, last)'s offsets and sizes in the file, for views of fixed-size records.
  std::vector<std::uint64_t> offsets(std::uint64_t first, std::uint64_t last) const {
    return record_offsets(first, last);
  }

 private:
  std::optional<schema_tree> tree_;
  std::uint64_t start_ = 0;
};

py::object decode(py::buffer data, const std::string& schema_text, const std::string& format,
                  const py::dict& lim) {
  const py::buffer_info info = data.request();
  const std::span<const std::byte> bytes(static_cast<const std::byte*>(info.ptr),
                                         static_cast<std::size_t>(info.size * info.itemsize));
  const schema_tree tree = parse_schema(schema_text);
  const std::uint8_t id = format_id_of(format);
  if (!detail::visit_format<detail::is_packed>(id, [](auto) {}))
    throw error(errc::wrong_type, format + " describes itself: it is not decoded by schema");
  return decode_bytes(id, tree, bytes, limits_from(lim), py::none());
}

std::uint8_t packed_format(const std::string& format) {
  const std::uint8_t id = format_id_of(format);
  if (!detail::visit_format<detail::is_packed>(id, [](auto) {}))
    throw error(errc::wrong_type,
                "values are written by schema in binary or compact, not " + format);
  return id;
}

// The value written by the schema into a sink, as a type's serializer writes into it.
template <class Format, class Sink>
void write_by_schema(Sink& sink, detail::write_context& context, const schema_tree& tree,
                     py::handle value) {
  typename Format::template writer<Sink> ar(sink, context);
  python_encoder<decltype(ar)>(ar, tree).write(0, value);
  detail::end_message(ar);
}

py::bytes encode(py::object value, const std::string& schema_text, const std::string& format,
                 const py::dict& lim) {
  const schema_tree tree = parse_schema(schema_text);
  std::vector<std::byte> out;
  detail::visit_format<detail::is_packed>(packed_format(format), [&]<class F>(F) {
    detail::write_context context(limits_from(lim));
    detail::growing_sink sink(out);
    write_by_schema<F>(sink, context, tree, value);
    sink.finish();
  });
  return {reinterpret_cast<const char*>(out.data()), out.size()};
}

codec codec_named(const std::string& name) {
  if (name == "none") return codec::none;
  if (name == "lz4") return codec::lz4;
  if (name == "zstd") return codec::zstd;
  throw error(errc::invalid_value, "no codec is named '" + name + "' (none, lz4, zstd)");
}

void save(const std::filesystem::path& path, py::object value, const std::string& schema_text,
          const std::string& format, const std::string& compression, int level, bool sync,
          const py::dict& lim) {
  const schema_tree tree = parse_schema(schema_text);
  const type_schema schema(schema_text);
  file_options options;
  options.compression = codec_named(compression);
  options.level = level;
  options.sync = sync;
  options.limits = limits_from(lim);
  detail::visit_format<detail::is_packed>(packed_format(format), [&]<class F>(F) {
    detail::save_file_of<F>(path, schema, options,
                            [&]<class Sink>(Sink& sink, detail::write_context& context) {
                              write_by_schema<F>(sink, context, tree, value);
                            });
  });
}

// A record file written from Python: records of a schema, each written as record_writer does.
class records_writer {
 public:
  records_writer(std::filesystem::path path, const std::string& schema_text,
                 const std::string& format, const py::dict& lim)
      : tree_(parse_schema(schema_text)),
        format_id_(packed_format(format)),
        limits_(limits_from(lim)),
        file_(std::move(path), detail::record_file_head(type_schema(schema_text), format_id_,
                                                        wire_versions::record_file)) {}
  void write(py::handle value) {
    file_.add([&](std::vector<std::byte>& buffer) {
      detail::visit_format<detail::is_packed>(format_id_, [&]<class F>(F) {
        detail::write_context context(limits_);
        detail::growing_sink sink(buffer);
        write_by_schema<F>(sink, context, tree_, value);
        sink.finish();
      });
    });
  }
  void close() { file_.close(); }
  std::size_t count() const { return file_.count(); }

 private:
  schema_tree tree_;
  std::uint8_t format_id_;
  limits limits_;
  detail::record_file_writer file_;
};

void raise(const error& e) {
  const py::object offset = e.has_offset() ? py::object(py::int_(e.offset())) : py::none();
  const py::object err =
      error_class()(std::string(to_string(e.code())), e.message(), offset, e.path(), e.detail());
  PyErr_SetObject(error_class().ptr(), err.ptr());
}

}  // namespace
}  // namespace bale::python

PYBIND11_MODULE(_core, m) {
  using namespace bale::python;
  m.doc() = "bale's file readers and decoder by schema";
  py::module_::import("numpy");
  const py::module_ t = py::module_::import("bale._types");
  types().record = t.attr("Record");
  types().variant = t.attr("Variant");
  types().structured = t.attr("structured");
  error_class() = t.attr("Error");
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const bale::error& e) {
      raise(e);
    } catch (const std::bad_alloc&) {
      raise(bale::error(bale::errc::allocation_limit, "out of memory"));
    }
  });

  py::class_<file_reader>(m, "FileReader")
      .def(py::init<std::filesystem::path, bool, bool, const py::dict&>())
      .def("header", &file_reader::header)
      .def("packed", &file_reader::packed)
      .def("value", [](py::object self) { return self.cast<const file_reader&>().value(self); })
      .def("payload", &file_reader::payload);
  py::class_<records_reader>(m, "RecordsReader")
      .def(py::init<std::filesystem::path, const py::dict&>())
      .def("header", &records_reader::header)
      .def("rewind", &records_reader::rewind)
      .def("seek", &records_reader::seek)
      .def("next", &records_reader::next)
      .def("offsets", &records_reader::offsets)
      .def("extent", &records_reader::extent)
      .def("check_fixed", &records_reader::check_fixed)
      .def("fixed_dtype", &records_reader::fixed_dtype);
  py::class_<records_writer>(m, "RecordsWriter")
      .def(py::init<std::filesystem::path, const std::string&, const std::string&,
                    const py::dict&>())
      .def("write", &records_writer::write)
      .def("close", &records_writer::close)
      .def("count", &records_writer::count);
  m.def("decode", &decode, "data"_a, "schema"_a, "format"_a, "limits"_a);
  m.def("encode", &encode, "value"_a, "schema"_a, "format"_a, "limits"_a);
  m.def("save", &save, "path"_a, "value"_a, "schema"_a, "format"_a, "compression"_a, "level"_a,
        "sync"_a, "limits"_a);
}
