#include "compare_tool.h"

#include <imgui.h>

#include <cstdio>

#include "nav/nav_draw.h"

namespace nav::app {
namespace {

/// Detour's lines sit this far above its polygons, clear of navscope's sectors. [metres]
constexpr float kLift = 0.06f;

const ImVec4 kDim(0.65f, 0.65f, 0.65f, 1.0f);

ImVec4 toImGui(Color color) {
  return ImVec4(color.r / 255.0f, color.g / 255.0f, color.b / 255.0f, 1.0f);
}

}  // namespace

void CompareTool::setReference(std::shared_ptr<const DetourComparison> reference, std::string why) {
  m_reference = std::move(reference);
  m_unavailable = m_reference ? std::string() : std::move(why);
}

void CompareTool::update(const NavGraph* graph, const PathTool& path) {
  const bool ready = m_enabled && m_reference && graph != nullptr && path.start() && path.goal();
  if (!ready) {
    if (m_comparison) ++m_revision;
    m_comparison.reset();
    m_comparedReference = nullptr;
    return;
  }
  if (m_comparison && m_comparedReference == m_reference.get() &&
      m_comparedPath == path.revision()) {
    return;
  }
  m_comparedReference = m_reference.get();
  m_comparedPath = path.revision();
  SearchOptions options = path.searchOptions();
  options.jumps = nullptr;
  m_comparison =
      Comparison{DetourComparison::navscopePath(*graph, options, *path.start(), *path.goal()),
                 m_reference->detourPath(*path.start(), *path.goal())};
  ++m_revision;
}

void CompareTool::drawOverlay(DebugDraw& draw) const {
  if (!m_enabled || !m_reference) return;
  const glm::vec3 up(0.0f, kLift, 0.0f);
  const std::vector<glm::vec3>& edges = m_reference->polygonEdges();
  for (size_t k = 0; k + 1 < edges.size(); k += 2)
    draw.line(edges[k] + up, edges[k + 1] + up, kDetourMeshColor);
  if (!m_comparison || !m_comparison->detour.found) return;
  std::vector<glm::vec3> corners = m_comparison->detour.corners;
  for (glm::vec3& corner : corners)
    corner += up;
  drawPath(draw, corners, corners, kDetourPathColor);
}

void CompareTool::drawPanelSection() {
  ImGui::Separator();
  if (!m_reference) {
    ImGui::BeginDisabled();
    bool off = false;
    ImGui::Checkbox("Compare with Detour (C)", &off);
    ImGui::EndDisabled();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(kDim, "%s", m_unavailable.c_str());
    ImGui::PopTextWrapPos();
    return;
  }
  ImGui::Checkbox("Compare with Detour (C)", &m_enabled);
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "Recast's navigation mesh for this level and unit (RecastDemo's settings matched to\n"
        "the unit) and Detour's path for the same start and goal. Times: locate + search +\n"
        "funnel in each library, each the best of %d runs. Detour's filter costs every\n"
        "surface alike; navscope's uses the Query panel's costs, without the placed\n"
        "jumps (Detour has none).",
        DetourComparison::kRuns);
  }
  if (!m_enabled || !m_comparison) return;
  if (!ImGui::BeginTable("compare", 3)) return;
  ImGui::TableSetupColumn("what", ImGuiTableColumnFlags_WidthFixed, 70.0f);
  ImGui::TableSetupColumn("navscope", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("Detour", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TableNextColumn();
  ImGui::TextColored(toImGui(colors::kPath), "navscope");
  ImGui::TableNextColumn();
  ImGui::TextColored(toImGui(kDetourPathColor), "Detour");
  const auto row = [](const char* name, const std::string& navscope, const std::string& detour) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextColored(kDim, "%s", name);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(navscope.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(detour.c_str());
  };
  const auto length = [](const ComparedPath& path) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f m", double(path.length));
    return path.found ? std::string(text) : std::string("no path");
  };
  const auto time = [](const ComparedPath& path) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f us", path.microseconds);
    return std::string(text);
  };
  const Comparison& both = *m_comparison;
  row("length", length(both.navscope), length(both.detour));
  row("corners", std::to_string(both.navscope.corners.size()),
      std::to_string(both.detour.corners.size()));
  row("query", time(both.navscope), time(both.detour));
  ImGui::EndTable();
  ImGui::TextColored(kDim, "Recast: %zu polygons", m_reference->polygonCount());
}

}  // namespace nav::app
