#pragma once
// Drawing a crowd (crowd.h) through DebugDraw: each agent an upright box (or a
// cylinder, for a round unit) in its colour, its remaining path and its goal.
#include <cstddef>

#include "nav/crowd.h"
#include "nav/debug_draw.h"

namespace nav {

/// Agent i's colour while it walks (a few strong hues, repeating), clear of the
/// sectors' and paths' colours.
Color agentColor(size_t agent);
/// An agent whose path is still being searched for.
constexpr Color kWaitingAgentColor{150, 150, 150, 255};
/// An agent that gave up after several requests gave no way forward.
constexpr Color kStuckAgentColor{70, 70, 70, 255};

/// Agents as upright boxes in their colours (grey while waiting for a path,
/// dark when stuck), their remaining paths and their goals.
void drawCrowd(const Crowd& crowd, DebugDraw& draw);

}  // namespace nav
