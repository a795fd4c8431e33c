// SPDX-License-Identifier: BSL-1.0
#pragma once
// bale::save_file and bale::load_file: a value in a file, with a header that says what is inside
// and a checksum of the payload. Loading reads and checks the header, then reads the payload into
// memory in one read and decodes from there: what another process does to the file meanwhile can
// only make the load fail with an error (a mapping would die of SIGBUS if the file shrank).
// Saving replaces the file atomically (file/posix_io.hpp). POSIX only.
//
//   bale::save_file("cells.bale", cells);                       // binary, uncompressed
//   bale::save_file<bale::compact>("cells.bale", cells, {.compression = bale::codec::zstd});
//   auto back = bale::load_file<std::vector<cell>>("cells.bale");
//
// The 40-byte header, all integers little-endian:
//   0  "BALE"      magic                      16 u64  stored size (bytes after the header)
//   4  u8 version  (2)                        24 u64  raw size (payload size once decompressed)
//   5  u8 format   (1 binary, 2 compact)      32 u32  CRC32C of the stored bytes
//   6  u8 codec    (0 none, 1 lz4, 2 zstd)    36 u32  CRC32C of header bytes 0..35
//   7  u8 zero
//   8  u64 schema fingerprint (FNV-1a 64 of the schema text: bale::schema_of<T>().fingerprint())
// then the stored bytes: u32 n, the n bytes of the schema text, zeros to a multiple of 16
// (file/schema_block.hpp), the payload (compressed by the codec, if any). Version 1 files (no
// schema block; a fingerprint of the compiler's spelling of the type, checked only if the
// reader's compiler spells it the same way) are still read.

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bale/compress/compress.hpp"
#include "bale/core/deserialize.hpp"
#include "bale/core/error.hpp"
#include "bale/core/format.hpp"
#include "bale/core/limits.hpp"
#include "bale/core/little_endian.hpp"
#include "bale/core/serialize.hpp"
#include "bale/core/type_fingerprint.hpp"
#include "bale/core/write_context.hpp"
#include "bale/file/posix_io.hpp"
#include "bale/file/schema_block.hpp"
#include "bale/formats.hpp"
#include "bale/fwd.hpp"
#include "bale/schema/resolve.hpp"

