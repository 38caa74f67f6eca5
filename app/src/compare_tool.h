#pragma once
// The Compare toggle (key C, or the Path panel's checkbox): Recast's polygons
// and Detour's path for the path tool's start and goal drawn beside
// navscope's, in colours used for nothing else, with both lengths and query
// times in the Path panel. Both queries run again whenever the path does;
// navscope's runs without the placed jumps, as Detour has none.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "detour_comparison.h"
#include "nav/debug_draw.h"
#include "nav/nav_graph.h"
#include "path_tool.h"

namespace nav::app {

/// Detour's path and Recast's polygon edges: colours used for nothing else.
constexpr Color kDetourPathColor{0, 255, 140, 255};
constexpr Color kDetourMeshColor{0, 140, 90, 255};

/// Both libraries' answers to the same query.
struct Comparison {
  ComparedPath navscope, detour;
};

class CompareTool {
 public:
  bool enabled() const { return m_enabled; }
  void setEnabled(bool enabled) { m_enabled = enabled; }
  /// Recast's mesh of the build on screen; nullptr with `why` there is none.
  void setReference(std::shared_ptr<const DetourComparison> reference, std::string why);
  const DetourComparison* reference() const { return m_reference.get(); }
  /// Why there is no reference ("built without Recast/Detour ..."); empty when there is one.
  const std::string& unavailable() const { return m_unavailable; }

  /// Runs both queries again when enabled and the path or the reference changed.
  void update(const NavGraph* graph, const PathTool& path);
  /// Empty while disabled, or before a start and a goal.
  const std::optional<Comparison>& comparison() const { return m_comparison; }
  /// Grows by one with every new comparison (or when it goes away).
  uint64_t revision() const { return m_revision; }

  /// Recast's polygon edges and Detour's path, when enabled.
  void drawOverlay(DebugDraw& draw) const;
  /// The checkbox and the side-by-side rows, inside the Path panel.
  void drawPanelSection();

 private:
  bool m_enabled = false;
  std::shared_ptr<const DetourComparison> m_reference;
  std::string m_unavailable;
  /// What the comparison on hand was made from.
  const DetourComparison* m_comparedReference = nullptr;
  uint64_t m_comparedPath = ~0ull;
  std::optional<Comparison> m_comparison;
  uint64_t m_revision = 0;
};

}  // namespace nav::app
