#pragma once
// The Query panel: how the path (and the crowd's next requests) is searched,
// changed live. The search method and regions, a checkbox per key the level's
// locked devices ask for, a cost slider and an exclude checkbox per surface
// the sectors use, the waypath bias, the heuristic scale and the turning
// radius; every change re-solves at once, and Reset goes back to the values
// the session started with (the command line's method, the sidecar's costs).
#include <map>
#include <string>

#include <glm/glm.hpp>

#include "command_line.h"
#include "nav/nav_graph.h"
#include "nav/search.h"
#include "path_tool.h"
#include "widget_box.h"

namespace nav::app {

/// The options a session starts with: the command line's search method and
/// regions, the query filter's defaults (so the graph's surface costs, no keys).
SearchOptions startingSearchOptions(const AppOptions& options);

class QueryPanel {
 public:
  explicit QueryPanel(SearchOptions starting) : m_starting(std::move(starting)) {}

  const SearchOptions& starting() const { return m_starting; }

  /// Draws the panel for the graph on screen (nullptr: none yet) and hands any
  /// change to the tool.
  void draw(PathTool& tool, const NavGraph* graph);

  /// Where the last frame drew the panel's keys, surface controls and Reset,
  /// by label ("key:red", "cost:road", "exclude:lava", "reset"): what a window
  /// test clicks.
  const std::map<std::string, WidgetBox>& widgets() const { return m_widgets; }

 private:
  void noteWidget(const std::string& label);

  SearchOptions m_starting;
  std::map<std::string, WidgetBox> m_widgets;
};

}  // namespace nav::app
