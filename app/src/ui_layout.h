#pragma once
// Where the panels are: the starting layout (the user's saved one, else the
// committed imgui.ini compiled into the binary), keeping panels docked to the
// window's right and bottom edges when its size changes, and the part of the
// window the panels leave free for the 3D view.
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
  /// Call after ImGui::NewFrame(), before the panels: follows window size changes.
  void beginFrame();
  /// Call after the panels: the largest part of the window not covered by panels
  /// docked to its left or right edge.
  ScreenRect unobstructedRect() const;

  /// Display size the loaded layout was arranged for (stored in the .ini file).
  glm::vec2 referenceSize() const { return m_referenceSize; }
  void setReferenceSize(glm::vec2 size) { m_referenceSize = size; }

 private:
  std::string m_settingsPath;
  glm::vec2 m_referenceSize{1280.0f, 720.0f};
};

}  // namespace nav::app
