#pragma once
// PNG screenshots of what the window shows.
#include <string>

#include <glm/glm.hpp>

#include "nav/result.h"

namespace nav::app {

/// Writes the current back buffer (call after ImGui has rendered, before the
/// swap) as an RGB PNG. Returns the path written.
Result<std::string> writeScreenshot(const std::string& path, glm::ivec2 framebufferSize);

/// navscope-<n>.png in the working directory, with the first n >= 1 not taken yet.
std::string nextScreenshotName();

}  // namespace nav::app
