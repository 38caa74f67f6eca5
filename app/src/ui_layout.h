#pragma once
// Where the panels are: the starting layout (the user's saved one, else the
// committed imgui.ini compiled into the binary), adapted whenever the window's
// size differs from the one the layout was arranged for (at start-up from a
// layout saved at another size, or on a resize), Reset layout, and the part
// of the window the panels leave free for the 3D view. No panel is left
// under the main menu bar, and enough of each title bar stays in the window
// to drag the panel back.
#include <map>
#include <string>

#include <glm/glm.hpp>

#include "frame_view.h"

namespace nav::app {

class UiLayout {
 public:
  /// The user's layout file: $XDG_CONFIG_HOME/navscope/imgui.ini, else
  /// ~/.config/navscope/imgui.ini; empty when neither variable is set.
  static std::string userSettingsPath();

  /// Call after ImGui::CreateContext() and before the first frame. Changes are
  /// saved to settingsPath (nothing is saved when it is empty).
  void install(std::string settingsPath);
  /// Call after ImGui::NewFrame(), before the panels: carries out a reset,
  /// adapts the layout to a new window size and keeps every panel in view.
  void beginFrame();
  /// The next beginFrame() puts the panels back where the committed layout has
  /// them, adapted to the window's size.
  void requestReset() { m_resetRequested = true; }
  /// Where each panel shown this frame is, by name; call after the panels.
  std::map<std::string, ScreenRect> panelRects() const;
  /// Call after the panels: the largest part of the window not covered by panels
  /// docked to its left or right edge.
  ScreenRect unobstructedRect() const;

  /// Display size the loaded layout was arranged for (stored in the .ini file).
  glm::vec2 referenceSize() const { return m_referenceSize; }
  void setReferenceSize(glm::vec2 size) { m_referenceSize = size; }

 private:
  /// Moves and resizes every panel (and the saved places of panels not shown
  /// yet) from m_referenceSize to `size`.
  void adapt(glm::vec2 size);
  /// Moves panels left under the menu bar back below it, and those whose
  /// title bar left the window back until a grip of it is inside.
  void keepInView(glm::vec2 size);

  std::string m_settingsPath;
  glm::vec2 m_referenceSize{1280.0f, 720.0f};
  bool m_resetRequested = false;
};

}  // namespace nav::app
