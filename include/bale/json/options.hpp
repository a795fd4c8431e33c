// SPDX-License-Identifier: BSL-1.0
#pragma once
// What to_json, from_json and the json format can be asked to do differently.

namespace bale {

struct json_options {
  /// Newlines and indentation (writing).
  bool pretty = false;
  /// Spaces per level when pretty, 0 to 16 (writing fails with invalid_value otherwise).
  int indent = 2;
  /// Write NaN and infinities as the bare words NaN, Infinity, -Infinity (not JSON; off by
  /// default, when they are an error), and accept them when reading.
  bool allow_non_finite = false;
  /// Reading: skip members the type does not have (by default an error).
  bool skip_unknown_members = false;
  /// Reading: members absent from the text keep the value they had. By default an absent
  /// std::optional member reads as empty and any other absent member is an error.
  bool allow_missing_members = false;
  /// vector<uint8_t> and other unsigned char containers as base64 strings too (std::byte
  /// containers always are).
  bool uint8_as_base64 = false;
};

}  // namespace bale
