#pragma once
// Reads a level, grid map or .nav file on a thread of its own, so that frames
// go on (and the read can be given up) while a big file is read. A read given
// up runs to its end and is dropped.
#include <atomic>
#include <memory>
#include <optional>
#include <string>

#include "loaded_level.h"

namespace nav::app {

/// What reading a file gave: a level, or a .nav file's graph, or why neither.
struct LoadedFile {
  std::shared_ptr<const LoadedLevel> level;
  std::shared_ptr<const NavBuild> graph;
  std::string error;
};

class FileLoader {
 public:
  /// Starts reading `path` (a .nav file, or a level put on `grid`, read as
  /// `reading` says), giving up a read under way.
  void start(const std::string& path, const std::optional<GridAngleOverride>& grid,
             const LevelReading& reading);
  /// A read is under way (started, not yet taken or given up).
  bool busy() const { return m_job != nullptr; }
  /// The path being read ("" when none).
  const std::string& path() const { return m_path; }
  /// The finished read, once; empty while it runs or when none was started.
  std::optional<LoadedFile> take();
  /// Gives the read under way up: its result will be dropped.
  void abandon();

 private:
  static void read(const std::string& path, const std::optional<GridAngleOverride>& grid,
                   const LevelReading& reading, LoadedFile& file);

  struct Job {
    std::atomic<bool> done{false};
    LoadedFile result;
  };
  std::shared_ptr<Job> m_job;
  std::string m_path;
};

}  // namespace nav::app
