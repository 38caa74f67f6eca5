#include "window.h"

#include <glad/gl.h>

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#ifdef NAVSCOPE_PIN_GL_DRIVER
#include <dlfcn.h>
#include <link.h>

#include <cstring>
#endif

namespace nav::app {
namespace {

#ifdef NAVSCOPE_PIN_GL_DRIVER
// Sanitizer builds: glfwTerminate() unloads Mesa's driver before LeakSanitizer
// runs, so the driver's own leftovers are reported from "<unknown module>" and
// cannot be suppressed. Keeping the driver mapped makes that report go away
// (real leaks in our code still fail the run).
void pinGlDriver() {
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void*) {
        if (info->dlpi_name != nullptr && std::strstr(info->dlpi_name, "_dri.so") != nullptr) {
          dlopen(info->dlpi_name, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
        }
        return 0;
      },
      nullptr);
}
#endif

std::string lastGlfwError() {
  const char* description = nullptr;
  glfwGetError(&description);
  return description != nullptr ? description : "unknown GLFW error";
}

}  // namespace

Result<std::unique_ptr<Window>> Window::create(const std::string& title, glm::ivec2 size) {
  using WindowResult = Result<std::unique_ptr<Window>>;
  if (glfwInit() != GLFW_TRUE) {
    return WindowResult::failure("cannot start GLFW (is DISPLAY set?): " + lastGlfwError());
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
#ifdef __APPLE__
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
#endif
  GLFWwindow* window = glfwCreateWindow(size.x, size.y, title.c_str(), nullptr, nullptr);
  if (window == nullptr) {
    std::string message = "cannot open a window with OpenGL 3.3 core: " + lastGlfwError();
    glfwTerminate();
    return WindowResult::failure(std::move(message));
  }
  glfwMakeContextCurrent(window);
  if (gladLoadGL(glfwGetProcAddress) == 0) {
    glfwDestroyWindow(window);
    glfwTerminate();
    return WindowResult::failure("cannot load the OpenGL 3.3 functions");
  }
  glfwSwapInterval(1);
#ifdef NAVSCOPE_PIN_GL_DRIVER
  pinGlDriver();
#endif

  std::unique_ptr<Window> result(new Window(window));
  glfwSetWindowUserPointer(window, result.get());
  // Installed before ImGui's backend, which chains to the ones it also uses.
  glfwSetKeyCallback(window, keyCallback);
  glfwSetCharCallback(window, [](GLFWwindow* w, unsigned int) { countEvent(w); });
  glfwSetMouseButtonCallback(window, [](GLFWwindow* w, int, int, int) { countEvent(w); });
  glfwSetScrollCallback(window, [](GLFWwindow* w, double, double) { countEvent(w); });
  glfwSetCursorPosCallback(window, [](GLFWwindow* w, double, double) { countEvent(w); });
  glfwSetCursorEnterCallback(window, [](GLFWwindow* w, int) { countEvent(w); });
  glfwSetWindowFocusCallback(window, [](GLFWwindow* w, int) { countEvent(w); });
  glfwSetWindowSizeCallback(window, [](GLFWwindow* w, int, int) { countEvent(w); });
  glfwSetWindowRefreshCallback(window, countEvent);
  glfwSetDropCallback(window, [](GLFWwindow* w, int count, const char** paths) {
    countEvent(w);
    auto* self = static_cast<Window*>(glfwGetWindowUserPointer(w));
    for (int i = 0; self != nullptr && i < count; ++i)
      self->m_droppedPaths.emplace_back(paths[i]);
  });

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::StyleColorsDark();
  ImGuiStyle& style = ImGui::GetStyle();
  style.WindowRounding = 0.0f;
  style.WindowBorderSize = 0.0f;
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 330");
  return WindowResult::success(std::move(result));
}

Window::~Window() {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(m_window);
  glfwTerminate();
}

void Window::countEvent(GLFWwindow* window) {
  if (auto* self = static_cast<Window*>(glfwGetWindowUserPointer(window))) ++self->m_eventCount;
}

void Window::keyCallback(GLFWwindow* window, int key, int, int action, int mods) {
  countEvent(window);
  auto* self = static_cast<Window*>(glfwGetWindowUserPointer(window));
  if (self == nullptr || action == GLFW_RELEASE) return;
  self->m_keyPresses.push_back((mods & GLFW_MOD_CONTROL) ? key | kControlKey : key);
}

void Window::waitForEvents(double seconds) {
  glfwWaitEventsTimeout(seconds);
}

void Window::setVsync(bool on) {
  glfwSwapInterval(on ? 1 : 0);
}

std::vector<std::string> Window::takeDroppedPaths() {
  std::vector<std::string> paths;
  paths.swap(m_droppedPaths);
  return paths;
}

std::vector<int> Window::takeKeyPresses() {
  std::vector<int> presses;
  presses.swap(m_keyPresses);
  return presses;
}

bool Window::shouldClose() const {
  return glfwWindowShouldClose(m_window) == GLFW_TRUE;
}

void Window::setTitle(const std::string& title) {
  glfwSetWindowTitle(m_window, title.c_str());
}

void Window::beginFrame() {
  glfwPollEvents();
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
}

void Window::renderUi() {
  ImGui::Render();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void Window::present() {
  glfwSwapBuffers(m_window);
}

glm::vec2 Window::windowSize() const {
  int width = 0, height = 0;
  glfwGetWindowSize(m_window, &width, &height);
  return {float(width), float(height)};
}

glm::ivec2 Window::framebufferSize() const {
  glm::ivec2 size;
  glfwGetFramebufferSize(m_window, &size.x, &size.y);
  return size;
}

}  // namespace nav::app
