// Moving AI grid maps and scenarios (movingai.com/benchmarks/formats.html).
//
// The level is made of runs: each row's passable tiles become floor strips and
// its blocked tiles closed boxes, one per run, so a 512 x 512 map stays at
// tens of thousands of triangles. The unit is nearly a point and steps only
// N/E/S/W between cell centres, which all lie strictly inside tiles (1 / cell
// size is odd), so two boxes that touch at a corner leave no way through.
#include "nav/grid_map.h"

#include "format_number.h"
#include "guarded.h"
#include "nav/file_reading.h"
#include "quoted_text.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace nav {
namespace {

std::string located(std::string_view name, uint64_t line, const std::string& message) {
  return std::string(name) + ":" + std::to_string(line) + ": " + message;
}

// Splits at "\n", dropping a "\r" before it; the last line may lack a newline.
std::vector<std::string_view> splitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

std::vector<std::string_view> splitFields(std::string_view line) {
  std::vector<std::string_view> fields;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
      ++i;
    const size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t')
      ++i;
    if (i > start) fields.push_back(line.substr(start, i - start));
  }
  return fields;
}

bool isBlankLine(std::string_view line) {
  return splitFields(line).empty();
}

template <class T>
bool parseNumber(std::string_view text, T& value) {
  const char* end = text.data() + text.size();
  const auto [ptr, error] = std::from_chars(text.data(), end, value);
  return error == std::errc() && ptr == end;
}

// A character for a message: printable as itself, anything else as hex.
std::string describeChar(char c) {
  const unsigned char u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7f) return std::string("'") + c + "'";
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02x", unsigned(u));
  return hex;
}

Result<GridMap> parseGridMapUnchecked(std::string_view text, std::string_view name,
                                      const GridMapLimits& limits) {
  using R = Result<GridMap>;
  if (text.size() > limits.maxFileBytes) {
    return R::failure(std::string(name) + ": " + std::to_string(text.size()) +
                      " bytes, over the limit of " + std::to_string(limits.maxFileBytes) +
                      " bytes (GridMapLimits::maxFileBytes)");
  }
  const std::vector<std::string_view> lines = splitLines(text);
  GridMap map;
  map.source = std::string(name);
  bool typeSeen = false;
  size_t row = 0;  // index of the first row's line
  for (size_t i = 0; i < lines.size() && row == 0; ++i) {
    const uint64_t number = i + 1;
    const std::vector<std::string_view> fields = splitFields(lines[i]);
    if (fields.empty()) {
      return R::failure(located(name, number,
                                "blank line in the header (expected 'type', "
                                "'height', 'width' or 'map')"));
    }
    const std::string_view key = fields[0];
    if (key == "map") {
      if (fields.size() != 1) return R::failure(located(name, number, "'map' takes no value"));
      if (!typeSeen) return R::failure(located(name, number, "'map' before 'type octile'"));
      if (map.height == 0) return R::failure(located(name, number, "'map' before 'height H'"));
      if (map.width == 0) return R::failure(located(name, number, "'map' before 'width W'"));
      row = i + 1;
      break;
    }
    if (key == "type") {
      if (typeSeen) return R::failure(located(name, number, "'type' given twice"));
      if (fields.size() != 2 || fields[1] != "octile") {
        return R::failure(
            located(name, number, "expected 'type octile' (the only Moving AI map type)"));
      }
      typeSeen = true;
      continue;
    }
    if (key == "height" || key == "width") {
      int32_t& side = key == "height" ? map.height : map.width;
      if (side != 0) return R::failure(located(name, number, quotedText(key) + " given twice"));
      int64_t value = 0;
      if (fields.size() != 2 || !parseNumber(fields[1], value)) {
        return R::failure(
            located(name, number, "expected '" + std::string(key) + " N' with a whole number N"));
      }
      if (value < 1 || value > limits.maxSide) {
        return R::failure(located(name, number,
                                  std::string(key) + " " + std::to_string(value) +
                                      " is out of range (1 to " + std::to_string(limits.maxSide) +
                                      ", GridMapLimits::maxSide)"));
      }
      side = int32_t(value);
      continue;
    }
    return R::failure(located(name, number,
                              "unknown header line '" + std::string(key) +
                                  "' (expected 'type', 'height', 'width' or 'map')"));
  }
  if (row == 0) {
    return R::failure(located(name, lines.size() + 1, "missing 'map' line before the tiles"));
  }

  map.blocked.assign(size_t(map.width) * size_t(map.height), 0);
  for (int32_t y = 0; y < map.height; ++y) {
    const size_t index = row + size_t(y);
    const uint64_t number = index + 1;
    if (index >= lines.size()) {
      return R::failure(located(name, number,
                                "expected row " + std::to_string(y) + " of " +
                                    std::to_string(map.height) +
                                    " (height), found the end of the file"));
    }
    const std::string_view tiles = lines[index];
    if (tiles.size() != size_t(map.width)) {
      return R::failure(located(name, number,
                                "row " + std::to_string(y) + " has " +
                                    std::to_string(tiles.size()) + " tiles, expected " +
                                    std::to_string(map.width) + " (width)"));
    }
    for (int32_t x = 0; x < map.width; ++x) {
      uint8_t blocked = 0;
      switch (tiles[size_t(x)]) {
        case '.':
        case 'G':
        case 'S':
          break;
        case '@':
        case 'O':
        case 'T':
        case 'W':
          blocked = 1;
          break;
        default:
          return R::failure(located(name, number,
                                    "column " + std::to_string(x + 1) + ": " +
                                        describeChar(tiles[size_t(x)]) +
                                        " is not a tile (passable: . G S; blocked: @ O T W)"));
      }
      map.blocked[size_t(y) * size_t(map.width) + size_t(x)] = blocked;
    }
  }
  for (size_t i = row + size_t(map.height); i < lines.size(); ++i) {
    if (!isBlankLine(lines[i])) {
      return R::failure(
          located(name, i + 1, "more rows than the height (" + std::to_string(map.height) + ")"));
    }
  }
  return R::success(std::move(map));
}

