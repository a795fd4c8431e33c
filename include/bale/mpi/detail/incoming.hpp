// SPDX-License-Identifier: BSL-1.0
#pragma once
// Receiving: a head is matched (MPI_Mprobe, so its size is known before anything is allocated),
// received, checked against the receiver's type and limits, then the chunks of the rest are
// received, straight into a large array's memory (through a datatype when it is strided) or into
// one payload buffer that bale's hardened decoder reads. A large contiguous array in one message is
// received whole: its header beside it, its elements into the array.

#include <mpi.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstddef>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bale/core/deserialize.hpp"
#include "bale/mpi/detail/header.hpp"
#include "bale/mpi/detail/outgoing.hpp"
#include "bale/mpi/detail/skipping.hpp"
#include "bale/mpi/detail/waiting.hpp"
#include "bale/mpi/error.hpp"

namespace bale::mpi::detail {

/// A head matched by MPI_Mprobe or MPI_Improbe, not received yet.
struct matched_head {
  MPI_Message message = MPI_MESSAGE_NULL;
  status from;
  std::size_t size = 0;
};

inline matched_head matched(MPI_Message message, const MPI_Status& probed) {
  int count = 0;
  check(MPI_Get_count(&probed, MPI_BYTE, &count), "MPI_Get_count", probed.MPI_SOURCE,
        probed.MPI_TAG);
  return {message, {probed.MPI_SOURCE, probed.MPI_TAG}, static_cast<std::size_t>(count)};
}
inline matched_head match_head(const channel& on, int source, int tag) {
  MPI_Message message;
  MPI_Status probed;
  check(MPI_Mprobe(source, tag, on.heads, &message, &probed), "MPI_Mprobe", source, tag);
  return matched(message, probed);
}
inline std::optional<matched_head> try_match_head(const channel& on, int source, int tag) {
  MPI_Message message;
  MPI_Status probed;
  int found = 0;
  check(MPI_Improbe(source, tag, on.heads, &found, &message, &probed), "MPI_Improbe", source, tag);
  if (!found) return std::nullopt;
  return matched(message, probed);
}
/// A head matched within the time `wait` allows; owed chunks are received meanwhile.
inline std::optional<matched_head> match_head(const channel& on, int source, int tag,
                                              const waiting& wait) {
  std::optional<matched_head> found;
  const bool owing = !on.debts->empty();
  (owing ? wait.polled() : wait)
      .step(
          [&] {
            if (owing) on.debts->settle_all(on.chunks);
            found = try_match_head(on, source, tag);
            return found.has_value();
          },
          [&] { found = match_head(on, source, tag); });
  return found;
}

/// A receive that waited as long as it was allowed to.
inline error timed_out(status from, const std::string& missing) {
  return error(
      bale::error(errc::timed_out, bale::detail::error_text({"the deadline passed: ", missing})),
      from.source, from.tag);
}

/// A head too large for the receiver's budget is refused before any memory is set aside for it.
inline void refuse_oversized_head(matched_head& head, const options& settings) {
  const std::size_t most = header_size + settings.limits.max_allocation;
  if (head.size <= most) return;
  discard(head.message, head.size);
  throw error(
      bale::error(errc::allocation_limit,
                  bale::detail::error_text({"a message of ", head.size,
                                            " bytes is over the receiver's max_allocation"})),
      head.from.source, head.from.tag, most, head.size);
}

/// The header of a received head, or an error naming where the head came from.
inline header parse_head(std::span<const std::byte> head, status from) {
  try {
    return read_header(head);
  } catch (const bale::error& e) {
    throw error(e, from.source, from.tag);
  }
}

/// Where two schema texts first differ, from the start of the word that differs: after what
/// (from the member's name that precedes it, at most `width` characters), then `width`
/// characters of each.
inline std::string first_difference(std::string_view sent, std::string_view wanted) {
  constexpr std::size_t width = 60;
  std::size_t at = 0;
  while (at < sent.size() && at < wanted.size() && sent[at] == wanted[at]) ++at;
  const auto in_word = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  };
  while (at > 0 && in_word(sent[at - 1])) --at;  // from the start of the word that differs
  std::size_t from = at > width ? at - width : 0;
  if (const std::size_t name = sent.rfind("{\"name\":", at);
      name != std::string_view::npos && name > from)
    from = name;
  return bale::detail::error_text({"they differ after '", sent.substr(from, at - from), "': '",
                                   sent.substr(at, width), "' against '", wanted.substr(at, width),
                                   "'"});
}

