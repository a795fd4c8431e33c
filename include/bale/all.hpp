// SPDX-License-Identifier: BSL-1.0
#pragma once
// Everything of the core in one include: bale/bale.hpp, every std type bale supports, the
// compact, JSON and MessagePack formats, small_float and schema_of. It costs about twice what
// bale/bale.hpp costs to compile; each part is also one header of its own.

#include "bale/bale.hpp"
#include "bale/compact/format.hpp"
#include "bale/compress/small_float.hpp"
#include "bale/json/format.hpp"
#include "bale/msgpack/format.hpp"
#include "bale/schema/schema_of.hpp"
#include "bale/types/all.hpp"
