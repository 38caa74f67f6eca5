#include "panels/funnel_panel.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>

namespace nav::app {
namespace {

/// Play advances one step this often. [seconds]
constexpr double kPlayInterval = 0.3;

size_t stepCount(const PathAnswer* solution) {
  return solution != nullptr ? solution->funnel.steps.size() : 0;
}

}  // namespace

std::optional<size_t> FunnelPanel::currentStep(const PathAnswer* solution) const {
  if (m_step >= stepCount(solution)) return std::nullopt;
  return m_step;
}

void FunnelPanel::update(const PathAnswer* solution, uint64_t pathRevision, double now) {
  if (pathRevision != m_revision) {
    m_revision = pathRevision;
    m_step = 0;
    m_playing = false;
  }
  const size_t count = stepCount(solution);
  if (count == 0) {
    m_playing = false;
    return;
  }
  m_step = std::min(m_step, count - 1);
  if (m_playing && now - m_lastAdvance >= kPlayInterval) {
    m_lastAdvance = now;
    if (m_step + 1 < count) {
      ++m_step;
    } else {
      m_playing = false;
    }
  }
}

void FunnelPanel::step(const PathAnswer* solution, int delta) {
  const size_t count = stepCount(solution);
  if (count == 0) return;
  m_playing = false;
  const long long target = (long long)m_step + delta;
  m_step = size_t(std::clamp<long long>(target, 0, (long long)count - 1));
}

void FunnelPanel::togglePlay(const PathAnswer* solution, double now) {
  const size_t count = stepCount(solution);
  if (count == 0) return;
  m_playing = !m_playing;
  // Playing from the end starts over.
  if (m_playing && m_step + 1 >= count) m_step = 0;
  m_lastAdvance = now;
}

void FunnelPanel::handleKeys(const std::vector<int>& keys, const PathAnswer* solution, double now) {
  for (int key : keys) {
    if (key == GLFW_KEY_LEFT) step(solution, -1);
    if (key == GLFW_KEY_RIGHT) step(solution, +1);
    if (key == GLFW_KEY_HOME) step(solution, -int(stepCount(solution)));
    if (key == GLFW_KEY_END) step(solution, int(stepCount(solution)));
    if (key == GLFW_KEY_SPACE) togglePlay(solution, now);
  }
}

void FunnelPanel::draw(const PathAnswer* solution, double now) {
  if (!ImGui::Begin("Funnel")) {
    ImGui::End();
    return;
  }
  const size_t count = stepCount(solution);
  if (count == 0) {
    ImGui::TextDisabled("no funnel: find a path first");
    ImGui::End();
    return;
  }
  // The path may have changed since update() (a new build, the Path panel's buttons).
  m_step = std::min(m_step, count - 1);
  if (ImGui::ArrowButton("prev", ImGuiDir_Left)) step(solution, -1);
  ImGui::SameLine();
  if (ImGui::Button(m_playing ? "Pause" : "Play", ImVec2(60.0f, 0.0f))) togglePlay(solution, now);
  ImGui::SameLine();
  if (ImGui::ArrowButton("next", ImGuiDir_Right)) step(solution, +1);
  ImGui::SameLine();
  ImGui::Text("%zu / %zu", m_step + 1, count);
  int slider = int(m_step);
  ImGui::SetNextItemWidth(-1.0f);
  if (ImGui::SliderInt("##step", &slider, 0, int(count) - 1, "step %d")) {
    m_step = size_t(slider);
    m_playing = false;
  }

  const FunnelStep& current = solution->funnel.steps[m_step];
  ImGui::Separator();
  ImGui::Text("event");
  ImGui::SameLine(90.0f);
  ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.3f, 1.0f), "%s", toString(current.event));
  if (ImGui::BeginTable("step", 2)) {
    ImGui::TableSetupColumn("name", ImGuiTableColumnFlags_WidthFixed, 110.0f);
    ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
    auto row = [](const char* name, uint32_t value, ImVec4 color) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextColored(color, "%s", name);
      ImGui::TableNextColumn();
      ImGui::Text("%u", value);
    };
    const ImVec4 plain(0.65f, 0.65f, 0.65f, 1.0f);
    auto color = [](Color c) { return ImVec4(c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, 1.0f); };
    row("portal", current.portal, plain);
    row("apex portal", current.apexPortal, color(colors::kApex));
    row("left portal", current.leftPortal, color(colors::kFunnelLeft));
    row("right portal", current.rightPortal, color(colors::kFunnelRight));
    row("corners so far", current.cornerCount, plain);
    ImGui::EndTable();
  }
  ImGui::TextDisabled("%zu portals (start and goal included)", solution->portals.size());
  ImGui::TextDisabled("keys: Left/Right step, Home/End, Space play");
  ImGui::End();
}

}  // namespace nav::app
