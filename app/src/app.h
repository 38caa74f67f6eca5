#pragma once
// The debugger's composition root: owns the window, the renderer, the level,
// the build worker, the tools and panels, and runs the frame loop. The
// concepts themselves live in their own files; this one only wires them.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "build_worker.h"
#include "command_line.h"
#include "compare_tool.h"
#include "file_loader.h"
#include "inspector.h"
#include "jump_tool.h"
#include "loaded_level.h"
#include "nav/crowd.h"
#include "orbit_camera.h"
#include "panels/build_panel.h"
#include "panels/crowd_panel.h"
#include "panels/files_panel.h"
#include "panels/help_panel.h"
#include "panels/main_menu.h"
#include "panels/query_panel.h"
#include "panels/step_panel.h"
#include "path_tool.h"
#include "renderer.h"
#include "scene_view.h"
#include "state_printer.h"
#include "ui_layout.h"
#include "window.h"

namespace nav::app {

class App {
 public:
  explicit App(AppOptions options);

  /// Runs until the window closes or --frames is reached; returns the process exit code.
  int run();

 private:
  /// One frame: input, panels, scene, UI, screenshots. Returns false when a requested
  /// screenshot could not be written.
  bool runFrame(uint64_t frame, bool finalFrame, float workMilliseconds);
  /// Nothing animates or waits for a result: frames may wait for input.
  bool idle() const;
  /// Starts reading a level, grid map or .nav file to show in place of what
  /// is shown (FileLoader: frames go on, Esc gives it up).
  void openLevel(const std::string& path);
  /// Shows the file FileLoader finished reading, if it has.
  void acceptOpenedFile();
  /// Shows the file read from `path`; when it could not be read, what is
  /// shown stays and the Files panel says why.
  void showOpenedFile(const std::string& path, LoadedFile file);
  /// Drops the level, its builds, path points, jumps and the crowd's graph.
  void closeLevel();
  /// Draws the scene in this grid's coordinates from now on, the view kept.
  void showFrame(const GridFrame& frame);
  void showLevel(std::shared_ptr<const LoadedLevel> level);
  /// Puts the level shown on another grid (the Build panel's) and builds it there.
  void regrid(const GridAngleOverride& grid);
  /// Reads the level's file again as the Build panel's flip faces, Z up and unit scale say.
  void readLevelAs(const LevelReading& reading);
  /// Shows the level shown, read again or put on another grid, and builds it;
  /// false, with the error shown, when it could not be read or put there.
  bool relevel(Result<std::shared_ptr<const LoadedLevel>> loaded);
  /// Shows `level`, the level shown put on another grid: the path's ends stay
  /// where they are on the level; builds, jumps and the selection go.
  void moveLevelToGrid(std::shared_ptr<const LoadedLevel> level);
  /// A .nav file's graph is shown as it is, nothing is built.
  void showNavGraph(std::shared_ptr<const NavBuild> build);
  /// Opens what the Files panel, a dropped file or a change on disk asks for; saves a .nav.
  void handleFileRequests(const FilesRequest& request);
  /// Applies --unit to the Build panel's selection (an unknown name is reported).
  void selectStartupUnit(double now);
  /// --crowd N: spawns N agents on the first graph shown.
  void spawnStartupCrowd();
  /// Shows the selected profile's kept build, or starts building it.
  void requestBuild(bool force);
  void acceptFinishedBuild();
  /// Drops kept builds whose profile's parameters have changed since.
  void pruneKeptBuilds();
  /// `reference`: Recast's mesh for the same level and unit, else why there is none.
  void showBuild(std::shared_ptr<const NavBuild> build, const FloodFillParams& params,
                 std::shared_ptr<const DetourComparison> reference, std::string referenceError);
  /// Adds the --jump pairs once, on the first graph shown.
  void placeStartupJumps();
  /// The box to frame: the level's, or the loaded graph's; empty before either.
  Aabb sceneBounds() const;
  void drawPanels(double now, float frameMilliseconds);
  /// Moves the crowd on by the time since its last update (unless paused).
  void updateCrowd(double now);
  void handleInput(const FrameView& view, const std::vector<int>& keys, double now);
  /// What the main menu, or its shortcut keys, asked for this frame.
  void handleMenu(const MenuRequest& request);
  /// Where a ray from the eye meets the level (or, for a .nav file, the sectors' ground).
  std::optional<RayHit> pick(const Ray& ray) const;
  /// WASD (and Q/E) held down fly the camera; true while one is.
  bool flyCamera(double now);
  /// F: the selected sector, else the whole scene.
  void frameSelection(glm::vec2 windowSize);
  /// The selected sector's note in the view's bottom left corner.
  void drawSelectionNote(const ScreenRect& area) const;
  void drawScene(const FrameView& view, const ScreenRect& area);
  void drawLevelError(const ScreenRect& area) const;
  /// While the first file is read: which, and that Esc gives it up.
  void drawFirstRead(const ScreenRect& area) const;
  /// Over the view, when the build has no sectors: its warning saying why.
  void drawEmptyBuild(const ScreenRect& area) const;
  /// The frame rate, in the corner of the free area.
  void drawFrameRate(const ScreenRect& area) const;
  void printProbes(const FrameView& view) const;
  /// Returns false when writing failed.
  bool saveScreenshot(const std::string& path);

