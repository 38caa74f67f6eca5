#pragma once
// The path tester: left click sets the start, right click the goal; any change
// of start, goal, build or jumps re-solves with A* (traced), the funnel portals
// and string pulling (with every funnel step recorded), and measures where the
// unit following the path would touch the level.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "loaded_level.h"
#include "nav/jump_portals.h"
#include "nav/nav_build.h"
#include "nav/path_pipeline.h"
#include "nav/search.h"
#include "tool.h"

namespace nav::app {

class PathTool final : public Tool {
 public:
  void onClick(const ClickEvent& click) override;
  /// Start and goal markers and the path.
  void drawOverlay(DebugDraw& draw, const DrawOptions& options) const override;

  void setStart(const glm::vec3& start);
  void setGoal(const glm::vec3& goal);
  void swapStartAndGoal();
  /// Forgets the start and the goal (another level was opened).
  void clearPoints();
  /// Solves again on the new build (nullptr: no build).
  void setBuild(std::shared_ptr<const NavBuild> build);
  /// The level builds come from, whose collision world measures the path's
  /// clearance (nullptr: a .nav graph, no level); set before the first build.
  void setLevel(std::shared_ptr<const LoadedLevel> level);
  /// The jumps paths may take (nullptr: none); it must outlive the tool.
  void setJumps(const JumpBucket* jumps);
  /// Solves again: the jumps changed.
  void jumpsChanged() { solve(); }
  /// How the path is searched: method, search regions, heuristic scale,
  /// turning radius and the query filter (keys, surface costs and exclusions,
  /// waypath bias); the tool's own jumps replace options.jumps. Solves again
  /// when they change, and remembers what that did to the path (lastChange).
  void setSearchOptions(const SearchOptions& options);
  const SearchOptions& searchOptions() const { return m_options; }
  /// What the last change of the search options did: the length before and
  /// after (or the status where there was no whole path). Empty before any.
  const std::string& lastChange() const { return m_lastChange; }

  const std::optional<glm::vec3>& start() const { return m_start; }
  const std::optional<glm::vec3>& goal() const { return m_goal; }
  /// Empty until there is a build, a start and a goal.
  const PathAnswer* solution() const { return m_solution ? &*m_solution : nullptr; }
  /// When the path is not found and start and goal stand on different islands:
  /// "start is on an island of 4 m2; the goal's island is 1,200 m2". Else empty.
  const std::string& islandNote() const { return m_islandNote; }
  /// What went wrong with the last click ("off mesh"); empty when nothing did.
  const std::string& notice() const { return m_notice; }
  /// Grows by one whenever the start, the goal or the solution changes.
  uint64_t revision() const { return m_revision; }

 private:
  void solve();

  std::shared_ptr<const NavBuild> m_build;
  std::shared_ptr<const LoadedLevel> m_level;
  const JumpBucket* m_jumps = nullptr;
  SearchOptions m_options;
  std::string m_lastChange;
  /// islandAreas of m_build.
  std::vector<float> m_islandAreas;
  std::string m_islandNote;
  std::optional<glm::vec3> m_start;
  std::optional<glm::vec3> m_goal;
  std::optional<PathAnswer> m_solution;
  std::string m_notice;
  uint64_t m_revision = 0;
};

}  // namespace nav::app
