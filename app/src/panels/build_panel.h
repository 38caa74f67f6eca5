#pragma once
// Build panel: cell size and unit sliders (rebuilt automatically once the
// values settle), the last build's counts and timings, and a building indicator.
#include <cstdint>
#include <string>

#include "nav/nav_build.h"

namespace nav::app {

struct BuildStatus {
  /// Shown at the top; levelError replaces the rest when set.
  std::string levelName;
  size_t levelTriangles = 0;
  std::string levelError;
  /// The build on screen (nullptr before the first one finishes).
  const NavBuild* build = nullptr;
  /// Why the last build failed; empty when it did not.
  std::string buildError;
  bool building = false;
  BuildStage stage = BuildStage::Idle;
  uint64_t cellsFound = 0;
};

class BuildPanel {
 public:
  /// Starts from the level's settings (also what "Reset" returns to).
  void reset(const FloodFillParams& defaults);
  void draw(const BuildStatus& status, double now);
  /// True once after the parameters changed and then stayed still for a moment.
  bool takeRebuildRequest(double now);

  const FloodFillParams& params() const { return m_params; }
  /// True while a change waits for the sliders to settle.
  bool rebuildPending() const { return m_pending; }

 private:
  void changed(double now);

  FloodFillParams m_defaults;
  FloodFillParams m_params;
  bool m_pending = false;
  double m_changedAt = 0.0;
};

}  // namespace nav::app
