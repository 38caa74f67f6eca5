#include "app.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>
#include <utility>

#include "frame_bench.h"
#include "nav/crowd_draw.h"
#include "nav/nav_file.h"
#include "nav/utf8_prefix.h"
#include "panels/draw_panel.h"
#include "panels/jump_panel.h"
#include "panels/path_panel.h"
#include "path_export.h"
#include "screenshot.h"
#include "viewport_input.h"

namespace nav::app {
namespace {

/// Without vsync (as under Xvfb) frames are capped here, leaving CPU to the build worker.
constexpr double kFramePeriod = 1.0 / 60.0;
/// ImGui settles hover and focus changes over a few frames after the last event.
constexpr uint64_t kFramesAfterEvent = 5;
/// Longest sleep while nothing happens (ImGui still saves its settings on a timer). [seconds]
constexpr double kIdleWait = 0.5;
/// A stalled frame moves the crowd no further than this, so agents never jump. [seconds]
constexpr double kMaxCrowdStep = 0.1;
/// A stalled frame flies the camera no further than this. [seconds]
constexpr double kMaxFlyStep = 0.1;

/// A level's error as the window shows it: cut to a few lines. ImGui draws
/// each character as vertices, and a draw list holds 65,536 of them: a
/// message of tens of thousands of characters ends the program.
std::string shownError(const std::string& error) {
  constexpr size_t kLongest = 2000;
  if (error.size() <= kLongest) return error;
  std::string shown(utf8Prefix(error, kLongest));
  shown += "... (" + std::to_string(error.size()) + " characters)";
  return shown;
}

std::string windowTitle(const std::string& levelPath) {
  return "navscope - " + std::filesystem::path(levelPath).filename().string();
}

}  // namespace

// A finished build wakes the main loop if it is waiting for input (thread-safe in GLFW).
App::App(AppOptions options)
    : m_options(std::move(options)),
      m_printer(m_options.printState),
      m_worker(glfwPostEmptyEvent),
      m_queryPanel(startingSearchOptions(m_options)) {
  m_gridOverride = m_options.gridAngle;
  m_pathTool.setJumps(&m_jumpTool.bucket());
  m_pathTool.setSearchOptions(m_queryPanel.starting());
  m_crowd.setJumps(&m_jumpTool.bucket());
}

void App::openLevel(const std::string& path) {
  // The same file (the named level, or a reload) keeps a grid set by hand
  // and faces turned over by hand; another level starts on its own.
  const bool same = m_options.levelPath == path;
  m_loader.start(path, same ? m_gridOverride : std::nullopt,
                 same ? m_readingOverride : LevelReading{});
  if (m_level || m_build) {
    m_filesPanel.setMessage("opening " + path + " (Esc gives it up)", false);
    m_printer.levelOpening(path);
  }
}

void App::acceptOpenedFile() {
  const std::string path = m_loader.path();
  std::optional<LoadedFile> file = m_loader.take();
  if (file) showOpenedFile(path, std::move(*file));
}

void App::showOpenedFile(const std::string& path, LoadedFile file) {
  // Read first: a file that cannot be opened leaves what is shown as it is.
  std::shared_ptr<const LoadedLevel> level = std::move(file.level);
  std::shared_ptr<const NavBuild> graph = std::move(file.graph);
  std::string error = std::move(file.error);
  if (!error.empty()) {
    error = shownError(error);
    std::fprintf(stderr, "navscope: %s\n", error.c_str());
    m_printer.levelFailed(error);
    if (m_level || m_build) {
      m_filesPanel.setMessage("could not open it, still showing the level before: " + error, true);
    } else {
      m_levelError = error;
    }
    return;
  }
  const bool first = m_options.levelPath == path && !m_level && !m_build;
  // Reloading keeps the points clicked on it.
  const bool reload = !first && m_options.levelPath == path;
  const std::optional<glm::vec3> start = m_pathTool.start(), goal = m_pathTool.goal();
  const GridFrame before = m_sceneFrame;
  closeLevel();
  if (!first) {
    // The command line's points, unit, crowd and jumps were for the level it named.
    m_options.start.reset();
    m_options.goal.reset();
    m_options.unit.reset();
    m_options.crowd.reset();
    m_startupJumpsPlaced = true;
  }
  if (m_options.levelPath != path) {
    m_gridOverride.reset();
    m_readingOverride = {};
  }
  m_options.levelPath = path;
  if (m_window) m_window->setTitle(windowTitle(path));
  m_filesPanel.opened(path);
  m_filesPanel.setMessage(first ? "" : (reload ? "reloaded " : "opened ") + path, false);
  m_frameRequested = true;
  if (graph) {
    showNavGraph(std::move(graph));
  } else {
    showLevel(std::move(level));
  }
  // Where they were on the level, on the grid it is on now.
  if (reload && start) m_pathTool.setStart(m_sceneFrame.toGrid(before.toFile(*start)));
  if (reload && goal) m_pathTool.setGoal(m_sceneFrame.toGrid(before.toFile(*goal)));
}

void App::closeLevel() {
  m_worker.cancel();
  m_level.reset();
  m_gridPending = false;
  m_build.reset();
  m_fixedGraph = false;
  m_levelError.clear();
  m_unitError.clear();
  m_buildError.clear();
  m_buildCancelled = false;
  m_keptBuilds.clear();
  ++m_buildRevision;
  m_jumpTool.clear();
  m_jumpTool.setBuild(nullptr);
  m_pathTool.setLevel(nullptr);
  m_pathTool.setBuild(nullptr);
  m_pathTool.clearPoints();
  m_inspector.clearSelection();
  m_crowd.setBuild(nullptr);
}

void App::showFrame(const GridFrame& frame) {
  m_camera.changeFrame(m_sceneFrame, frame);
  m_sceneFrame = frame;
  m_printer.setFrame(frame);
}

void App::showLevel(std::shared_ptr<const LoadedLevel> loaded) {
  m_level = std::move(loaded);
  ++m_levelRevision;
  m_gridPending = m_level->gridChosen;
  m_pathTool.setLevel(m_level);
  const Level& level = m_level->level;
  m_printer.levelLoaded(m_options.levelPath, level.triangles.size());
  showFrame(level.gridFrame);
  m_buildPanel.reset(level);
  m_buildPanel.setGrid(level.gridFrame.degrees, m_level->gridChosen);
  m_buildPanel.setReading(level.settings);
  if (m_options.navmesh) {
    // Built right below: the panel need not ask again.
    m_buildPanel.setSource(GraphSource::NavMesh, glfwGetTime());
    m_buildPanel.takeRebuildRequest(glfwGetTime() + 1.0);
  }
  m_keptBuilds.assign(m_buildPanel.profileCount(), std::nullopt);
  selectStartupUnit(glfwGetTime());
  spawnStartupCrowd();
  requestBuild(false);
  // Defaults first, so the path shows as soon as the first build lands. The
  // command line's points are the file's; the sidecar's are turned with the level.
  const GridFrame& frame = level.gridFrame;
  const std::optional<glm::vec3> start =
      m_options.start ? frame.toGrid(*m_options.start) : level.settings.start;
  const std::optional<glm::vec3> goal =
      m_options.goal ? frame.toGrid(*m_options.goal) : level.settings.goal;
  if (start) m_pathTool.setStart(*start);
  if (goal) m_pathTool.setGoal(*goal);
}

void App::regrid(const GridAngleOverride& grid) {
  if (!m_level) return;
  if (relevel(levelOnItsGrid(m_level->fileLevel(), grid))) m_gridOverride = grid;
}

void App::readLevelAs(const LevelReading& reading) {
  if (!m_level) return;
  const LevelSettings& was = m_level->level.settings;
  // Points clicked on the level read another way lie elsewhere on it.
  const bool moved = reading.upAxis != was.upAxis || reading.unitScale != was.unitScale;
  Result<std::shared_ptr<const LoadedLevel>> loaded =
      loadLevelFile(m_options.levelPath, m_gridOverride, reading);
  if (loaded && moved) m_pathTool.clearPoints();
  if (relevel(std::move(loaded))) {
    m_readingOverride = reading;
  } else {
    m_buildPanel.setReading(m_level->level.settings);
  }
}

bool App::relevel(Result<std::shared_ptr<const LoadedLevel>> loaded) {
  if (!loaded) {
    m_buildError = loaded.error();
    m_printer.buildFailed(m_buildError);
    return false;
  }
  m_worker.cancel();
  moveLevelToGrid(std::move(loaded).value());
  m_gridPending = m_level->gridChosen;
  requestBuild(true);
  return true;
}

void App::moveLevelToGrid(std::shared_ptr<const LoadedLevel> level) {
  const GridFrame before = m_sceneFrame;
  const std::optional<glm::vec3> start = m_pathTool.start(), goal = m_pathTool.goal();
  m_level = std::move(level);
  ++m_levelRevision;
  m_build.reset();
  m_keptBuilds.assign(m_buildPanel.profileCount(), std::nullopt);
  ++m_buildRevision;
  m_jumpTool.clear();
  m_jumpTool.setBuild(nullptr);
  m_pathTool.setBuild(nullptr);
  m_pathTool.clearPoints();
  m_pathTool.setLevel(m_level);
  m_inspector.clearSelection();
  m_crowd.setBuild(nullptr);
  m_compareTool.setReference(nullptr, "Recast's mesh comes with the build on the new grid");
  showFrame(m_level->level.gridFrame);
  m_buildPanel.moveToGrid(m_level->level);
  m_buildPanel.setGrid(m_level->level.gridFrame.degrees, m_level->gridChosen);
  m_buildPanel.setReading(m_level->level.settings);
  if (start) m_pathTool.setStart(m_sceneFrame.toGrid(before.toFile(*start)));
  if (goal) m_pathTool.setGoal(m_sceneFrame.toGrid(before.toFile(*goal)));
}

void App::showNavGraph(std::shared_ptr<const NavBuild> build) {
  m_fixedGraph = true;
  const NavGraph& graph = build->graph;
  m_printer.navFileLoaded(m_options.levelPath, graph);
  showFrame(graph.gridFrame);
  m_buildPanel.resetFixed(graph.unit, graph.cellSize);
  selectStartupUnit(glfwGetTime());
  m_printer.buildFinished(graph.unit.name, build->stats, StatePrinter::BuildSource::Loaded);
  spawnStartupCrowd();
  showBuild(std::move(build), m_buildPanel.params(), nullptr,
            "a .nav file holds no level mesh for Recast to build from");
  if (m_options.start) m_pathTool.setStart(graph.gridFrame.toGrid(*m_options.start));
  if (m_options.goal) m_pathTool.setGoal(graph.gridFrame.toGrid(*m_options.goal));
}

void App::handleFileRequests(const FilesRequest& request) {
  std::optional<std::string> open = request.open;
  for (std::string& dropped : m_window->takeDroppedPaths())
    open = std::move(dropped);
  if (!open && m_filesPanel.changedOnDisk()) open = m_options.levelPath;
  if (open) {
    // A reload keeps the graph on screen; another level follows the Files panel's checkbox.
    m_options.navmesh = *open == m_options.levelPath
                            ? m_buildPanel.source() != GraphSource::FloodFill
                            : m_filesPanel.openAsNavMesh();
    openLevel(*open);
  }
  const PathAnswer* path = m_pathTool.solution();
  if (request.exportPath && m_build && path) {
    std::ofstream out(*request.exportPath, std::ios::binary);
    out << pathJson(m_options.levelPath, m_build->graph, *m_pathTool.start(), *m_pathTool.goal(),
                    m_pathTool.searchOptions(), *path);
    if (out.flush()) {
      m_filesPanel.setMessage("exported " + *request.exportPath, false);
      m_printer.pathExported(*request.exportPath);
    } else {
      m_filesPanel.setMessage("cannot write " + *request.exportPath, true);
      m_printer.saveFailed("cannot write " + *request.exportPath);
    }
  }
  if (request.saveNav && m_build) {
    const Result<size_t> written = writeNavFile(*request.saveNav, m_build->graph);
    if (written) {
      m_filesPanel.setMessage("saved " + *request.saveNav, false);
      m_printer.navSaved(*request.saveNav);
    } else {
      m_filesPanel.setMessage(written.error(), true);
      m_printer.saveFailed(written.error());
    }
  }
}

void App::selectStartupUnit(double now) {
  if (!m_options.unit) return;
  if (m_buildPanel.selectUnit(*m_options.unit, now)) {
    // The caller builds the selection itself: the panel need not ask again.
    m_buildPanel.takeRebuildRequest(now + 1.0);
    return;
  }
  m_unitError = "--unit " + *m_options.unit + ": " +
                (m_fixedGraph ? "the file's graph is for unit " : "the level's units are ") +
                m_buildPanel.profileNames();
  std::fprintf(stderr, "navscope: %s\n", m_unitError.c_str());
  m_printer.unitFailed(m_unitError);
}

// Asked for before the graph is shown: the agents appear with it.
void App::spawnStartupCrowd() {
  if (!m_options.crowd) return;
  m_crowdPanel.setCount(*m_options.crowd);
  m_crowd.spawn(m_crowdPanel.count(), m_crowdPanel.seed());
}

void App::pruneKeptBuilds() {
  for (size_t profile = 0; profile < m_keptBuilds.size(); ++profile) {
    std::optional<KeptBuild>& kept = m_keptBuilds[profile];
    if (kept && (!sameBuildInputs(kept->params, m_buildPanel.params(profile)) ||
                 kept->source != m_buildPanel.source()))
      kept.reset();
  }
}

void App::requestBuild(bool force) {
  if (!m_level) return;
  pruneKeptBuilds();
  const size_t profile = m_buildPanel.selected();
  const FloodFillParams& params = m_buildPanel.params();
  m_buildError.clear();
  m_buildCancelled = false;
  if (!force && profile < m_keptBuilds.size() && m_keptBuilds[profile]) {
    const KeptBuild& kept = *m_keptBuilds[profile];
    m_printer.buildFinished(params.unit.name, kept.build->stats, StatePrinter::BuildSource::Cached,
                            kept.source != GraphSource::FloodFill);
    showBuild(kept.build, kept.params, kept.reference, kept.referenceError);
    return;
  }
  // Already on its way (switched away and back while it runs).
  const GraphSource source = m_buildPanel.source();
  if (!force && m_worker.busy() && sameBuildInputs(m_requestedParams, params) &&
      m_requestedSource == source)
    return;
  m_requestedParams = params;
  m_requestedSource = source;
  const bool chooseGrid = m_gridPending && source == GraphSource::FloodFill;
  const uint64_t id = m_worker.request(m_level, params, source, chooseGrid);
  if (chooseGrid) m_gridRequest = id;
  m_printer.buildStarted(params.unit.name, effectiveCellSize(params));
}

void App::showBuild(std::shared_ptr<const NavBuild> build, const FloodFillParams& params,
                    std::shared_ptr<const DetourComparison> reference, std::string referenceError) {
  m_build = std::move(build);
  m_shownParams = params;
  m_compareTool.setReference(std::move(reference), std::move(referenceError));
  m_inspector.clearSelection();
  ++m_buildRevision;
  // Jumps first: the path is solved again with them on the new graph.
  m_jumpTool.setBuild(m_build);
  placeStartupJumps();
  m_jumpRevision = m_jumpTool.revision();
  m_pathTool.setBuild(m_build);
  // A crowd on the previous graph is spawned again on this one.
  m_crowd.setBuild(m_build);
}

void App::placeStartupJumps() {
  if (m_startupJumpsPlaced || !m_build) return;
  m_startupJumpsPlaced = true;
  const GridFrame& frame = m_build->graph.gridFrame;
  for (const auto& [takeoff, landing] : m_options.jumps) {
    if (!m_jumpTool.add(frame.toGrid(takeoff), frame.toGrid(landing))) {
      std::fprintf(stderr, "navscope: --jump: %s\n", m_jumpTool.notice().c_str());
    }
    m_printer.observeJumps(m_jumpTool);
  }
}

void App::acceptFinishedBuild() {
  std::optional<FinishedBuild> finished = m_worker.takeFinished();
  if (!finished) return;
  // The grid is chosen once, whether or not the build after it succeeds.
  if (m_gridPending && finished->id == m_gridRequest && finished->chosenGrid) {
    m_gridPending = false;
    if (finished->placed) moveLevelToGrid(finished->placed);
  }
  const std::string& unit = finished->params.unit.name;
  if (finished->cancelled) {
    m_buildCancelled = true;
    m_printer.buildCancelled(unit);
    return;
  }
  if (!finished->build) {
    // Keep showing the previous build: a failed parameter change should not blank the view.
    m_buildError = finished->error;
    m_printer.buildFailed(m_buildError);
    return;
  }
  m_buildError.clear();
  m_printer.buildFinished(unit, finished->build->stats, StatePrinter::BuildSource::Built,
                          finished->source != GraphSource::FloodFill);
  // A build of the graph the panel no longer asks for is dropped.
  if (finished->source != m_buildPanel.source()) return;
  const size_t profile = m_buildPanel.findProfile(unit);
  if (profile < m_keptBuilds.size() &&
      sameBuildInputs(finished->params, m_buildPanel.params(profile))) {
    m_keptBuilds[profile] = KeptBuild{finished->params, finished->source, finished->build,
                                      finished->reference, finished->referenceError};
  }
  // A build for another profile (switched away while it ran) is only kept.
  if (profile == m_buildPanel.selected())
    showBuild(std::move(finished->build), finished->params, std::move(finished->reference),
              std::move(finished->referenceError));
}

Aabb App::sceneBounds() const {
  if (m_level) return m_level->level.bounds;
  if (m_build) return m_build->graph.bounds;
  return {};
}

void App::drawPanels(double now, float frameMilliseconds) {
  MenuState menu;
  menu.haveLevel = m_level || m_fixedGraph;
  menu.canSave = m_build != nullptr;
  menu.canExport = m_pathTool.solution() != nullptr;
  menu.compareAvailable = m_compareTool.reference() != nullptr;
  menu.compareOn = m_compareTool.enabled();
  menu.helpShown = m_showHelp;
  handleMenu(m_mainMenu.draw(menu));
  BuildStatus status;
  status.levelName = std::filesystem::path(m_options.levelPath).filename().string();
  if (m_level) status.levelTriangles = m_level->level.triangles.size();
  status.levelReading = !m_level && !m_build && m_loader.busy();
  status.levelError = m_levelError;
  status.fixedGraph = m_fixedGraph;
  status.unitError = m_unitError;
  status.build = m_build.get();
  status.buildRevision = m_buildRevision;
  if (m_compareTool.reference()) status.recastPolygons = m_compareTool.reference()->polygonCount();
  status.buildIsCurrent =
      m_fixedGraph || (m_build && sameBuildInputs(m_shownParams, m_buildPanel.params()));
  if (m_buildPanel.profileCount() > 0) status.selectedUnit = m_buildPanel.params().unit.name;
  status.buildError = m_buildError;
  status.buildCancelled = m_buildCancelled;
  status.building = m_worker.busy();
  status.buildingUnit = m_requestedParams.unit.name;
  status.stage = m_worker.stage();
  status.choosingGrid = m_worker.choosingGrid();
  status.stageFraction = m_worker.stageFraction();
  status.cellsFound = m_worker.cellsFound();
  status.estimatedCells = m_worker.estimatedCells();
  m_buildPanel.draw(status, now);
  drawDrawPanel(m_drawOptions, m_drawCrowd, frameMilliseconds, m_build ? &m_build->graph : nullptr);
  const LevelSettings* settings = m_level        ? &m_level->level.settings
                                  : m_fixedGraph ? &m_noSettings
                                                 : nullptr;
  drawPathPanel(m_pathTool, m_compareTool, settings, m_sceneFrame, m_build != nullptr);
  m_queryPanel.draw(m_pathTool, m_build ? &m_build->graph : nullptr);
  drawHelp(m_showHelp);
  const FilesRequest files =
      m_filesPanel.draw(m_options.levelPath, m_build != nullptr, m_pathTool.solution() != nullptr,
                        m_build ? m_build->graph.unit.name : "");
  m_pendingFiles.merge(files);
  m_stepPanel.draw(m_pathTool.solution(), m_pathTool.revision(), now);
  m_crowdPanel.draw(m_crowd, m_build != nullptr);
  drawJumpPanel(m_jumpTool, m_sceneFrame, m_build != nullptr);
  if (m_buildPanel.takeCancelRequest()) m_worker.cancel();
  if (const std::optional<GridAngleOverride> grid = m_buildPanel.takeGridRequest(now))
    regrid(*grid);
  if (const std::optional<LevelReading> reading = m_buildPanel.takeReadingRequest())
    readLevelAs(*reading);
  if (m_buildPanel.takeRebuildRequest(now)) requestBuild(m_buildPanel.takeForceRequest());
}

void App::handleMenu(const MenuRequest& request) {
  if (request.showFiles) m_filesPanel.reveal();
  if (request.reload) m_pendingFiles.open = m_options.levelPath;
  if (request.saveNav) m_pendingFiles.saveNav = m_filesPanel.savePath();
  if (request.exportPath) m_pendingFiles.exportPath = m_filesPanel.exportPath();
  if (request.frame) m_frameSelectionRequested = true;
  if (request.toggleCompare && m_compareTool.reference())
    m_compareTool.setEnabled(!m_compareTool.enabled());
  if (request.resetLayout) m_layout.requestReset();
  if (request.toggleHelp) m_showHelp = !m_showHelp;
}

bool App::flyCamera(double now) {
  glm::vec3 move(0.0f);
  const ImGuiIO& io = ImGui::GetIO();
  // Ctrl+S saves and Ctrl+E exports: keys held with a modifier are shortcuts.
  if (!io.WantCaptureKeyboard && !io.KeyCtrl && !io.KeyAlt && !io.KeySuper) {
    const auto held = [](int key) { return ImGui::IsKeyDown(key) ? 1.0f : 0.0f; };
    move = {held(GLFW_KEY_D) - held(GLFW_KEY_A), held(GLFW_KEY_E) - held(GLFW_KEY_Q),
            held(GLFW_KEY_W) - held(GLFW_KEY_S)};
  }
  if (move == glm::vec3(0.0f)) {
    m_lastFly.reset();
    return false;
  }
  // The first frame of a press moves nothing: it only starts the clock.
  const double seconds = m_lastFly ? std::min(now - *m_lastFly, kMaxFlyStep) : 0.0;
  m_lastFly = now;
  // Diagonally as fast as straight on.
  m_camera.fly(move / glm::length(move), float(seconds));
  return true;
}

void App::frameSelection(glm::vec2 windowSize) {
  Aabb bounds = sceneBounds();
  if (m_build && m_inspector.selected() &&
      *m_inspector.selected() < m_build->graph.sectors.size()) {
    bounds = m_build->graph.sectors[*m_inspector.selected()].bounds;
    // A sliver still shows its surroundings.
    constexpr float kMinAcross = 6.0f;
    const glm::vec3 grow = glm::max(glm::vec3(kMinAcross) - bounds.size(), glm::vec3(0.0f)) * 0.5f;
    bounds.min -= grow;
    bounds.max += grow;
  }
  if (!bounds.empty()) m_camera.frame(bounds, m_layout.unobstructedRect(), windowSize);
}

void App::drawSelectionNote(const ScreenRect& area) const {
  if (m_inspector.selectionNote().empty()) return;
  const std::string text =
      "selected " + m_inspector.selectionNote() + "  (F frames it, Ctrl+click it again clears)";
  const float height = ImGui::GetTextLineHeight();
  ImGui::GetBackgroundDrawList()->AddText(ImVec2(area.min.x + 8.0f, area.max.y - height - 6.0f),
                                          IM_COL32(170, 255, 170, 255), text.c_str());
}

void App::updateCrowd(double now) {
  const double seconds =
      m_lastCrowdUpdate ? std::min(now - *m_lastCrowdUpdate, kMaxCrowdStep) : 0.0;
  m_lastCrowdUpdate = now;
  if (m_crowdPanel.paused()) return;
  // The crowd searches the way the Path panel does, so their solver times compare.
  m_crowd.setSearchOptions(m_pathTool.searchOptions());
  m_crowd.update(float(seconds), m_crowdPanel.budget());
}

void App::handleInput(const FrameView& view, const std::vector<int>& keys, double now) {
  const std::optional<ViewportClick> click = handleViewportMouse(m_camera, view.windowSize);
  if (click && click->control && click->button == MouseButton::Left && m_build) {
    // Ctrl+click selects the sector under the mouse (or clears the selection).
    const std::optional<RayHit> hit = pick(view.rayThrough(click->position));
    m_inspector.select(m_build.get(), m_buildRevision,
                       hit ? std::optional<glm::vec3>(hit->point) : std::nullopt);
  } else if (click && (m_level || m_fixedGraph)) {
    const Ray ray = view.rayThrough(click->position);
    const ClickEvent event{click->button, ray, pick(ray), click->shift, click->control};
    if (m_jumpTool.armed()) {
      m_jumpTool.onClick(event);
    } else {
      m_pathTool.onClick(event);
    }
  }
  // The menu's shortcuts ask for what its items do.
  MenuRequest shortcuts;
  for (int key : keys) {
    if (key == GLFW_KEY_F12) m_screenshotRequested = true;
    if (key == GLFW_KEY_F1) shortcuts.toggleHelp = true;
  }
  // Keys typed into a widget (a slider's text entry) are not shortcuts.
  if (!ImGui::GetIO().WantCaptureKeyboard) {
    m_stepPanel.handleKeys(keys, m_pathTool.solution(), m_pathTool.revision(), now);
    for (int key : keys) {
      shortcuts.frame = shortcuts.frame || key == GLFW_KEY_F;
      shortcuts.toggleCompare = shortcuts.toggleCompare || key == GLFW_KEY_C;
      shortcuts.reload = shortcuts.reload || key == (kControlKey | GLFW_KEY_R);
      shortcuts.saveNav = shortcuts.saveNav || key == (kControlKey | GLFW_KEY_S);
      shortcuts.exportPath = shortcuts.exportPath || key == (kControlKey | GLFW_KEY_E);
      if (key == GLFW_KEY_U && m_level) m_buildPanel.selectNextUnit(now);
      if (key == GLFW_KEY_J) m_jumpTool.setArmed(!m_jumpTool.armed());
      if (key == GLFW_KEY_B) m_drawOptions.levelBackFaces = !m_drawOptions.levelBackFaces;
      if (key == GLFW_KEY_ESCAPE && m_loader.busy()) {
        m_filesPanel.setMessage("gave up opening " + m_loader.path(), false);
        m_printer.levelGivenUp(m_loader.path());
        if (!m_level && !m_build) m_levelError = "gave up reading " + m_loader.path();
        m_loader.abandon();
      } else if (key == GLFW_KEY_ESCAPE && m_level) {
        m_buildPanel.cancel();
      }
    }
  }
  handleMenu(shortcuts);
}

std::optional<RayHit> App::pick(const Ray& ray) const {
  const Aabb bounds = sceneBounds();
  const float reach = (bounds.empty() ? 0.0f : glm::length(bounds.size()) * 4.0f) + 1000.0f;
  // What is clicked is what is drawn: faces seen from behind are not, unless asked.
  if (m_level)
    return m_level->world.raycast(ray.origin, ray.direction, reach,
                                  m_drawOptions.levelBackFaces ? CollisionWorld::RayFaces::Both
                                                               : CollisionWorld::RayFaces::Front);
  // No mesh to hit: the sectors' ground is what can be clicked.
  if (m_build) return raycastSectors(m_build->graph, ray, reach);
  return std::nullopt;
}

void App::drawScene(const FrameView& view, const ScreenRect& area) {
  m_renderer->beginFrame(view, area);
  SceneContent content;
  if (m_level) content.level = &m_level->level;
  content.levelRevision = m_levelRevision;
  content.build = m_build.get();
  content.buildRevision = m_buildRevision;
  content.path = m_pathTool.solution();
  content.pathRevision = m_pathTool.revision();
  // Stepping through the search draws its state at the step instead of the whole trace.
  content.searchStepping = m_stepPanel.searchStep(content.path, content.pathRevision) != nullptr;
  m_sceneView->draw(*m_renderer, content, m_drawOptions);
  if (m_build) {
    m_renderer->setLineWidth(4.0f);
    m_inspector.drawSelection(*m_renderer, m_build->graph);
  }

  if (m_drawCrowd) {
    m_renderer->setLineWidth(2.0f);
    drawCrowd(m_crowd, *m_renderer);
  }
  m_renderer->setLineWidth(3.0f);
  m_jumpTool.drawOverlay(*m_renderer, m_drawOptions);
  const PathAnswer* solution = m_pathTool.solution();
  const std::optional<size_t> funnelStep = m_stepPanel.funnelStep(solution, m_pathTool.revision());
  // Stepping the funnel: the path dimmed, the part already pulled (start to apex) drawn over it.
  const bool steppingFunnel = funnelStep && m_drawOptions.funnelStep && m_stepPanel.stepped();
  DrawOptions pathOptions = m_drawOptions;
  if (steppingFunnel) pathOptions.path = pathOptions.smoothedPath = false;
  m_renderer->setLineWidth(4.0f);
  m_pathTool.drawOverlay(*m_renderer, pathOptions);
  m_renderer->setLineWidth(3.0f);
  m_compareTool.drawOverlay(*m_renderer);
  if (steppingFunnel && m_drawOptions.path)
    drawPath(*m_renderer, solution->groundPath, {}, colors::kPath.withAlpha(70));
  if (const SearchReplay* replay = m_stepPanel.searchStep(solution, m_pathTool.revision())) {
    m_renderer->setLineWidth(2.0f);
    drawSearchStep(*m_renderer, *replay);
  }
  m_renderer->setLineWidth(1.0f);
  m_renderer->flushOverlay();
  if (funnelStep && m_drawOptions.funnelStep) {
    const FunnelStep& step = solution->funnel.steps[*funnelStep];
    if (steppingFunnel) {
      std::vector<glm::vec3> pulled(
          solution->funnel.corners.begin(),
          solution->funnel.corners.begin() +
              std::min<size_t>(step.cornerCount > 0 ? step.cornerCount - 1 : 0,
                               solution->funnel.corners.size()));
      pulled.push_back(step.apex);
      m_renderer->setLineWidth(5.0f);
      drawPath(*m_renderer, pulled, pulled, colors::kPath);
    }
    m_renderer->setLineWidth(steppingFunnel ? 5.0f : 3.0f);
    drawFunnelStep(*m_renderer, solution->portals, step);
    m_renderer->setLineWidth(1.0f);
    m_renderer->flushOverlayOnTop();
  }
}

namespace {

// Text in the middle of the view, wrapped to its width.
void drawCentredText(const ScreenRect& area, const std::string& text, ImU32 colour) {
  ImDrawList* drawList = ImGui::GetBackgroundDrawList();
  const float wrap = std::max(area.size().x - 40.0f, 100.0f);
  const ImVec2 size = ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap);
  const glm::vec2 center = (area.min + area.max) * 0.5f;
  const ImVec2 at(center.x - size.x * 0.5f, center.y - size.y * 0.5f);
  drawList->AddText(nullptr, 0.0f, at, colour, text.c_str(), nullptr, wrap);
}

}  // namespace

