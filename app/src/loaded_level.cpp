#include "loaded_level.h"

#include <exception>

namespace nav::app {

Result<std::shared_ptr<const LoadedLevel>> loadLevelFile(const std::string& path) {
  using LevelResult = Result<std::shared_ptr<const LoadedLevel>>;
  try {
    Result<Level> level = loadLevel(path);
    if (!level) return LevelResult::failure(level.error());
    if (level.value().triangles.empty()) return LevelResult::failure(path + ": no triangles");
    return LevelResult::success(std::make_shared<const LoadedLevel>(std::move(level).value()));
  } catch (const std::exception& error) {
    // Only resource exhaustion gets here (the loader reports bad input itself).
    return LevelResult::failure(path + ": " + error.what());
  }
}

}  // namespace nav::app
