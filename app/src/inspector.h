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
  /// What the view shows, for hover().
  struct Scene {
    const NavBuild* build = nullptr;
    uint64_t buildRevision = 0;
    const PathAnswer* path = nullptr;
    /// Grows whenever the path, its query or the jumps change (PathTool::revision).
    uint64_t pathRevision = 0;
    /// The jumps placed (nullptr: none).
    const JumpBucket* jumps = nullptr;
    bool cellsShown = false;
    /// The mesh the mouse ray hits (nullptr: the sectors' ground).
    const LoadedLevel* level = nullptr;
    /// Costs the surfaces (nullptr: the graph's own costs).
    const QueryFilter* filter = nullptr;
  };
  /// Finds what is under the mouse and shows it in a tooltip; looks again only
  /// when the mouse, the camera or the scene changed. Call once a frame,
  /// unless another tooltip took the mouse.
  void hover(const FrameView& view, const Scene& scene);
  /// Selects the sector at `point`; clears the selection when that sector was
  /// selected already, or there is none there (or no point).
  void select(const NavBuild* build, uint64_t buildRevision, const std::optional<glm::vec3>& point);
  /// The sector selected, while the build it was selected on is shown.
  std::optional<uint32_t> selected() const { return m_selected; }
  /// "sector 12: island 2 of 5, 1,200 m2"; empty without a selection.
  const std::string& selectionNote() const { return m_selectionNote; }
  /// Forgets the selection (another build is shown).
  void clearSelection() {
    m_selected.reset();
    m_selectionNote.clear();
  }
  /// The selected sector, outlined, over its island tinted.
  void drawSelection(DebugDraw& draw, const NavGraph& graph) const;
  /// What the last hover found, on one line ("stretch 2 ...", "jump 1 ...",
  /// "portal 40 ...", "cell 812 ...", "sector 12 ..."); empty when nothing.
  const std::string& description() const { return m_description; }
  /// Where the mouse was then. [window pixels]
  glm::vec2 mouse() const { return m_mouse; }

 private:
  /// Forgets islandAreas and the selection when the build changes.
  void noteBuild(const NavGraph& graph, uint64_t buildRevision);

  /// What is under the mouse, one line each.
  std::vector<std::string> describe(const FrameView& view, const Scene& scene, glm::vec2 mouse);

  /// What the lines on hand were found for.
  struct Looked {
    glm::vec2 mouse{-1.0f};
    glm::mat4 view{0.0f}, projection{0.0f};
    uint64_t buildRevision = ~0ull, pathRevision = ~0ull;
    const JumpBucket* jumps = nullptr;
    size_t jumpCount = 0;
    bool cellsShown = false;
    bool operator==(const Looked&) const = default;
  };
  Looked m_looked;
  std::vector<std::string> m_lines;
  std::string m_description;
  std::optional<uint32_t> m_selected;
  std::string m_selectionNote;
  glm::vec2 m_mouse{0.0f};
  /// islandAreas of the build seen last.
  std::vector<float> m_islandAreas;
  uint64_t m_areasRevision = ~0ull;
};

}  // namespace nav::app
