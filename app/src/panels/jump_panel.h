#pragma once
// Jumps panel: arms the jump placer (J), sets the jump speed and the bucket's
// size, and lists the jumps, oldest first, each with a button to remove it.
#include "jump_tool.h"

namespace nav::app {

/// Headings are shown in the level file's frame: `frame` is the jumps' grid.
void drawJumpPanel(JumpTool& tool, const GridFrame& frame, bool haveBuild);

}  // namespace nav::app
