#pragma once
// Build panel: the level's unit profiles (one build each) in a combo, the
// cell grid's angle (chosen for the level, or set by hand), cell size and unit
// sliders for the selected profile (rebuilt automatically once the values
// settle), a progress bar and Cancel button while a build runs, and
// the build on screen's counts, stage timings and warnings. A Graph switch
// chooses between the flood fill's sectors and the level's faces read as a
// navigation mesh. For a graph read from a .nav file it shows the file's unit
// and nothing can be edited.
#include <cstdint>
#include <string>
#include <vector>

#include <map>
#include <optional>

#include "graph_source.h"
#include "loaded_level.h"
#include "nav/level.h"
#include "nav/nav_build.h"
#include "widget_box.h"

namespace nav::app {

struct BuildStatus {
  /// Shown at the top; levelError replaces the rest when set.
  std::string levelName;
  size_t levelTriangles = 0;
  /// The named level is still being read: nothing to show of it yet.
  bool levelReading = false;
  std::string levelError;
  /// The graph was read from a file: nothing to rebuild.
  bool fixedGraph = false;
  /// What went wrong with --unit; empty when nothing did.
  std::string unitError;
  /// The build on screen (nullptr before the first one finishes).
  const NavBuild* build = nullptr;
  /// Changes with every build shown (App's build revision).
  uint64_t buildRevision = 0;
  /// Recast's polygon count for the build on screen's level and unit, when known.
  std::optional<size_t> recastPolygons;
  /// The build on screen was made from the selected profile's current settings.
  bool buildIsCurrent = true;
  /// The unit selected in the panel.
  std::string selectedUnit;
  /// Why the last build failed; empty when it did not.
  std::string buildError;
  /// The last build was cancelled.
  bool buildCancelled = false;
  bool building = false;
  /// The unit the running build is for.
  std::string buildingUnit;
  BuildStage stage = BuildStage::Idle;
  /// The running build is still choosing the grid angle: its stages are trial builds'.
  bool choosingGrid = false;
  /// How much of the stage is done. [0, 1]
  float stageFraction = 0.0f;
  uint64_t cellsFound = 0;
  /// The fill's estimate of its total; 0 until known.
  uint64_t estimatedCells = 0;
};

class BuildPanel {
 public:
  /// One profile per unit of the level (the default human when it has none),
  /// each starting from fillParamsFor(level, unit); also what "Reset" returns to.
  /// Selects the first.
  void reset(const Level& level);
  /// The flood fill's sectors, or the level's faces read as a navigation mesh
  /// (starts as the sidecar's "navmesh" says); changing it asks for a build.
  GraphSource source() const { return m_source; }
  void setSource(GraphSource source, double now);
  /// A graph read from a file: one profile, its unit, shown but not editable.
  void resetFixed(const UnitProfile& unit, float cellSize);
  void draw(const BuildStatus& status, double now);

  /// Selects the profile named `name`; false when there is none.
  bool selectUnit(const std::string& name, double now);
  /// Selects the next profile, wrapping around (the U key).
  void selectNextUnit(double now);
  /// True once after the selection or the parameters changed (the latter after
  /// they stayed still for a moment).
  bool takeRebuildRequest(double now);
  /// True once after Rebuild was pressed: build again even when a kept build fits.
  bool takeForceRequest();
  /// What Cancel does (the Escape key): drops a waiting change, asks to stop the build.
  void cancel();
  /// True once after Cancel was pressed.
  bool takeCancelRequest();

  size_t profileCount() const { return m_profiles.size(); }
  size_t selected() const { return m_selected; }
  /// Parameters of a profile as they are now, and of the selected one.
  const FloodFillParams& params(size_t profile) const { return m_profiles[profile]; }
  const FloodFillParams& params() const { return m_profiles[m_selected]; }
  /// Index of the profile whose unit is named `name`; profileCount() when none.
  size_t findProfile(const std::string& name) const;
  /// Names of every profile, comma separated (for messages).
  std::string profileNames() const;
  /// True while a change waits for the sliders to settle.
  bool rebuildPending() const { return m_pending; }
  /// The level (the same file) put on another grid: every profile's seeds and
  /// devices become the ones turned with it; the rest is kept.
  void moveToGrid(const Level& level);
  /// The grid the level is on: its angle, and whether it was chosen for the
  /// level (auto) rather than set.
  void setGrid(float degrees, bool automatic);
  /// Once after the grid was changed by hand (and the slider settled): the
  /// grid to put the level on.
  std::optional<GridAngleOverride> takeGridRequest(double now);
  /// How the level's file was read: its faces turned over or not, its up
  /// axis and unit scale (LevelSettings' flipFaces, upAxis and unitScale).
  void setReading(const LevelSettings& settings);
  /// Once after "flip faces", "Z up" or "unit scale" was changed: how the
  /// file is to be read.
  std::optional<LevelReading> takeReadingRequest();
  /// Where the grid's and the file's controls were drawn ("check:auto grid",
  /// "slider:grid angle", "tree:file reading", "check:flip faces", "check:Z up",
  /// "input:unit scale").
  const std::map<std::string, WidgetBox>& widgets() const { return m_widgets; }

 private:
  void changed(double now);
  void select(size_t profile, double now);
  /// The combo, the kind and footprint line and the sliders; true when a value changed.
  bool drawParameters(bool fixed, double now);
  /// The auto checkbox and the angle slider.
  void drawGrid(double now);
  /// The flip faces and Z up checkboxes and the unit scale, in a tree node
  /// that opens itself when the build on screen warns of them.
  void drawFileReading(const BuildStatus& status);
  void noteWidget(const std::string& label);

  std::vector<FloodFillParams> m_defaults;
  std::vector<FloodFillParams> m_profiles;
  size_t m_selected = 0;
  GraphSource m_source = GraphSource::FloodFill;
  bool m_pending = false;
  bool m_forceRequested = false;
  bool m_cancelRequested = false;
  double m_changedAt = 0.0;
  bool m_gridAuto = true;
  float m_gridDegrees = 0.0f;
  bool m_gridPending = false;
  double m_gridChangedAt = 0.0;
  bool m_facesFlipped = false;
  /// Level::declaredFrame of the level read ("" for none).
  std::string m_declaredFrame;
  bool m_zUp = false;
  float m_unitScale = 1.0f;
  bool m_readingPending = false;
  /// The file's tree node is open; the build revision whose warnings it read last.
  bool m_readingOpen = false;
  std::optional<uint64_t> m_readingRevision;
  std::map<std::string, WidgetBox> m_widgets;
};

/// Two parameter sets build the same graph of the same level (same cell size and unit).
bool sameBuildInputs(const FloodFillParams& a, const FloodFillParams& b);

}  // namespace nav::app
