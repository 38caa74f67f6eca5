#include "panels/main_menu.h"

#include <imgui.h>

namespace nav::app {

void MainMenu::noteWidget(const char* label) {
  const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
  m_widgets[std::string("menu:") + label] = WidgetBox{{min.x, min.y}, {max.x, max.y}};
}

MenuRequest MainMenu::draw(const MenuState& state) {
  m_widgets.clear();
  MenuRequest request;
  if (!ImGui::BeginMainMenuBar()) return request;
  const bool file = ImGui::BeginMenu("File");
  noteWidget("File");
  if (file) {
    request.showFiles = ImGui::MenuItem("Open...");
    noteWidget("Open...");
    request.reload = ImGui::MenuItem("Reload", "Ctrl+R", false, state.haveLevel);
    request.saveNav = ImGui::MenuItem("Save .nav", "Ctrl+S", false, state.canSave);
    request.exportPath = ImGui::MenuItem("Export path JSON", "Ctrl+E", false, state.canExport);
    ImGui::EndMenu();
  }
  const bool view = ImGui::BeginMenu("View");
  noteWidget("View");
  if (view) {
    request.frame = ImGui::MenuItem("Frame selection", "F");
    request.toggleCompare =
        ImGui::MenuItem("Compare with Detour", "C", state.compareOn, state.compareAvailable);
    ImGui::EndMenu();
  }
  const bool window = ImGui::BeginMenu("Window");
  noteWidget("Window");
  if (window) {
    request.resetLayout = ImGui::MenuItem("Reset layout");
    noteWidget("Reset layout");
    ImGui::EndMenu();
  }
  const bool help = ImGui::BeginMenu("Help");
  noteWidget("Help");
  if (help) {
    request.toggleHelp = ImGui::MenuItem("Keys and mouse", "F1", state.helpShown);
    ImGui::EndMenu();
  }
  ImGui::EndMainMenuBar();
  return request;
}

}  // namespace nav::app
