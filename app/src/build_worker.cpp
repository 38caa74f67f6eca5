#include "build_worker.h"

#include <exception>

#include "nav/grid_angle.h"
#include "nav/navmesh_graph.h"

namespace nav::app {

BuildWorker::BuildWorker(std::function<void()> onFinished)
    : m_onFinished(std::move(onFinished)), m_thread([this] { run(); }) {}

BuildWorker::~BuildWorker() {
  {
    std::lock_guard lock(m_mutex);
    m_quit = true;
    m_control.cancelRequested = true;
  }
  m_wake.notify_all();
  m_thread.join();
}

uint64_t BuildWorker::request(std::shared_ptr<const LoadedLevel> level,
                              const FloodFillParams& params, GraphSource source, bool chooseGrid) {
  uint64_t id;
  {
    std::lock_guard lock(m_mutex);
    id = ++m_lastId;
    m_pending = Job{id, std::move(level), params, source, chooseGrid};
    m_finished.reset();
    m_cancelRunning = false;
    if (m_running) m_control.cancelRequested = true;
  }
  m_wake.notify_all();
  return id;
}

void BuildWorker::cancel() {
  bool notify = false;
  {
    std::lock_guard lock(m_mutex);
    if (m_pending) {
      // Never started: report it at once.
      FinishedBuild finished;
      finished.id = m_pending->id;
      finished.params = m_pending->params;
      finished.source = m_pending->source;
      finished.error = "build cancelled";
      finished.cancelled = true;
      m_pending.reset();
      if (m_running) {
        // The running job is an older request: it is already being cancelled.
        m_control.cancelRequested = true;
      }
      m_finished = std::move(finished);
      notify = true;
    } else if (m_running) {
      m_cancelRunning = true;
      m_control.cancelRequested = true;
    }
  }
  if (notify && m_onFinished) m_onFinished();
}

std::optional<FinishedBuild> BuildWorker::takeFinished() {
  std::lock_guard lock(m_mutex);
  std::optional<FinishedBuild> finished = std::move(m_finished);
  m_finished.reset();
  return finished;
}

bool BuildWorker::busy() const {
  std::lock_guard lock(m_mutex);
  return m_running || m_pending.has_value();
}

bool BuildWorker::hasFinished() const {
  std::lock_guard lock(m_mutex);
  return m_finished.has_value();
}

void BuildWorker::run() {
  std::unique_lock lock(m_mutex);
  for (;;) {
    m_wake.wait(lock, [this] { return m_quit || m_pending.has_value(); });
    if (m_quit) return;
    Job job = std::move(*m_pending);
    m_pending.reset();
    m_running = true;
    // Reset under the lock: a request() or cancel() from now on cancels this job.
    m_control.cancelRequested = false;
    m_cancelRunning = false;
    m_control.stage = BuildStage::Idle;
    m_control.cellsFound = 0;
    m_control.estimatedCells = 0;
    m_control.stageFraction = 0.0f;
    lock.unlock();

    FinishedBuild finished = build(job);

    lock.lock();
    m_running = false;
    if (!finished.build && m_cancelRunning) {
      finished.cancelled = true;
      finished.error = "build cancelled";
    }
    m_cancelRunning = false;
    if (job.id == m_lastId) m_finished = std::move(finished);
    if (m_onFinished) m_onFinished();
  }
}

FinishedBuild BuildWorker::build(const Job& job) {
  FinishedBuild finished;
  finished.id = job.id;
  finished.params = job.params;
  finished.source = job.source;
  std::shared_ptr<const LoadedLevel> level = job.level;
  try {
    if (job.source != GraphSource::FloodFill) {
      NavMeshGraphParams params = navMeshParamsFor(level->level);
      params.unit = job.params.unit;
      params.faces.maxSlopeDegrees = job.params.unit.maxSlopeDegrees;
      params.faces.excludeSteep = job.source == GraphSource::NavMeshNoSteep;
      Result<NavMeshBuild> result = buildNavMeshGraph(level->level, params, &m_control);
      if (!result) {
        finished.error = result.error();
        return finished;
      }
      finished.build = std::make_shared<const NavBuild>(asNavBuild(std::move(result).value()));
      finished.referenceError =
          "the level is read as its own navigation mesh: Recast has nothing to build";
      return finished;
    }
    if (job.chooseGrid) {
      const Level& file = level->fileLevel();
      m_choosingGrid = true;
      const Result<float> chosen = chooseGridAngle(file, defaultFillParams(file), &m_control);
      m_choosingGrid = false;
      if (!chosen) {
        finished.error = chosen.error();
        return finished;
      }
      finished.chosenGrid = chosen.value();
      if (movesOnGrid(file, chosen.value())) {
        Result<Level> onGrid = levelOnGrid(file, chosen.value());
        if (!onGrid) {
          finished.error = onGrid.error();
          return finished;
        }
        level = std::make_shared<const LoadedLevel>(file, std::move(onGrid).value(), true);
        finished.placed = level;
        finished.params.seeds = level->level.settings.seeds;
        finished.params.devices = level->level.settings.devices;
      }
    }
    Result<NavBuild> result = buildNavigation(level->level, level->world, finished.params,
                                              BuildOptions{.keepCells = true}, &m_control);
    if (!result) {
      finished.error = result.error();
      return finished;
    }
    finished.build = std::make_shared<const NavBuild>(std::move(result).value());
  } catch (const std::exception& error) {
    // Nothing may escape the thread; running out of memory is reported like any failure.
    m_choosingGrid = false;
    finished.error = std::string("build failed: ") + error.what();
    return finished;
  }
  buildReference(*level, finished);
  return finished;
}

void BuildWorker::buildReference(const LoadedLevel& level, FinishedBuild& finished) {
  // Skipped once cancelled; its failure never fails the build.
  if (m_control.cancelRequested) {
    finished.referenceError = "Recast's mesh was not built: the build was cancelled";
    return;
  }
  try {
    finished.reference =
        DetourComparison::build(level.level, finished.params, finished.referenceError);
  } catch (const std::exception& error) {
    finished.referenceError = std::string("Recast failed: ") + error.what();
  }
}

}  // namespace nav::app
