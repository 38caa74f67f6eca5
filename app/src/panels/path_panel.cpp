#include "panels/path_panel.h"

#include <imgui.h>

namespace nav::app {
namespace {

const ImVec4 kGood(0.45f, 0.9f, 0.5f, 1.0f);
const ImVec4 kBad(1.0f, 0.45f, 0.4f, 1.0f);
const ImVec4 kDim(0.65f, 0.65f, 0.65f, 1.0f);

// The point in the level file's coordinates.
void pointRow(const char* name, const std::optional<glm::vec3>& gridPoint, const GridFrame& frame,
              Color color) {
  ImGui::TextColored(ImVec4(color.r / 255.0f, color.g / 255.0f, color.b / 255.0f, 1.0f), "%s",
                     name);
  ImGui::SameLine(60.0f);
  if (gridPoint) {
    const glm::vec3 point = frame.toFile(*gridPoint);
    ImGui::Text("%.2f  %.2f  %.2f", point.x, point.y, point.z);
  } else {
    ImGui::TextColored(kDim, "not set");
  }
}

void statusLine(const PathAnswer& solution) {
  const PathResult& search = solution.search;
  switch (search.status) {
    case PathStatus::Found:
      ImGui::TextColored(kGood, "path found");
      return;
    case PathStatus::Partial:
      ImGui::TextColored(kBad, "partial: as close as the unit can get");
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextColored(kBad, "%s", search.reason.c_str());
      ImGui::PopTextWrapPos();
      return;
    case PathStatus::StartOffMesh:
      ImGui::TextColored(kBad, "start is off mesh");
      return;
    case PathStatus::GoalOffMesh:
      ImGui::TextColored(kBad, "goal is off mesh");
      return;
    case PathStatus::Unreachable:
      ImGui::TextColored(kBad, "unreachable: no corridor joins them");
      return;
    case PathStatus::TooManyExpansions:
      ImGui::TextColored(kBad, "search gave up after %u expansions", search.expansions);
      return;
  }
}

// Where the unit following the path touches the level (path_clearance.h).
void clearanceLine(const PathAnswer& solution) {
  if (solution.funnel.corners.size() < 2) return;
  if (solution.clearance.empty()) {
    ImGui::TextColored(kDim, "clearance: not measured (no level mesh)");
    return;
  }
  const ClearanceSummary summary = summarizeClearance(solution.clearance);
  ImGui::PushTextWrapPos(0.0f);
  if (summary.touching == 0) {
    ImGui::TextColored(kGood, "keeps clear of the level (%zu stretches)", summary.stretches);
  } else {
    ImGui::TextColored(kBad, "touches the level: %zu of %zu stretches, up to %.1f cm deep",
                       summary.touching, summary.stretches, double(summary.deepest) * 100.0);
  }
  if (summary.overNoGround > 0) {
    ImGui::TextColored(kBad, "over no ground: %zu stretches, %.2f m", summary.overNoGround,
                       double(summary.lengthOverNoGround));
  }
  ImGui::PopTextWrapPos();
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "The unit's footprint swept along each stretch over the ground it walks,\n"
        "above its step height: how far it would reach into walls, pillars or ceilings,\n"
        "and how much of the way has no ground under its centre within its step or drop.\n"
        "Paths hug corners, and a sector's edge lies up to half a cell past the last\n"
        "cell centre the flood fill tested.");
  }
}

}  // namespace

void drawPathPanel(PathTool& tool, CompareTool& compare, const LevelSettings* levelSettings,
                   const GridFrame& frame, bool haveBuild) {
  if (!ImGui::Begin("Path")) {
    ImGui::End();
    return;
  }
  pointRow("start", tool.start(), frame, colors::kStart);
  pointRow("goal", tool.goal(), frame, colors::kGoal);
  if (ImGui::Button("Swap")) tool.swapStartAndGoal();
  if (levelSettings != nullptr && levelSettings->start && levelSettings->goal) {
    ImGui::SameLine();
    if (ImGui::Button("Level start/goal")) {
      tool.setStart(*levelSettings->start);
      tool.setGoal(*levelSettings->goal);
    }
  }
  const PathAnswer* solved = tool.solution();
  if (tool.searchOptions().portalPoint == PortalPoint::Exact && solved != nullptr &&
      solved->search.portalPoint != PortalPoint::Exact) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(kDim,
                       "ran with crossing points: exact needs one cost a metre on every surface, "
                       "no open waypath and no turning radius (where surfaces cost differently, "
                       "the path through the corridor bends to cost least)");
    ImGui::PopTextWrapPos();
  }
  if (!tool.lastChange().empty()) {
    ImGui::TextColored(kDim, "query change:");
    ImGui::SameLine();
    ImGui::Text("%s", tool.lastChange().c_str());
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("What the last change in the Query panel did to the path.");
  }
  ImGui::Separator();
  if (!tool.notice().empty()) ImGui::TextColored(kBad, "%s", tool.notice().c_str());
  const PathAnswer* solution = tool.solution();
  if (levelSettings == nullptr) {
    ImGui::TextColored(kDim, "no level");
  } else if (!haveBuild) {
    ImGui::TextColored(kDim, "waiting for the first build");
  } else if (!tool.start() || !tool.goal()) {
    ImGui::TextColored(kDim, "left click: start, right click: goal");
  } else if (solution != nullptr) {
    statusLine(*solution);
    if (!tool.islandNote().empty()) {
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextColored(kBad, "%s", tool.islandNote().c_str());
      ImGui::PopTextWrapPos();
    }
    clearanceLine(*solution);
    if (ImGui::BeginTable("path", 2)) {
      ImGui::TableSetupColumn("name", ImGuiTableColumnFlags_WidthFixed, 110.0f);
      ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
      auto row = [](const char* name, const char* format, auto value) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextColored(kDim, "%s", name);
        ImGui::TableNextColumn();
        ImGui::Text(format, value);
      };
      const bool found = solution->search.status == PathStatus::Found;
      if (found) {
        row("length", "%.2f m", double(solution->funnel.length));
        row("corners", "%zu", solution->funnel.corners.size());
        row("moved out", "%zu corners", solution->funnel.reachedCorners);
        if (ImGui::IsItemHovered()) {
          ImGui::SetTooltip(
              "Corners moved past their portal's end, up to half a cell, to where the\n"
              "unit was proven to turn clear for this path (the blue portal ends).");
        }
        row("corridor", "%zu sectors", solution->search.corridor.sectors.size());
        row("left out", "%zu sectors", solution->sectorsLeftOut.size());
        if (ImGui::IsItemHovered()) {
          ImGui::SetTooltip(
              "Sectors of the search's corridor the path need not enter: the corridor\n"
              "without them pulls shorter, so the path goes straight across.");
        }
        row("search cost", "%.2f m", double(solution->search.cost));
      }
      row("expansions", "%u", solution->search.expansions);
      row("trace events", "%zu", solution->trace.events.size());
      ImGui::EndTable();
    }
  }
  if (haveBuild) compare.drawPanelSection();
  ImGui::End();
}

}  // namespace nav::app
