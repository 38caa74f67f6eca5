#include "build_worker.h"

#include <exception>

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
                              const FloodFillParams& params) {
  uint64_t id;
  {
    std::lock_guard lock(m_mutex);
    id = ++m_lastId;
    m_pending = Job{id, std::move(level), params};
    m_finished.reset();
    if (m_running) m_control.cancelRequested = true;
  }
  m_wake.notify_all();
  return id;
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
    // Reset under the lock: a request() from now on cancels this job.
    m_control.cancelRequested = false;
    m_control.cellsFound = 0;
    lock.unlock();

    FinishedBuild finished;
    finished.id = job.id;
    finished.params = job.params;
    try {
      Result<NavBuild> result = buildNavigation(job.level->level, job.level->world, job.params,
                                                BuildOptions{.keepCells = true}, &m_control);
      if (result) {
        finished.build = std::make_shared<const NavBuild>(std::move(result).value());
      } else {
        finished.error = result.error();
      }
    } catch (const std::exception& error) {
      // Nothing may escape the thread; running out of memory is reported like any failure.
      finished.error = std::string("build failed: ") + error.what();
    }

    lock.lock();
    m_running = false;
    if (job.id == m_lastId) m_finished = std::move(finished);
    if (m_onFinished) m_onFinished();
  }
}

}  // namespace nav::app
