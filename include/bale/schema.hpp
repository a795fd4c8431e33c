// SPDX-License-Identifier: BSL-1.0
#pragma once
// bale::schema_of: a type's schema, its text and fingerprint (bale/schema/schema_of.hpp).

#include "bale/schema/schema_of.hpp"
