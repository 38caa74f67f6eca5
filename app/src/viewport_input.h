#pragma once
// Mouse and keys over the 3D view (wherever ImGui does not want them): right
// drag orbits, middle or Shift+right drag pans, the wheel zooms; a press and
// release without dragging is a click for the tools.
#include <optional>

#include <glm/glm.hpp>

#include "orbit_camera.h"
#include "tool.h"

namespace nav::app {

struct ViewportClick {
  MouseButton button;
  /// Window coordinates of the press.
  glm::vec2 position;
  bool shift;
  bool control;
};

/// Moves the camera from this frame's mouse input; returns a click if one ended this frame.
std::optional<ViewportClick> handleViewportMouse(OrbitCamera& camera, glm::vec2 windowSize);

}  // namespace nav::app
