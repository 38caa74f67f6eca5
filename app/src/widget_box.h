#pragma once
// Where a widget was drawn, for the window tests that click it (--print-state's
// "widget" lines).
#include <glm/glm.hpp>

namespace nav::app {

/// A widget's place on screen, in pixels from the window's top left.
struct WidgetBox {
  glm::vec2 min{0.0f};
  glm::vec2 max{0.0f};
  bool operator==(const WidgetBox&) const = default;
};

}  // namespace nav::app