namespace bale {

/// How save_file and load_file work.
struct file_options {
  /// Compress the payload (save_file); load_file reads whatever the header says.
  codec compression = codec::none;
  /// The codec's level (0: its default).
  int level = 0;
  /// fsync the file and its directory before save_file returns.
  bool sync = true;
  /// Refuse a file whose schema differs from the type's (bale::schema_of): another type, or
  /// the same type with another layout. Off, the payload is decoded as the type regardless.
  bool check_type = true;
  /// Check the payload's CRC32C before decoding (load_file). Turning it off saves one pass over
  /// the payload (about 0.1 ms per MB here); decoding stays bounds-checked, so a damaged file
  /// still cannot crash the reader, but damage inside values goes unnoticed.
  bool verify_checksum = true;
  /// Map the file instead of reading it (load_file, load_file_owned, inspect_file, the Python
  /// reader): the payload is decoded where the file's pages are, each read as it is first
  /// touched, and with verify_checksum off nothing is read before it is used. A value with views
  /// (load_file_owned) then points into the file's pages. The file must not be cut short while
  /// it is mapped: the system stops a program that touches a page no longer in the file.
  bool map = false;
  /// Decoding limits for load_file; max_depth also limits writing (save_file).
  bale::limits limits{};
};

/// load_file's and record_reader's default format: the one the file's header names (binary or
/// compact). Naming a format instead makes the header's a check; MessagePack and JSON files are
/// read with their format named.
struct stored_format {};

template <class F>
concept file_format = format<F> || std::same_as<F, stored_format>;

namespace detail {

inline constexpr std::size_t file_header_size = 40;
inline constexpr std::uint8_t file_version = wire_versions::file;
inline constexpr std::uint8_t first_file_version = 1;  // no schema block

struct file_header {
  std::uint8_t format = 0;
  codec compression = codec::none;
  std::uint64_t fingerprint = 0;
  std::uint64_t stored_size = 0;  // the schema block and the payload
  std::uint64_t raw_size = 0;
  std::uint32_t checksum = 0;
};

inline void write_header(std::byte* out, const file_header& h) {
  std::memset(out, 0, file_header_size);
  std::memcpy(out, "BALE", 4);
  out[4] = static_cast<std::byte>(file_version);
  out[5] = static_cast<std::byte>(h.format);
  out[6] = static_cast<std::byte>(h.compression);
  put_u64(out + 8, h.fingerprint);
  put_u64(out + 16, h.stored_size);
  put_u64(out + 24, h.raw_size);
  put_u32(out + 32, h.checksum);
  put_u32(out + 36, crc32c(std::span<const std::byte>(out, 36)));
}

/// Accepts a file of any format bale writes (bale::inspect_file).
struct any_format {};

// Refuses a header's format that Format cannot read: another format than the one named, or, by
// default, one that is neither binary nor compact.
template <class Format>
void check_file_format(const std::filesystem::path& path, std::uint8_t id, std::size_t at) {
  if constexpr (std::same_as<Format, any_format>) {
    if (!known_format(id)) file_error(errc::invalid_value, path, "holds " + format_name_of(id), at);
  } else if constexpr (std::same_as<Format, stored_format>) {
    if (!known_packed_format(id))
      file_error(errc::wrong_type, path,
                 "holds " + format_name_of(id) +
                     ": name its format, as in load_file<T, bale::" + format_name_of(id) + ">",
                 at);
  } else if (id != Format::id) {
    file_error(errc::wrong_type, path,
               detail::error_text({"holds ", format_name_of(id), ", not ", Format::name}), at);
  }
}

// Decodes bytes in the format the header named (checked by check_file_format), written with the
// type's schema or, given a plan, with the plan's writer schema.
template <file_format Format, class T>
void deserialize_stored(std::uint8_t id, read_context& context, std::span<const std::byte> bytes,
                        T& value, const resolution* plan = nullptr) {
  const auto read = [&]<class F>(F) { deserialize_planned<F>(context, bytes, plan, value); };
  if constexpr (std::same_as<Format, stored_format>) {
    visit_format<is_packed>(id, read);
  } else {
    read(Format{});
  }
}

/// A bale file read and checked: the payload as stored, and decompressed if it was compressed.
struct file_contents {
  byte_block stored;
  std::vector<std::byte> raw;
  codec compression = codec::none;
  std::uint8_t format_id = 0;
  std::uint8_t version = 0;
  std::uint64_t fingerprint = 0;
  std::size_t payload_offset = 0;          // in the stored bytes: after the schema block
  std::shared_ptr<const resolution> plan;  // when the file's schema differs from the type's
  bool compressed() const noexcept { return compression != codec::none; }
  std::span<const std::byte> payload() const noexcept {
    return stored.bytes().subspan(payload_offset);
  }
  std::span<const std::byte> value_bytes() const noexcept {
    return compressed() ? std::span<const std::byte>(raw) : payload();
  }
  /// The writer's schema text (empty in a version 1 file).
  std::string_view schema() const noexcept {
    return payload_offset == 0 ? std::string_view() : parse_schema_block(stored.bytes()).text;
  }
};

struct owned_access;

}  // namespace detail

/// A value read from a file together with the bytes it was read from, so that the views it holds
/// (std::string_view, std::span) stay valid for as long as this object lives. Movable.
template <class T>
class owned {
 public:
  const T& operator*() const noexcept { return value_; }
  const T* operator->() const noexcept { return &value_; }
  const T& value() const noexcept { return value_; }