void App::drawLevelError(const ScreenRect& area) const {
  if (m_levelError.empty()) return;
  drawCentredText(area, "Cannot show a level:\n" + m_levelError, IM_COL32(255, 120, 110, 255));
}

void App::drawFirstRead(const ScreenRect& area) const {
  if (!m_loader.busy() || m_level || m_build) return;
  drawCentredText(area, "Reading " + m_loader.path() + "\n(Esc gives it up)",
                  IM_COL32(220, 220, 220, 255));
}

void App::drawEmptyBuild(const ScreenRect& area) const {
  if (!m_build || !m_build->graph.sectors.empty()) return;
  const std::vector<std::string>& warnings = m_build->stats.warnings;
  const auto why = std::find_if(warnings.begin(), warnings.end(),
                                [](const std::string& w) { return w.rfind("no cells:", 0) == 0; });
  if (why == warnings.end()) return;
  std::string text = "No cells" + why->substr(std::string("no cells").size());
  if (why->find("--flip-faces") != std::string::npos)
    text += ".\nHere: the Build panel's \"flip faces\" box.";
  if (why->find("--up-axis") != std::string::npos)
    text += ".\nHere: the Build panel's \"Z up\" box.";
  if (why->find("--unit-scale") != std::string::npos)
    text += ".\nHere: the Build panel's \"unit scale\".";
  ImDrawList* drawList = ImGui::GetBackgroundDrawList();
  const float wrap = std::min(std::max(area.size().x - 40.0f, 100.0f), 640.0f);
  const ImVec2 size = ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap);
  const ImVec2 at((area.min.x + area.max.x - size.x) * 0.5f, area.min.y + 40.0f);
  drawList->AddText(nullptr, 0.0f, at, IM_COL32(255, 200, 90, 255), text.c_str(), nullptr, wrap);
}

