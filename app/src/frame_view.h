#pragma once
// Where the camera looks from in one frame, and the conversions between world
// points and window pixels that picking, probes and labels share.
#include <optional>

#include <glm/glm.hpp>

namespace nav::app {

struct Ray {
  glm::vec3 origin;
  /// Unit length.
  glm::vec3 direction;
};

/// A rectangle in window coordinates (origin top-left).
struct ScreenRect {
  glm::vec2 min{0.0f};
  glm::vec2 max{0.0f};

  glm::vec2 size() const { return max - min; }
};

struct FrameView {
  glm::mat4 view{1.0f};
  glm::mat4 projection{1.0f};
  /// Window size in screen coordinates (ImGui's and the mouse's units).
  glm::vec2 windowSize{1.0f};
  /// Framebuffer size in pixels (differs from windowSize on high-DPI screens).
  glm::ivec2 framebufferSize{1};

  /// Window coordinates (origin top-left) of a world point; empty when it is behind the eye.
  std::optional<glm::vec2> project(const glm::vec3& world) const;
  /// The ray from the eye through a window position.
  Ray rayThrough(const glm::vec2& window) const;
};

}  // namespace nav::app
