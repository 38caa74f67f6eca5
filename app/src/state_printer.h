#pragma once
// --print-state: one line on stdout per change of state, flushed at once, for
// tests and scripts that drive the window from outside.
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include <glm/glm.hpp>

#include "compare_tool.h"
#include "frame_view.h"
#include "jump_tool.h"
#include "nav/crowd.h"
#include "nav/nav_build.h"
#include "nav/search_replay.h"
#include "panels/query_panel.h"
#include "path_tool.h"

namespace nav::app {

class StatePrinter {
 public:
  explicit StatePrinter(bool enabled) : m_enabled(enabled) {}

  /// `level PATH triangles=N` or `level error MESSAGE`.
  void levelLoaded(const std::string& path, size_t triangles);
  void levelFailed(const std::string& message);
  /// `level opening PATH` when a file starts being read (after the first),
  /// `level given up PATH` when Esc gives the read up.
  void levelOpening(const std::string& path);
  void levelGivenUp(const std::string& path);
  /// `level PATH nav unit=NAME sectors=N portals=N` for a graph read from a .nav file.
  void navFileLoaded(const std::string& path, const NavGraph& graph);
  /// `grid angle=DEG` (and ` offset=X,Y,Z` for a level moved near the origin)
  /// when the scene's grid changes: the points printed from then on (start,
  /// goal, corners, clearance, fly focus) are turned and moved back into the
  /// level file's coordinates.
  void setFrame(const GridFrame& frame);
  /// `unit error MESSAGE`: --unit named no profile.
  void unitFailed(const std::string& message);
  /// `build start unit=NAME cell=S`.
  void buildStarted(const std::string& unit, float cellSize);
  /// `build unit=NAME cells=N sectors=N portals=N ms=T`, then ` graph=navmesh` for the
  /// level read as a navigation mesh, ` cached` when a kept
  /// build is shown again, ` loaded` for a graph read from a file (ms: reading).
  enum class BuildSource { Built, Cached, Loaded };
  void buildFinished(const std::string& unit, const BuildStats& stats,
                     BuildSource source = BuildSource::Built, bool navmesh = false);
  /// `build cancelled unit=NAME`.
  void buildCancelled(const std::string& unit);
  /// `build error MESSAGE`.
  void buildFailed(const std::string& message);
  /// `start X Y Z`, `goal X Y Z`, `path status=S corners=N length=L funnel_steps=N`
  /// followed by `island TEXT` (PathTool::islandNote, when set) and `corners
  /// X,Y,Z X,Y,Z ...`, and `notice TEXT`, each when it differs from what was
  /// printed last.
  void observe(const PathTool& path);
  /// `query search=METHOD regions=0|1 keys=K,.. costs=SURFACE:C,.. excluded=S,..
  /// bias=B heuristic=H turning=unit|R` when the search options change, and
  /// `query change BEFORE -> AFTER` for what a change did to the path.
  void observeQuery(const PathTool& path);
  /// `widget LABEL X0 Y0 X1 Y1` (pixels) when a control a test may click
  /// appears or moves; `panel` tells the callers' lists apart.
  void observeWidgets(const std::string& panel, const std::map<std::string, WidgetBox>& widgets);
  /// `search step=K/E portal=P g=G h=H f=F open=N next=Q px=X,Y` while the
  /// Steps panel is in the search (K expansions of E; P the node expanded,
  /// drawn at window pixel X,Y; Q the open node taken next, `none` when none),
  /// and `hover node portal=P g=G h=H f=F` for the node under the mouse, each
  /// when it changes.
  void observeSearchStep(const SearchReplay* replay, std::optional<uint32_t> hovered,
                         const FrameView& view);
  /// `inspect px=X,Y TEXT` when what the inspector shows under the mouse
  /// (at window pixel X,Y) changes.
  void observeInspector(const std::string& description, glm::vec2 mouse);
  /// `funnel step=K/N event=NAME` (K from 1) when the shown funnel step changes.
  void observeFunnel(std::optional<size_t> step, const PathAnswer* solution);
  /// `crowd spawned agents=N seed=S unit=NAME` when agents are placed (again),
  /// `crowd cleared`, `crowd notice TEXT`; `crowd solved=K/N pending=P` when the
  /// number of agents that have had a path changes; and every kCrowdReportFrames
  /// crowd frames `crowd frame=F walking=W waiting=Q solving=S stuck=X paths=T
  /// walked=M` and `crowd solver_us last=L mean=A max=X budget=B` (over the
  /// kept history).
  void observeCrowd(const Crowd& crowd, std::chrono::microseconds budget);
  /// `jump EVENT` when the jumps change (`jump added id=N from X,Y,Z to X,Y,Z [expired=M]`,
  /// `jump removed id=N`, `jump cleared`, `jump capacity=N`, `jump jumps placed on the new
  /// build...`), and `jump notice TEXT` for a refused jump.
  void observeJumps(const JumpTool& jumps);
  /// `compare on` / `compare off` when the toggle changes, `compare unavailable
  /// WHY` once when there is no Recast mesh, and for each new comparison
  /// `compare navscope found=F length=L corners=C us=T detour found=F length=L
  /// corners=C us=T polygons=P`.
  void observeCompare(const CompareTool& compare);
  /// `panel NAME X0 Y0 X1 Y1` for each panel whose place changed.
  void observePanels(const std::map<std::string, ScreenRect>& panels);
  /// `fly start focus=X,Y,Z` and `fly stop focus=X,Y,Z` when the camera starts
  /// and stops flying (WASD, Q, E held).
  void observeFly(bool flying, const glm::vec3& focus);
  /// `select NOTE` when Ctrl+click selects a sector, `select none` when cleared.
  void observeSelection(const std::string& note);
  /// `help shown` or `help hidden` when the help window (F1) opens or closes.
  void observeHelp(bool shown);
  /// `saved PATH` or `save error MESSAGE` for the Files panel's Save (and
  /// Export), `exported PATH` for its Export.
  void navSaved(const std::string& path);
  void pathExported(const std::string& path);
  void saveFailed(const std::string& message);
  /// `screenshot PATH`.
  void screenshotSaved(const std::string& path);

 private:
  void print(const std::string& line);

  bool m_enabled;
  GridFrame m_frame;
  std::optional<glm::vec3> m_start;
  std::optional<glm::vec3> m_goal;
  uint64_t m_pathRevision = 0;
  std::string m_notice;
  std::string m_funnelLine;
  std::string m_searchLine;
  std::string m_hoverLine;
  std::string m_inspectLine;
  bool m_helpShown = false;
  std::string m_queryLine;
  std::string m_queryChange;
  /// Per panel: the widgets printed last frame.
  std::map<std::string, std::map<std::string, WidgetBox>> m_widgets;
  std::map<std::string, ScreenRect> m_panels;
  std::string m_selection;
  bool m_flying = false;
  bool m_compareOn = false;
  uint64_t m_compareRevision = 0;
  std::string m_compareUnavailable;
  uint64_t m_jumpRevision = 0;
  std::string m_jumpNotice;
  uint64_t m_crowdRevision = 0;
  std::string m_crowdNotice;
  uint32_t m_crowdSolved = 0;
  uint64_t m_crowdReportedFrame = 0;
};

/// snake_case name of a search status ("found", "start_off_mesh", ...).
std::string statusName(PathStatus status);

}  // namespace nav::app
