// SPDX-License-Identifier: BSL-1.0
// The receiving side of bale::mpi on any bytes, as if one MPI message had brought them: the header
// is checked against the receiver's type and limits, then the payload is decoded, or, for a message
// the size of a whole array, checked as that array, or, for an array of fixed rank, checked against
// the memory it would be received into. Only bale errors, never more than the limit, and a refused
// whole array is left empty. No MPI routine is called. The first byte picks the receiver's type
// and whether it checks the fingerprint.
#include <bale/arrays/multi_array.hpp>
#include <bale/mpi.hpp>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "message.hpp"

namespace {

namespace wire = bale::mpi::detail;
const bale::mpi::status from{0, 1};

bale::mpi::options receiver_settings(bool check_types) {
  bale::mpi::options settings;
  settings.limits.max_allocation = std::size_t{16} << 20;
  settings.check_types = check_types;
  settings.zero_copy_bytes = 16;
  return settings;
}

template <class T>
void receive(std::span<const std::byte> message, const bale::mpi::options& settings) {
  try {
    const wire::header h = wire::parse_head(message, from);
    if (wire::refusal<bale::binary, T>(h, settings, settings.limits.max_allocation, from)) return;
    T value{};
    wire::payload_target<bale::binary, T> target(settings, value);
    if (!target.prepare(h, message.subspan(wire::header_size), h.chunk_bytes).empty())
      return;  // chunks follow
    target.finish(from);
  } catch (const bale::error&) {
  }
}

// An array of fixed rank, or a strided view of one, whose memory the elements would go into:
// the head's layout, extents and count are checked, and the memory made ready for the chunks is
// exactly what the header says they hold.
template <class Target>
void receive_array(std::span<const std::byte> message, const bale::mpi::options& settings,
                   Target& value) {
  try {
    const wire::header h = wire::parse_head(message, from);
    if (wire::refusal<bale::binary, Target>(h, settings, settings.limits.max_allocation, from))
      return;
    wire::payload_target<bale::binary, Target> target(settings, value);
    const std::span<const std::byte> first = message.subspan(wire::header_size);
    const wire::element_memory memory = target.prepare(h, first, h.chunk_bytes);
    if (memory.size() != h.payload_size - first.size()) std::abort();
    if (memory.empty()) target.finish(from);
  } catch (const bale::error&) {
  }
}

void receive_arrays(std::span<const std::byte> message, const bale::mpi::options& settings) {
  using range = boost::multi_array_types::index_range;
  boost::multi_array<double, 3> cube;
  receive_array(message, settings, cube);
  boost::multi_array<double, 3> backing(boost::extents[4][6][8]);
  auto view = backing[boost::indices[range(0, 4, 2)][range()][range(1, 8, 2)]];
  receive_array(message, settings, view);
}

void receive_whole_array(std::span<const std::byte> message, const bale::mpi::options& settings) {
  using array = std::vector<double>;
  const auto elements = wire::whole_array_elements<bale::binary, array>(message.size(), settings);
  if (!elements) return;
  array value(*elements);
  std::memcpy(value.data(), message.data() + wire::array_head_size, *elements * sizeof(double));
  try {
    wire::check_whole_array<bale::binary>(message.first(wire::array_head_size), message.size(),
                                          value, settings, from);
  } catch (const bale::error&) {
    if (!value.empty()) std::abort();
    return;
  }
  const array decoded = bale::deserialize<array>(message.subspan(wire::header_size));
  if (decoded.size() != value.size() ||
      std::memcmp(decoded.data(), value.data(), value.size() * sizeof(double)) != 0)  // NaNs too
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const auto input = fuzz::bytes_of(data + 1, size - 1);
  const std::vector<std::byte> copy(input.begin(), input.end());
  const std::span<const std::byte> message(copy);
  const bale::mpi::options settings = receiver_settings((data[0] & 4) != 0);
  if ((data[0] & 8) != 0) {
    receive_arrays(message, settings);
    return 0;
  }
  switch (data[0] & 3) {
    case 0:
      receive<std::vector<double>>(message, settings);
      break;
    case 1:
      receive<fuzz::message>(message, settings);
      break;
    case 2:
      receive<std::string>(message, settings);
      break;
    default:
      receive_whole_array(message, settings);
  }
  return 0;
}
