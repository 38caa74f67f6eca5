#include "jump_tool.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

namespace nav::app {

namespace {

// Jumps shorter than this in the ground plane still take some time in the air. [s]
constexpr float kShortestAirTime = 0.1f;

std::string describe(const glm::vec3& p) {
  char text[96];
  std::snprintf(text, sizeof text, "%.2f,%.2f,%.2f", p.x, p.y, p.z);
  return text;
}

}  // namespace

float fileHeadingDegrees(float heading, const GridFrame& frame) {
  // toFile turns +x towards -z: a heading (from +x towards +z) loses the grid's angle.
  return float(std::remainder(double(glm::degrees(heading)) - double(frame.degrees), 360.0));
}

void JumpTool::onClick(const ClickEvent& click) {
  if (!click.hit) {
    m_notice = "off mesh: nothing under the cursor";
    return;
  }
  m_notice.clear();
  if (click.button == MouseButton::Left) {
    m_takeoff = click.hit->point;
    return;
  }
  if (!m_takeoff) {
    m_notice = "left click the takeoff first";
    return;
  }
  if (add(*m_takeoff, click.hit->point)) m_takeoff.reset();
}

void JumpTool::drawOverlay(DebugDraw& draw, const DrawOptions& options) const {
  if (!options.jumps) return;
  drawJumps(draw, m_bucket.jumps());
  if (m_takeoff) drawMarker(draw, *m_takeoff, 0.8f, colors::kJump);
}

void JumpTool::setBuild(std::shared_ptr<const NavBuild> build) {
  m_build = std::move(build);
  if (!m_build || m_bucket.jumps().empty()) return;
  const uint32_t dropped = m_bucket.relocate(m_build->graph);
  changed(dropped == 0 ? "jumps placed on the new build"
                       : "jumps placed on the new build, " + std::to_string(dropped) +
                             " dropped (an end is off it)");
}

bool JumpTool::add(const glm::vec3& takeoff, const glm::vec3& landing) {
  if (!m_build) {
    m_notice = "no build to place the jump on";
    return false;
  }
  JumpSpec spec;
  spec.takeoff = takeoff;
  spec.landing = landing;
  spec.heading = headingOf(takeoff, landing);
  spec.speed = m_speed;
  const float ground = glm::length(glm::vec2(landing.x - takeoff.x, landing.z - takeoff.z));
  spec.airTime = std::max(ground / m_speed, kShortestAirTime);
  const bool full = m_bucket.jumps().size() >= m_bucket.capacity();
  const uint32_t oldest = full ? m_bucket.jumps().front().id : 0;
  const Result<uint32_t> added = m_bucket.add(m_build->graph, spec);
  if (!added) {
    m_notice = added.error();
    return false;
  }
  m_notice.clear();
  // Printed in the level file's coordinates.
  const GridFrame& frame = m_build->graph.gridFrame;
  std::string event = "added id=" + std::to_string(added.value()) + " from " +
                      describe(frame.toFile(m_bucket.jumps().back().portal.left)) + " to " +
                      describe(frame.toFile(m_bucket.jumps().back().portal.right));
  if (full) event += " expired=" + std::to_string(oldest);
  changed(std::move(event));
  return true;
}

void JumpTool::remove(uint32_t id) {
  if (m_bucket.remove(id)) changed("removed id=" + std::to_string(id));
}

void JumpTool::clear() {
  m_takeoff.reset();
  if (m_bucket.jumps().empty()) return;
  m_bucket.clear();
  changed("cleared");
}

void JumpTool::setCapacity(uint32_t capacity) {
  capacity = std::clamp(capacity, 1u, kMaxCapacity);
  if (capacity == m_bucket.capacity()) return;
  m_bucket.setCapacity(capacity);
  changed("capacity=" + std::to_string(capacity));
}

void JumpTool::setArmed(bool armed) {
  m_armed = armed;
  if (!armed) m_takeoff.reset();
}

void JumpTool::setSpeed(float speed) {
  if (std::isfinite(speed)) m_speed = std::clamp(speed, 0.5f, 50.0f);
}

void JumpTool::changed(std::string event) {
  m_lastEvent = std::move(event);
  ++m_revision;
}

}  // namespace nav::app
