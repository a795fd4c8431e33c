// SPDX-License-Identifier: BSL-1.0
// Built as a shared library (libbale_test_plugin.so) that the graph tests link.
#include "graph_plugin/plugin_shapes.hpp"

plugin_shape::~plugin_shape() = default;

std::string plugin_star::describe() const {
  return "star with " + std::to_string(points) + " points";
}

const plugin_registry& plugin_shapes() {
  static const plugin_registry shapes = bale::registry<plugin_shape>{}.add<plugin_star>("star");
  return shapes;
}
