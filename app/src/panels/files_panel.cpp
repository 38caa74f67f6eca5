#include "panels/files_panel.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>

#include "nav/scene_import.h"

namespace nav::app {
namespace {

namespace fs = std::filesystem;

/// Files kept in the recent list.
constexpr size_t kRecentFiles = 8;
/// Files listed from the level's folder at most.
constexpr size_t kFolderFiles = 40;
/// The watched files' times are read at most this often.
constexpr std::chrono::milliseconds kWatchInterval{250};

const ImVec4 kDim(0.65f, 0.65f, 0.65f, 1.0f);
const ImVec4 kBad(1.0f, 0.45f, 0.4f, 1.0f);
const ImVec4 kGood(0.45f, 0.9f, 0.5f, 1.0f);

bool opensAsLevel(const fs::path& path) {
  const std::string extension = path.extension().string();
  return extension == ".obj" || extension == ".nav" || extension == ".map" ||
         isSceneFile(path.string());
}

}  // namespace

void FilesPanel::opened(const std::string& path) {
  m_recent.erase(std::remove(m_recent.begin(), m_recent.end(), path), m_recent.end());
  m_recent.insert(m_recent.begin(), path);
  if (m_recent.size() > kRecentFiles) m_recent.resize(kRecentFiles);
  m_folderFiles.clear();
  std::error_code error;
  const fs::path folder =
      fs::path(path).parent_path().empty() ? fs::path(".") : fs::path(path).parent_path();
  for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
    if (it->is_regular_file(error) && opensAsLevel(it->path()))
      m_folderFiles.push_back(it->path().string());
  }
  std::sort(m_folderFiles.begin(), m_folderFiles.end());
  if (m_folderFiles.size() > kFolderFiles) m_folderFiles.resize(kFolderFiles);
  // The level and its sidecar (FILE.json beside FILE.obj or FILE.glb).
  m_watched = {path};
  if (fs::path(path).extension() != ".nav")
    m_watched.push_back(fs::path(path).replace_extension(".json").string());
  m_watchedTimes = watchedTimes();
  m_typedPath = path;
  const std::string stem = fs::path(path).stem().string();
  m_savePath = (folder / (stem + ".nav")).string();
  m_exportPath = (folder / (stem + "-path.json")).string();
}

void FilesPanel::setMessage(std::string message, bool error) {
  m_message = std::move(message);
  m_messageIsError = error;
}

std::vector<std::optional<fs::file_time_type>> FilesPanel::watchedTimes() const {
  std::vector<std::optional<fs::file_time_type>> times;
  for (const std::string& path : m_watched) {
    std::error_code error;
    const fs::file_time_type time = fs::last_write_time(path, error);
    times.push_back(error ? std::nullopt : std::optional(time));
  }
  return times;
}

bool FilesPanel::changedOnDisk() {
  if (!m_autoReload || m_watched.empty()) return false;
  const auto now = std::chrono::steady_clock::now();
  if (now - m_lastCheck < kWatchInterval) return false;
  m_lastCheck = now;
  std::vector<std::optional<fs::file_time_type>> times = watchedTimes();
  if (times == m_watchedTimes) return false;
  m_watchedTimes = std::move(times);
  return true;
}

FilesRequest FilesPanel::draw(const std::string& currentPath, bool canSave, bool canExport,
                              const std::string& unitName) {
  FilesRequest request;
  m_widgets.clear();
  // Folded over the view until wanted.
  ImGui::SetNextWindowCollapsed(true, ImGuiCond_Once);
  if (m_reveal) {
    m_reveal = false;
    ImGui::SetNextWindowCollapsed(false, ImGuiCond_Always);
    ImGui::SetNextWindowFocus();
  }
  if (!ImGui::Begin("Files")) {
    ImGui::End();
    return request;
  }
  ImGui::TextColored(kDim, "%s", currentPath.c_str());
  if (ImGui::Button("Reload")) request.open = currentPath;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Ctrl+R: read the level and its sidecar again");
  ImGui::SameLine();
  ImGui::Checkbox("when it changes on disk", &m_autoReload);
  if (!m_message.empty()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(m_messageIsError ? kBad : kGood, "%s", m_message.c_str());
    ImGui::PopTextWrapPos();
  }

  ImGui::SetNextItemWidth(-60.0f);
  const bool entered =
      ImGui::InputText("##path", &m_typedPath, ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  if ((ImGui::Button("Open") || entered) && !m_typedPath.empty()) request.open = m_typedPath;
  ImGui::Checkbox("open as navigation mesh", &m_openAsNavMesh);
  m_widgets["check:navmesh"] =
      WidgetBox{{ImGui::GetItemRectMin().x, ImGui::GetItemRectMin().y},
                {ImGui::GetItemRectMax().x, ImGui::GetItemRectMax().y}};
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "Levels opened from here (or dropped) read their faces as the walkable polygons\n"
        "of a navigation mesh, as the Build panel's graph box does; no flood fill runs.");
  }

  if (canSave) {
    ImGui::SetNextItemWidth(-60.0f);
    ImGui::InputText("##save", &m_savePath);
    ImGui::SameLine();
    if (ImGui::Button("Save") && !m_savePath.empty()) request.saveNav = m_savePath;
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("Ctrl+S: write the graph on screen (unit %s) as a .nav file",
                        unitName.c_str());
  }

  if (canExport) {
    ImGui::SetNextItemWidth(-60.0f);
    ImGui::InputText("##export", &m_exportPath);
    ImGui::SameLine();
    if (ImGui::Button("Export") && !m_exportPath.empty()) request.exportPath = m_exportPath;
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip(
          "Ctrl+E: write the path as JSON: query, corners, clearance, the A* trace,\n"
          "the funnel's steps, the smoothed and vehicle curves");
    }
  }

  const auto fileButton = [&](const std::string& path) {
    const std::string name = fs::path(path).filename().string();
    if (ImGui::Selectable((name + "##" + path).c_str(), path == currentPath)) request.open = path;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", path.c_str());
    const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
    m_widgets["file:" + name] = WidgetBox{{min.x, min.y}, {max.x, max.y}};
  };
  if (m_recent.size() > 1) {
    ImGui::TextColored(kDim, "recent");
    for (size_t i = 1; i < m_recent.size(); ++i)
      fileButton(m_recent[i]);
  }
  ImGui::TextColored(kDim, "in this folder");
  for (const std::string& path : m_folderFiles)
    fileButton(path);
  ImGui::TextDisabled("or drop a file on the window");
  ImGui::End();
  return request;
}

}  // namespace nav::app
