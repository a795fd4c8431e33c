// SPDX-License-Identifier: BSL-1.0
#pragma once
// Two translation units of one program, one built with zstd and one without: each must call its
// own compress and decompress, whichever the linker sees first.
#include <string>

std::string zstd_round_trip_with_zstd();
std::string zstd_round_trip_without_codecs();
