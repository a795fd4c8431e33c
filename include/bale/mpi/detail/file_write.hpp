// SPDX-License-Identifier: BSL-1.0
#pragma once
// How save_file writes one rank's records: every record's size is counted first (so the ranks'
// offsets are known before anything is encoded), then the records are encoded piece by piece
// into one staging buffer that is reused, and each piece goes to the file in one collective
// write. A record that is a large contiguous array (contiguous_payload) is written from its own
// memory: only its size prefix and head are staged. Memory use is the staging buffer, not a
// copy of the records.

#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <span>
#include <vector>

#include "bale/checksum/crc32c.hpp"
#include "bale/core/error.hpp"
#include "bale/core/format.hpp"
#include "bale/core/little_endian.hpp"
#include "bale/core/serialize.hpp"
#include "bale/file/records.hpp"
#include "bale/mpi/detail/header.hpp"
#include "bale/mpi/detail/outgoing.hpp"
#include "bale/mpi/error.hpp"

namespace bale::mpi::detail {

/// The bytes one collective write takes at most.
inline constexpr std::size_t file_piece = std::size_t{1} << 30;
/// The staging buffer's size: records are encoded into it and written when it is full.
inline constexpr std::size_t staging_bytes = std::size_t{8} << 20;
/// A larger array is checksummed and written in slices of this size (bale_mpi_file_bench).
inline constexpr std::size_t checksum_slice_bytes = std::size_t{4} << 20;
/// A contiguous array record of this many bytes or more is written from its own memory.
inline constexpr std::size_t record_from_memory_bytes = std::size_t{64} << 10;

/// One rank's records, measured: each record's payload size, and the rank's bytes in the file
/// (rank 0's begin with the file's header and schema).
struct record_sizes {
  std::vector<std::byte> file_head;  // rank 0 only
  std::vector<std::uint64_t> payloads;
  std::uint64_t part_bytes = 0;

