#pragma once
// Path panel: the path tester's start, goal and result (status, length,
// corners, corridor size, expansions) and its "off mesh"/"unreachable" messages.
#include "nav/level.h"
#include "path_tool.h"

namespace nav::app {

/// levelSettings (null when no level is loaded) offers a button back to the sidecar's start and
/// goal.
void drawPathPanel(PathTool& tool, const LevelSettings* levelSettings, bool haveBuild);

}  // namespace nav::app
