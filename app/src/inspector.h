#pragma once
// The inspector: what lies under the mouse in the 3D view, shown as a tooltip.
// First a stretch of the path (its length, whether the unit walking it touches
// the level), then a portal of the sector under the mouse (its ends, width,
// one-way, device and key, the reach of its ends), then that sector (its id,
// size, surface and cost a metre, island and the island's area, height range,
// portals). Search nodes are the Steps panel's to show.
#include <cstdint>
#include <string>
#include <vector>

#include "frame_view.h"
#include "loaded_level.h"
#include "nav/nav_build.h"
#include "nav/path_pipeline.h"

namespace nav::app {

/// "start is on an island of 4 m2; the goal's island is 1,200 m2" when the two
/// points stand on sectors of different islands; empty otherwise. `areas`:
/// islandAreas(graph).
std::string islandNote(const NavGraph& graph, const std::vector<float>& areas,
                       const glm::vec3& start, const glm::vec3& goal);

class Inspector {
 public:
  /// Finds what is under the mouse and shows it in a tooltip. `level` is the
  /// mesh the mouse ray hits (nullptr: the sectors' ground); `filter` costs
  /// the surfaces. Call once a frame, unless another tooltip took the mouse.
  void hover(const FrameView& view, const NavBuild* build, uint64_t buildRevision,
             const PathAnswer* path, const LoadedLevel* level, const QueryFilter& filter);
  /// What the last hover found, on one line ("sector 12 ...", "portal 40 ...",
  /// "stretch 2 ..."); empty when nothing.
  const std::string& description() const { return m_description; }
  /// Where the mouse was then. [window pixels]
  glm::vec2 mouse() const { return m_mouse; }

 private:
  std::string m_description;
  glm::vec2 m_mouse{0.0f};
  /// islandAreas of the build seen last.
  std::vector<float> m_islandAreas;
  uint64_t m_areasRevision = ~0ull;
};

}  // namespace nav::app
