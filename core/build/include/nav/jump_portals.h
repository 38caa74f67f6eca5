#pragma once
// Jump portals added at run time: temporary one-way links from a takeoff point
// to a landing point (a gap a unit may leap, a ledge it may drop from), kept
// in a first-in-first-out bucket of fixed size, so the oldest expires when a
// new one arrives. The search uses them like device portals: the funnel ends at
// the takeoff and starts again at the landing.
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "nav/nav_graph.h"
#include "nav/result.h"

namespace nav {

/// What a caller asks for.
struct JumpSpec {
  glm::vec3 takeoff{0.0f};
  glm::vec3 landing{0.0f};
  /// Direction the unit faces when it leaves the ground, as a yaw around +Y
  /// (0 looks along +X, pi/2 along +Z). [radians, finite]
  float heading = 0.0f;
  /// Speed along the ground while in the air. [m/s, > 0]
  float speed = 4.0f;
  /// Time in the air. [s, > 0]
  float airTime = 0.5f;
};

/// The jump direction of travel from takeoff to landing as a heading; 0 when
/// the two are one above the other.
float headingOf(const glm::vec3& takeoff, const glm::vec3& landing);

/// A jump placed on a graph: its portal (kind Jump, left = takeoff and right =
/// landing on their sectors' ground, link = id) and what it was made from.
struct JumpPortal {
  /// Names the jump; ids grow with each jump added to a bucket, starting at 1.
  uint32_t id = 0;
  JumpSpec spec;
  Portal portal{};
};

class JumpBucket {
 public:
  /// Holds at most `capacity` jumps (at least 1). [jumps]
  explicit JumpBucket(uint32_t capacity = 16);

  /// Places the jump on the graph: takeoff and landing snap to the nearest
  /// ground sector within snapExtents. When the bucket is full, the oldest jump
  /// expires first. Fails with a message naming the parameter when a value is
  /// not finite or out of range, an end is on no sector, or both ends are in
  /// one sector. Returns the new jump's id.
  Result<uint32_t> add(const NavGraph& graph, const JumpSpec& spec,
                       const glm::vec3& snapExtents = {1.0f, 2.0f, 1.0f});
  /// Forgets one jump before it expires; false when no jump has that id.
  bool remove(uint32_t id);
  void clear();
  /// A new capacity (at least 1); the oldest jumps that no longer fit expire.
  void setCapacity(uint32_t capacity);
  /// Places every jump again on a rebuilt graph, dropping those whose ends no
  /// longer lie on it (in order, ids kept). Returns how many were dropped.
  uint32_t relocate(const NavGraph& graph, const glm::vec3& snapExtents = {1.0f, 2.0f, 1.0f});

  /// The live jumps, oldest first.
  const std::vector<JumpPortal>& jumps() const { return m_jumps; }
  uint32_t capacity() const { return m_capacity; }
  /// The id the next jump will get.
  uint32_t nextId() const { return m_nextId; }

 private:
  uint32_t m_capacity;
  uint32_t m_nextId = 1;
  /// Oldest first. At most m_capacity long, so erasing the front is cheap.
  std::vector<JumpPortal> m_jumps;
};

/// The jump placed on the graph, without a bucket: what JumpBucket::add checks
/// and stores (the id is left 0). The spec's points are the graph's; a refusal
/// names them in the level file's coordinates (NavGraph::gridFrame).
Result<JumpPortal> placeJump(const NavGraph& graph, const JumpSpec& spec,
                             const glm::vec3& snapExtents = {1.0f, 2.0f, 1.0f});

/// True when one of the jumps takes off from a sector for which `inside` is
/// true: a way out of those sectors besides their portals.
template <class Inside>
bool anyTakesOffIn(std::span<const JumpPortal> jumps, Inside inside) {
  return std::any_of(jumps.begin(), jumps.end(),
                     [&](const JumpPortal& jump) { return inside(jump.portal.fromSector); });
}

}  // namespace nav
