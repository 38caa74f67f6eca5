#include "panels/build_panel.h"

#include <imgui.h>

namespace nav::app {
namespace {

/// Slider drags change values every frame: wait this long after the last change. [seconds]
constexpr double kDebounceSeconds = 0.35;

const char* stageName(BuildStage stage) {
  switch (stage) {
    case BuildStage::Idle:
      return "starting";
    case BuildStage::FloodFill:
      return "flood fill";
    case BuildStage::Compress:
      return "compressing";
    case BuildStage::Done:
      return "finishing";
  }
  return "";
}

const ImVec4 kErrorColor(1.0f, 0.45f, 0.4f, 1.0f);
const ImVec4 kDimColor(0.65f, 0.65f, 0.65f, 1.0f);

}  // namespace

void BuildPanel::reset(const FloodFillParams& defaults) {
  m_defaults = defaults;
  m_defaults.cellSize = effectiveCellSize(defaults);
  m_params = m_defaults;
  m_pending = false;
}

void BuildPanel::changed(double now) {
  m_pending = true;
  m_changedAt = now;
}

bool BuildPanel::takeRebuildRequest(double now) {
  if (!m_pending || now - m_changedAt < kDebounceSeconds) return false;
  m_pending = false;
  return true;
}

void BuildPanel::draw(const BuildStatus& status, double now) {
  if (!ImGui::Begin("Build")) {
    ImGui::End();
    return;
  }
  if (!status.levelError.empty()) {
    ImGui::TextColored(kErrorColor, "Level failed to load");
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(status.levelError.c_str());
    ImGui::PopTextWrapPos();
    ImGui::End();
    return;
  }
  ImGui::Text("%s", status.levelName.c_str());
  ImGui::TextColored(kDimColor, "%zu triangles", status.levelTriangles);
  ImGui::Separator();

  ImGui::PushItemWidth(-110.0f);
  bool edited = false;
  edited |= ImGui::SliderFloat("cell size", &m_params.cellSize, 0.05f, 2.0f, "%.2f m",
                               ImGuiSliderFlags_Logarithmic);
  UnitProfile& unit = m_params.unit;
  edited |= ImGui::SliderFloat("unit width", &unit.width, 0.1f, 4.0f, "%.2f m");
  edited |= ImGui::SliderFloat("unit height", &unit.height, 0.2f, 5.0f, "%.2f m");
  edited |= ImGui::SliderFloat("step height", &unit.stepHeight, 0.0f, 2.0f, "%.2f m");
  edited |= ImGui::SliderFloat("max drop", &unit.maxDrop, 0.0f, 20.0f, "%.1f m");
  edited |= ImGui::SliderFloat("max slope", &unit.maxSlopeDegrees, 0.0f, 89.0f, "%.0f deg");
  ImGui::PopItemWidth();
  if (edited) changed(now);
  if (ImGui::Button("Rebuild")) changed(now - kDebounceSeconds);
  ImGui::SameLine();
  if (ImGui::Button("Reset to level settings")) {
    m_params = m_defaults;
    changed(now - kDebounceSeconds);
  }
  ImGui::Separator();

  if (status.building || m_pending) {
    // A spinner the eye can catch: the build runs on another thread.
    const char spinner[] = {'|', '/', '-', '\\'};
    const char glyph = spinner[int(now * 8.0) & 3];
    ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.3f, 1.0f), "%c building... %s", glyph,
                       m_pending ? "(waiting for the sliders)" : stageName(status.stage));
    if (status.building && status.stage == BuildStage::FloodFill) {
      ImGui::TextColored(kDimColor, "%llu cells so far", (unsigned long long)status.cellsFound);
    }
  }
  if (!status.buildError.empty()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(kErrorColor, "Build failed: %s", status.buildError.c_str());
    ImGui::PopTextWrapPos();
  }
  if (status.build != nullptr) {
    const BuildStats& stats = status.build->stats;
    if (ImGui::BeginTable("stats", 2)) {
      ImGui::TableSetupColumn("name", ImGuiTableColumnFlags_WidthFixed, 110.0f);
      ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
      auto row = [](const char* name, const char* format, auto value) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextColored(kDimColor, "%s", name);
        ImGui::TableNextColumn();
        ImGui::Text(format, value);
      };
      row("cells", "%zu", stats.cells);
      row("sectors", "%zu", stats.sectors);
      row("portals", "%zu", stats.portals);
      row("graph memory", "%.1f KiB", double(stats.graphBytes) / 1024.0);
      row("flood fill", "%.1f ms", stats.floodFillMs);
      row("compress", "%.1f ms", stats.compressMs);
      row("total", "%.1f ms", stats.totalMs);
      ImGui::EndTable();
    }
  }
  ImGui::End();
}

}  // namespace nav::app
