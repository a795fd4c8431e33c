// SPDX-License-Identifier: BSL-1.0
#pragma once
// A plugin's public header: its base type, the derived type it adds, and the registry it exports.
// The registry is built inside the shared library (plugin_shapes.cpp), at its first use: nothing
// runs at load time.
#include <bale/all.hpp>
#include <bale/registry.hpp>
#include <string>

struct plugin_shape {
  virtual ~plugin_shape();
  virtual std::string describe() const = 0;
  int id = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bale::field("id", id));
  }
};

struct plugin_star : plugin_shape {  // its virtual functions live in the shared library
  int points = 5;
  std::string describe() const override;
  template <class Archive>
  void serialize(Archive& ar) {
    plugin_shape::serialize(ar);
    ar(bale::field("points", points));
  }
};

using plugin_registry = bale::registry<plugin_shape, plugin_star>;
const plugin_registry& plugin_shapes();