void App::printProbes(const FrameView& view) const {
  for (const glm::vec3& probe : m_options.probes) {
    const std::optional<glm::vec2> pixel = view.project(m_sceneFrame.toGrid(probe));
    if (pixel) {
      std::printf("probe %g,%g,%g -> px %d %d\n", probe.x, probe.y, probe.z,
                  int(std::lround(pixel->x)), int(std::lround(pixel->y)));
    } else {
      std::printf("probe %g,%g,%g -> behind the camera\n", probe.x, probe.y, probe.z);
    }
  }
  std::fflush(stdout);
}

void App::drawFrameRate(const ScreenRect& area) const {
  const float rate = ImGui::GetIO().Framerate;
  char text[32];
  std::snprintf(text, sizeof text, "%.0f fps", double(rate));
  const ImVec2 size = ImGui::CalcTextSize(text);
  ImGui::GetBackgroundDrawList()->AddText(
      ImVec2(area.max.x - size.x - 8.0f, area.max.y - size.y - 6.0f), IM_COL32(200, 200, 200, 200),
      text);
}

bool App::saveScreenshot(const std::string& path) {
  const Result<std::string> written = writeScreenshot(path, m_window->framebufferSize());
  if (!written) {
    std::fprintf(stderr, "navscope: screenshot failed: %s\n", written.error().c_str());
    return false;
  }
  m_printer.screenshotSaved(written.value());
  return true;
}

