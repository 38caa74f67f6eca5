#pragma once
// Where one root reaches the points of a line no dearer than another: the
// exact search's test for cutting an interval where a root it expanded
// before does at least as well (interval_search.h trimCovered).
#include "nav/geometry.h"

namespace nav {

/// A point a way stands at, and what the way to it cost.
struct CostedRoot {
  glm::vec2 at;
  float cost;
};

/// The rounding noDearerUpTo allows.
struct DominanceTolerance {
  /// Costs this close count as equal.
  float slack;
  /// The crossing of the two costs is found this close, on the side where
  /// `earlier` is no dearer. [metres]
  float step;
};

/// A root's cost to a point is its cost plus `metre` times the straight
/// distance. Along the line from + along * s (`along` a unit vector), from
/// s = start towards s = end: how far `earlier` reaches every point no dearer
/// than `later` does. Returns `end`, where the two costs cross (up to
/// tolerance.step short of it), or `start` when not even there. Never claims
/// a point where `earlier` is dearer; with both ends no dearer and the points
/// between possibly not, it returns `start`.
float noDearerUpTo(const CostedRoot& earlier, const CostedRoot& later, float metre,
                   const glm::vec2& from, const glm::vec2& along, float start, float end,
                   const DominanceTolerance& tolerance);

}  // namespace nav
