// SPDX-License-Identifier: BSL-1.0
#pragma once
// bale: the umbrella header. The core, reflection, the binary format and the std types most
// programs hold: strings, vector, array, map, set, optional, variant, tuple, pair, span, smart
// pointers. Each other format and std type is one header of its own (bale/json/format.hpp,
// bale/types/unordered_map.hpp, ...); bale/all.hpp includes every one.

#include "bale/binary/format.hpp"
#include "bale/core/deserialize.hpp"
#include "bale/core/error.hpp"
#include "bale/core/limits.hpp"
#include "bale/core/serialize.hpp"
#include "bale/core/serializer.hpp"
#include "bale/fwd.hpp"
#include "bale/reflect/aggregate.hpp"
#include "bale/reflect/macro.hpp"
#include "bale/reflect/names.hpp"
#include "bale/types/array.hpp"
#include "bale/types/c_array.hpp"
#include "bale/types/map.hpp"
#include "bale/types/memory.hpp"
#include "bale/types/observer.hpp"
#include "bale/types/optional.hpp"
#include "bale/types/owning_ptr.hpp"
#include "bale/types/scalar.hpp"
#include "bale/types/set.hpp"
#include "bale/types/span.hpp"
#include "bale/types/string.hpp"
#include "bale/types/tuple.hpp"
#include "bale/types/utility.hpp"
#include "bale/types/variant.hpp"
#include "bale/types/vector.hpp"
