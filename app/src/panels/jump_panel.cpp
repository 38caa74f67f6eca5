#include "panels/jump_panel.h"

#include <imgui.h>

#include <cmath>

namespace nav::app {
namespace {

const ImVec4 kDim(0.65f, 0.65f, 0.65f, 1.0f);
const ImVec4 kBad(1.0f, 0.45f, 0.4f, 1.0f);

}  // namespace

void drawJumpPanel(JumpTool& tool, const GridFrame& frame, bool haveBuild) {
  if (!ImGui::Begin("Jumps")) {
    ImGui::End();
    return;
  }
  bool armed = tool.armed();
  if (ImGui::Checkbox("Place jumps (J)", &armed)) tool.setArmed(armed);
  if (tool.armed()) {
    ImGui::SameLine();
    ImGui::TextColored(kDim,
                       tool.pendingTakeoff() ? "right click: landing" : "left click: takeoff");
  }
  float speed = tool.speed();
  if (ImGui::SliderFloat("speed m/s", &speed, 0.5f, 50.0f, "%.1f", ImGuiSliderFlags_AlwaysClamp))
    tool.setSpeed(speed);
  int capacity = int(tool.bucket().capacity());
  if (ImGui::SliderInt("bucket", &capacity, 1, int(JumpTool::kMaxCapacity), "%d jumps",
                       ImGuiSliderFlags_AlwaysClamp)) {
    tool.setCapacity(uint32_t(capacity));
  }
  if (!tool.notice().empty()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(kBad, "%s", tool.notice().c_str());
    ImGui::PopTextWrapPos();
  }
  if (!haveBuild) ImGui::TextColored(kDim, "no build yet");
  const auto& jumps = tool.bucket().jumps();
  ImGui::Text("%zu of %u, oldest first", jumps.size(), tool.bucket().capacity());
  if (!jumps.empty() && ImGui::SmallButton("Clear")) tool.clear();
  uint32_t removed = 0;
  for (const JumpPortal& jump : jumps) {
    ImGui::PushID(int(jump.id));
    if (ImGui::SmallButton("x")) removed = jump.id;
    ImGui::SameLine();
    const glm::vec3 d = jump.portal.right - jump.portal.left;
    ImGui::Text("#%u  %.1f m, %+.1f m up, %.2f s, heading %.0f deg", jump.id,
                std::sqrt(d.x * d.x + d.z * d.z), d.y, jump.spec.airTime,
                fileHeadingDegrees(jump.spec.heading, frame));
    ImGui::PopID();
  }
  if (removed != 0) tool.remove(removed);
  ImGui::End();
}

}  // namespace nav::app
