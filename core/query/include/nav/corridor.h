#pragma once
// A path's corridor: the sectors it goes through, start to goal, and the
// portals (or jumps) between them. What a search hands to the funnel.
#include <cstdint>
#include <vector>

#include "nav/jump_portals.h"
#include "nav/nav_graph.h"
#include "nav/portal_ends.h"

namespace nav {

/// A corridor portal with this bit set is a jump: the rest indexes Corridor::jumps.
constexpr uint32_t kJumpPortalFlag = 0x80000000u;

/// Where a path turns at a walk portal, past the gates the funnel pulls
/// through: at neither end, at its left or right end where widening moved
/// that end out, or at that end's reach (NavGraph::reach, portal_ends.h).
enum class EndTurn : uint8_t { None, LeftEnd, RightEnd, LeftReach, RightReach };

/// The point a path turns at: the end itself or its reach's point.
inline glm::vec3 endTurnPoint(const NavGraph& graph, uint32_t portal, EndTurn turn) {
  const Portal& p = graph.portals[portal];
  switch (turn) {
    case EndTurn::LeftEnd:
      return p.left;
    case EndTurn::RightEnd:
      return p.right;
    case EndTurn::LeftReach:
      return graph.reach[portalEndIndex(portal, true)].point;
    case EndTurn::RightReach:
      return graph.reach[portalEndIndex(portal, false)].point;
    case EndTurn::None:
      break;
  }
  return p.midpoint();
}

/// How the way comes into a turn past the gates, or goes on from a turn at a
/// reach's point: straight, or past the left or right end of the portal's
/// leaving gate (in) or entering gate (on), where the way from or to that end
/// is proven clear but not the straight one.
enum class ReachWay : uint8_t { Straight, PastLeftGateEnd, PastRightGateEnd };

/// A turn other than None as portal_ends.h names it.
inline GateTurn gateTurnOf(uint32_t portal, EndTurn turn) {
  return {portal, turn == EndTurn::LeftEnd || turn == EndTurn::LeftReach,
          turn == EndTurn::LeftReach || turn == EndTurn::RightReach};
}

/// The sectors and portals a path goes through, start to goal.
struct Corridor {
  glm::vec3 start{0.0f};
  glm::vec3 goal{0.0f};
  /// sectors.size() == portals.size() + 1.
  std::vector<uint32_t> sectors;
  /// Indices into the graph's portals, or kJumpPortalFlag | index into jumps.
  std::vector<uint32_t> portals;
  /// The jumps the path takes, copied: the path stays whole when they expire.
  std::vector<JumpPortal> jumps;
  /// Per portal, the exact search's turn past its gates (None at every
  /// portal, or empty: the other searches leave it so).
  std::vector<EndTurn> endTurns;
  /// Per portal, how the way comes into its turn past the gates, and how it
  /// goes on from there (empty, or Straight at every other portal).
  std::vector<ReachWay> reachEntries, reachExits;
  /// Per portal, an end of its entering gate where the exact search turned to
  /// come straight into a later turn at a reach's point, in a direction the
  /// reach proves: the funnel, which would pull past it, turns there too
  /// (empty, or Straight at every other portal).
  std::vector<ReachWay> enteringGateTurns;

  /// True when a corridor portal index names a portal of the graph or of jumps.
  bool knows(const NavGraph& graph, uint32_t index) const {
    return index & kJumpPortalFlag ? (index & ~kJumpPortalFlag) < jumps.size()
                                   : index < graph.portals.size();
  }
  /// The i-th portal, from the graph or from jumps.
  const Portal& portal(const NavGraph& graph, size_t i) const {
    const uint32_t index = portals[i];
    return index & kJumpPortalFlag ? jumps[index & ~kJumpPortalFlag].portal : graph.portals[index];
  }
  /// Empties it, keeping the arrays' capacity.
  void clear() {
    start = goal = glm::vec3(0.0f);
    sectors.clear();
    portals.clear();
    jumps.clear();
    endTurns.clear();
    reachEntries.clear();
    reachExits.clear();
    enteringGateTurns.clear();
  }
  /// Where the path turns at the i-th portal.
  EndTurn endTurn(size_t i) const { return i < endTurns.size() ? endTurns[i] : EndTurn::None; }
  /// How the way comes into a turn at a reach's point at the i-th portal.
  ReachWay reachEntry(size_t i) const {
    return i < reachEntries.size() ? reachEntries[i] : ReachWay::Straight;
  }
  /// How the way goes on from a turn at a reach's point at the i-th portal.
  ReachWay reachExit(size_t i) const {
    return i < reachExits.size() ? reachExits[i] : ReachWay::Straight;
  }
  /// Where the path turns at the i-th portal's entering gate.
  ReachWay enteringGateTurn(size_t i) const {
    return i < enteringGateTurns.size() ? enteringGateTurns[i] : ReachWay::Straight;
  }
};

}  // namespace nav
