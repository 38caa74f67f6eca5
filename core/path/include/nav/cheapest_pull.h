#pragma once
// The cheapest path through a corridor whose sectors cost different amounts a
// metre. The funnel gives the shortest path through the gates; where the
// surface changes, the cheapest one bends instead (as light does between
// media): it crosses a dear strip more squarely and stays longer on cheap
// ground. Between two gates where the cost changes the cheapest path is still
// the shortest, so only its crossings of those gates are free: each is moved
// along its gate to where the cost of the two pulls on either side is least.
// The cost is convex in the crossings, so each move is a golden-section
// search; after each sweep over them, one more searches along the sweep's
// whole displacement (the crossings on either side of a dear strip pull on
// each other, and one at a time they creep). Sweeps repeat until no crossing
// moves a millimetre, or the pulls have stepped over a bounded number of
// gates (a corridor across a city changes surface at every street).
#include <span>

#include "nav/funnel.h"

namespace nav {

/// Moves the corners of `funnel`, pulled through `portals` (FunnelInput::Gates;
/// the first and last are the start and the goal), so that the path costs least
/// where stretch k, from portals[k] to portals[k + 1], costs metres[k] a metre
/// on the ground (finite, > 0). The corners stay on the gates, so the path stays
/// where the fill tested the unit. Unchanged when every metre is the same.
/// Corner reach is not applied to the moved path.
void pullCheapest(std::span<const FunnelPortal> portals, std::span<const float> metres,
                  FunnelResult& funnel);

}  // namespace nav
