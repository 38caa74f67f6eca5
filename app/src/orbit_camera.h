#pragma once
// A camera orbiting a focus point: yaw and pitch around it, a distance from it,
// and a lens shift that keeps the focus centred in the part of the window the
// panels leave free.
#include <glm/glm.hpp>

#include "frame_view.h"
#include "nav/geometry.h"
#include "nav/grid_frame.h"

namespace nav::app {

class OrbitCamera {
 public:
  /// Centres the box in `area` of a window of `windowSize`, keeping the view direction,
  /// at the distance where all its corners fit.
  void frame(const Aabb& bounds, const ScreenRect& area, glm::vec2 windowSize);
  /// Turns around the focus. [pixels of mouse movement]
  void orbit(glm::vec2 pixelDelta);
  /// Slides the focus so the point under the mouse follows it. [pixels]
  void pan(glm::vec2 pixelDelta, glm::vec2 windowSize);
  /// Moves towards the focus; one wheel step is about 12 %.
  void zoom(float wheelSteps);
  /// Zooms as zoom() does, towards where `ray` (from the eye through the mouse)
  /// meets the plane through the focus facing the eye: the point there stays
  /// under the mouse.
  void zoomTowards(float wheelSteps, const Ray& ray);

  /// Flies the focus (and the eye with it) for `seconds`: move.x to the
  /// right, move.y up, move.z forward, each in -1..1. Forward and right keep
  /// to the ground plane; the speed grows with the distance from the focus.
  void fly(glm::vec3 move, float seconds);
  /// Metres a second the focus flies at the current distance.
  float flySpeed() const;
  glm::vec3 target() const { return m_target; }
  /// Keeps the view while the scene's coordinates change from one grid's to
  /// another's (a level on a turned grid is drawn in the grid's): the focus
  /// moves to the same point of the file, the yaw turns with the grid.
  void changeFrame(const GridFrame& from, const GridFrame& to);

  FrameView frameView(glm::vec2 windowSize, glm::ivec2 framebufferSize) const;

 private:
  glm::vec3 eyeDirection() const;
  glm::mat4 viewMatrix() const;

  glm::vec3 m_target{0.0f};
  /// Around +Y. [radians]
  float m_yaw = glm::radians(35.0f);
  /// Elevation of the eye above the focus. [radians, within +-89 degrees]
  float m_pitch = glm::radians(62.0f);
  /// Eye to focus. [metres, > 0]
  float m_distance = 20.0f;
  /// Where the focus lands on screen. [normalised device coordinates]
  glm::vec2 m_lensShift{0.0f};
  /// Size of what was framed, to keep the far plane behind it. [metres]
  float m_sceneRadius = 10.0f;
};

}  // namespace nav::app