/// A message of another type than T: both schemas (the sender's when this program has a type of
/// its fingerprint, as every rank of one program does) and where they differ.
template <class T>
std::string another_type(std::uint64_t sent) {
  const std::string_view wanted = bale::schema_of<std::remove_cv_t<T>>().text();
  constexpr std::size_t shown = 200;
  const auto more = [](std::string_view text) { return text.size() > shown ? "..." : ""; };
  if (const type_schema* sender = schema_of_message_type(sent)) {
    const std::string_view text = sender->text();
    return bale::detail::error_text(
        {"the message holds another type than the one asked for: the sender's schema is ",
         text.substr(0, shown), more(text), ", the receiver's ", wanted.substr(0, shown),
         more(wanted), "; ", first_difference(text, wanted)});
  }
  return bale::detail::error_text(
      {"the message holds another type than the one asked for: the sender's schema has "
       "fingerprint ",
       sent, " (a type this program does not send), the receiver's ", message_fingerprint<T>(),
       " (", wanted.substr(0, shown), more(wanted), ")"});
}

/// Why a receiver of T with this budget refuses a message with this header, if it does.
template <class Format, class T>
std::optional<error> refusal(const header& h, const options& settings, std::size_t max_payload,
                             status from) {
  const auto refused = [&](errc code, const std::string& why, std::size_t offset,
                           std::size_t expected = error::no_size,
                           std::size_t actual = error::no_size) {
    return error(bale::error(code, why, offset), from.source, from.tag, expected, actual);
  };
  if (h.flags & flag_failed) {
    const bool named = h.fingerprint != 0 && h.fingerprint <= static_cast<std::uint64_t>(INT_MAX);
    const failure_origin origin{
        named ? static_cast<int>(h.fingerprint - 1) : from.source,
        h.chunk_bytes <= 4 ? static_cast<failure_kind>(h.chunk_bytes) : failure_kind::unknown};
    return error(origin, from.tag);
  }
  if (h.format != Format::id)
    return refused(
        errc::wrong_type,
        bale::detail::error_text({"the message is in format ", h.format, ", not ", Format::name}),
        5);
  if (settings.check_types && (h.flags & flag_fingerprint) &&
      h.fingerprint != message_fingerprint<T>())
    return refused(errc::wrong_type, another_type<T>(h.fingerprint), 8);
  if (h.payload_size > max_payload)
    return refused(errc::allocation_limit,
                   bale::detail::error_text({"the message announces ", h.payload_size,
                                             " bytes, over the receiver's limit of ", max_payload}),
                   16, max_payload, h.payload_size);
  return std::nullopt;
}

/// Where a message's payload goes and how it becomes the target: a large array is received
/// straight into the target's memory (strided or not); anything else into one buffer that bale's
/// hardened decoder reads.
template <class Format, class T>
class payload_target {
 public:
  payload_target(const options& settings, T& target) : settings_(settings), target_(target) {}

  /// Takes the header and the payload bytes that came with it; returns where the other
  /// h.payload_size - first.size() bytes go, which arrive in pieces of `piece` bytes.
  element_memory prepare(const header& h, std::span<const std::byte> first, std::size_t piece) {
    size_ = h.payload_size;
    first_ = first;
    const std::size_t rest = size_ - first.size();
    if (rest == 0) return {};
    if constexpr (contiguous_payload<Format, T>::value) {
      using payload = contiguous_payload<Format, T>;
      using element = typename payload::element;
      if (first.size() == payload::head_size && rest % sizeof(element) == 0) {
        std::optional<element_memory> memory =
            payload::prepare(target_, first.data(), rest / sizeof(element));
        // A strided target takes its pieces through a datatype, so they hold whole elements;
        // one too small for a datatype to pay decodes from a buffer, as a sender would gather.
        if (memory && piece % memory->unit() == 0 && worth_a_datatype(*memory)) {
          direct_ = true;
          return std::move(*memory);
        }
      }
    }
    payload_ = std::unique_ptr<std::byte[]>(new std::byte[size_]);
    std::memcpy(payload_.get(), first.data(), first.size());
    return element_memory(std::span<const std::byte>(payload_.get() + first.size(), rest));
  }

  /// The rest did not arrive whole: a direct target is left empty.
  void abandon() {
    if constexpr (contiguous_payload<Format, T>::value)
      if (direct_) contiguous_payload<Format, T>::abandon(target_);
  }

