#pragma once
// The inspector: what lies under the mouse in the 3D view, shown as a tooltip.
// First a stretch of the path (its length, whether the unit walking it touches
// the level), then a jump (its ends, heading, flight), then a portal of the
// sector under the mouse (its ends, width, one-way, device and key, the reach
// of its ends), then, while cells are drawn, the cell under the mouse (column,
// height, steps, falls, material), then the sector (its id, size, surface and
// cost a metre, island and the island's area, height range, portals). Search
// nodes are the Steps panel's to show. Ctrl+click selects the sector under the
// mouse: it and its island are drawn highlighted, and F frames it; Ctrl+click
// on it again, or off the graph, clears it.
#include <cstdint>
#include <string>
#include <vector>

#include "frame_view.h"
#include "loaded_level.h"
#include "nav/debug_draw.h"
#include "nav/jump_portals.h"
#include "nav/nav_build.h"
#include "nav/path_pipeline.h"

namespace nav::app {

/// The selected sector's outline and its island's tint: colours used for nothing else.
constexpr Color kSelectionColor{0, 255, 0, 255};
constexpr Color kIslandTint{0, 255, 0, 30};

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
  /// `jumps`: the jumps placed (nullptr: none); `cellsShown`: cells are drawn.
  void hover(const FrameView& view, const NavBuild* build, uint64_t buildRevision,
             const PathAnswer* path, const JumpBucket* jumps, bool cellsShown,
             const LoadedLevel* level, const QueryFilter& filter);
  /// Selects the sector at `point`; clears the selection when that sector was
  /// selected already, or there is none there (or no point).
  void select(const NavBuild* build, uint64_t buildRevision, const std::optional<glm::vec3>& point);
  /// The sector selected, while the build it was selected on is shown.
  std::optional<uint32_t> selected() const { return m_selected; }
  /// "sector 12: island 2 of 5, 1,200 m2"; empty without a selection.
  const std::string& selectionNote() const { return m_selectionNote; }
  /// The selected sector, outlined, over its island tinted.
  void drawSelection(DebugDraw& draw, const NavGraph& graph) const;
  /// What the last hover found, on one line ("sector 12 ...", "portal 40 ...",
  /// "stretch 2 ..."); empty when nothing.
  const std::string& description() const { return m_description; }
  /// Where the mouse was then. [window pixels]
  glm::vec2 mouse() const { return m_mouse; }

 private:
  /// Forgets islandAreas and the selection when the build changes.
  void noteBuild(const NavGraph& graph, uint64_t buildRevision);

  std::string m_description;
  std::optional<uint32_t> m_selected;
  std::string m_selectionNote;
  glm::vec2 m_mouse{0.0f};
  /// islandAreas of the build seen last.
  std::vector<float> m_islandAreas;
  uint64_t m_areasRevision = ~0ull;
};

}  // namespace nav::app
