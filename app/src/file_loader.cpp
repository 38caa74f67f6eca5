#include "file_loader.h"

#include <exception>
#include <thread>
#include <utility>

#include "nav/nav_file.h"

namespace nav::app {

void FileLoader::start(const std::string& path, const std::optional<GridAngleOverride>& grid,
                       const LevelReading& reading) {
  abandon();
  m_path = path;
  m_job = std::make_shared<Job>();
  // Detached: the job is shared, so a read given up (or still running at
  // exit) writes only into its own job.
  std::thread([job = m_job, path, grid, reading] {
    LoadedFile& file = job->result;
    // Both readers report bad input themselves and never throw; a thread
    // must not let anything out, so memory running out is caught here too.
    try {
      read(path, grid, reading, file);
    } catch (const std::exception& error) {
      file.error = path + ": " + error.what();
    }
    job->done.store(true, std::memory_order_release);
  }).detach();
}

void FileLoader::read(const std::string& path, const std::optional<GridAngleOverride>& grid,
                      const LevelReading& reading, LoadedFile& file) {
  if (isNavFilePath(path)) {
    Result<std::shared_ptr<const NavBuild>> loaded = loadNavFile(path);
    if (loaded)
      file.graph = std::move(loaded).value();
    else
      file.error = loaded.error();
  } else {
    Result<std::shared_ptr<const LoadedLevel>> loaded = loadLevelFile(path, grid, reading);
    if (loaded)
      file.level = std::move(loaded).value();
    else
      file.error = loaded.error();
  }
}

std::optional<LoadedFile> FileLoader::take() {
  if (!m_job || !m_job->done.load(std::memory_order_acquire)) return std::nullopt;
  LoadedFile file = std::move(m_job->result);
  m_job.reset();
  return file;
}

void FileLoader::abandon() {
  m_job.reset();
  m_path.clear();
}

}  // namespace nav::app
