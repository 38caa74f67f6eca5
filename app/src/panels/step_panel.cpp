#include "panels/step_panel.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <string>

namespace nav::app {
namespace {

/// Play advances one step this often. [seconds]
constexpr double kPlayInterval = 0.3;
/// Rows of the open list shown, the next node first.
constexpr size_t kOpenRows = 8;
/// A node within this of the mouse is hovered. [pixels]
constexpr float kHoverPixels = 10.0f;

const ImVec4 kDim(0.65f, 0.65f, 0.65f, 1.0f);
const ImVec4 kEvent(1.0f, 0.85f, 0.3f, 1.0f);

ImVec4 toImVec4(Color c) {
  return ImVec4(c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, 1.0f);
}

// A node's portal as the table shows it: "start", "jump", or its number.
std::string portalName(uint32_t portal) {
  if (portal == kNoPortal) return "start";
  if (portal & kJumpPortalFlag) return "jump " + std::to_string(portal & ~kJumpPortalFlag);
  return std::to_string(portal);
}

}  // namespace

bool StepPanel::follow(const PathAnswer* solution, uint64_t pathRevision) {
  if (pathRevision != m_revision) {
    m_revision = pathRevision;
    m_replay = solution ? std::make_unique<SearchReplay>(solution->trace) : nullptr;
    m_playing = false;
    m_stepped = false;
    // The funnel's first step, or the search's last expansion when there is no funnel.
    m_position = 0;
    moveTo(solution, (long long)expansions());
  }
  return solution != nullptr && length(solution) > 0;
}

size_t StepPanel::length(const PathAnswer* solution) const {
  return expansions() + (solution ? solution->funnel.steps.size() : 0);
}

void StepPanel::moveTo(const PathAnswer* solution, long long t) {
  const size_t count = length(solution);
  if (count == 0) return;
  m_position = size_t(std::clamp<long long>(t, 0, (long long)count - 1));
  if (m_position < expansions()) m_replay->seek(m_position + 1);
}

std::optional<size_t> StepPanel::funnelStep(const PathAnswer* solution,
                                            uint64_t pathRevision) const {
  if (solution == nullptr || pathRevision != m_revision || m_position < expansions())
    return std::nullopt;
  const size_t step = m_position - expansions();
  if (step >= solution->funnel.steps.size()) return std::nullopt;
  return step;
}

const SearchReplay* StepPanel::searchStep(const PathAnswer* solution, uint64_t pathRevision) const {
  if (solution == nullptr || pathRevision != m_revision || m_position >= expansions())
    return nullptr;
  return m_replay.get();
}

void StepPanel::update(const PathAnswer* solution, uint64_t pathRevision, double now) {
  if (!follow(solution, pathRevision)) {
    m_playing = false;
    return;
  }
  if (m_playing && now - m_lastAdvance >= kPlayInterval) {
    m_lastAdvance = now;
    if (m_position + 1 < length(solution)) {
      moveTo(solution, (long long)m_position + 1);
    } else {
      m_playing = false;
    }
  }
}

void StepPanel::togglePlay(const PathAnswer* solution, double now) {
  const size_t count = length(solution);
  if (count == 0) return;
  m_playing = !m_playing;
  // Playing from the end starts over.
  if (m_playing && m_position + 1 >= count) moveTo(solution, 0);
  m_lastAdvance = now;
}

void StepPanel::handleKeys(const std::vector<int>& keys, const PathAnswer* solution,
                           uint64_t pathRevision, double now) {
  if (!follow(solution, pathRevision)) return;
  const long long at = (long long)m_position;
  for (int key : keys) {
    const bool steps = key == GLFW_KEY_SPACE || key == GLFW_KEY_LEFT || key == GLFW_KEY_RIGHT ||
                       key == GLFW_KEY_HOME || key == GLFW_KEY_END;
    m_stepped = m_stepped || steps;
    if (key == GLFW_KEY_SPACE) {
      togglePlay(solution, now);
      continue;
    }
    m_playing = false;
    if (key == GLFW_KEY_LEFT) moveTo(solution, at - 1);
    if (key == GLFW_KEY_RIGHT) moveTo(solution, at + 1);
    if (key == GLFW_KEY_HOME) moveTo(solution, 0);
    if (key == GLFW_KEY_END) moveTo(solution, (long long)length(solution) - 1);
  }
}

void StepPanel::draw(const PathAnswer* solution, uint64_t pathRevision, double now) {
  if (!ImGui::Begin("Steps")) {
    ImGui::End();
    return;
  }
  if (!follow(solution, pathRevision)) {
    ImGui::TextDisabled("no search or funnel: find a path first");
    ImGui::End();
    return;
  }
  const size_t count = length(solution);
  const size_t before = m_position;
  const bool wasPlaying = m_playing;
  if (ImGui::ArrowButton("prev", ImGuiDir_Left)) moveTo(solution, (long long)m_position - 1);
  ImGui::SameLine();
  if (ImGui::Button(m_playing ? "Pause" : "Play", ImVec2(60.0f, 0.0f))) togglePlay(solution, now);
  ImGui::SameLine();
  if (ImGui::ArrowButton("next", ImGuiDir_Right)) moveTo(solution, (long long)m_position + 1);
  ImGui::SameLine();
  const bool searching = m_position < expansions();
  if (searching) {
    ImGui::Text("search %zu / %zu", m_position + 1, expansions());
  } else {
    ImGui::Text("funnel %zu / %zu", m_position - expansions() + 1, solution->funnel.steps.size());
  }
  int slider = int(m_position);
  ImGui::SetNextItemWidth(-1.0f);
  if (ImGui::SliderInt("##step", &slider, 0, int(count) - 1, "")) {
    m_playing = false;
    moveTo(solution, slider);
  }
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%zu search expansions, then %zu funnel events", expansions(),
                      solution->funnel.steps.size());
  }
  m_stepped = m_stepped || m_position != before || m_playing != wasPlaying;
  ImGui::Separator();
  if (m_position < expansions()) {
    drawSearchStep();
  } else {
    drawFunnelStep(*solution, m_position - expansions());
  }
  ImGui::TextDisabled("keys: Left/Right step, Home/End, Space play");
  ImGui::End();
}

