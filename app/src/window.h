#pragma once
// The GLFW window with its OpenGL 3.3 core context and the ImGui context bound
// to it. Owning both keeps their start-up and shutdown order in one place.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "nav/result.h"

struct GLFWwindow;

namespace nav::app {

/// Added to a key code pressed with Ctrl held (Window::takeKeyPresses).
constexpr int kControlKey = 0x10000;

class Window {
 public:
  /// Opens the window, loads GL and starts ImGui (context, GLFW and OpenGL3 backends).
  /// The message says why when there is no display or no GL 3.3.
  static Result<std::unique_ptr<Window>> create(const std::string& title, glm::ivec2 size);
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;
  /// Saves ImGui's settings (through io.IniFilename) and closes everything.
  ~Window();

  bool shouldClose() const;
  void setTitle(const std::string& title);
  /// Polls events and starts the ImGui frame.
  void beginFrame();
  /// Renders ImGui over the scene in the back buffer (not yet shown).
  void renderUi();
  /// Shows the back buffer.
  void present();

  /// GLFW key codes pressed (or auto-repeated) since the last call, with
  /// kControlKey added for a key pressed while Ctrl was held. Latched from
  /// GLFW's callback: ImGui 1.86 only sees keys still down when a frame starts,
  /// and a quick tap (or a scripted one, Ctrl included) can fall between two frames.
  std::vector<int> takeKeyPresses();

  /// Waits for the display's refresh when presenting (on by default).
  void setVsync(bool on);
  /// Paths of the files dropped on the window since the last call, in order.
  std::vector<std::string> takeDroppedPaths();

  /// Input and window events received so far; unchanged means nothing happened.
  uint64_t eventCount() const { return m_eventCount; }
  /// Sleeps until an event arrives or `seconds` pass.
  void waitForEvents(double seconds);

  /// Screen coordinates, the unit of mouse positions and ImGui.
  glm::vec2 windowSize() const;
  glm::ivec2 framebufferSize() const;

 private:
  explicit Window(GLFWwindow* window) : m_window(window) {}
  static void keyCallback(GLFWwindow* window, int key, int scancode, int action, int mods);
  static void countEvent(GLFWwindow* window);

  GLFWwindow* m_window;
  std::vector<int> m_keyPresses;
  std::vector<std::string> m_droppedPaths;
  uint64_t m_eventCount = 0;
};

}  // namespace nav::app
