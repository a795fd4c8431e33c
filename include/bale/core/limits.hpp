// SPDX-License-Identifier: BSL-1.0
#pragma once
// Limits that bound what a hostile message can make the decoder do.

#include <cstddef>

namespace bale {

/// Per-call decoding limits. The defaults are safe for untrusted input and roomy for real data;
/// raise them for larger trusted messages: `bale::deserialize<T>(bytes, {.max_allocation = 8 <<
/// 30})`.
struct limits {
  /// Containers, optionals, variants and user types nested deeper than this are rejected.
  std::size_t max_depth = 256;
  /// One budget for the whole message: the bytes that decoding may allocate for container
  /// elements and strings, summed over every container at every depth.
  std::size_t max_allocation = std::size_t{1} << 30;
  /// Elements that occupy no bytes on the wire (std::monostate, empty structs) cannot be
  /// bounded by the input size; this caps how many one message may create.
  std::size_t max_empty_elements = std::size_t{1} << 20;
  /// What those elements may occupy in memory, summed (sizeof each): the one allocation a decode
  /// makes that no input byte paid for.
  std::size_t max_empty_bytes = std::size_t{1} << 20;
  /// Distinct keys that may share one bucket of a hash table being read (unordered_set, _map and
  /// their multi forms): keys chosen to collide would otherwise make reading quadratic. Random
  /// keys at the tables' load factor of 1 come nowhere near it. In the multi forms, also the
  /// bucket nodes a read may walk per element, beyond 65,536.
  std::size_t max_bucket_keys = 64;
  /// Objects that pointers (shared_ptr, weak_ptr, unique_ptr) may own in one message, on writing
  /// as on reading. Each object is also charged to max_allocation, and each reference to an
  /// object already read to it as the pointer it becomes.
  std::size_t max_objects = std::size_t{1} << 24;
  /// Whether a message read may hold a cycle of owning pointers (shared_ptrs that own each other,
  /// directly or through unique_ptrs). Such a cycle is never freed: from untrusted input, every
  /// message would leak its objects. Off, reading one is an error; cycles closed by a weak_ptr
  /// or an observer are always read.
  bool allow_owning_cycles = false;
  /// The stack that reading by schema may take (decode_by_schema, bale-inspect, reads resolved
  /// against another schema, and stepping over members the type lacks): those paths take several
  /// times the stack of a typed read per level, so they stop here with errc::depth_exceeded
  /// whatever max_depth allows. The default leaves half of an 8 MiB thread stack to the rest of
  /// the program.
  std::size_t max_stack_bytes = std::size_t{4} << 20;
};

}  // namespace bale