void StepPanel::hoverSearchNode(const FrameView& view, const PathAnswer* solution,
                                uint64_t pathRevision) {
  const SearchReplay* replay = searchStep(solution, pathRevision);
  if (replay == nullptr || ImGui::GetIO().WantCaptureMouse) {
    m_hovered.reset();
    m_looked = {};
    return;
  }
  const ImVec2 mouse = ImGui::GetMousePos();
  const std::span<const ReplayNode> nodes = replay->nodes();
  const Looked now{{mouse.x, mouse.y}, view.view, view.projection, pathRevision, m_position};
  // Every node is projected only when something moved.
  if (!(now == m_looked)) {
    m_looked = now;
    m_hovered.reset();
    float nearest = kHoverPixels * kHoverPixels;
    for (uint32_t n = 0; n < nodes.size(); ++n) {
      const std::optional<glm::vec2> at = view.project(nodes[n].middle());
      if (!at) continue;
      const glm::vec2 apart = *at - glm::vec2(mouse.x, mouse.y);
      if (glm::dot(apart, apart) <= nearest) {
        nearest = glm::dot(apart, apart);
        m_hovered = n;
      }
    }
  }
  if (!m_hovered) return;
  const ReplayNode& node = nodes[*m_hovered];
  const char* state = replay->expanding() == m_hovered ? "being expanded"
                      : node.dropped                   ? "set aside"
                      : node.closed                    ? "closed"
                                                       : "open";
  ImGui::BeginTooltip();
  ImGui::Text("portal %s: %s", portalName(node.portal).c_str(), state);
  ImGui::Text("g %.2f  h %.2f  f %.2f", double(node.costSoFar), double(node.heuristic()),
              double(node.estimatedTotal));
  if (node.parent != ReplayNode::kNoParent)
    ImGui::Text("parent: portal %s", portalName(nodes[node.parent].portal).c_str());
  ImGui::EndTooltip();
}

void StepPanel::drawSearchStep() const {
  const SearchReplay& replay = *m_replay;
  const std::span<const ReplayNode> nodes = replay.nodes();
  const ReplayNode& node = nodes[*replay.expanding()];
  ImGui::TextColored(toImVec4(colors::kExpandingNode), "expanding portal %s",
                     portalName(node.portal).c_str());
  ImGui::Text("g %.2f  h %.2f  f %.2f", double(node.costSoFar), double(node.heuristic()),
              double(node.estimatedTotal));
  if (node.parent != ReplayNode::kNoParent) {
    ImGui::SameLine();
    ImGui::TextColored(kDim, "from %s", portalName(nodes[node.parent].portal).c_str());
  }
  ImGui::TextColored(kDim, "costs %zu portal points", replay.successors().size());
  const std::vector<uint32_t> open = replay.openByEstimate();
  if (ImGui::BeginTable("open", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchSame)) {
    ImGui::TableSetupColumn("open");
    ImGui::TableSetupColumn("g");
    ImGui::TableSetupColumn("h");
    ImGui::TableSetupColumn("f");
    ImGui::TableHeadersRow();
    for (size_t row = 0; row < std::min(open.size(), kOpenRows); ++row) {
      const ReplayNode& entry = nodes[open[row]];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      const std::string name = portalName(entry.portal);
      if (row == 0) {
        ImGui::TextColored(toImVec4(colors::kNextNode), "%s next", name.c_str());
      } else {
        ImGui::TextUnformatted(name.c_str());
      }
      ImGui::TableNextColumn();
      ImGui::Text("%.2f", double(entry.costSoFar));
      ImGui::TableNextColumn();
      ImGui::Text("%.2f", double(entry.heuristic()));
      ImGui::TableNextColumn();
      ImGui::Text("%.2f", double(entry.estimatedTotal));
    }
    ImGui::EndTable();
  }
  if (open.size() > kOpenRows) ImGui::TextColored(kDim, "%zu more open", open.size() - kOpenRows);
}

void StepPanel::drawFunnelStep(const PathAnswer& solution, size_t step) const {
  const FunnelStep& current = solution.funnel.steps[step];
  ImGui::Text("event");
  ImGui::SameLine(90.0f);
  ImGui::TextColored(kEvent, "%s", toString(current.event));
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
    row("portal", current.portal, kDim);
    row("apex portal", current.apexPortal, toImVec4(colors::kApex));
    row("left portal", current.leftPortal, toImVec4(colors::kFunnelLeft));
    row("right portal", current.rightPortal, toImVec4(colors::kFunnelRight));
    row("corners so far", current.cornerCount, kDim);
    ImGui::EndTable();
  }
  ImGui::TextDisabled("%zu portals (start and goal included)", solution.portals.size());
}

}  // namespace nav::app
