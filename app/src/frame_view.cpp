#include "frame_view.h"

namespace nav::app {

std::optional<glm::vec2> FrameView::project(const glm::vec3& world) const {
  const glm::vec4 clip = projection * view * glm::vec4(world, 1.0f);
  if (clip.w <= 1e-6f) return std::nullopt;
  const glm::vec2 ndc = glm::vec2(clip) / clip.w;
  return glm::vec2((ndc.x * 0.5f + 0.5f) * windowSize.x, (0.5f - ndc.y * 0.5f) * windowSize.y);
}

Ray FrameView::rayThrough(const glm::vec2& window) const {
  const glm::vec2 ndc(window.x / windowSize.x * 2.0f - 1.0f, 1.0f - window.y / windowSize.y * 2.0f);
  const glm::mat4 inverse = glm::inverse(projection * view);
  glm::vec4 nearPoint = inverse * glm::vec4(ndc, -1.0f, 1.0f);
  glm::vec4 farPoint = inverse * glm::vec4(ndc, 1.0f, 1.0f);
  nearPoint /= nearPoint.w;
  farPoint /= farPoint.w;
  return {glm::vec3(nearPoint), glm::normalize(glm::vec3(farPoint - nearPoint))};
}

}  // namespace nav::app