  /// Decodes the payload into the target (a direct array is in place already).
  void finish(status from) {
    if (direct_) return;
    const std::span<const std::byte> payload =
        payload_ ? std::span<const std::byte>(payload_.get(), size_) : first_;
    try {
      // The payload lives in bale's buffers, which the next message reuses or frees.
      bale::detail::read_context context(settings_.limits);
      context.forbid_views("receive a std::string / std::vector");
      bale::detail::deserialize_in<Format>(context, payload, target_);
    } catch (const bale::error& e) {
      // A vector refused is left empty, as a refused whole array is.
      if constexpr (contiguous_payload<Format, T>::value)
        contiguous_payload<Format, T>::abandon(target_);
      throw error(e, from.source, from.tag);
    }
  }

 private:
  const options& settings_;
  T& target_;
  std::size_t size_ = 0;
  std::span<const std::byte> first_;
  std::unique_ptr<std::byte[]> payload_;
  bool direct_ = false;
};

/// A contiguous array's header and length, the part of its message that is not its elements.
inline constexpr std::size_t array_head_size = header_size + 8;

/// How many elements a matched message of `bytes` holds if it is an array of T received whole:
/// only arrays of at least zero_copy_bytes, whose size is a whole number of elements.
template <class Format, class T>
requires(received_whole<Format, T>()) std::optional<std::size_t> whole_array_elements(
    std::size_t bytes, const options& settings) {
  using element = typename contiguous_payload<Format, T>::element;
  if (bytes > array_head_size && bytes - array_head_size >= settings.zero_copy_bytes &&
      (bytes - array_head_size) % sizeof(element) == 0)
    return (bytes - array_head_size) / sizeof(element);
  return std::nullopt;
}

/// Sizes `target` for a whole array and returns the datatype that receives the message into
/// `head` (array_head_size bytes) and the array. The message's size paid for the elements.
template <class T>
scoped_datatype whole_array_type(std::byte* head, T& target, std::size_t elements) {
  target.resize(elements);
  return two_places(head, array_head_size, target.data(),
                    elements * sizeof(typename T::value_type));
}

/// Checks a whole array's header after it arrived: a message that was not this array is an
/// error, and leaves the target empty.
template <class Format, class T>
void check_whole_array(std::span<const std::byte> head, std::size_t bytes, T& target,
                       const options& settings, status from) {
  try {
    const header h = parse_head(head.first(header_size), from);
    if (auto refused = refusal<Format, T>(h, settings, settings.limits.max_allocation, from))
      throw *refused;
    if (h.payload_size != bytes - header_size ||
        get_u64(head.data() + header_size) != target.size())
      throw error(bale::error(errc::invalid_value,
                              bale::detail::error_text(
                                  {"the header announces ", h.payload_size,
                                   " payload bytes, not an array in a message of ", bytes}),
                              16),
                  from.source, from.tag, bytes - header_size, h.payload_size);
  } catch (...) {
    target.clear();
    throw;
  }
}

/// Receives a matched message that whole_array_elements accepted.
template <class Format, class T>
void receive_whole_array(matched_head& matched, T& target, std::size_t elements,
                         const options& settings) {
  std::array<std::byte, array_head_size> head;
  try {
    const scoped_datatype whole = whole_array_type(head.data(), target, elements);
    check(MPI_Mrecv(MPI_BOTTOM, 1, whole.get(), &matched.message, MPI_STATUS_IGNORE), "MPI_Mrecv",
          matched.from.source, matched.from.tag);
  } catch (...) {
    if (matched.message != MPI_MESSAGE_NULL) discard(matched.message, matched.size);
    target.clear();
    throw;
  }
  check_whole_array<Format>(head, matched.size, target, settings, matched.from);
}

/// Receives the chunks of one point-to-point message and decodes it into `target`.
template <class Format, class T>
class receiver {
 public:
  receiver(const channel& on, T& target, std::size_t max_payload)
      : on_(on), target_(*on.settings, target), max_payload_(max_payload) {}
  receiver(const receiver&) = delete;
  receiver& operator=(const receiver&) = delete;
  ~receiver() {
    // Given up on before its chunks arrived (an abandoned request, an error, a deadline): the
    // chunks matched already land before the buffers go away (a matched receive cannot be
    // cancelled); those not matched yet are owed, to be received into nothing.
    if (!pending_.empty())
      MPI_Waitall(static_cast<int>(pending_.size()), pending_.data(), MPI_STATUSES_IGNORE);
    try {
      on_.debts->owe(from_.source, from_.tag, rest_ - matched_);
    } catch (...) {  // no memory to note the debt in: those chunks stay queued
    }
  }