  AppOptions m_options;
  StatePrinter m_printer;
  // Declared before the window: ImGui reads the settings path when it shuts down.
  UiLayout m_layout;
  std::unique_ptr<Window> m_window;
  // GL objects: declared after the window so they go before its context does.
  std::unique_ptr<Renderer> m_renderer;
  std::unique_ptr<SceneView> m_sceneView;

  OrbitCamera m_camera;
  /// The grid whose coordinates the scene is drawn in (the level's or the .nav's).
  GridFrame m_sceneFrame;
  /// The grid the level was put on by hand (--grid-angle, the Build panel), kept on reload.
  std::optional<GridAngleOverride> m_gridOverride;
  /// How the Build panel says the level shown is read (flip faces, Z up, unit
  /// scale), set by hand; a reload keeps it. Unset parts: the sidecar's.
  LevelReading m_readingOverride;

  /// A build kept for switching back to a profile at once, with what it was made from.
  struct KeptBuild {
    FloodFillParams params;
    GraphSource source = GraphSource::FloodFill;
    std::shared_ptr<const NavBuild> build;
    std::shared_ptr<const DetourComparison> reference;
    std::string referenceError;
  };

  std::shared_ptr<const LoadedLevel> m_level;
  /// Counts the levels shown, so the scene draws the mesh again for another one.
  uint64_t m_levelRevision = 0;
  /// The level's grid is to be chosen (LoadedLevel::gridChosen): the build
  /// requested as m_gridRequest chooses it.
  bool m_gridPending = false;
  uint64_t m_gridRequest = 0;
  std::string m_levelError;
  /// The graph came from a .nav file (m_level is empty then).
  bool m_fixedGraph = false;
  /// Start and goal offered by the Path panel for a .nav file: none.
  LevelSettings m_noSettings;
  std::string m_unitError;
  /// The build on screen and what it was made from.
  std::shared_ptr<const NavBuild> m_build;
  FloodFillParams m_shownParams;
  uint64_t m_buildRevision = 0;
  /// One slot per unit profile of the Build panel.
  std::vector<std::optional<KeptBuild>> m_keptBuilds;
  std::string m_buildError;
  bool m_buildCancelled = false;
  /// What the worker was last asked to build.
  FloodFillParams m_requestedParams;
  GraphSource m_requestedSource = GraphSource::FloodFill;
  BuildWorker m_worker;
  /// Reads the files openLevel opens, the first among them.
  FileLoader m_loader;

  DrawOptions m_drawOptions;
  PathTool m_pathTool;
  QueryPanel m_queryPanel;
  CompareTool m_compareTool;
  JumpTool m_jumpTool;
  /// The jump tool's revision the path was last solved with.
  uint64_t m_jumpRevision = 0;
  /// --jump pairs wait for the first graph.
  bool m_startupJumpsPlaced = false;
  BuildPanel m_buildPanel;
  StepPanel m_stepPanel;
  Inspector m_inspector;
  Crowd m_crowd;
  CrowdPanel m_crowdPanel;
  /// The Draw panel's crowd checkbox (nav::DrawOptions covers the core's layers only).
  bool m_drawCrowd = true;
  /// When the crowd last moved; empty before its first update. [glfwGetTime seconds]
  std::optional<double> m_lastCrowdUpdate;
  bool m_screenshotRequested = false;
  /// The help window (F1).
  bool m_showHelp = false;
  FilesPanel m_filesPanel;
  MainMenu m_mainMenu;
  /// When the camera last flew; empty while no fly key is held. [glfwGetTime seconds]
  std::optional<double> m_lastFly;
  /// Asked for this frame, carried out at the start of the next.
  FilesRequest m_pendingFiles;
  /// Frame the camera on the scene once it has bounds (a level was opened).
  bool m_frameRequested = true;
  /// F or View > Frame selection, carried out once the panels leave their room.
  bool m_frameSelectionRequested = false;
};

}  // namespace nav::app
