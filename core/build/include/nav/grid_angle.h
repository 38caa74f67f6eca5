#pragma once
// Choosing the angle of a level's cell grid (grid_frame.h). A straight wall
// across the grid leaves a staircase of cells, and the rectangles that cover a
// staircase are one thin strip per step: the more the grid runs along the
// level's straight edges, the fewer and larger its sectors.
#include <optional>
#include <vector>

#include "nav/build_control.h"
#include "nav/flood_fill.h"
#include "nav/level.h"
#include "nav/result.h"

namespace nav {

/// The grid angles (GridFrame::degrees) worth a trial, the strongest first:
/// peaks of the lengths of the level's straight edges (the bases of faces
/// steeper than the unit's max slope, and the open edges of the ground) by
/// direction, folded into a quarter turn. A peak counts when it holds at least
/// half the strongest one's length; at most two. An angle that moves no point
/// of the level by more than a quarter of a cell is 0, and 0 (the file's own
/// axes) is added when the strongest peak is another. Empty for a level with
/// no straight edges.
std::vector<float> gridAngleCandidates(const Level& level, const FloodFillParams& params);

/// The grid angle for the level: 0 when the file's own axes are its strongest
/// direction (or it has none), else the candidate whose graph has the fewest
/// sectors (the strongest on a tie). Each candidate is built on cells three
/// times as large, without portal widening, with the seeds and devices of the level
/// turned onto it. Fails when a build fails or is cancelled.
Result<float> chooseGridAngle(const Level& level, const FloodFillParams& params,
                              BuildControl* control = nullptr);

/// The level on the grid `degrees` names, or on chooseGridAngle's when it
/// names none (params as for chooseGridAngle). Fails as they fail.
Result<Level> levelOnChosenGrid(const Level& level, std::optional<float> degrees,
                                const FloodFillParams& params, BuildControl* control = nullptr);

}  // namespace nav
