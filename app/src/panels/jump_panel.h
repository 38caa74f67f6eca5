#pragma once
// Jumps panel: arms the jump placer (J), sets the jump speed and the bucket's
// size, and lists the jumps, oldest first, each with a button to remove it.
#include "jump_tool.h"

namespace nav::app {

void drawJumpPanel(JumpTool& tool, bool haveBuild);

}  // namespace nav::app
