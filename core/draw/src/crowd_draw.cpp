#include "nav/crowd_draw.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace nav {
namespace {

/// Paths and goal crosses float this high above the ground (as the path tool's). [metres]
constexpr float kLineLift = 0.12f;

constexpr std::array<Color, 8> kAgentColors = {{
    {255, 120, 0, 255},
    {0, 100, 255, 255},
    {170, 50, 255, 255},
    {0, 180, 140, 255},
    {170, 90, 30, 255},
    {120, 200, 0, 255},
    {255, 70, 120, 255},
    {0, 190, 255, 255},
}};

Color shaded(Color color, float factor) {
  auto channel = [factor](uint8_t value) { return uint8_t(std::lround(float(value) * factor)); };
  return {channel(color.r), channel(color.g), channel(color.b), color.a};
}

glm::vec3 lifted(const glm::vec3& p, float lift) {
  return {p.x, p.y + lift, p.z};
}

/// An upright box standing at `base`, its long side along `heading`: the top in
/// the colour, the sides darker so it reads as a solid from any angle.
void drawBox(DebugDraw& draw, const glm::vec3& base, const glm::vec2& heading, float halfWidth,
             float halfLength, float height, Color color) {
  const glm::vec3 forward(heading.x * halfLength, 0.0f, heading.y * halfLength);
  const glm::vec3 side(-heading.y * halfWidth, 0.0f, heading.x * halfWidth);
  const glm::vec3 up(0.0f, height, 0.0f);
  const std::array<glm::vec3, 4> bottom = {base + forward + side, base - forward + side,
                                           base - forward - side, base + forward - side};
  for (size_t i = 0; i < 4; ++i) {
    const glm::vec3& a = bottom[i];
    const glm::vec3& b = bottom[(i + 1) % 4];
    const Color face = shaded(color, i % 2 == 0 ? 0.62f : 0.8f);
    draw.triangle(a, b, b + up, face);
    draw.triangle(a, b + up, a + up, face);
  }
  draw.triangle(bottom[0] + up, bottom[1] + up, bottom[2] + up, color);
  draw.triangle(bottom[0] + up, bottom[2] + up, bottom[3] + up, color);
  // The front edge of the top, in white: which way it walks.
  draw.line(bottom[0] + up, bottom[3] + up, {255, 255, 255, 255});
}

/// An upright cylinder standing at `base` (a round unit), shaded like drawBox,
/// with a white radius on its top pointing along `heading`.
void drawCylinder(DebugDraw& draw, const glm::vec3& base, const glm::vec2& heading, float radius,
                  float height, Color color) {
  constexpr int kSides = 16;
  const glm::vec3 up(0.0f, height, 0.0f);
  auto rim = [&](int i) {
    const float angle = 6.2831853f * float(i) / float(kSides);
    return base + glm::vec3(std::cos(angle) * radius, 0.0f, std::sin(angle) * radius);
  };
  for (int i = 0; i < kSides; ++i) {
    const glm::vec3 a = rim(i), b = rim(i + 1);
    const Color face = shaded(color, i % 2 == 0 ? 0.62f : 0.8f);
    draw.triangle(a, b, b + up, face);
    draw.triangle(a, b + up, a + up, face);
    draw.triangle(base + up, b + up, a + up, color);
  }
  draw.line(base + up, base + up + glm::vec3(heading.x, 0.0f, heading.y) * radius,
            {255, 255, 255, 255});
}

void drawGoalCross(DebugDraw& draw, const glm::vec3& goal, float size, Color color) {
  const glm::vec3 at = lifted(goal, kLineLift);
  draw.line(at + glm::vec3(-size, 0.0f, -size), at + glm::vec3(size, 0.0f, size), color);
  draw.line(at + glm::vec3(-size, 0.0f, size), at + glm::vec3(size, 0.0f, -size), color);
}

}  // namespace

Color agentColor(size_t agent) {
  return kAgentColors[agent % kAgentColors.size()];
}

void drawCrowd(const Crowd& crowd, DebugDraw& draw) {
  if (!crowd.unit()) return;
  const UnitProfile& unit = *crowd.unit();
  const float halfWidth = unit.width * 0.5f;
  const float halfLength =
      unit.kind == UnitKind::Vehicle && unit.length > 0.0f ? unit.length * 0.5f : halfWidth;
  const float crossSize = std::max(halfWidth * 0.6f, 0.2f);
  for (size_t index = 0; index < crowd.agents().size(); ++index) {
    const Agent& agent = crowd.agents()[index];
    Color body = agentColor(index);
    if (agent.state == AgentState::Walking) {
      glm::vec3 from = agent.position;
      for (size_t point = agent.nextPoint; point < agent.route.size(); ++point) {
        draw.line(lifted(from, kLineLift), lifted(agent.route[point], kLineLift), body);
        from = agent.route[point];
      }
      drawGoalCross(draw, agent.goal, crossSize, body);
    } else {
      body = agent.state == AgentState::Stuck ? kStuckAgentColor : kWaitingAgentColor;
      drawGoalCross(draw, agent.goal, crossSize * 0.6f, body);
    }
    if (unit.shape == UnitShape::Round && unit.kind != UnitKind::Vehicle)
      drawCylinder(draw, agent.position, agent.heading, halfWidth, unit.height, body);
    else
      drawBox(draw, agent.position, agent.heading, halfWidth, halfLength, unit.height, body);
  }
}

}  // namespace nav