 private:
  friend struct detail::owned_access;
  owned() = default;
  std::unique_ptr<detail::file_contents> contents_;
  T value_{};
};

namespace detail {

struct owned_access {
  template <class T>
  static owned<T> make() {
    return owned<T>();
  }
  template <class T>
  static auto& contents(owned<T>& o) noexcept {
    return o.contents_;
  }
  template <class T>
  static T& value(owned<T>& o) noexcept {
    return o.value_;
  }
};

}  // namespace detail

namespace detail {
BALE_CODECS_BEGIN

/// save_file's body, for a value that `write(sink, context)` writes in Format into any sink
/// (save_file's value through its serializer; the Python module's by its schema): the header,
/// the schema block of `schema`, then the payload, streamed to the file or, compressed, encoded
/// first.
template <format Format, class Write>
void save_file_of(const std::filesystem::path& path, const type_schema& schema,
                  const file_options& options, const Write& write) {
  file_header header;
  header.format = Format::id;
  header.compression = options.compression;
  header.fingerprint = schema.fingerprint();
  std::vector<std::byte> raw;
  if (options.compression != codec::none) {
    write_context context(options.limits);
    growing_sink sink(raw);
    write(sink, context);
    sink.finish();
  }
  write_file_atomically(
      path, options.sync, file_header_size,
      [&](file_sink& sink) {
        write_schema_block(sink, schema.text());
        if (options.compression == codec::none) {
          write_context context(options.limits);
          write(sink, context);
        } else {
          const std::vector<std::byte> packed =
              compress_frame(raw, options.compression, options.level, false);
          sink.put(packed.data(), packed.size());
        }
      },
      [&](const file_sink& sink, std::byte* head) {
        const std::size_t block = schema_block_size(schema.text().size());
        header.stored_size = sink.size();
        header.raw_size = options.compression == codec::none ? sink.size() - block : raw.size();
        header.checksum = sink.checksum();
        write_header(head, header);
      });
}

BALE_CODECS_END
}  // namespace detail

BALE_CODECS_BEGIN

/// Writes value to `path` (atomically: a temporary file, then rename). Uncompressed values stream
/// to the file in one pass; compressed ones are encoded, compressed, then written. A file that is
/// replaced keeps its permissions (and owner, where allowed); a symbolic link at `path` is kept and
/// the file it leads to is replaced.
template <format Format = binary, class T>
void save_file(const std::filesystem::path& path, const T& value,
               const file_options& options = {}) {
  detail::save_file_of<Format>(
      path, schema_of<T>(), options, [&]<class Sink>(Sink& sink, detail::write_context& context) {
        using writer = typename Format::template writer<Sink>;
        // A self-describing format that counts before writing (MessagePack) learns the counts
        // of a pointer graph's bodies in a sizing pass.
        if constexpr (writer::self_describing && detail::sizes_first<Format>)
          (void)detail::serialized_size_in<Format>(context, value);
        writer ar(sink, context);
        ar(value);
        detail::end_message(ar);
      });
}

BALE_CODECS_END

namespace detail {
BALE_CODECS_BEGIN

// Checks the schema block at the start of the stored bytes and returns where the payload starts.
// Unless the checksum covered them, its text is checked against the header's fingerprint.
inline std::size_t check_schema_block(const std::filesystem::path& path,
                                      std::span<const std::byte> stored, std::uint64_t fingerprint,
                                      bool checksummed) {
  const schema_block block = parse_schema_block(stored);
  if (!block.ok)
    file_error(errc::length_too_large, path,
               "has a schema block longer than the file, or not padded with zeros",
               file_header_size);
  if (!checksummed && fnv1a64(block.text) != fingerprint)
    file_error(errc::checksum_mismatch, path,
               "is damaged: its schema does not match the header's fingerprint",
               file_header_size + schema_block_prefix);
  return block.size;
}

// A file of another schema than the type's: its schema is read first and resolved against the
// type's (bale/schema/resolution.hpp). One that does not resolve is refused before the payload
// is read, with where the schemas differ.
/// The plan for reading a file whose schema (text, at byte `at`) differs from the type's, or an
/// error naming the file and the member where they do not resolve. Formats that write a
/// variant's position cannot follow alternatives that moved.
inline resolution file_resolution(const std::filesystem::path& path, std::uint8_t format_id,
                                  std::string_view text, std::string_view wanted, std::size_t at) {
  try {
    resolution plan(parse_schema(text), parse_schema(wanted));
    require_followable(plan, !known_packed_format(format_id), format_name_of(format_id));
    return plan;
  } catch (const error& e) {
    error refused(e.code(), "file '" + path.string() + "': holds another type: " + e.detail(),
                  e.offset() == error::no_offset ? at : at + e.offset());
    if (!e.path().empty()) refused.prepend_field(e.path());
    throw refused;
  }
}

inline std::shared_ptr<const resolution> resolve_file_schema(
    int fd, const std::filesystem::path& path, std::size_t stored, std::uint64_t fingerprint,
    std::uint8_t format_id, const type_schema& wanted) {
  constexpr std::size_t at = file_header_size + schema_block_prefix;
  std::byte prefix[schema_block_prefix];
  if (stored < schema_block_prefix ||
      read_at(fd, path, prefix, schema_block_prefix, file_header_size) != schema_block_prefix ||
      get_u32(prefix) > stored - schema_block_prefix)
    file_error(errc::length_too_large, path, "has a schema block longer than the file",
               file_header_size);
  std::string text(get_u32(prefix), '\0');
  if (read_at(fd, path, reinterpret_cast<std::byte*>(text.data()), text.size(), at) != text.size())
    file_error(errc::end_of_input, path, "shrank while it was being read", at);
  if (fnv1a64(text) != fingerprint)
    file_error(errc::checksum_mismatch, path,
               "is damaged: its schema does not match the header's fingerprint", at);
  return std::make_shared<const resolution>(
      file_resolution(path, format_id, text, wanted.text(), at));
}

/// The type a reader expects a file to hold; none when the file is only inspected.
struct expected_type {
  const type_schema* schema = nullptr;
  std::uint64_t first_version_fingerprint = 0;  // type_fingerprint, for version 1 files
};

// The header is read and checked before anything else, against the file's real size: a file that
// is not a bale file, or claims more than it holds, or holds another type, costs 40 bytes of
// reading (and the start of its schema, to say how it differs).
template <class Format>
file_contents read_file_as(const std::filesystem::path& path, const file_options& options,
                           const expected_type& expected) {
  std::size_t file_size = 0;
  const unique_fd fd = open_regular_file(path, file_size);
  std::byte header[file_header_size];
  const std::size_t got = read_at(fd.get(), path, header, file_header_size, 0);
  if (got >= 4 && std::memcmp(header, "BALE", 4) != 0)
    file_error(errc::invalid_value, path, "is not a bale file");
  if (got < file_header_size)
    file_error(errc::end_of_input, path,
               detail::error_text({"has ", got, " bytes, less than a bale header"}), got);
  if (crc32c(std::span<const std::byte>(header, 36)) != get_u32(header + 36))
    file_error(errc::checksum_mismatch, path, "has a damaged header", 36);
  const auto version = std::to_integer<std::uint8_t>(header[4]);
  if (version != file_version && version != first_file_version)
    file_error(errc::invalid_value, path, detail::error_text({"has an unknown version ", version}),
               4);
  const auto format_id = std::to_integer<std::uint8_t>(header[5]);
  check_file_format<Format>(path, format_id, 5);
  const bool has_schema = version != first_file_version;
  const std::uint64_t fingerprint = get_u64(header + 8);
  const bool check_type = options.check_type && expected.schema != nullptr;
  if (check_type && !has_schema && fingerprint != expected.first_version_fingerprint)
    file_error(errc::wrong_type, path,
               "holds another C++ type, or was written by another compiler (a version 1 file: "
               "set file_options::check_type = false to read it)",
               8);
  const std::uint64_t stored_size = get_u64(header + 16);
  const std::size_t stored = file_size - file_header_size;
  if (stored < stored_size)
    file_error(errc::end_of_input, path,
               detail::error_text(
                   {"is truncated: ", stored, " of ", stored_size, " bytes after the header"}),
               file_size);
  if (stored > stored_size)
    file_error(errc::trailing_bytes, path, "has bytes after its payload",
               file_header_size + static_cast<std::size_t>(stored_size));
  std::shared_ptr<const resolution> plan;
  if (has_schema && check_type && fingerprint != expected.schema->fingerprint())
    plan = resolve_file_schema(fd.get(), path, stored, fingerprint, format_id, *expected.schema);
  file_contents contents{options.map
                             ? byte_block::map_file(fd.get(), path, file_size, file_header_size)
                             : byte_block(stored),
                         {},
                         static_cast<codec>(header[6]),
                         format_id,
                         version,
                         fingerprint,
                         0,
                         std::move(plan)};
  if (!options.map &&
      read_at(fd.get(), path, contents.stored.data(), stored, file_header_size) != stored)
    file_error(errc::end_of_input, path, "shrank while it was being read", file_size);
  if (options.verify_checksum && crc32c(contents.stored.bytes()) != get_u32(header + 32))
    file_error(errc::checksum_mismatch, path, "is damaged: the payload checksum does not match",
               file_header_size);
  if (has_schema)
    contents.payload_offset =
        check_schema_block(path, contents.stored.bytes(), fingerprint, options.verify_checksum);
  if (contents.compressed()) {
    try {
      contents.raw = decompress(contents.payload(), options.limits);
    } catch (const error& e) {
      file_error(e.code(), path, e.detail(),
                 e.offset_in_whole(file_header_size + contents.payload_offset));
    }
    if (contents.raw.size() != get_u64(header + 24))
      file_error(errc::invalid_value, path, "raw size does not match", 24);
  }
  return contents;
}

template <class T, class Format>
file_contents read_file(const std::filesystem::path& path, const file_options& options) {
  return read_file_as<Format>(path, options, {&schema_of<T>(), type_fingerprint<T>()});
}

// Runs f(), which decodes the payload; an error names the file and counts its offset from the
// start of the file (of the decompressed payload, for a compressed file).
template <class F>
void within_file(const std::filesystem::path& path, const file_contents& contents, F&& f) {
  try {
    f();
  } catch (const error& e) {
    const std::size_t base = contents.compressed() ? 0 : file_header_size + contents.payload_offset;
    error named(e.code(),
                "file '" + path.string() + "': " + e.detail() +
                    (contents.compressed() ? " (offset in the decompressed payload)" : ""),
                e.offset_in_whole(base));
    if (!e.path().empty()) named.prepend_field(e.path());
    throw named;
  }
}

template <class Format, class T>
void decode_file(const std::filesystem::path& path, const file_contents& contents, T& value,
                 const file_options& options, bool views) {
  within_file(path, contents, [&] {
    read_context context(options.limits);
    if (!views)
      context.forbid_views("read it with bale::load_file_owned, or use std::string / std::vector");
    deserialize_stored<Format>(contents.format_id, context, contents.value_bytes(), value,
                               contents.plan.get());
  });
}

BALE_CODECS_END
}  // namespace detail

BALE_CODECS_BEGIN

/// Reads a T from a file written by save_file, in the format its header names (binary or compact;
/// a format named here must match it). Throws bale::error naming the file: missing, not a regular
/// file, truncated, damaged (checksum), another format or type, changed while read. A T holding
/// views (string_view, span) is refused here: use load_file_owned.
template <class T, file_format Format = stored_format>
void load_file(const std::filesystem::path& path, T& value, const file_options& options = {}) {
  const detail::file_contents contents = detail::read_file<T, Format>(path, options);
  detail::decode_file<Format>(path, contents, value, options, false);
}

/// load_file for a T that holds views into the file's bytes (zero-copy strings and arrays): the
/// bytes are kept beside the value.  auto doc = bale::load_file_owned<index>(path); doc->name ...
template <class T, file_format Format = stored_format>
owned<T> load_file_owned(const std::filesystem::path& path, const file_options& options = {}) {
  using access = detail::owned_access;
  owned<T> result = access::make<T>();
  auto& contents = access::contents(result);
  contents = std::make_unique<detail::file_contents>(detail::read_file<T, Format>(path, options));
  detail::decode_file<Format>(path, *contents, access::value(result), options, true);
  return result;
}

template <class T, file_format Format = stored_format>
T load_file(const std::filesystem::path& path, const file_options& options = {}) {
  T value = T();
  load_file<T, Format>(path, value, options);
  return value;
}

// load_file<bale::compact, T>(path) names the format first (see deserialize).
template <format Format, class T, class... Arguments>
requires(!format<T>) auto load_file(const Arguments&...) {
  static_assert(detail::type_goes_first<T>,
                "bale::load_file<T, Format>(path): the type first, then the format");
}
template <format Format, class T, class... Arguments>
requires(!format<T>) auto try_load_file(const Arguments&...) {
  static_assert(detail::type_goes_first<T>,
                "bale::try_load_file<T, Format>(path): the type first, then the format");
}

/// save_file that returns its error instead of throwing.
template <format Format = binary, class T>
result<void> try_save_file(const std::filesystem::path& path, const T& value,
                           const file_options& options = {}) noexcept {
  try {
    save_file<Format>(path, value, options);
    return {};
  } catch (const error& e) {
    return e;
  } catch (const std::exception& e) {
    return error(errc::io_error, "file '" + path.string() + "': " + e.what());
  }
}

/// load_file that returns its error instead of throwing (a type's own load() exceptions included,
/// as invalid_value).
template <class T, file_format Format = stored_format>
result<T> try_load_file(const std::filesystem::path& path,
                        const file_options& options = {}) noexcept {
  try {
    return load_file<T, Format>(path, options);
  } catch (const error& e) {
    return e;
  } catch (const std::bad_alloc&) {
    return error(errc::allocation_limit, "file '" + path.string() + "': out of memory");
  } catch (const std::exception& e) {
    return error(errc::invalid_value, "file '" + path.string() + "': " + e.what());
  }
}

BALE_CODECS_END

}  // namespace bale
