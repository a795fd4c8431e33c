// SPDX-License-Identifier: BSL-1.0
#pragma once
// bale: the umbrella header. Core, reflection, every std type, the binary, compact, JSON and
// MessagePack formats.

#include "bale/binary/format.hpp"
#include "bale/compact/format.hpp"
#include "bale/compress/small_float.hpp"
#include "bale/core/deserialize.hpp"
#include "bale/core/error.hpp"
#include "bale/core/limits.hpp"
#include "bale/core/serialize.hpp"
#include "bale/core/serializer.hpp"
#include "bale/fwd.hpp"
#include "bale/json/format.hpp"
#include "bale/msgpack/format.hpp"
#include "bale/reflect/aggregate.hpp"
#include "bale/reflect/macro.hpp"
#include "bale/reflect/names.hpp"
#include "bale/schema/schema_of.hpp"
#include "bale/types/all.hpp"
