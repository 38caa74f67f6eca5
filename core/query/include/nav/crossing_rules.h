#pragma once
// What a query's filter allows, as the searches over portals ask it
// (portal_search.h, interval_search.h, region_search.h). Node numbers are the
// path solver's: graph portals, then the start and the goal, then the query's
// jumps.
#include <cstdint>
#include <limits>

#include "nav/search.h"

namespace nav {

class CrossingRules {
 public:
  /// The cost of a device or jump node from its entry to its exit point, or
  /// infinity when the query may not use it.
  virtual float teleportCost(uint32_t node) const = 0;
  /// The cost of a walked metre in the sector (infinity where it is closed).
  virtual float metreOf(uint32_t sector) const = 0;
  /// True when the path may enter the sector.
  bool opens(uint32_t sector) const {
    return metreOf(sector) < std::numeric_limits<float>::infinity();
  }
  /// Records a search event (node kNoPortal: the start) for the node's
  /// interval [left, right] on the ground (a point for a point node).
  virtual void trace(SearchEvent::Kind kind, uint32_t node, float cost, float estimate,
                     const glm::vec2& left, const glm::vec2& right) = 0;
  /// Records a search event for a node standing at `point` (for the search
  /// over regions, a point of the node's merged region portal, which need not
  /// lie on the node's own portal).
  virtual void tracePoint(SearchEvent::Kind kind, uint32_t node, float cost, float estimate,
                          const glm::vec3& point) = 0;

 protected:
  ~CrossingRules() = default;
};

}  // namespace nav