Result<std::vector<GridScenario>> parseGridScenariosUnchecked(std::string_view text,
                                                              std::string_view name,
                                                              const GridMapLimits& limits) {
  using R = Result<std::vector<GridScenario>>;
  if (text.size() > limits.maxFileBytes) {
    return R::failure(std::string(name) + ": " + std::to_string(text.size()) +
                      " bytes, over the limit of " + std::to_string(limits.maxFileBytes) +
                      " bytes (GridMapLimits::maxFileBytes)");
  }
  const std::vector<std::string_view> lines = splitLines(text);
  std::vector<GridScenario> scenarios;
  bool versionSeen = false;
  for (size_t i = 0; i < lines.size(); ++i) {
    const uint64_t number = i + 1;
    const std::vector<std::string_view> fields = splitFields(lines[i]);
    if (fields.empty()) continue;
    if (!versionSeen) {
      double version = 0.0;
      if (fields.size() != 2 || fields[0] != "version" || !parseNumber(fields[1], version) ||
          version != 1.0) {
        return R::failure(located(name, number, "expected 'version 1' first (Moving AI .scen)"));
      }
      versionSeen = true;
      continue;
    }
    if (fields.size() != 9) {
      return R::failure(located(name, number,
                                "expected 9 fields (bucket, map, map width, map height, start x, "
                                "start y, goal x, goal y, optimal length), found " +
                                    std::to_string(fields.size())));
    }
    if (scenarios.size() >= limits.maxScenarios) {
      return R::failure(located(name, number,
                                "more than " + std::to_string(limits.maxScenarios) +
                                    " scenarios (GridMapLimits::maxScenarios)"));
    }
    GridScenario s;
    s.line = uint32_t(number);
    s.map = std::string(fields[1]);
    // Each whole-number field with its name and range.
    struct Whole {
      int32_t& value;
      const char* what;
      int64_t min, max;
      size_t field;
    };
    const int64_t maxSide = limits.maxSide;
    const Whole wholes[] = {
        {s.bucket, "bucket", 0, INT32_MAX, 0},      {s.mapWidth, "map width", 1, maxSide, 2},
        {s.mapHeight, "map height", 1, maxSide, 3}, {s.start.x, "start x", 0, maxSide - 1, 4},
        {s.start.y, "start y", 0, maxSide - 1, 5},  {s.goal.x, "goal x", 0, maxSide - 1, 6},
        {s.goal.y, "goal y", 0, maxSide - 1, 7}};
    for (const Whole& w : wholes) {
      int64_t value = 0;
      if (!parseNumber(fields[w.field], value)) {
        return R::failure(located(
            name, number,
            std::string(w.what) + " " + quotedText(fields[w.field]) + " is not a whole number"));
      }
      if (value < w.min || value > w.max) {
        return R::failure(located(name, number,
                                  std::string(w.what) + " " + std::to_string(value) +
                                      " is out of range (" + std::to_string(w.min) + " to " +
                                      std::to_string(w.max) + ")"));
      }
      w.value = int32_t(value);
    }
    const auto outside = [&](const char* what, glm::ivec2 p) {
      return located(name, number,
                     std::string(what) + " (" + std::to_string(p.x) + ", " + std::to_string(p.y) +
                         ") is outside the " + std::to_string(s.mapWidth) + " x " +
                         std::to_string(s.mapHeight) + " map");
    };
    if (s.start.x >= s.mapWidth || s.start.y >= s.mapHeight)
      return R::failure(outside("start", s.start));
    if (s.goal.x >= s.mapWidth || s.goal.y >= s.mapHeight)
      return R::failure(outside("goal", s.goal));
    if (!parseNumber(fields[8], s.optimalLength) || !std::isfinite(s.optimalLength) ||
        s.optimalLength < 0.0) {
      return R::failure(
          located(name, number,
                  "optimal length '" + std::string(fields[8]) + "' is not a finite number >= 0"));
    }
    scenarios.push_back(std::move(s));
  }
  if (!versionSeen) return R::failure(located(name, 1, "empty file (expected 'version 1')"));
  return R::success(std::move(scenarios));
}

