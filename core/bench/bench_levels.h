#pragma once
// The levels the benchmark programs run on: a level file, or a generated
// terrain, turned about the vertical axis when asked.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
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

/// A generated terrain to run on: its seed, turned this many degrees.
struct TerrainCase {
  uint32_t seed;
  float degrees = 0.0f;
};

/// Degrees as a label writes them: 17, 22.5.
inline std::string formatDegrees(float degrees) {
  std::ostringstream text;
  text << degrees;
  return text.str();
}

/// A --terrain value, SEED or SEED:DEGREES; empty when malformed.
inline std::optional<TerrainCase> parseTerrainCase(const char* text) {
  char* end = nullptr;
  const unsigned long seed = std::strtoul(text, &end, 10);
  if (end == text || seed == 0 || seed > 0xffffffffUL) return std::nullopt;
  TerrainCase terrain{uint32_t(seed)};
  if (*end == ':') {
    const char* degrees = end + 1;
    terrain.degrees = std::strtof(degrees, &end);
    if (end == degrees || !std::isfinite(terrain.degrees)) return std::nullopt;
  }
  if (*end != '\0') return std::nullopt;
  return terrain;
}

/// A level file to run on, turned this many degrees.
struct LevelCase {
  std::string path;
  float degrees = 0.0f;
};

/// A --level value, FILE or FILE:DEGREES (a FILE holding ':' needs the
/// degrees); empty when malformed.
inline std::optional<LevelCase> parseLevelCase(const std::string& text) {
  const size_t colon = text.rfind(':');
  if (colon != std::string::npos) {
    const std::string degrees = text.substr(colon + 1);
    char* end = nullptr;
    const float value = std::strtof(degrees.c_str(), &end);
    if (!degrees.empty() && end == degrees.c_str() + degrees.size() && std::isfinite(value))
      return colon == 0 ? std::nullopt : std::optional(LevelCase{text.substr(0, colon), value});
  }
  if (text.empty()) return std::nullopt;
  return LevelCase{text};
}

}  // namespace nav::bench
