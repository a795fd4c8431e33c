// SPDX-License-Identifier: BSL-1.0
#pragma once
// bale::registry and bale::with: polymorphic pointers without global registration
// (bale/graph/registry.hpp).

#include "bale/graph/registry.hpp"
