#include "orbit_camera.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

namespace nav::app {
namespace {

constexpr float kFieldOfViewY = glm::radians(45.0f);
constexpr float kMaxPitch = glm::radians(89.0f);
constexpr float kOrbitRadiansPerPixel = 0.006f;
constexpr float kMinDistance = 0.05f;
constexpr float kMaxDistance = 1.0e5f;

}  // namespace

glm::vec3 OrbitCamera::eyeDirection() const {
  return {std::cos(m_pitch) * std::sin(m_yaw), std::sin(m_pitch),
          std::cos(m_pitch) * std::cos(m_yaw)};
}

glm::mat4 OrbitCamera::viewMatrix() const {
  return glm::lookAt(m_target + eyeDirection() * m_distance, m_target, glm::vec3(0, 1, 0));
}

void OrbitCamera::frame(const Aabb& bounds, const ScreenRect& area, glm::vec2 windowSize) {
  if (bounds.empty() || windowSize.x <= 0.0f || windowSize.y <= 0.0f) return;
  m_target = bounds.center();
  m_sceneRadius = std::max(glm::length(bounds.size()) * 0.5f, 0.1f);
  const glm::vec2 areaCenter = (area.min + area.max) * 0.5f;
  m_lensShift = {areaCenter.x / windowSize.x * 2.0f - 1.0f,
                 1.0f - areaCenter.y / windowSize.y * 2.0f};
  // The fraction of the half-screen the area leaves on each axis.
  const glm::vec2 areaHalf = glm::max(area.size() / windowSize, glm::vec2(0.05f));
  const float tanHalfY = std::tan(kFieldOfViewY * 0.5f);
  const float tanHalfX = tanHalfY * windowSize.x / windowSize.y;
  const glm::mat4 view = viewMatrix();
  const glm::vec3 right(view[0][0], view[1][0], view[2][0]);
  const glm::vec3 up(view[0][1], view[1][1], view[2][1]);
  const glm::vec3 forward = -eyeDirection();
  float distance = kMinDistance;
  for (int i = 0; i < 8; ++i) {
    const glm::vec3 corner((i & 1) ? bounds.max.x : bounds.min.x,
                           (i & 2) ? bounds.max.y : bounds.min.y,
                           (i & 4) ? bounds.max.z : bounds.min.z);
    const glm::vec3 offset = corner - m_target;
    const float depthBeyondTarget = glm::dot(offset, forward);
    distance = std::max(
        distance, std::abs(glm::dot(offset, right)) / (areaHalf.x * tanHalfX) - depthBeyondTarget);
    distance = std::max(
        distance, std::abs(glm::dot(offset, up)) / (areaHalf.y * tanHalfY) - depthBeyondTarget);
  }
  m_distance = std::clamp(distance * 1.06f, kMinDistance, kMaxDistance);
}

void OrbitCamera::orbit(glm::vec2 pixelDelta) {
  m_yaw -= pixelDelta.x * kOrbitRadiansPerPixel;
  m_pitch = std::clamp(m_pitch + pixelDelta.y * kOrbitRadiansPerPixel, -kMaxPitch, kMaxPitch);
}

void OrbitCamera::pan(glm::vec2 pixelDelta, glm::vec2 windowSize) {
  if (windowSize.y <= 0.0f) return;
  const float metresPerPixel = 2.0f * m_distance * std::tan(kFieldOfViewY * 0.5f) / windowSize.y;
  const glm::mat4 view = viewMatrix();
  const glm::vec3 right(view[0][0], view[1][0], view[2][0]);
  const glm::vec3 up(view[0][1], view[1][1], view[2][1]);
  m_target += (-right * pixelDelta.x + up * pixelDelta.y) * metresPerPixel;
}

float OrbitCamera::flySpeed() const {
  // About the view's height (at the focus) in a second, however far out.
  return std::max(m_distance, 1.0f) * 0.8f;
}

void OrbitCamera::fly(glm::vec3 move, float seconds) {
  const glm::vec3 toEye = eyeDirection();
  // The pitch stays within 89 degrees: the eye is never straight above.
  const glm::vec3 forward = glm::normalize(glm::vec3(-toEye.x, 0.0f, -toEye.z));
  const glm::vec3 right = glm::cross(forward, glm::vec3(0.0f, 1.0f, 0.0f));
  m_target += (right * move.x + glm::vec3(0.0f, move.y, 0.0f) + forward * move.z) * flySpeed() *
              seconds;
}

void OrbitCamera::zoom(float wheelSteps) {
  m_distance = std::clamp(m_distance * std::pow(0.88f, wheelSteps), kMinDistance, kMaxDistance);
}

void OrbitCamera::zoomTowards(float wheelSteps, const Ray& ray) {
  const float before = m_distance;
  zoom(wheelSteps);
  const glm::vec3 toEye = eyeDirection();
  const float facing = glm::dot(ray.direction, -toEye);
  if (!(facing > 1e-4f)) return;  // a ray along the plane (or away) meets it nowhere useful
  const float along = glm::dot(m_target - ray.origin, -toEye) / facing;
  const glm::vec3 pointed = ray.origin + ray.direction * along;
  // Scaling the eye and the focus about the pointed point keeps it on the
  // same line of sight, so on the same pixel.
  m_target = pointed + (m_target - pointed) * (m_distance / before);
}

void OrbitCamera::changeFrame(const GridFrame& from, const GridFrame& to) {
  m_target = to.toGrid(from.toFile(m_target));
  // A grid turned by a draws a direction of yaw y (from +z towards +x) at y - a.
  m_yaw += glm::radians(from.degrees - to.degrees);
}

FrameView OrbitCamera::frameView(glm::vec2 windowSize, glm::ivec2 framebufferSize) const {
  FrameView frameView;
  frameView.windowSize = glm::max(windowSize, glm::vec2(1.0f));
  frameView.framebufferSize = glm::max(framebufferSize, glm::ivec2(1));
  frameView.view = viewMatrix();
  // Near scales with the distance so depth precision follows the zoom.
  const float nearPlane = std::max(m_distance * 0.01f, 0.005f);
  const float farPlane = m_distance + m_sceneRadius * 4.0f + 10.0f;
  const glm::mat4 perspective = glm::perspective(
      kFieldOfViewY, frameView.windowSize.x / frameView.windowSize.y, nearPlane, farPlane);
  frameView.projection =
      glm::translate(glm::mat4(1.0f), glm::vec3(m_lensShift, 0.0f)) * perspective;
  return frameView;
}

}  // namespace nav::app