// Appends a box's 8 corners and 12 outward-facing triangles.
void addBox(Level& level, glm::vec3 lo, glm::vec3 hi) {
  const uint32_t b = uint32_t(level.vertices.size());
  level.vertices.insert(level.vertices.end(), {{lo.x, lo.y, lo.z},
                                               {hi.x, lo.y, lo.z},
                                               {hi.x, lo.y, hi.z},
                                               {lo.x, lo.y, hi.z},
                                               {lo.x, hi.y, lo.z},
                                               {hi.x, hi.y, lo.z},
                                               {hi.x, hi.y, hi.z},
                                               {lo.x, hi.y, hi.z}});
  // Quads as (a, b, c, d): top, bottom, -z, +z, -x, +x.
  const uint32_t quads[6][4] = {{4, 7, 6, 5}, {0, 1, 2, 3}, {0, 4, 5, 1},
                                {3, 2, 6, 7}, {0, 3, 7, 4}, {1, 5, 6, 2}};
  for (const auto& q : quads) {
    level.triangles.push_back({{b + q[0], b + q[1], b + q[2]}, 0});
    level.triangles.push_back({{b + q[0], b + q[2], b + q[3]}, 0});
  }
}

// Appends an upward-facing rectangle at y = 0.
void addFloor(Level& level, float x0, float z0, float x1, float z1) {
  const uint32_t b = uint32_t(level.vertices.size());
  level.vertices.insert(level.vertices.end(),
                        {{x0, 0.0f, z0}, {x0, 0.0f, z1}, {x1, 0.0f, z1}, {x1, 0.0f, z0}});
  level.triangles.push_back({{b, b + 1, b + 2}, 0});
  level.triangles.push_back({{b, b + 2, b + 3}, 0});
}

