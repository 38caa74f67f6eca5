#pragma once
// Files panel: the level shown and what to open next. Reload (Ctrl+R), a
// reload whenever the level or its sidecar changes on disk, the levels and
// .nav files beside the current one, recent files, a path to type, and Save
// .nav for the graph on screen. What the user asks for comes back as a
// request for the App to carry out; the panel only keeps the lists.
#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "panels/query_panel.h"

namespace nav::app {

struct FilesRequest {
  /// Open this level, grid map or .nav file.
  std::optional<std::string> open;
  /// Write the graph on screen to this .nav file.
  std::optional<std::string> saveNav;
  /// Write the path on screen, with its traces and curves, to this JSON file.
  std::optional<std::string> exportPath;

  /// Takes what `later` asks for, keeping what it leaves unasked.
  void merge(const FilesRequest& later) {
    if (later.open) open = later.open;
    if (later.saveNav) saveNav = later.saveNav;
    if (later.exportPath) exportPath = later.exportPath;
  }
};

class FilesPanel {
 public:
  /// The level now shown: goes to the top of the recent files, its folder is
  /// listed, and it (with its sidecar) is watched for changes from now on.
  void opened(const std::string& path);
  /// What the last open or save said ("could not open ...", "saved ..."); empty: nothing.
  void setMessage(std::string message, bool error);

  /// Draws the panel; returns what the user asked for this frame. `canSave`:
  /// a graph is shown; `canExport`: a path is; `unitName` names the graph's unit.
  FilesRequest draw(const std::string& currentPath, bool canSave, bool canExport,
                    const std::string& unitName);

  /// Unfolds the panel and brings it to the front on the next draw (File > Open).
  void reveal() { m_reveal = true; }

  /// Levels opened from now on (not reloaded) read their faces as a navigation
  /// mesh: the panel's checkbox.
  bool openAsNavMesh() const { return m_openAsNavMesh; }

  /// Where Save writes (the level's folder, its name with .nav, unless edited).
  const std::string& savePath() const { return m_savePath; }
  /// Where Export writes (the level's folder, its name with -path.json).
  const std::string& exportPath() const { return m_exportPath; }

  /// True when the watched files changed on disk since they were opened (and
  /// auto reload is on); checked at most a few times a second.
  bool changedOnDisk();

  /// Where the last frame drew each file button ("file:NAME") and the navmesh
  /// checkbox ("check:navmesh"), for window tests.
  const std::map<std::string, WidgetBox>& widgets() const { return m_widgets; }

 private:
  /// Last write times of the level and its sidecar; empty for a missing file.
  std::vector<std::optional<std::filesystem::file_time_type>> watchedTimes() const;

  bool m_reveal = false;
  std::vector<std::string> m_recent;
  std::vector<std::string> m_folderFiles;
  std::vector<std::string> m_watched;
  std::vector<std::optional<std::filesystem::file_time_type>> m_watchedTimes;
  std::chrono::steady_clock::time_point m_lastCheck{};
  bool m_autoReload = true;
  bool m_openAsNavMesh = false;
  std::string m_typedPath;
  std::string m_savePath;
  std::string m_exportPath;
  std::string m_message;
  bool m_messageIsError = false;
  std::map<std::string, WidgetBox> m_widgets;
};

}  // namespace nav::app