  /// Where each record starts within the part.
  std::vector<std::uint64_t> starts() const {
    std::vector<std::uint64_t> out(payloads.size());
    std::uint64_t at = file_head.size();
    for (std::size_t i = 0; i < payloads.size(); ++i) {
      out[i] = at;
      at += bale::detail::record_prefix_size + payloads[i];
    }
    return out;
  }
};

template <format Format, class T>
record_sizes measure_records(std::span<const T> records, int rank, unsigned file_version) {
  record_sizes sizes;
  if (rank == 0) sizes.file_head = bale::detail::record_file_head<T, Format>(file_version);
  sizes.payloads.resize(records.size());
  sizes.part_bytes = sizes.file_head.size();
  for (std::size_t i = 0; i < records.size(); ++i) {
    const std::uint64_t size = serialized_size<Format>(records[i]);
    if (size > 0xFFFFFFFFu) throw bale::error(errc::invalid_value, "a record is limited to 4 GiB");
    sizes.payloads[i] = size;
    sizes.part_bytes += bale::detail::record_prefix_size + size;
  }
  return sizes;
}

/// The memory a record of `payload` bytes is written from (its elements, after a head), or
/// nothing when it is encoded into the staging buffer.
template <format Format, class T>
std::span<const std::byte> record_memory(const T& record, std::uint64_t payload) {
  if constexpr (contiguous_payload<Format, T>::value) {
    const auto memory = std::as_bytes(contiguous_payload<Format, T>::elements(record));
    if (memory.size() >= record_from_memory_bytes &&
        payload == contiguous_payload<Format, T>::head_size + memory.size())
      return memory;
  }
  return {};
}

/// What one collective write takes: blocks of memory, in file order. Bytes staged one after
/// another make one block.
class write_blocks {
 public:
  void add(const std::byte* data, std::size_t size, bool staged) {
    if (size == 0) return;
    if (staged && !blocks_.empty() && blocks_.back().staged)
      blocks_.back().size += size;
    else
      blocks_.push_back({data, size, staged});
    bytes_ += size;
  }
  std::size_t bytes() const noexcept { return bytes_; }
  bool empty() const noexcept { return blocks_.empty(); }
  void clear() {
    blocks_.clear();
    bytes_ = 0;
  }
  /// Calls each(piece) for pieces of these blocks of at most file_piece bytes, in order.
  template <class Each>
  void split(Each&& each) const {
    write_blocks piece;
    for (const block& b : blocks_) {
      for (std::size_t done = 0; done < b.size;) {
        const std::size_t n = std::min(b.size - done, file_piece - piece.bytes());
        piece.blocks_.push_back({b.data ? b.data + done : nullptr, n, false});
        piece.bytes_ += n;
        done += n;
        if (piece.bytes() == file_piece) {
          each(piece);
          piece.clear();
        }
      }
    }
    if (!piece.empty()) each(piece);
  }
  /// Writes the blocks (at most file_piece bytes) at `at` of `file`, collectively, as one MPI
  /// datatype when there are several. A failure is kept in `failure` if it holds none yet.
  void write_at_all(MPI_File file, std::uint64_t at, std::exception_ptr& failure) const {
    const auto offset = static_cast<MPI_Offset>(at);
    int code = MPI_SUCCESS;
    if (blocks_.size() <= 1) {
      code = MPI_File_write_at_all(file, offset, blocks_.empty() ? nullptr : blocks_[0].data,
                                   static_cast<int>(bytes_), MPI_BYTE, MPI_STATUS_IGNORE);
    } else {
      std::vector<int> lengths;
      std::vector<MPI_Aint> places(blocks_.size());
      for (std::size_t k = 0; k < blocks_.size(); ++k) {
        lengths.push_back(static_cast<int>(blocks_[k].size));
        MPI_Get_address(blocks_[k].data, &places[k]);
      }
      MPI_Datatype type;
      check(MPI_Type_create_hindexed(static_cast<int>(blocks_.size()), lengths.data(),
                                     places.data(), MPI_BYTE, &type),
            "MPI_Type_create_hindexed");
      const scoped_datatype owned(type);
      check(MPI_Type_commit(&type), "MPI_Type_commit");
      code = MPI_File_write_at_all(file, offset, MPI_BOTTOM, 1, type, MPI_STATUS_IGNORE);
    }
    if (code != MPI_SUCCESS && !failure)
      failure = std::make_exception_ptr(error("MPI_File_write_at_all", code, MPI_PROC_NULL, 0));
  }

 private:
  struct block {
    const std::byte* data;  // null when only counting
    std::size_t size;
    bool staged;
  };
  std::vector<block> blocks_;
  std::size_t bytes_ = 0;
};

/// One rank's part as the writes save_file makes: walk() calls write(blocks, at) for each piece
/// of at most file_piece bytes. Counting (encode false) makes the same calls from the sizes
/// alone, with no bytes: every rank learns how many collective writes it takes.
template <format Format, class T>
class part_writer {
 public:
  part_writer(std::span<const T> records, const record_sizes& sizes, std::uint64_t part_at)
      : records_(records), sizes_(sizes), part_at_(part_at) {}

  template <class Write>
  void walk(bool encode, Write&& write) {
    encode_ = encode;
    at_ = part_at_;
    used_ = 0;
    blocks_.clear();
    capacity_ = std::min<std::uint64_t>(staging_bytes, sizes_.part_bytes);
    std::byte* head = room(sizes_.file_head.size(), write);
    if (encode_ && head) std::copy(sizes_.file_head.begin(), sizes_.file_head.end(), head);
    for (std::size_t i = 0; i < records_.size(); ++i) {
      record(records_[i], sizes_.payloads[i], write);
      if (blocks_.bytes() >= staging_bytes) send(write);
    }
    if (!blocks_.empty()) send(write);
  }

