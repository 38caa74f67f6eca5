#include "panels/crowd_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <span>

namespace nav::app {
namespace {

const ImVec4 kDim(0.65f, 0.65f, 0.65f, 1.0f);
const ImVec4 kWarning(1.0f, 0.85f, 0.3f, 1.0f);

/// The budget slider's range. [microseconds]
constexpr int kMinBudget = 20;
constexpr int kMaxBudget = 20000;

// Short lines: the panel shares the left edge with the Build panel.
void agentSummary(const Crowd& crowd) {
  const CrowdCounts counts = crowd.counts();
  const CrowdTotals& totals = crowd.totals();
  ImGui::Text("walking %u  waiting %u  solving %u", counts.walking, counts.waiting, counts.solving);
  ImGui::TextColored(kDim, "first paths %u/%zu  pending %zu", totals.agentsWithPath,
                     crowd.agents().size(), crowd.pendingRequests());
  ImGui::TextColored(kDim, "paths %llu  partial %llu  failed %llu",
                     (unsigned long long)(totals.found + totals.partial),
                     (unsigned long long)totals.partial, (unsigned long long)totals.failed);
  ImGui::TextColored(kDim, "walked %.0f m", totals.walked);
  if (counts.stuck > 0) {
    ImGui::SameLine();
    ImGui::TextColored(kWarning, " %u stuck", counts.stuck);
  }
}

// The solver's time per frame, its summary written over the plot.
void solverPlot(const Crowd& crowd, int budget) {
  const std::span<const float> history = crowd.solverHistory();
  if (history.empty()) return;
  const SolverTimeSummary time = crowd.solverTime();
  char overlay[80];
  std::snprintf(overlay, sizeof overlay, "solver us: last %.0f mean %.0f max %.0f",
                double(time.last), double(time.mean), double(time.max));
  // Scaled to the budget unless a frame overran it, so the plot reads against it.
  const float top = std::max(float(budget), time.max) * 1.1f;
  // ImGui 1.86's plots take no negative width: the full width is asked for outright.
  ImGui::PlotLines("##solver", history.data(), int(history.size()), int(crowd.solverHistoryStart()),
                   overlay, 0.0f, top, ImVec2(ImGui::GetContentRegionAvail().x, 52.0f));
}

}  // namespace

void CrowdPanel::setCount(uint32_t count) {
  m_count = int(std::clamp<uint32_t>(count, 1, kMaxCrowdAgents));
}

void CrowdPanel::draw(Crowd& crowd, bool haveGraph) {
  if (!ImGui::Begin("Crowd")) {
    ImGui::End();
    return;
  }
  constexpr ImGuiSliderFlags kLog = ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp;
  ImGui::SetNextItemWidth(110.0f);
  ImGui::SliderInt("agents", &m_count, 1, int(kMaxCrowdAgents), "%d", kLog);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(60.0f);
  if (ImGui::InputInt("seed", &m_seed, 0)) m_seed = std::max(m_seed, 0);
  ImGui::PushItemWidth(-110.0f);
  ImGui::SliderInt("budget", &m_budget, kMinBudget, kMaxBudget, "%d us/frame", kLog);
  float speed = crowd.speed();
  if (ImGui::SliderFloat("walk speed", &speed, 0.2f, 10.0f, "%.1f m/s", kLog))
    crowd.setSpeed(speed);
  ImGui::PopItemWidth();
  if (ImGui::Button("Spawn")) crowd.spawn(count(), seed());
  ImGui::SameLine();
  ImGui::BeginDisabled(!crowd.active());
  if (ImGui::Button("Clear")) crowd.clear();
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button(m_paused ? "Resume" : "Pause")) m_paused = !m_paused;
  ImGui::Separator();
  if (!crowd.active()) {
    ImGui::TextColored(kDim, "no crowd: Spawn places %d agents", m_count);
  } else if (!haveGraph || !crowd.notice().empty()) {
    ImGui::TextColored(kWarning, "%s",
                       crowd.notice().empty() ? "waiting for a build" : crowd.notice().c_str());
  } else {
    agentSummary(crowd);
    solverPlot(crowd, m_budget);
  }
  ImGui::End();
}

}  // namespace nav::app
