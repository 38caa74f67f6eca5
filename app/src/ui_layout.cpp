#include "ui_layout.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "embedded.h"

namespace nav::app {
namespace {

/// A panel this close to an edge is docked to it. [pixels]
constexpr float kDockSlack = 12.0f;
/// Stretching stops here; the panel moves up instead. [pixels]
constexpr float kMinPanelHeight = 120.0f;

// "[Navscope][Layout]" remembers the display size the window positions were saved for.
void* readOpen(ImGuiContext*, ImGuiSettingsHandler* handler, const char* name) {
  return std::string_view(name) == "Layout" ? handler->UserData : nullptr;
}

void readLine(ImGuiContext*, ImGuiSettingsHandler*, void* entry, const char* line) {
  float width = 0.0f, height = 0.0f;
  if (std::sscanf(line, "DisplaySize=%f,%f", &width, &height) == 2 && width > 0.0f &&
      height > 0.0f) {
    static_cast<UiLayout*>(entry)->setReferenceSize({width, height});
  }
}

void writeAll(ImGuiContext*, ImGuiSettingsHandler* handler, ImGuiTextBuffer* out) {
  const glm::vec2 size = static_cast<UiLayout*>(handler->UserData)->referenceSize();
  out->appendf("[%s][Layout]\nDisplaySize=%d,%d\n\n", handler->TypeName, int(size.x), int(size.y));
}

bool isPanel(const ImGuiWindow* window) {
  // Active, not WasActive: the panels have been submitted this frame (also the first one).
  return window->Active && window->ParentWindow == nullptr &&
         (window->Flags & (ImGuiWindowFlags_Tooltip | ImGuiWindowFlags_Popup)) == 0;
}

}  // namespace

std::string UiLayout::userSettingsPath() {
  namespace fs = std::filesystem;
  const char* configHome = std::getenv("XDG_CONFIG_HOME");
  const char* home = std::getenv("HOME");
  fs::path directory;
  if (configHome != nullptr && *configHome != '\0') {
    directory = fs::path(configHome) / "navscope";
  } else if (home != nullptr && *home != '\0') {
    directory = fs::path(home) / ".config" / "navscope";
  } else {
    return {};
  }
  return (directory / "imgui.ini").string();
}

void UiLayout::install(std::string settingsPath) {
  m_settingsPath = std::move(settingsPath);
  ImGuiSettingsHandler handler;
  handler.TypeName = "Navscope";
  handler.TypeHash = ImHashStr("Navscope");
  handler.ReadOpenFn = readOpen;
  handler.ReadLineFn = readLine;
  handler.WriteAllFn = writeAll;
  handler.UserData = this;
  ImGui::GetCurrentContext()->SettingsHandlers.push_back(handler);

  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  std::error_code error;
  const bool saved = !m_settingsPath.empty() && std::filesystem::exists(m_settingsPath, error);
  if (saved) {
    ImGui::LoadIniSettingsFromDisk(m_settingsPath.c_str());
  } else {
    const std::string_view defaults = embeddedFile("imgui.ini");
    ImGui::LoadIniSettingsFromMemory(defaults.data(), defaults.size());
  }
  if (m_settingsPath.empty()) return;
  std::filesystem::create_directories(std::filesystem::path(m_settingsPath).parent_path(), error);
  if (error) {
    std::fprintf(stderr, "navscope: layout changes will not be saved: cannot create %s: %s\n",
                 std::filesystem::path(m_settingsPath).parent_path().c_str(),
                 error.message().c_str());
    return;
  }
  // ImGui keeps the pointer: m_settingsPath lives as long as this object.
  io.IniFilename = m_settingsPath.c_str();
}

void UiLayout::beginFrame() {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const glm::vec2 size(display.x, display.y);
  if (size.x <= 0.0f || size.y <= 0.0f || size == m_referenceSize) return;
  const glm::vec2 delta = size - m_referenceSize;
  // Right-docked panels move with the right edge; bottom-docked ones stretch to
  // the bottom edge, so stacked panels stay stacked.
  auto follow = [&](ImVec2& position, ImVec2& extent) {
    const bool right = position.x + extent.x >= m_referenceSize.x - kDockSlack;
    const bool bottom = position.y + extent.y >= m_referenceSize.y - kDockSlack;
    if (right) position.x = std::max(position.x + delta.x, 0.0f);
    if (bottom) {
      extent.y = std::max(extent.y + delta.y, kMinPanelHeight);
      position.y = std::max(std::min(position.y, size.y - extent.y), 0.0f);
    }
  };
  ImGuiContext& context = *ImGui::GetCurrentContext();
  for (ImGuiWindow* window : context.Windows) {
    if (window->ParentWindow != nullptr) continue;
    ImVec2 position = window->Pos, extent = window->SizeFull;
    follow(position, extent);
    ImGui::SetWindowPos(window, position, ImGuiCond_Always);
    ImGui::SetWindowSize(window, extent, ImGuiCond_Always);
  }
  // Panels not created yet take their place from their saved settings on first use.
  for (ImGuiWindowSettings* settings = context.SettingsWindows.begin(); settings != nullptr;
       settings = context.SettingsWindows.next_chunk(settings)) {
    if (ImGui::FindWindowByID(settings->ID) != nullptr) continue;
    ImVec2 position(settings->Pos.x, settings->Pos.y), extent(settings->Size.x, settings->Size.y);
    follow(position, extent);
    settings->Pos = ImVec2ih(short(position.x), short(position.y));
    settings->Size = ImVec2ih(short(extent.x), short(extent.y));
  }
  m_referenceSize = size;
  ImGui::MarkIniSettingsDirty();
}

ScreenRect UiLayout::unobstructedRect() const {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ScreenRect free{{0.0f, 0.0f}, {display.x, display.y}};
  for (const ImGuiWindow* window : ImGui::GetCurrentContext()->Windows) {
    if (!isPanel(window) || window->Collapsed) continue;
    const float left = window->Pos.x;
    const float right = window->Pos.x + window->Size.x;
    if (left <= kDockSlack) free.min.x = std::max(free.min.x, right);
    if (right >= display.x - kDockSlack) free.max.x = std::min(free.max.x, left);
  }
  // Panels covering nearly everything leave nothing sensible to aim for.
  if (free.size().x < display.x * 0.25f) return {{0.0f, 0.0f}, {display.x, display.y}};
  return free;
}

}  // namespace nav::app