 private:
  template <class Write>
  void send(Write& write) {
    blocks_.split([&](const write_blocks& piece) {
      write(piece, at_);
      at_ += piece.bytes();
    });
    blocks_.clear();
    used_ = 0;
  }
  // `bytes` more of the staging buffer, after writing what it holds if they do not fit. The
  // buffer is replaced only when empty (the blocks point into it); it is not zero-filled.
  template <class Write>
  std::byte* room(std::size_t bytes, Write& write) {
    if (used_ + bytes > capacity_ && !blocks_.empty()) send(write);
    if (bytes > capacity_) capacity_ = bytes;
    std::byte* out = nullptr;
    if (encode_) {
      if (allocated_ < capacity_) {
        staging_.reset(new std::byte[capacity_]);
        allocated_ = capacity_;
      }
      out = staging_.get() + used_;
    }
    used_ += bytes;
    blocks_.add(out, bytes, true);
    return out;
  }

  template <class Write>
  void record(const T& value, std::uint64_t payload, Write& write) {
    if constexpr (contiguous_payload<Format, T>::value) {
      const std::span<const std::byte> memory = record_memory<Format>(value, payload);
      if (!memory.empty()) return from_memory(value, payload - memory.size(), memory, write);
    }
    encoded(value, payload, write);
  }

  template <class Write>
  void encoded(const T& record, std::uint64_t payload, Write& write) {
    std::byte* out = room(bale::detail::record_prefix_size + payload, write);
    if (!encode_) return;
    const auto body = std::span(out + bale::detail::record_prefix_size, payload);
    bale::detail::write_counted<Format>(body, record);
    bale::detail::put_u32(out, static_cast<std::uint32_t>(payload));
    bale::detail::put_u32(out + 4, bale::detail::crc32c(body));
  }

  template <class Write>
  void from_memory(const T& record, std::size_t head, std::span<const std::byte> memory,
                   Write& write) {
    if (memory.size() > checksum_slice_bytes) return from_memory_in_slices(record, memory, write);
    std::byte* out = room(bale::detail::record_prefix_size + head, write);
    blocks_.add(memory.data(), memory.size(), false);
    if (!encode_) return;
    std::byte* head_at = out + bale::detail::record_prefix_size;
    contiguous_payload<Format, T>::write_head(head_at, record);
    const std::uint32_t crc = bale::detail::crc32c_extend(
        bale::detail::crc32c(std::span<const std::byte>(head_at, head)), memory);
    bale::detail::put_u32(out, static_cast<std::uint32_t>(head + memory.size()));
    bale::detail::put_u32(out + 4, crc);
  }

  // A large array goes in slices, each checksummed just before it is written, while it is still
  // in the cache: the checksum then costs no pass over memory of its own. The record's prefix,
  // which holds the checksum, is written after them.
  template <class Write>
  void from_memory_in_slices(const T& record, std::span<const std::byte> memory, Write& write) {
    if (!blocks_.empty()) send(write);
    using payload = contiguous_payload<Format, T>;
    std::array<std::byte, bale::detail::record_prefix_size + payload::head_size> prefix{};
    const auto head = std::span(prefix).subspan(bale::detail::record_prefix_size);
    std::uint32_t crc = 0;
    if (encode_) {
      payload::write_head(head.data(), record);
      crc = bale::detail::crc32c(head);
    }
    const std::uint64_t record_at = at_;
    at_ += prefix.size();
    for (std::size_t done = 0; done < memory.size(); done += checksum_slice_bytes) {
      const auto slice = memory.subspan(done, std::min(checksum_slice_bytes, memory.size() - done));
      if (encode_) crc = bale::detail::crc32c_extend(crc, slice);
      blocks_.add(slice.data(), slice.size(), false);
      send(write);
    }
    bale::detail::put_u32(prefix.data(), static_cast<std::uint32_t>(head.size() + memory.size()));
    bale::detail::put_u32(prefix.data() + 4, crc);
    const std::uint64_t end = at_;
    at_ = record_at;
    blocks_.add(prefix.data(), prefix.size(), false);
    send(write);
    at_ = end;
  }

  std::span<const T> records_;
  const record_sizes& sizes_;
  std::uint64_t part_at_;
  std::uint64_t at_ = 0;
  bool encode_ = false;
  std::size_t capacity_ = 0;  // the staging buffer's size, also when only counting
  std::unique_ptr<std::byte[]> staging_;
  std::size_t allocated_ = 0;
  std::size_t used_ = 0;
  write_blocks blocks_;
};

}  // namespace bale::mpi::detail
