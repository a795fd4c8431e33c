// SPDX-License-Identifier: BSL-1.0
#pragma once
// The former path of bale/convert.hpp (JSON to binary or compact bytes and back), kept for
// code written before the conversions moved beside the formats they join.

#include "bale/convert.hpp"
