#pragma once
// Runs nav::buildNavigation (or, for a level read as a navigation mesh,
// nav::buildNavMeshGraph) on a background thread so the window keeps drawing
// the previous build. A new request cancels the running build; only the newest
// request's result is handed back, on the main thread, through takeFinished().
// cancel() stops the newest request too, and hands back a result saying so.
// A request may first choose the level's grid (chooseGridAngle, trial builds):
// the build is then for the level on that grid, handed back with it.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "detour_comparison.h"
#include "graph_source.h"
#include "loaded_level.h"
#include "nav/nav_build.h"

namespace nav::app {

struct FinishedBuild {
  /// The request's number, from request().
  uint64_t id = 0;
  FloodFillParams params;
  /// The flood fill, or the level's faces read as a navigation mesh (no cells).
  GraphSource source = GraphSource::FloodFill;
  /// The grid angle chosen for the level, when the request asked for it and
  /// it was chosen (even when the build then failed).
  std::optional<float> chosenGrid;
  /// The level on the chosen grid, when that grid is turned: the build (and
  /// the params' seeds and devices) are for it, not the requested level.
  std::shared_ptr<const LoadedLevel> placed;
  /// Set on success.
  std::shared_ptr<const NavBuild> build;
  /// Set on failure.
  std::string error;
  /// The failure is a cancel() (error then says so too).
  bool cancelled = false;
  /// Recast's mesh for the same level and unit (RecastDemo's settings matched
  /// to the unit), when built with librecast; else why there is none.
  std::shared_ptr<const DetourComparison> reference;
  std::string referenceError;
};

class BuildWorker {
 public:
  /// onFinished runs on the worker thread after each result is stored (to wake the main loop).
  explicit BuildWorker(std::function<void()> onFinished);
  BuildWorker(const BuildWorker&) = delete;
  BuildWorker& operator=(const BuildWorker&) = delete;
  /// Cancels the running build and waits for the thread.
  ~BuildWorker();

  /// Queues a build (with cells kept for drawing), cancelling any running one;
  /// or, as `source` says, the level's faces read as a navigation mesh for the
  /// params' unit. With `chooseGrid` a flood fill first chooses the grid of
  /// the level's file (for its first unit, as the CLI does) and builds on it.
  /// Returns the request's number.
  uint64_t request(std::shared_ptr<const LoadedLevel> level, const FloodFillParams& params,
                   GraphSource source = GraphSource::FloodFill, bool chooseGrid = false);
  /// Stops the queued or running build; its result (cancelled) still comes back.
  void cancel();
  /// The newest request's result once it is done; empty otherwise.
  std::optional<FinishedBuild> takeFinished();

  /// True while a build is queued or running.
  bool busy() const;
  /// True when a result waits for takeFinished().
  bool hasFinished() const;
  /// Progress of the running build (meaningful while busy()).
  BuildStage stage() const { return m_control.stage.load(); }
  /// True while the running request builds trials to choose the grid.
  bool choosingGrid() const { return m_choosingGrid.load(); }
  uint64_t cellsFound() const { return m_control.cellsFound.load(); }
  /// The fill's estimate of the cells it will find; 0 until it has one.
  uint64_t estimatedCells() const { return m_control.estimatedCells.load(); }
  /// How much of the current stage is done. [0, 1]
  float stageFraction() const { return m_control.stageFraction.load(); }

 private:
  struct Job {
    uint64_t id;
    std::shared_ptr<const LoadedLevel> level;
    FloodFillParams params;
    GraphSource source;
    bool chooseGrid;
  };

  void run();
  /// Does the job (on the worker thread, without the lock).
  FinishedBuild build(const Job& job);
  /// Recast's mesh for Compare, or why there is none.
  void buildReference(const LoadedLevel& level, FinishedBuild& finished);

  mutable std::mutex m_mutex;
  std::condition_variable m_wake;
  std::optional<Job> m_pending;
  std::optional<FinishedBuild> m_finished;
  uint64_t m_lastId = 0;
  bool m_running = false;
  /// cancel() was called for the running job (its result is handed back).
  bool m_cancelRunning = false;
  bool m_quit = false;
  BuildControl m_control;
  std::atomic<bool> m_choosingGrid{false};
  std::function<void()> m_onFinished;
  std::thread m_thread;
};

}  // namespace nav::app
