#pragma once
// The simple funnel algorithm (string pulling) over a corridor's portals, with
// a record of every step for the debugger.
#include <cstdint>
#include <span>
#include <vector>

#include "nav/search.h"

namespace nav {

/// A segment the path must cross; left and right as seen walking along the path.
struct FunnelPortal {
  glm::vec3 left;
  glm::vec3 right;
};

/// How funnelLegs gives a corridor's walk portals.
enum class FunnelInput : uint8_t {
  /// As they are: on the edges sectors share, between the cell centres
  /// nearest their ends (or where widening moved an end). What the searches
  /// cost paths over.
  Portals,
  /// Through gates: each walk portal as two portals, its ends (before
  /// widening) moved back half a cell onto the last cells of the sector the
  /// path leaves, then onto the first cells of the one it enters (and, for a
  /// one-way portal, the portal itself between them). The fill tested the
  /// unit at the cells and on the steps between them, not in the half cell
  /// past a sector's last cells; a path pulled through gates stays where it
  /// was tested (the argument is in funnel.cpp), and corner_reach.h moves its
  /// corners out where widening or a reach proved the unit clear further out.
  /// What pullCorridor pulls through. Only where cells cover their sectors
  /// (cellsCoverSectors in portal_ends.h; else, cells wider than the
  /// unit, nothing is proven between them, and gates are the portals).
  Gates,
};

/// The corridor as funnel input, leg by leg. A leg runs between zero-width
/// portals at its ends (the start, the goal, or where a device or waypath
/// takes over) through the walk portals between. A device or a jump adds a leg
/// from its entry point to its exit point; riding a waypath adds a leg through the
/// waypath's points. Each inner vector is one leg.
std::vector<std::vector<FunnelPortal>> funnelLegs(const NavGraph& graph, const Corridor& corridor,
                                                  FunnelInput input = FunnelInput::Portals);

/// All legs' portals through gates one after another: what pullCorridor pulls
/// through and its steps index.
std::vector<FunnelPortal> funnelPortals(const NavGraph& graph, const Corridor& corridor);

enum class FunnelEvent : uint8_t {
  Start,         ///< Apex, left and right at the start point.
  TightenLeft,   ///< The left side moved inwards.
  TightenRight,  ///< The right side moved inwards.
  Skip,          ///< The portal would widen the funnel: nothing changes.
  CornerLeft,    ///< The right side crossed the left: the left point became a corner.
  CornerRight,   ///< The left side crossed the right: the right point became a corner.
  Restart,       ///< Scanning restarts from the portal after the new apex.
  Reach,         ///< After the scan: a corner moved out to its portal end's reach
                 ///< (corner_reach.h), now the apex, between the corners around it.
  Goal,          ///< The goal was reached and added as the last corner.
};
const char* toString(FunnelEvent event);

/// Per portal: TightenRight and/or TightenLeft, or Skip when neither side moved;
/// or CornerLeft/CornerRight (funnel as it was, with the corner counted)
/// followed by Restart (apex, left and right at the corner). Then a Reach for
/// each corner pullCorridor moved (apex at the moved corner, left and right at
/// the corners before and after it, with their portals). Goal ends the steps
/// with apex, left and right at the goal.
struct FunnelStep {
  FunnelEvent event;
  /// Portal being considered (index into the funnel portals); for Restart, the
  /// one that caused the corner (scanning resumes after apexPortal).
  uint32_t portal;
  glm::vec3 apex, left, right;
  uint32_t apexPortal, leftPortal, rightPortal;
  /// Corners found so far, including the apex.
  uint32_t cornerCount;
};

struct FunnelResult {
  /// Start, every turn, goal; no two consecutive corners are equal. A path that
  /// grazes a portal end exactly in line may keep it as a (straight) corner.
  std::vector<glm::vec3> corners;
  /// Per corner, the portal it turns at (its index in the portals pulled
  /// through): 0 for the start, the last for the goal.
  std::vector<uint32_t> cornerPortals;
  std::vector<FunnelStep> steps;
  /// Corners pullCorridor moved out to their portal end's reach (corner_reach.h).
  size_t reachedCorners = 0;
  /// Length of the corner polyline in 3D. [metres]
  float length = 0.0f;

  /// Empties it, keeping the arrays' capacity.
  void clear() {
    corners.clear();
    cornerPortals.clear();
    steps.clear();
    reachedCorners = 0;
    length = 0.0f;
  }
};

/// String-pulls through the portals (the first and last are the start and goal).
/// Steps are recorded only when recordSteps is set. `input` says what the
/// portals are: through plain portals a path runs straight past portal ends
/// on its line, with no corner there; through gates those stay corners, for
/// corner reach to move out (corner_reach.h).
FunnelResult stringPull(std::span<const FunnelPortal> portals, bool recordSteps = false,
                        FunnelInput input = FunnelInput::Portals);
/// The same into `result`, reusing its arrays.
void stringPull(std::span<const FunnelPortal> portals, FunnelResult& result,
                bool recordSteps = false, FunnelInput input = FunnelInput::Portals);

/// The funnel's corners with a point added wherever the path crosses a portal,
/// at the portal's height there, so the path follows stairs and drops between
/// corners instead of cutting through them. `portals` are the ones pulled through.
std::vector<glm::vec3> followPortalHeights(const FunnelResult& funnel,
                                           std::span<const FunnelPortal> portals);

/// Whether pullCorridor moves corners at gates out to widened portal ends
/// and their ends' reach (corner_reach.h), or keeps them where the funnel
/// through the gates and the corridor's turns puts them.
enum class CornerReach : uint8_t { Move, Keep };

/// String-pulls every leg through gates (FunnelInput::Gates), moves corners
/// out to widened portal ends and their ends' reach (corner_reach.h) unless
/// told to keep them, and joins the legs, so device entries and exits and the
/// waypath points ridden are corners. Steps are numbered over funnelPortals.
FunnelResult pullCorridor(const NavGraph& graph, const Corridor& corridor,
                          bool recordSteps = false);
/// The same into `result`, whose arrays it reuses: with findPath's own
/// overload, a caller asking many queries stops allocating once the arrays are
/// large enough (recorded steps and waypath rides aside).
void pullCorridor(const NavGraph& graph, const Corridor& corridor, FunnelResult& result,
                  bool recordSteps = false, CornerReach reach = CornerReach::Move);

/// Length of a polyline in 3D. [metres]
float polylineLength(std::span<const glm::vec3> points);
/// Length of a polyline in the ground plane, summed in double. [metres]
double groundPolylineLength(std::span<const glm::vec3> points);

}  // namespace nav