  /// The head is in `head`, which stays valid until finish(). A refused message throws at once:
  /// its chunks are owed (and received into nothing, in a collective, before it throws).
  void start(std::span<const std::byte> head, status from, const waiting& wait) {
    from_ = from;
    header_ = parse_head(head, from);
    first_bytes_ = head.size() - header_size;
    rest_ = header_.payload_size - first_bytes_;
    // A payload that fits in one chunk comes whole in the head, unless it is an array, whose
    // elements may follow from the sender's memory: chunks announced for anything else will
    // never come from a bale sender, so nothing is waited for or owed.
    if (!contiguous_payload<Format, T>::value && rest_ > 0 &&
        header_.payload_size <= header_.chunk_bytes) {
      rest_ = 0;
      throw error(bale::error(errc::invalid_value,
                              bale::detail::error_text(
                                  {"the message announces ", header_.payload_size,
                                   " payload bytes with chunks to follow, but that fits in one "
                                   "chunk of ",
                                   header_.chunk_bytes, ", which a sender sends whole"}),
                              16),
                  from.source, from.tag);
    }
    if (auto refused = refusal<Format, T>(header_, *on_.settings, max_payload_, from)) {
      skip_chunks(wait);
      throw *refused;
    }
    destination_ = target_.prepare(header_, head.subspan(header_size), header_.chunk_bytes);
  }

  /// Whether every chunk has arrived within the time `wait` allows.
  bool arrived(const waiting& wait) {
    if (!cleared_ && rest_ > 0) {
      // Chunks an earlier message from this rank and tag still owes come first.
      const int source = from_.source;
      const int tag = from_.tag;
      if (!wait.step([&] { return on_.debts->settle(on_.chunks, source, tag); },
                     [&] { on_.debts->settle_blocking(on_.chunks, source, tag); }))
        return false;
      cleared_ = true;
    }
    while (arrived_ < rest_) {
      const bool owing = !on_.debts->empty();
      const bool progressed = (owing ? wait.polled() : wait)
                                  .step(
                                      [&] {
                                        if (owing) on_.debts->settle_all(on_.chunks);
                                        const bool matched = match_chunks();
                                        return complete_chunks() || matched;
                                      },
                                      [&] { receive_next_chunk(); });
      if (!progressed) return false;
    }
    return true;
  }

  /// What has not arrived, for an error after a deadline.
  std::string missing() {
    if (!cleared_ && rest_ > 0)
      return "chunks of an earlier message from this rank and tag did not arrive";
    std::size_t arrived = first_bytes_ + arrived_;
    for (std::size_t i = 0; i < pending_.size(); ++i) {
      int done = 0;
      MPI_Request_get_status(pending_[i], &done, MPI_STATUS_IGNORE);
      if (done) arrived += pending_sizes_[i];
    }
    return bale::detail::error_text(
        {"the message's payload is ", header_.payload_size, " bytes, ", arrived, " arrived"});
  }

  void finish() { target_.finish(from_); }
  status from() const noexcept { return from_; }

 private:
  // At most this many chunk receives are matched and posted at once: a message of many small
  // chunks costs no more memory than one of a few.
  static constexpr std::size_t window = 8;

  // The chunks of a refused message are owed, so that they cannot be taken for those of the
  // next message from the same rank and tag. Waiting for them lets an honest sender finish; a
  // peer that never sends them costs at most refused_chunks_wait. In a collective (heads and
  // chunks on one communicator) they are taken now, so that no head is mistaken for one.
  void skip_chunks(const waiting& wait) {
    if (rest_ == 0) return;
    on_.debts->owe(from_.source, from_.tag, rest_);
    matched_ = arrived_ = rest_;
    const int source = from_.source;
    const int tag = from_.tag;
    const auto settle = [&] { return on_.debts->settle(on_.chunks, source, tag); };
    if (on_.heads == on_.chunks)
      on_.debts->settle_blocking(on_.chunks, source, tag);
    else if (wait.blocks())
      waiting::within(on_.settings->refused_chunks_wait).step(settle, [] {});
  }

