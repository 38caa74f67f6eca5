#pragma once
// Path panel: the path tester's start, goal and result (status, length,
// corners, corridor size, expansions) and its "off mesh"/"unreachable" messages.
#include "compare_tool.h"
#include "nav/level.h"
#include "path_tool.h"

namespace nav::app {

/// levelSettings (null when no level is loaded) offers a button back to the sidecar's start and
/// goal. Points are shown in the level file's coordinates: `frame` is the
/// grid the tool's points are in.
/// Below the result, the Compare toggle and its rows (compare_tool.h).
void drawPathPanel(PathTool& tool, CompareTool& compare, const LevelSettings* levelSettings,
                   const GridFrame& frame, bool haveBuild);

}  // namespace nav::app