// One seed per 4-connected region of passable tiles, at its first tile in row order.
std::vector<glm::vec3> regionSeeds(const GridMap& map) {
  // Above the floor and below the unit's height above it: the fill looks down from there.
  constexpr float kSeedHeight = 0.1f;
  std::vector<glm::vec3> seeds;
  std::vector<uint8_t> seen(map.blocked.size(), 0);
  std::vector<glm::ivec2> stack;
  for (int32_t y = 0; y < map.height; ++y) {
    for (int32_t x = 0; x < map.width; ++x) {
      const size_t i = size_t(y) * size_t(map.width) + size_t(x);
      if (map.blocked[i] || seen[i]) continue;
      seeds.push_back(gridTileCenter(x, y) + glm::vec3(0.0f, kSeedHeight, 0.0f));
      seen[i] = 1;
      stack.push_back({x, y});
      while (!stack.empty()) {
        const glm::ivec2 p = stack.back();
        stack.pop_back();
        const glm::ivec2 next[4] = {{p.x + 1, p.y}, {p.x - 1, p.y}, {p.x, p.y + 1}, {p.x, p.y - 1}};
        for (const glm::ivec2& n : next) {
          if (map.isBlocked(n.x, n.y)) continue;
          const size_t j = size_t(n.y) * size_t(map.width) + size_t(n.x);
          if (seen[j]) continue;
          seen[j] = 1;
          stack.push_back(n);
        }
      }
    }
  }
  return seeds;
}

Result<Level> gridMapLevelUnchecked(const GridMap& map, const GridLevelOptions& options) {
  using R = Result<Level>;
  const UnitProfile unit = gridUnit();
  const std::string name = map.source.empty() ? std::string("grid map") : map.source;
  if (map.width < 1 || map.height < 1 ||
      map.blocked.size() != size_t(map.width) * size_t(map.height)) {
    return R::failure(name + ": malformed grid (" + std::to_string(map.width) + " x " +
                      std::to_string(map.height) + " with " + std::to_string(map.blocked.size()) +
                      " tiles)");
  }
  // 1 / cellSize must be an odd whole number n: cell centres (i + 0.5) / n then
  // include every tile centre x + 0.5 (i = n x + (n - 1) / 2) and never a tile edge.
  const double perTile = 1.0 / double(options.cellSize);
  const double n = std::round(perTile);
  if (!std::isfinite(perTile) || !(options.cellSize > 0.0f) || n < 1.0 || n > 1023.0 ||
      std::abs(perTile - n) > 1e-3 * n || std::fmod(n, 2.0) != 1.0) {
    return R::failure(name + ": cellSize = " + formatFloat(options.cellSize) +
                      " does not put tile centres on cell centres (1 / cellSize must be an odd "
                      "whole number up to 1023: 1, 1/3, 1/5, ...)");
  }
  if (!std::isfinite(options.blockHeight) || !(options.blockHeight > unit.height)) {
    return R::failure(name + ": blockHeight = " + formatFloat(options.blockHeight) +
                      " must be above the unit's height (" + formatFloat(unit.height) + " m)");
  }

  // A box is 12 triangles, a floor strip 2.
  uint64_t triangles = 0;
  for (int32_t y = 0; y < map.height; ++y) {
    for (int32_t x = 0; x < map.width; ++x) {
      if (x == 0 || map.isBlocked(x, y) != map.isBlocked(x - 1, y))
        triangles += map.isBlocked(x, y) ? 12 : 2;
    }
  }
  if (triangles > options.maxTriangles) {
    return R::failure(name + ": its runs of blocked and passable tiles make " +
                      std::to_string(triangles) + " triangles, more than " +
                      std::to_string(options.maxTriangles) + " (GridLevelOptions::maxTriangles)");
  }

  Level level;
  level.source = map.source;
  for (int32_t y = 0; y < map.height; ++y) {
    int32_t x = 0;
    while (x < map.width) {
      const bool blocked = map.isBlocked(x, y);
      int32_t end = x + 1;
      while (end < map.width && map.isBlocked(end, y) == blocked)
        ++end;
      if (blocked) {
        addBox(level, {float(x), 0.0f, float(y)}, {float(end), options.blockHeight, float(y + 1)});
      } else {
        addFloor(level, float(x), float(y), float(end), float(y + 1));
      }
      x = end;
    }
  }
  for (const glm::vec3& v : level.vertices)
    level.bounds.grow(v);

  level.settings.seeds = regionSeeds(map);
  if (level.settings.seeds.empty()) return R::failure(name + ": the map has no passable tile");
  level.settings.cellSize = float(1.0 / n);
  level.settings.units = {unit};
  level.settings.freeTiles = true;
  return R::success(std::move(level));
}

}  // namespace

