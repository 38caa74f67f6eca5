#pragma once
// Draw panel: the checkboxes of nav::DrawOptions and the crowd's, a colour
// legend (with the surfaces of the graph on screen) and the frame time.
#include "nav/nav_draw.h"
#include "nav/nav_graph.h"

namespace nav::app {

/// `graph`: the graph on screen, whose surfaces the legend lists (nullptr: none yet).
void drawDrawPanel(DrawOptions& options, bool& crowd, float frameMilliseconds,
                   const NavGraph* graph);

}  // namespace nav::app
