#include "nav/jump_portals.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "format_number.h"
#include "nav/locate.h"

namespace nav {

namespace {

bool finite(const glm::vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

// The portal's direction is the ground direction it points most along.
Direction dominantDirection(const glm::vec3& from, const glm::vec3& to) {
  const glm::vec3 d = to - from;
  if (std::abs(d.x) >= std::abs(d.z)) return d.x >= 0.0f ? Direction::PlusX : Direction::MinusX;
  return d.z >= 0.0f ? Direction::PlusZ : Direction::MinusZ;
}

}  // namespace

float headingOf(const glm::vec3& takeoff, const glm::vec3& landing) {
  const float dx = landing.x - takeoff.x, dz = landing.z - takeoff.z;
  return dx == 0.0f && dz == 0.0f ? 0.0f : std::atan2(dz, dx);
}

Result<JumpPortal> placeJump(const NavGraph& graph, const JumpSpec& spec,
                             const glm::vec3& snapExtents) {
  using R = Result<JumpPortal>;
  if (!finite(spec.takeoff)) return R::failure("jump takeoff " + formatPoint(spec.takeoff) + " is not finite");
  if (!finite(spec.landing)) return R::failure("jump landing " + formatPoint(spec.landing) + " is not finite");
  if (!std::isfinite(spec.heading)) return R::failure("jump heading is not finite");
  if (!(spec.speed > 0.0f) || !std::isfinite(spec.speed)) {
    return R::failure("jump speed " + formatFloat(spec.speed) + " must be finite and > 0 m/s");
  }
  if (!(spec.airTime > 0.0f) || !std::isfinite(spec.airTime)) {
    return R::failure("jump air time " + formatFloat(spec.airTime) + " must be finite and > 0 s");
  }
  if (!finite(snapExtents) || glm::any(glm::lessThan(snapExtents, glm::vec3(0.0f)))) {
    return R::failure("jump snap extents must be finite and >= 0");
  }
  // Points are named as the level's file places them, as users give them.
  const Location from = placeForPath(graph, spec.takeoff, snapExtents);
  if (from.sector == kNoSector) {
    return R::failure("jump takeoff " + formatPoint(graph.gridFrame.toFile(spec.takeoff)) +
                      " is on no sector, nor near one");
  }
  const Location to = placeForPath(graph, spec.landing, snapExtents);
  if (to.sector == kNoSector) {
    return R::failure("jump landing " + formatPoint(graph.gridFrame.toFile(spec.landing)) +
                      " is on no sector, nor near one");
  }
  if (from.sector == to.sector) {
    return R::failure("jump takeoff and landing are both in sector " + std::to_string(from.sector) +
                      ": walking there needs no jump");
  }
  JumpPortal jump;
  jump.spec = spec;
  jump.portal = {from.sector, to.sector, from.point, to.point,
                 dominantDirection(from.point, to.point), PortalKind::Jump, 0, kNoPortal};
  return R::success(jump);
}

JumpBucket::JumpBucket(uint32_t capacity) : m_capacity(std::max(capacity, 1u)) {}

Result<uint32_t> JumpBucket::add(const NavGraph& graph, const JumpSpec& spec,
                                 const glm::vec3& snapExtents) {
  Result<JumpPortal> placed = placeJump(graph, spec, snapExtents);
  if (!placed) return Result<uint32_t>::failure(placed.error());
  JumpPortal jump = std::move(placed).value();
  jump.id = m_nextId++;
  jump.portal.link = jump.id;
  if (m_jumps.size() >= m_capacity) m_jumps.erase(m_jumps.begin());
  m_jumps.push_back(jump);
  return Result<uint32_t>::success(jump.id);
}

bool JumpBucket::remove(uint32_t id) {
  const auto it = std::find_if(m_jumps.begin(), m_jumps.end(),
                               [id](const JumpPortal& jump) { return jump.id == id; });
  if (it == m_jumps.end()) return false;
  m_jumps.erase(it);
  return true;
}

void JumpBucket::clear() { m_jumps.clear(); }

void JumpBucket::setCapacity(uint32_t capacity) {
  m_capacity = std::max(capacity, 1u);
  if (m_jumps.size() > m_capacity) m_jumps.erase(m_jumps.begin(), m_jumps.end() - m_capacity);
}

uint32_t JumpBucket::relocate(const NavGraph& graph, const glm::vec3& snapExtents) {
  std::vector<JumpPortal> kept;
  for (const JumpPortal& jump : m_jumps) {
    Result<JumpPortal> placed = placeJump(graph, jump.spec, snapExtents);
    if (!placed) continue;
    JumpPortal moved = std::move(placed).value();
    moved.id = jump.id;
    moved.portal.link = jump.id;
    kept.push_back(moved);
  }
  const uint32_t dropped = uint32_t(m_jumps.size() - kept.size());
  m_jumps = std::move(kept);
  return dropped;
}

}  // namespace nav
