#pragma once
// Draw panel: the checkboxes of nav::DrawOptions and the crowd's, a colour
// legend and the frame time.
#include "nav/nav_draw.h"

namespace nav::app {

void drawDrawPanel(DrawOptions& options, bool& crowd, float frameMilliseconds);

}  // namespace nav::app