  // Each chunk is matched (MPI_Improbe, MPI_Mprobe) and its size checked against the one
  // announced before a byte of it is received: MPI must never truncate a receive into the
  // target (Open MPI writes a truncated single-copy message past the end of the buffer).
  bool match_chunks() {
    bool matched = false;
    while (matched_ < rest_ && pending_.size() < window) {
      MPI_Message message;
      MPI_Status probed;
      int found = 0;
      check(MPI_Improbe(from_.source, from_.tag, on_.chunks, &found, &message, &probed),
            "MPI_Improbe", from_.source, from_.tag);
      if (!found) break;
      const std::size_t size = expected_chunk(message, probed);
      const memory_piece piece = piece_of(destination_, matched_, size);
      pending_.emplace_back();
      pending_sizes_.push_back(size);
      check(MPI_Imrecv(piece.buffer, piece.count, piece.type, &message, &pending_.back()),
            "MPI_Imrecv", from_.source, from_.tag);
      matched_ += size;
      matched = true;
    }
    return matched;
  }
  // Whether the chunks matched so far have all arrived (then they are counted as arrived).
  bool complete_chunks() {
    if (pending_.empty()) return false;
    int done = 0;
    check(
        MPI_Testall(static_cast<int>(pending_.size()), pending_.data(), &done, MPI_STATUSES_IGNORE),
        "MPI_Testall", from_.source, from_.tag);
    if (done) chunks_completed();
    return done != 0;
  }
  // Waits for the chunks matched so far, or for the next chunk when none is.
  void receive_next_chunk() {
    if (!pending_.empty()) {
      check(MPI_Waitall(static_cast<int>(pending_.size()), pending_.data(), MPI_STATUSES_IGNORE),
            "MPI_Waitall", from_.source, from_.tag);
      chunks_completed();
      return;
    }
    MPI_Message message;
    MPI_Status probed;
    check(MPI_Mprobe(from_.source, from_.tag, on_.chunks, &message, &probed), "MPI_Mprobe",
          from_.source, from_.tag);
    const std::size_t size = expected_chunk(message, probed);
    const memory_piece piece = piece_of(destination_, matched_, size);
    check(MPI_Mrecv(piece.buffer, piece.count, piece.type, &message, MPI_STATUS_IGNORE),
          "MPI_Mrecv", from_.source, from_.tag);
    matched_ += size;
    arrived_ = matched_;
  }
  void chunks_completed() {
    pending_.clear();
    pending_sizes_.clear();
    arrived_ = matched_;
  }
  // The size of the next chunk, which the matched `message` must have; one of another size is
  // received into nothing, and the message is an error (its place counts as received).
  std::size_t expected_chunk(MPI_Message& message, const MPI_Status& probed) {
    const std::size_t expected = std::min<std::size_t>(header_.chunk_bytes, rest_ - matched_);
    int count = 0;
    MPI_Get_count(&probed, MPI_BYTE, &count);
    if (count >= 0 && static_cast<std::size_t>(count) == expected) return expected;
    discard(message, static_cast<std::size_t>(std::max(count, 0)));
    matched_ += expected;
    target_.abandon();
    throw error(bale::error(errc::end_of_input,
                            bale::detail::error_text({"a chunk of ", count, " bytes where ",
                                                      expected, " were announced"})),
                from_.source, from_.tag, expected, static_cast<std::size_t>(std::max(count, 0)));
  }

  const channel& on_;
  payload_target<Format, T> target_;
  std::size_t max_payload_;
  status from_;
  header header_;
  std::size_t first_bytes_ = 0;
  std::size_t rest_ = 0;     // the payload's bytes after the head: its chunks
  std::size_t matched_ = 0;  // of those, in chunks matched (being received or arrived)
  std::size_t arrived_ = 0;  // of those, arrived
  bool cleared_ = false;
  element_memory destination_;
  std::vector<MPI_Request> pending_;  // chunk receives matched and posted
  std::vector<std::size_t> pending_sizes_;
};

/// Receives one message into `value`, the head through `scratch` (kept for reuse), waiting as
/// `wait` allows; a deadline that passes is errc::timed_out.
template <class Format, class T>
status receive(const channel& on, int source, int tag, T& value, std::vector<std::byte>& scratch,
               const waiting& wait = waiting::forever()) {
  std::optional<matched_head> found = match_head(on, source, tag, wait);
  if (!found) throw timed_out({source, tag}, "no message arrived");
  matched_head& head = *found;
  refuse_oversized_head(head, *on.settings);
  if constexpr (received_whole<Format, T>()) {
    if (const auto elements = whole_array_elements<Format, T>(head.size, *on.settings)) {
      receive_whole_array<Format>(head, value, *elements, *on.settings);
      return head.from;
    }
  }
  if (scratch.size() < head.size) scratch.resize(head.size);
  MPI_Status received;
  check(MPI_Mrecv(scratch.data(), static_cast<int>(head.size), MPI_BYTE, &head.message, &received),
        "MPI_Mrecv", head.from.source, head.from.tag);
  receiver<Format, T> rest(on, value, on.settings->limits.max_allocation);
  const auto release = [&] {
    if (scratch.size() > kept_buffer_bytes) std::vector<std::byte>().swap(scratch);
  };
  try {
    rest.start(std::span<const std::byte>(scratch.data(), head.size), head.from, wait);
    if (!rest.arrived(wait)) throw timed_out(head.from, rest.missing());
    rest.finish();
  } catch (...) {
    release();
    throw;
  }
  release();
  return head.from;
}

}  // namespace bale::mpi::detail