UnitProfile gridUnit() {
  UnitProfile unit;
  unit.name = "grid point";
  unit.kind = UnitKind::Human;
  unit.width = 0.02f;
  unit.height = 1.0f;
  unit.stepHeight = 0.0f;
  unit.maxDrop = 0.0f;
  unit.maxSlopeDegrees = 45.0f;
  return unit;
}

Result<GridMap> parseGridMap(std::string_view text, std::string_view name,
                             const GridMapLimits& limits) {
  return guarded<GridMap>(name, [&] { return parseGridMapUnchecked(text, name, limits); });
}

Result<GridMap> loadGridMap(const std::string& path, const GridMapLimits& limits) {
  return guarded<GridMap>(path, [&] {
    const Result<std::string> text =
        readRegularFile(path, limits.maxFileBytes, "GridMapLimits::maxFileBytes");
    return text ? parseGridMapUnchecked(text.value(), path, limits)
                : Result<GridMap>::failure(text.error());
  });
}

Result<Level> gridMapLevel(const GridMap& map, const GridLevelOptions& options) {
  return guarded<Level>(map.source, [&] { return gridMapLevelUnchecked(map, options); });
}

Result<std::vector<GridScenario>> parseGridScenarios(std::string_view text, std::string_view name,
                                                     const GridMapLimits& limits) {
  return guarded<std::vector<GridScenario>>(
      name, [&] { return parseGridScenariosUnchecked(text, name, limits); });
}

Result<std::vector<GridScenario>> loadGridScenarios(const std::string& path,
                                                    const GridMapLimits& limits) {
  using R = Result<std::vector<GridScenario>>;
  return guarded<std::vector<GridScenario>>(path, [&] {
    const Result<std::string> text =
        readRegularFile(path, limits.maxFileBytes, "GridMapLimits::maxFileBytes");
    return text ? parseGridScenariosUnchecked(text.value(), path, limits)
                : R::failure(text.error());
  });
}

std::string checkGridScenario(const GridMap& map, const GridScenario& scenario,
                              std::string_view scenName) {
  const std::string mapName = map.source.empty() ? std::string("the map") : map.source;
  if (scenario.mapWidth != map.width || scenario.mapHeight != map.height) {
    return located(scenName, scenario.line,
                   "made for a " + std::to_string(scenario.mapWidth) + " x " +
                       std::to_string(scenario.mapHeight) + " map, but " + mapName + " is " +
                       std::to_string(map.width) + " x " + std::to_string(map.height));
  }
  const auto where = [](glm::ivec2 p) {
    // Appended piece by piece: GCC 12 warns (-Wrestrict, falsely) on "(" + std::string.
    std::string text(1, '(');
    text += std::to_string(p.x);
    text += ", ";
    text += std::to_string(p.y);
    text += ')';
    return text;
  };
  if (map.isBlocked(scenario.start.x, scenario.start.y)) {
    return located(scenName, scenario.line,
                   "start " + where(scenario.start) + " is a blocked tile of " + mapName);
  }
  if (map.isBlocked(scenario.goal.x, scenario.goal.y)) {
    return located(scenName, scenario.line,
                   "goal " + where(scenario.goal) + " is a blocked tile of " + mapName);
  }
  return "";
}

}  // namespace nav
