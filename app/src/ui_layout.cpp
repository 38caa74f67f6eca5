#include "ui_layout.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "embedded.h"

namespace nav::app {
namespace {

/// A panel this close to an edge is docked to it. [pixels]
constexpr float kDockSlack = 12.0f;

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

// A panel: a top-level window with a title bar (not the menu bar, a tooltip, a
// popup or ImGui's fallback window). `shown`: submitted this frame (Active,
// not WasActive, so also on the first frame); else any panel ImGui knows.
bool isPanel(const ImGuiWindow* window, bool shown) {
  constexpr ImGuiWindowFlags kNotPanels =
      ImGuiWindowFlags_Tooltip | ImGuiWindowFlags_Popup | ImGuiWindowFlags_NoTitleBar;
  return (!shown || window->Active) && window->ParentWindow == nullptr &&
         !window->IsFallbackWindow && (window->Flags & kNotPanels) == 0;
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
  if (size.x <= 0.0f || size.y <= 0.0f) return;
  if (m_resetRequested) {
    m_resetRequested = false;
    // Applies to the panels already open too; sets the reference size it was made for.
    const std::string_view defaults = embeddedFile("imgui.ini");
    ImGui::LoadIniSettingsFromMemory(defaults.data(), defaults.size());
  }
  if (size != m_referenceSize) {
    adapt(size);
    m_referenceSize = size;
  }
  keepInView(size);
}

// Panels keep their width, and right-docked ones move with the right edge.
// Places and heights scale with the room below the menu bar, so panels
// stacked in a column stay stacked and fill the same share of it.
void UiLayout::adapt(glm::vec2 size) {
  const float top = ImGui::GetFrameHeight();
  const glm::vec2 from = m_referenceSize;
  const float scale = (size.y - top) / std::max(from.y - top, 1.0f);
  // A title bar at least, so a panel never shrinks away.
  const float minHeight = ImGui::GetFrameHeight();
  const auto place = [&](ImVec2& position, ImVec2& extent) {
    const bool right = position.x > kDockSlack && position.x + extent.x >= from.x - kDockSlack;
    if (right) position.x = std::max(position.x + size.x - from.x, 0.0f);
    const float y0 = top + (std::max(position.y, top) - top) * scale;
    const float y1 = top + (position.y + extent.y - top) * scale;
    position.y = std::round(y0);
    extent.y = std::max(std::round(y1) - position.y, minHeight);
    // Grown to its least height, a panel at the bottom moves up to stay in the window.
    position.y = std::max(std::min(position.y, size.y - extent.y), top);
  };
  ImGuiContext& context = *ImGui::GetCurrentContext();
  for (ImGuiWindow* window : context.Windows) {
    if (!isPanel(window, false)) continue;
    ImVec2 position = window->Pos, extent = window->SizeFull;
    place(position, extent);
    ImGui::SetWindowPos(window, position, ImGuiCond_Always);
    ImGui::SetWindowSize(window, extent, ImGuiCond_Always);
  }
  // Panels not created yet take their place from their saved settings on first use.
  for (ImGuiWindowSettings* settings = context.SettingsWindows.begin(); settings != nullptr;
       settings = context.SettingsWindows.next_chunk(settings)) {
    if (ImGui::FindWindowByID(settings->ID) != nullptr) continue;
    ImVec2 position(settings->Pos.x, settings->Pos.y), extent(settings->Size.x, settings->Size.y);
    place(position, extent);
    settings->Pos = ImVec2ih(short(position.x), short(position.y));
    settings->Size = ImVec2ih(short(extent.x), short(extent.y));
  }
  ImGui::MarkIniSettingsDirty();
}

void UiLayout::keepInView(glm::vec2 size) {
  const float top = ImGui::GetFrameHeight();
  // Enough of the title bar stays in the window to drag the panel back. [pixels]
  const float grip = 4.0f * top;
  const ImGuiContext& context = *ImGui::GetCurrentContext();
  for (ImGuiWindow* window : context.Windows) {
    // A panel being dragged goes where the mouse takes it; it is put back once let go.
    if (!isPanel(window, false) || window == context.MovingWindow) continue;
    ImVec2 position = window->Pos, extent = window->SizeFull;
    if (position.y < top) {
      extent.y = std::max(extent.y - (top - position.y), 2.0f * top);
      position.y = top;
    }
    position.y = std::min(position.y, std::max(size.y - top, top));
    position.x =
        std::clamp(position.x, std::min(0.0f, grip - extent.x), std::max(size.x - grip, 0.0f));
    if (position.x == window->Pos.x && position.y == window->Pos.y &&
        extent.y == window->SizeFull.y)
      continue;
    ImGui::SetWindowPos(window, position, ImGuiCond_Always);
    ImGui::SetWindowSize(window, extent, ImGuiCond_Always);
    ImGui::MarkIniSettingsDirty();
  }
}

std::map<std::string, ScreenRect> UiLayout::panelRects() const {
  std::map<std::string, ScreenRect> rects;
  for (const ImGuiWindow* window : ImGui::GetCurrentContext()->Windows) {
    if (!isPanel(window, true)) continue;
    rects[window->Name] = {{window->Pos.x, window->Pos.y},
                           {window->Pos.x + window->Size.x, window->Pos.y + window->Size.y}};
  }
  return rects;
}

ScreenRect UiLayout::unobstructedRect() const {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  // Below the main menu bar.
  ScreenRect free{{0.0f, ImGui::GetFrameHeight()}, {display.x, display.y}};
  for (const ImGuiWindow* window : ImGui::GetCurrentContext()->Windows) {
    if (!isPanel(window, true) || window->Collapsed) continue;
    const float left = window->Pos.x;
    const float right = window->Pos.x + window->Size.x;
    if (left <= kDockSlack) free.min.x = std::max(free.min.x, right);
    if (right >= display.x - kDockSlack) free.max.x = std::min(free.max.x, left);
  }
  // Panels covering nearly everything leave nothing sensible to aim for.
  if (free.size().x < display.x * 0.25f) return {{0.0f, free.min.y}, {display.x, display.y}};
  return free;
}

}  // namespace nav::app
