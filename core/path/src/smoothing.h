#pragma once
// Bezier smoothing of a funnel path: a curve through the corners that stays
// inside the corridor's sectors, in order, on their ground.
#include <cstdint>
#include <span>
#include <vector>

#include "nav/nav_graph.h"
#include "nav/search.h"

namespace nav {

struct SmoothingOptions {
  /// Samples per corner-to-corner stretch of a walk leg, its first point not counted. [>= 1]
  uint32_t samplesPerSegment = 12;
  /// How far a control point reaches from its corner before it is clamped to the
  /// corridor, as a fraction of the stretch's ground length. [0..0.5]
  float controlReach = 0.3f;
};

/// Samples of a curve through `corners` (pullCorridor(graph, corridor).corners):
/// one cubic Bezier per stretch between corners, tangent at each corner to the
/// bisector of the turn, so consecutive stretches join smoothly. Only walk legs
/// are smoothed: a device's or a jump's entry and exit (where they are on the
/// ground plane) and the points of a waypath ridden (as they are) come out
/// as corners and are never curved across. On walk legs the curve
/// runs through the leg's sectors in the corridor's order, on the ground plane
/// (x, z) passing from one sector to the next only through the opening of the
/// portal between them; a stretch whose curve cannot be shown to do so is bent
/// less, down to the funnel's straight line. Every point, corners included, is
/// given the sector it stands in at that moment (never one the curve has left)
/// and that sector's ground height (NavGraph::heightAt): where sectors overlap
/// on the ground plane, a bridge deck over a road, a point on the deck is the
/// deck's. Corners that do not come from this corridor come back unchanged.
std::vector<glm::vec3> smoothPath(const NavGraph& graph, const Corridor& corridor,
                                  std::span<const glm::vec3> corners,
                                  const SmoothingOptions& options = {});

}  // namespace nav
