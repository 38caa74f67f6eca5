#pragma once
// The levels the benchmark programs run on: a level file, or a generated
// terrain, turned about the vertical axis when asked.
#include <cstdint>
#include <sstream>
#include <string>

#include "nav/level.h"
#include "nav/terrain_generator.h"

namespace nav::bench {

/// The terrain generator's level of `terrainSeed` (named `label`), or the file
/// at `path` when the seed is 0; turned `degrees` about the vertical axis.
inline Result<Level> benchLevel(const std::string& label, const std::string& path,
                                uint32_t terrainSeed, float degrees) {
  Result<Level> level = Result<Level>::failure("");
  if (terrainSeed != 0) {
    TerrainParams params;
    params.seed = terrainSeed;
    std::ostringstream obj;
    const Result<TerrainInfo> info = generateTerrain(params, obj);
    if (!info) return Result<Level>::failure(info.error());
    level = parseObj(obj.str(), label);
  } else {
    level = loadLevel(path);
  }
  if (!level || degrees == 0.0f) return level;
  return rotatedAboutY(level.value(), degrees);
}

}  // namespace nav::bench
