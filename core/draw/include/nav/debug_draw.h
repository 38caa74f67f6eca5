#pragma once
// What the core asks to be drawn. The debugger implements this with batched GL
// buffers; tests implement it to record calls. The core never touches GL.
#include <cstdint>
#include <string_view>

#include <glm/glm.hpp>

namespace nav {

struct Color {
  uint8_t r, g, b, a;
  constexpr Color withAlpha(uint8_t alpha) const { return {r, g, b, alpha}; }
  bool operator==(const Color&) const = default;
};

class DebugDraw {
 public:
  virtual ~DebugDraw() = default;
  virtual void line(const glm::vec3& a, const glm::vec3& b, Color color) = 0;
  /// Counter-clockwise seen from the front; drawn without culling.
  virtual void triangle(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                        Color color) = 0;
  /// A screen-space dot. [pixels]
  virtual void point(const glm::vec3& p, float sizePixels, Color color) = 0;
  virtual void text(const glm::vec3& p, std::string_view text, Color color) = 0;
};

}  // namespace nav
