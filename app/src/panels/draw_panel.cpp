#include "panels/draw_panel.h"

#include <imgui.h>

#include <string>

#include "compare_tool.h"
#include "inspector.h"
#include "nav/crowd_draw.h"

namespace nav::app {
namespace {

void swatch(const char* name, Color color) {
  ImGui::ColorButton(name, ImVec4(color.r / 255.0f, color.g / 255.0f, color.b / 255.0f, 1.0f),
                     ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_NoDragDrop,
                     ImVec2(12.0f, 12.0f));
  ImGui::SameLine();
  ImGui::TextUnformatted(name);
}

}  // namespace

void drawDrawPanel(DrawOptions& options, bool& crowd, float frameMilliseconds,
                   const NavGraph* graph) {
  if (!ImGui::Begin("Draw")) {
    ImGui::End();
    return;
  }
  // Two columns keep the panel short enough to share a side with others.
  constexpr float kSecondColumn = 160.0f;
  ImGui::Checkbox("level mesh", &options.levelMesh);
  ImGui::SameLine(kSecondColumn);
  ImGui::Checkbox("cells", &options.cells);
  ImGui::Checkbox("sectors", &options.sectors);
  ImGui::SameLine(kSecondColumn);
  ImGui::Checkbox("outlines", &options.sectorOutlines);
  ImGui::Checkbox("colour by surface", &options.sectorsBySurface);
  ImGui::SameLine(kSecondColumn);
  ImGui::Checkbox("portals", &options.portals);
  ImGui::Checkbox("devices, waypaths", &options.devices);
  ImGui::SameLine(kSecondColumn);
  ImGui::Checkbox("corridor", &options.corridor);
  ImGui::Checkbox("search trace", &options.searchTrace);
  ImGui::SameLine(kSecondColumn);
  ImGui::Checkbox("path", &options.path);
  ImGui::Checkbox("smoothed path", &options.smoothedPath);
  ImGui::SameLine(kSecondColumn);
  ImGui::Checkbox("vehicle curve", &options.vehicleCurve);
  ImGui::Checkbox("funnel step", &options.funnelStep);
  ImGui::SameLine(kSecondColumn);
  ImGui::Checkbox("regions", &options.searchRegions);
  ImGui::Checkbox("jumps", &options.jumps);
  ImGui::SameLine(kSecondColumn);
  ImGui::Checkbox("crowd", &crowd);
  ImGui::Checkbox("path clearance", &options.pathClearance);
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "Stretches of the path where the unit, swept along it, touches the level:\n"
        "its footprint where it reaches in deepest, and how deep.");
  }
  ImGui::SameLine(kSecondColumn);
  ImGui::Checkbox("back faces (B)", &options.levelBackFaces);
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "Draw the level's faces from behind too. Off, a face shows from its front only:\n"
        "ceilings and walls wound to face into a room hide nothing inside it.");
  }
  if (ImGui::CollapsingHeader("Legend")) {
    if (ImGui::BeginTable("legend", 2)) {
      const std::pair<const char*, Color> entries[] = {
          {"start", colors::kStart},
          {"goal", colors::kGoal},
          {"path", colors::kPath},
          {"smoothed", colors::kSmoothedPath},
          {"vehicle curve", colors::kVehicleCurve},
          {"path touches level", colors::kClearanceTouch},
          {"portal", colors::kPortal},
          {"portal end's reach", colors::kPortalReach},
          {"region portal", colors::kRegionPortal},
          {"one-way", colors::kOneWayPortal},
          {"corridor", colors::kCorridor},
          {"left out of corridor", colors::kLeftOutSector},
          {"funnel left", colors::kFunnelLeft},
          {"funnel right", colors::kFunnelRight},
          {"apex", colors::kApex},
          {"cell", colors::kCell},
          {"cell over a ledge", colors::kOverhangingCell},
          {"fall (air)", colors::kFall},
          {"open node", colors::kOpenNode},
          {"closed node", colors::kClosedNode},
          {"node expanded", colors::kExpandingNode},
          {"node taken next", colors::kNextNode},
          {"parent link", colors::kParentLink},
          {"node set aside", colors::kDroppedNode},
          {"door", colors::kDoor},
          {"elevator", colors::kElevator},
          {"ladder", colors::kLadder},
          {"locked", colors::kLocked},
          {"waypath", colors::kWaypath},
          {"agent", agentColor(0)},
          {"agent waiting", kWaitingAgentColor},
          {"agent stuck", kStuckAgentColor},
          {"selected sector", kSelectionColor},
          {"Detour's path", kDetourPathColor},
          {"Recast polygon", kDetourMeshColor},
      };
      for (const auto& [name, color] : entries) {
        ImGui::TableNextColumn();
        swatch(name, color);
      }
      // Sectors coloured by surface: this graph's surfaces.
      for (uint16_t surface = 0; graph != nullptr && surface < graph->surfaces.size(); ++surface) {
        ImGui::TableNextColumn();
        const std::string name = "surface " + graph->surfaces[surface].name;
        swatch(name.c_str(), surfaceColor(*graph, surface));
      }
      ImGui::EndTable();
    }
  }
  ImGui::Separator();
  ImGui::TextDisabled("%.1f ms of work per frame (60 fps cap)", frameMilliseconds);
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled(
      "Left click: start. Right click: goal. Right drag: orbit. Middle or Shift+right drag: pan. "
      "Wheel: zoom. WASD, Q/E: fly. Ctrl+click: select a sector. F: frame it (or the level). "
      "C: compare with Detour. U: next unit. F1: every key.");
  ImGui::PopTextWrapPos();
  ImGui::End();
}

}  // namespace nav::app
