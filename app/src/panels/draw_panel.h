#pragma once
// Draw panel: the checkboxes of nav::DrawOptions, a colour legend and the frame time.
#include "nav/nav_draw.h"

namespace nav::app {

void drawDrawPanel(DrawOptions& options, float frameMilliseconds);

}  // namespace nav::app
