#include "viewport_input.h"

#include <imgui.h>

namespace nav::app {
namespace {

/// A press that moved farther than this before its release was a drag. [pixels]
constexpr float kClickSlop = 4.0f;

bool startedInViewport(int button) {
  const ImGuiIO& io = ImGui::GetIO();
  return !io.MouseDownOwned[button];
}

}  // namespace

std::optional<ViewportClick> handleViewportMouse(OrbitCamera& camera, glm::vec2 windowSize) {
  const ImGuiIO& io = ImGui::GetIO();
  if (!io.WantCaptureMouse && io.MouseWheel != 0.0f) {
    const FrameView view = camera.frameView(windowSize, glm::ivec2(windowSize));
    camera.zoomTowards(io.MouseWheel, view.rayThrough({io.MousePos.x, io.MousePos.y}));
  }

  const glm::vec2 delta(io.MouseDelta.x, io.MouseDelta.y);
  const bool rightDrag = io.MouseDown[ImGuiMouseButton_Right] &&
                         startedInViewport(ImGuiMouseButton_Right) &&
                         ImGui::IsMouseDragging(ImGuiMouseButton_Right, kClickSlop);
  const bool middleDrag =
      io.MouseDown[ImGuiMouseButton_Middle] && startedInViewport(ImGuiMouseButton_Middle);
  if (middleDrag || (rightDrag && io.KeyShift)) {
    camera.pan(delta, windowSize);
  } else if (rightDrag) {
    camera.orbit(delta);
  }

  for (const auto& [imguiButton, button] :
       {std::pair{ImGuiMouseButton_Left, MouseButton::Left},
        std::pair{ImGuiMouseButton_Right, MouseButton::Right}}) {
    if (!io.MouseReleased[imguiButton] || !startedInViewport(imguiButton)) continue;
    if (io.MouseDragMaxDistanceSqr[imguiButton] > kClickSlop * kClickSlop) continue;
    const ImVec2 position = io.MouseClickedPos[imguiButton];
    return ViewportClick{button, {position.x, position.y}, io.KeyShift, io.KeyCtrl};
  }
  return std::nullopt;
}

}  // namespace nav::app
