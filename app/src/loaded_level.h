#pragma once
// A level and its collision world, immutable once loaded, shared by the main
// thread and the build worker.
#include <memory>
#include <string>

#include "nav/collision.h"
#include "nav/level.h"
#include "nav/result.h"

namespace nav::app {

struct LoadedLevel {
  explicit LoadedLevel(Level loaded) : level(std::move(loaded)), world(level) {}

  Level level;
  CollisionWorld world;
};

/// Loads the OBJ (and its sidecar) and builds its collision world. Never throws.
Result<std::shared_ptr<const LoadedLevel>> loadLevelFile(const std::string& path);

}  // namespace nav::app
