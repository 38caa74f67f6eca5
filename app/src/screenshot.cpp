#include "screenshot.h"

#include <glad/gl.h>
#include <stb_image_write.h>

#include <cstring>
#include <filesystem>
#include <system_error>
#include <vector>

namespace nav::app {

Result<std::string> writeScreenshot(const std::string& path, glm::ivec2 framebufferSize) {
  const int width = framebufferSize.x;
  const int height = framebufferSize.y;
  if (width <= 0 || height <= 0) {
    return Result<std::string>::failure(path + ": the window has no pixels to save");
  }
  const size_t rowBytes = size_t(width) * 3;
  std::vector<unsigned char> pixels(rowBytes * size_t(height));
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
  // GL rows run bottom-up, PNG rows top-down.
  std::vector<unsigned char> row(rowBytes);
  for (int y = 0; y < height / 2; ++y) {
    unsigned char* top = pixels.data() + size_t(y) * rowBytes;
    unsigned char* bottom = pixels.data() + size_t(height - 1 - y) * rowBytes;
    std::memcpy(row.data(), top, rowBytes);
    std::memcpy(top, bottom, rowBytes);
    std::memcpy(bottom, row.data(), rowBytes);
  }
  if (stbi_write_png(path.c_str(), width, height, 3, pixels.data(), int(rowBytes)) == 0) {
    return Result<std::string>::failure(path + ": cannot write the PNG file");
  }
  return Result<std::string>::success(path);
}

std::string nextScreenshotName() {
  std::error_code error;
  for (int n = 1;; ++n) {
    std::string name = "navscope-" + std::to_string(n) + ".png";
    if (!std::filesystem::exists(name, error)) return name;
  }
}

}  // namespace nav::app
