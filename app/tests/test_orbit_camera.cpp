// The orbit camera's zoom towards the mouse: the point under the mouse (on the
// plane through the focus) stays under it, zooming in and out, and the
// distance changes as a centred zoom's would. Flying (WASD): forward moves
// the view's centre up the screen along the ground, right moves it right.
#include <gtest/gtest.h>

#include "orbit_camera.h"

namespace {

using namespace nav;
using namespace nav::app;

TEST(OrbitCamera, ZoomTowardsKeepsThePointUnderTheMouse) {
  const glm::vec2 window(1280.0f, 720.0f);
  const ScreenRect area{{290.0f, 0.0f}, {990.0f, 720.0f}};
  for (const glm::vec2 mouse : {glm::vec2(900.0f, 200.0f), glm::vec2(400.0f, 650.0f)}) {
    for (const float steps : {3.0f, -2.0f}) {
      OrbitCamera camera;
      camera.frame(Aabb{{0, 0, 0}, {40, 4, 40}}, area, window);
      const FrameView before = camera.frameView(window, glm::ivec2(window));
      const Ray ray = before.rayThrough(mouse);
      // Where the ray meets the plane through the box's centre facing the eye.
      const glm::vec3 eye = glm::vec3(glm::inverse(before.view)[3]);
      const glm::vec3 focus(20, 2, 20);
      const glm::vec3 toEye = glm::normalize(eye - focus);
      const glm::vec3 pointed = ray.origin + ray.direction * (glm::dot(focus - ray.origin, -toEye) /
                                                              glm::dot(ray.direction, -toEye));
      camera.zoomTowards(steps, ray);
      const FrameView after = camera.frameView(window, glm::ivec2(window));
      const std::optional<glm::vec2> at = after.project(pointed);
      ASSERT_TRUE(at);
      EXPECT_NEAR(at->x, mouse.x, 0.5f) << steps;
      EXPECT_NEAR(at->y, mouse.y, 0.5f) << steps;
      const glm::vec3 eyeAfter = glm::vec3(glm::inverse(after.view)[3]);
      EXPECT_NEAR(glm::distance(eyeAfter, pointed) / glm::distance(eye, pointed),
                  std::pow(0.88f, steps), 1e-3f);
    }
  }
}

// Forward (W) keeps the eye's height and carries the point at the screen's
// centre up the screen; right (D) carries it to the left of where it was seen,
// as the view slides right over it; both at flySpeed metres a second.
TEST(OrbitCamera, FlyMovesAlongTheGroundAsTheViewFaces) {
  const glm::vec2 window(1280.0f, 720.0f);
  const ScreenRect area{{0.0f, 0.0f}, window};
  OrbitCamera camera;
  camera.frame(Aabb{{0, 0, 0}, {40, 4, 40}}, area, window);
  const glm::vec3 focus = camera.target();
  const FrameView before = camera.frameView(window, glm::ivec2(window));
  const glm::vec3 eyeBefore = glm::vec3(glm::inverse(before.view)[3]);
  const float speed = camera.flySpeed();
  // 0.8 of the eye's distance from the focus a second: about the view's height there.
  EXPECT_NEAR(speed, 0.8f * glm::distance(eyeBefore, focus), 1e-3f * speed);

  camera.fly({0.0f, 0.0f, 1.0f}, 0.5f);
  const glm::vec3 eyeForward = glm::vec3(glm::inverse(camera.frameView(window, glm::ivec2(window)).view)[3]);
  EXPECT_NEAR(eyeForward.y, eyeBefore.y, 1e-4f);
  EXPECT_NEAR(glm::distance(camera.target(), focus), 0.5f * speed, 1e-3f);
  const std::optional<glm::vec2> seen = camera.frameView(window, glm::ivec2(window)).project(focus);
  ASSERT_TRUE(seen);
  EXPECT_GT(seen->y, 360.0f + 5.0f) << "the old centre now lies below the screen's centre";
  EXPECT_NEAR(seen->x, 640.0f, 0.5f);

  OrbitCamera sideways;
  sideways.frame(Aabb{{0, 0, 0}, {40, 4, 40}}, area, window);
  sideways.fly({1.0f, 0.0f, 0.0f}, 0.5f);
  const std::optional<glm::vec2> aside = sideways.frameView(window, glm::ivec2(window)).project(focus);
  ASSERT_TRUE(aside);
  EXPECT_LT(aside->x, 640.0f - 5.0f);
  EXPECT_NEAR(aside->y, 360.0f, 0.5f);
  EXPECT_NEAR(sideways.target().y, focus.y, 1e-5f);

  OrbitCamera rising;
  rising.frame(Aabb{{0, 0, 0}, {40, 4, 40}}, area, window);
  rising.fly({0.0f, 1.0f, 0.0f}, 1.0f);
  EXPECT_NEAR(rising.target().y - focus.y, speed, 1e-3f);
}

}  // namespace
