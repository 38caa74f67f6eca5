#include "panels/help_panel.h"

#include <imgui.h>

namespace nav::app {
namespace {

struct Action {
  const char* input;
  const char* does;
};

// As the README's key table.
constexpr Action kActions[] = {
    {"Left click", "set the start point"},
    {"Right click (no drag)", "set the goal point"},
    {"Right drag", "orbit"},
    {"Middle drag, Shift + right drag", "pan"},
    {"Wheel", "zoom towards the mouse"},
    {"Mouse over the view",
     "inspect the path stretch, jump, portal, cell (while cells are drawn) or sector "
     "(a search node while stepping)"},
    {"Ctrl + left click", "select the sector under the mouse (again: clear); its island is tinted"},
    {"F", "frame the selected sector, or the whole level"},
    {"W / A / S / D, Q / E", "fly forward / left / back / right, down / up"},
    {"U", "switch to the level's next unit profile"},
    {"C", "compare with Detour: Recast's polygons and Detour's path beside navscope's"},
    {"J", "arm or disarm the jump placer: left click a takeoff, right click a landing"},
    {"B", "draw the level's faces from behind too, or from the front only (the default)"},
    {"Esc", "give up the file being read, else cancel the build"},
    {"Left / Right", "step the search, then the funnel, one step back / forward"},
    {"Home / End", "the search's first expansion / the funnel's goal"},
    {"Space", "play or pause the steps"},
    {"F12", "save a screenshot (navscope-N.png)"},
    {"Ctrl+R / Ctrl+S / Ctrl+E",
     "reload the level / save its graph as .nav / export the path as JSON"},
    {"Drop a file", "open that level, grid map or .nav file"},
    {"Window > Reset layout", "put the panels back where they start"},
    {"F1", "this help"},
};

}  // namespace

void drawHelp(bool& open) {
  if (!open) return;
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(
      ImVec2(viewport->Pos.x + viewport->Size.x * 0.5f, viewport->Pos.y + viewport->Size.y * 0.5f),
      ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowFocus();
  if (ImGui::Begin("Help", &open,
                   ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                       ImGuiWindowFlags_NoCollapse)) {
    if (ImGui::BeginTable("actions", 2, ImGuiTableFlags_RowBg)) {
      for (const Action& action : kActions) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(action.input);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(action.does);
      }
      ImGui::EndTable();
    }
    ImGui::TextDisabled("Panels: Build, Draw, Crowd, Jumps (left); Path, Query, Steps (right).");
    ImGui::TextDisabled("F1 or the window's close button hides this.");
  }
  ImGui::End();
}

}  // namespace nav::app
