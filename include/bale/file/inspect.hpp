// SPDX-License-Identifier: BSL-1.0
#pragma once
// Files read without their C++ type, from the schema they carry: what the bale-inspect tool
// prints, as library functions.
//
//   bale::file_inspection f = bale::inspect_file("hero.bale");
//   f.format;               // "binary"
//   f.schema;               // the writer's schema text (bale::schema_of)
//   bale::to_json(*f.content)  // the value, decoded by that schema
//
//   bale::record_inspector records("events.bales");
//   while (auto r = records.next()) std::cout << bale::to_json(*r) << '\n';
//
// The content is decoded for binary and compact payloads (bale/schema/decode.hpp says how each
// form reads); JSON and MessagePack files describe themselves and version 1 files carry no schema,
// so their content is left empty. An indexed record file (bale::mpi::save_file) also lists its
// writers and the extent of every record. Every check load_file makes (header, checksums, sizes,
// limits) is made here too.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bale/core/error.hpp"
#include "bale/file/file.hpp"
#include "bale/file/record_file.hpp"
#include "bale/formats.hpp"
#include "bale/schema/decode.hpp"
#include "bale/schema/tree.hpp"
#include "bale/schema/value.hpp"

namespace bale {

namespace detail {

// The payload decoded by the schema, where the format needs one to be read.
inline std::optional<value> decode_payload(std::uint8_t format_id,
                                           const std::optional<schema_tree>& schema,
                                           std::span<const std::byte> bytes, const limits& lim) {
  std::optional<value> decoded;
  if (schema)
    visit_format<is_packed>(
        format_id, [&]<class F>(F) { decoded = decode_by_schema<F>(*schema, bytes, lim); });
  return decoded;
}

// A file's schema text parsed; an error counts its offset from the start of the file.
inline std::optional<schema_tree> parse_file_schema(const std::filesystem::path& path, bool present,
                                                    std::string_view text, std::size_t at) {
  if (!present) return std::nullopt;  // a version 1 file
  try {
    return parse_schema(text);
  } catch (const error& e) {
    file_error(e.code(), path, e.detail(), at + e.offset());
  }
}

}  // namespace detail

/// What a .bale file holds, read without its C++ type.
struct file_inspection {
  std::string format;  // "binary", "compact", "json" or "msgpack"
  unsigned version = 0;
  codec compression = codec::none;
  std::uint64_t fingerprint = 0;
  std::string schema;            // the writer's schema text; empty in a version 1 file
  std::optional<value> content;  // decoded by the schema: binary and compact files
  /// Why `content` is empty in a binary or compact file whose schema has a form only the C++
  /// type reads (a type described by hand, a pointer); empty otherwise.
  std::string undecoded;
};

BALE_CODECS_BEGIN

/// Reads a file written by save_file, of any type and format. Throws bale::error as load_file
/// does, and for a schema that is not one bale writes (errc::invalid_value, its offset in the
/// file). A content only its C++ type can decode is left empty, with the reason in `undecoded`;
/// `decode_content` false reads the header and the schema only (the payload is still checked).
inline file_inspection inspect_file(const std::filesystem::path& path,
                                    const file_options& options = {}, bool decode_content = true) {
  const detail::file_contents contents =
      detail::read_file_as<detail::any_format>(path, options, detail::expected_type{});
  file_inspection result{detail::format_name_of(contents.format_id),
                         contents.version,
                         contents.compression,
                         contents.fingerprint,
                         std::string(contents.schema()),
                         std::nullopt,
                         {}};
  const auto tree =
      detail::parse_file_schema(path, contents.version != 1, contents.schema(),
                                detail::file_header_size + detail::schema_block_prefix);
  if (!decode_content) return result;
  try {
    detail::within_file(path, contents, [&] {
      result.content =
          detail::decode_payload(contents.format_id, tree, contents.value_bytes(), options.limits);
    });
  } catch (const error& e) {
    if (e.code() != errc::wrong_type) throw;
    result.undecoded = e.what();
  }
  return result;
}

BALE_CODECS_END

/// Reads a record file (bale/file/records.hpp) of any type, one record at a time, each decoded by
/// the file's schema.
class record_inspector : private detail::record_file {
 public:
  explicit record_inspector(std::filesystem::path path, const limits& lim = {})
      : record_file(std::move(path), lim, &detail::check_file_format<detail::any_format>),
        tree_(detail::parse_file_schema(
            file_path(), version() >= 2, schema(),
            detail::records_header_size + detail::records_schema_head_size)) {}

  std::string format() const { return detail::format_name_of(format_id()); }
  using record_file::file_path;
  using record_file::indexed;
  /// Where the next record's size prefix starts in the file (an indexed file's offsets say where
  /// each record should).
  using record_file::position;
  using record_file::schema;
  using record_file::version;

  /// An indexed file's writers (bale::mpi::save_file's ranks): where writer w's records are,
  /// records [first_of_writers()[w], first_of_writers()[w + 1]). Throws for a file without index.
  const std::vector<std::uint64_t>& first_of_writers() const {
    return indexed_or_fail().first_of_writer;
  }
  /// An indexed file's record extents: record i's bytes (its size prefix included) are
  /// [offsets[i], offsets[i + 1]), the last entry the end of the records. Checked as they are read.
  std::vector<std::uint64_t> record_offsets() const {
    return record_file::record_offsets(0, indexed_or_fail().records);
  }

  /// The next record decoded, or nothing at the end of the file. Throws for a record file whose
  /// records cannot be decoded by schema (JSON or MessagePack records, version 1).
  std::optional<value> next() {
    std::size_t at = 0;
    const auto payload = next_payload(at);
    if (!payload) return std::nullopt;
    try {
      auto v = detail::decode_payload(format_id(), tree_, *payload, record_limits());
      if (!v)
        detail::file_error(errc::wrong_type, file_path(),
                           "holds " + format() + " records" +
                               (version() == 1 ? " without a schema" : "") +
                               ": they are not decoded by schema");
      return v;
    } catch (const error& e) {
      if (e.offset() == error::no_offset) throw;
      throw in_record(e, at);
    }
  }

 private:
  std::optional<schema_tree> tree_;
};

}  // namespace bale