bool App::runFrame(uint64_t frame, bool finalFrame, float workMilliseconds) {
  const double now = glfwGetTime();
  m_window->beginFrame();
  const std::vector<int> keys = m_window->takeKeyPresses();
  m_layout.beginFrame();
  // What the Files panel, a drop or the disk asked for last frame, before anything is drawn.
  handleFileRequests(std::exchange(m_pendingFiles, FilesRequest{}));
  acceptOpenedFile();
  acceptFinishedBuild();
  drawPanels(now, workMilliseconds);

  const glm::vec2 windowSize = m_window->windowSize();
  const glm::ivec2 framebufferSize = m_window->framebufferSize();
  // Known only now that the panels of this frame have been submitted.
  const ScreenRect freeArea = m_layout.unobstructedRect();
  if (m_frameRequested && !sceneBounds().empty()) {
    m_frameRequested = false;
    m_camera.frame(sceneBounds(), freeArea, windowSize);
  }
  if (frame == 0) printProbes(m_camera.frameView(windowSize, framebufferSize));
  m_printer.observeFly(flyCamera(now), m_camera.target());
  handleInput(m_camera.frameView(windowSize, framebufferSize), keys, now);
  if (m_frameSelectionRequested) {
    m_frameSelectionRequested = false;
    frameSelection(windowSize);
  }
  // The camera as the input left it: the rest of the frame sees and draws through it.
  const FrameView view = m_camera.frameView(windowSize, framebufferSize);
  if (m_jumpTool.revision() != m_jumpRevision) {
    m_jumpRevision = m_jumpTool.revision();
    m_pathTool.jumpsChanged();
  }
  m_printer.observeJumps(m_jumpTool);
  m_compareTool.update(m_build ? &m_build->graph : nullptr, m_pathTool);
  m_printer.observeCompare(m_compareTool);
  m_stepPanel.update(m_pathTool.solution(), m_pathTool.revision(), now);
  m_stepPanel.hoverSearchNode(view, m_pathTool.solution(), m_pathTool.revision());
  if (!m_stepPanel.hoveredNode()) {
    m_inspector.hover(
        view, Inspector::Scene{m_build.get(), m_buildRevision, m_pathTool.solution(),
                               m_pathTool.revision(), &m_jumpTool.bucket(), m_drawOptions.cells,
                               m_level.get(), &m_pathTool.searchOptions().filter});
  }
  updateCrowd(now);
  m_printer.observe(m_pathTool);
  m_printer.observeQuery(m_pathTool);
  m_printer.observeWidgets("query", m_queryPanel.widgets());
  m_printer.observeWidgets("build", m_buildPanel.widgets());
  m_printer.observeWidgets("files", m_filesPanel.widgets());
  m_printer.observeHelp(m_showHelp);
  m_printer.observeWidgets("menu", m_mainMenu.widgets());
  m_printer.observePanels(m_layout.panelRects());
  m_printer.observeSelection(m_inspector.selectionNote());
  m_printer.observeInspector(m_stepPanel.hoveredNode() ? std::string() : m_inspector.description(),
                             m_inspector.mouse());
  m_printer.observeCrowd(m_crowd, m_crowdPanel.budget());
  m_printer.observeFunnel(m_stepPanel.funnelStep(m_pathTool.solution(), m_pathTool.revision()),
                          m_pathTool.solution());
  m_printer.observeSearchStep(m_stepPanel.searchStep(m_pathTool.solution(), m_pathTool.revision()),
                              m_stepPanel.hoveredNode(), view);

  drawScene(view, freeArea);
  drawLevelError(freeArea);
  drawFirstRead(freeArea);
  drawEmptyBuild(freeArea);
  drawSelectionNote(freeArea);
  drawFrameRate(freeArea);
  m_window->renderUi();
  bool ok = true;
  if (m_screenshotRequested) {
    m_screenshotRequested = false;
    saveScreenshot(nextScreenshotName());
  }
  if (finalFrame && m_options.screenshotPath) ok = saveScreenshot(*m_options.screenshotPath);
  m_window->present();
  return ok;
}

bool App::idle() const {
  return !m_loader.busy() && !m_worker.busy() && !m_buildPanel.rebuildPending() &&
         !m_stepPanel.playing() && !m_lastFly && !m_worker.hasFinished() &&
         (m_crowd.agents().empty() || m_crowdPanel.paused());
}

int App::run() {
  Result<std::unique_ptr<Window>> window =
      Window::create(windowTitle(m_options.levelPath), m_options.windowSize);
  if (!window) {
    std::fprintf(stderr, "navscope: %s\n", window.error().c_str());
    return 1;
  }
  m_window = std::move(window).value();
  // A benchmark measures drawing, not the display's refresh.
  if (m_options.benchFrames) m_window->setVsync(false);
  m_layout.install(UiLayout::userSettingsPath());
  Result<std::unique_ptr<Renderer>> renderer = Renderer::create();
  if (!renderer) {
    std::fprintf(stderr, "navscope: %s\n", renderer.error().c_str());
    return 1;
  }
  m_renderer = std::move(renderer).value();
  m_sceneView = std::make_unique<SceneView>();
  // A scripted run shows the level named on the command line from its first
  // frame; a person sees the window at once, and may give a long read up.
  openLevel(m_options.levelPath);
  const bool scripted = m_options.frames || m_options.benchFrames || m_options.screenshotPath ||
                        !m_options.probes.empty();
  while (scripted && m_loader.busy()) {
    acceptOpenedFile();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (m_loader.busy()) m_printer.levelOpening(m_options.levelPath);

  using Clock = std::chrono::steady_clock;
  Clock::time_point nextFrame = Clock::now();
  float workMilliseconds = 0.0f;
  bool ok = true;
  uint64_t lastEventCount = 0;
  uint64_t lastEventFrame = 0;
  FrameBench bench;
  for (uint64_t frame = 0;; ++frame) {
    // A software rasteriser redrawing a still picture would only take CPU from
    // the build worker (and everyone else). Scripted runs (--frames) never wait.
    if (!m_options.frames && !m_options.benchFrames && idle() &&
        frame > lastEventFrame + kFramesAfterEvent) {
      m_window->waitForEvents(kIdleWait);
    }
    if (m_window->eventCount() != lastEventCount) {
      lastEventCount = m_window->eventCount();
      lastEventFrame = frame;
    }
    const Clock::time_point frameStart = Clock::now();
    const bool benchDone = m_options.benchFrames && bench.frames() >= *m_options.benchFrames;
    const bool finalFrame = m_window->shouldClose() || benchDone ||
                            (m_options.frames && frame + 1 >= *m_options.frames);
    ok = runFrame(frame, finalFrame, workMilliseconds) && ok;
    if (finalFrame) {
      if (benchDone) bench.print();
      break;
    }

    const Clock::time_point end = Clock::now();
    if (m_options.benchFrames) {
      // Counted from the first frame with the graph on screen, unthrottled.
      if (m_build && !m_worker.busy() && !m_worker.hasFinished())
        bench.add(std::chrono::duration<double, std::milli>(end - frameStart).count());
      continue;
    }
    const float work = std::chrono::duration<float, std::milli>(end - frameStart).count();
    workMilliseconds = frame == 0 ? work : glm::mix(workMilliseconds, work, 0.1f);
    nextFrame +=
        std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(kFramePeriod));
    if (nextFrame < end) nextFrame = end;
    std::this_thread::sleep_until(nextFrame);
  }
  return ok ? 0 : 1;
}

}  // namespace nav::app
