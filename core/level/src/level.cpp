#include "nav/level.h"

#include "format_number.h"
#include "guarded.h"
#include "nav/file_reading.h"
#include "nav/scene_import.h"
#include "polygon_triangulation.h"
#include "portable_trig.h"
#include "quoted_text.h"

#include <tiny_obj_loader.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <istream>
#include <map>
#include <memory>
#include <new>
#include <numbers>
#include <span>
#include <sstream>
#include <streambuf>
#include <utility>

namespace nav {
namespace {

// The box of the vertices the triangles use (a file may hold others).
Aabb triangleBounds(const Level& level) {
  Aabb bounds;
  for (const LevelTriangle& triangle : level.triangles) {
    for (uint32_t corner : triangle.vertex)
      bounds.grow(level.vertices[corner]);
  }
  return bounds;
}

// ---------------------------------------------------------------------------
// OBJ
//
// tinyobjloader parses; its callback API reports statements in order but
// without line numbers. A pre-pass over the text validates what tinyobjloader
// would silently accept (malformed numbers, NaN, short faces, stray tokens)
// and counts statements, so an error found later in a callback (the k-th face
// has a bad index) is mapped back to its line by scanning again.
// ---------------------------------------------------------------------------

/// Ear clipping is worst-case cubic in the polygon's size; bigger n-gons are refused.
constexpr size_t kMaxFaceVertices = 4096;
/// usemtl names get uint16_t indices and index 0 is the unnamed material.
constexpr size_t kMaxMaterials = 65535;

enum class Statement { Vertex, Face, UseMaterial, Other };

std::string located(std::string_view name, uint64_t line, std::string_view message) {
  return std::string(name) + ":" + std::to_string(line) + ": " + std::string(message);
}

bool isBlank(char c) {
  return c == ' ' || c == '\t';
}

/// Calls visit(line number, line text) for each line until it returns false, splitting as
/// tinyobjloader does (at "\n", "\r\n" or a lone "\r") so statements line up.
template <class Visit>
void forEachLine(std::string_view text, Visit&& visit) {
  uint64_t lineNumber = 1;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = start;
    while (end < text.size() && text[end] != '\n' && text[end] != '\r')
      ++end;
    if (!visit(lineNumber, text.substr(start, end - start))) return;
    if (end < text.size() && text[end] == '\r' && end + 1 < text.size() && text[end + 1] == '\n') {
      ++end;
    }
    start = end + 1;
    ++lineNumber;
  }
}

/// Same recognition rules as tinyobjloader: keyword followed by a space or tab.
Statement classify(std::string_view line, std::string_view& rest) {
  const size_t first = std::min(line.find_first_not_of(" \t"), line.size());
  const std::string_view token = line.substr(first);
  const auto keyword = [&](std::string_view word) {
    if (token.size() <= word.size() || !token.starts_with(word) || !isBlank(token[word.size()])) {
      return false;
    }
    rest = token.substr(word.size() + 1);
    return true;
  };
  if (keyword("v")) return Statement::Vertex;
  if (keyword("f")) return Statement::Face;
  if (keyword("usemtl")) return Statement::UseMaterial;
  return Statement::Other;
}

/// Splits at spaces and tabs.
template <class Visit>
void forEachToken(std::string_view text, Visit&& visit) {
  size_t start = 0;
  while (true) {
    start = text.find_first_not_of(" \t", start);
    if (start == std::string_view::npos) return;
    const size_t end = std::min(text.find_first_of(" \t", start), text.size());
    visit(text.substr(start, end - start));
    start = end;
  }
}

/// Parses a whole token as a float. tinyobjloader accepts a leading '+', from_chars does not.
std::optional<float> parseCoordinate(std::string_view token) {
  if (token.size() > 1 && token[0] == '+' && token[1] != '+' && token[1] != '-') {
    token.remove_prefix(1);
  }
  double value = 0.0;
  const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (error != std::errc() || end != token.data() + token.size()) return std::nullopt;
  return float(value);
}

/// Parses a whole token as an int (index); empty and out-of-int-range tokens fail.
std::optional<int> parseIndex(std::string_view token) {
  if (token.size() > 1 && token[0] == '+' && token[1] != '+' && token[1] != '-') {
    token.remove_prefix(1);
  }
  int value = 0;
  const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (error != std::errc() || end != token.data() + token.size()) return std::nullopt;
  return value;
}

/// "v/vt/vn", "v//vn", "v/vt" or "v", each part an integer.
bool validFaceToken(std::string_view token) {
  size_t parts = 0;
  size_t start = 0;
  while (true) {
    const size_t slash = std::min(token.find('/', start), token.size());
    const std::string_view part = token.substr(start, slash - start);
    ++parts;
    // Only the vertex index is required; texture and normal indices may be empty.
    if ((parts == 1 || !part.empty()) && !parseIndex(part)) return false;
    if (slash == token.size()) return parts <= 3;
    start = slash + 1;
  }
}

struct StatementCounts {
  uint64_t vertices = 0;
  uint64_t faces = 0;
  uint64_t materials = 0;
  /// Sum over faces of (corners - 2): the most triangles the faces can give.
  uint64_t triangleBound = 0;
};

std::optional<std::string> checkVertex(std::string_view rest) {
  int coordinates = 0;
  std::optional<std::string> problem;
  forEachToken(rest, [&](std::string_view token) {
    // Tokens after x y z (w, or vertex colours) are tinyobjloader's business.
    if (problem || coordinates == 3) return;
    const std::optional<float> value = parseCoordinate(token);
    if (!value) {
      problem = "malformed vertex coordinate " + quotedText(token);
    } else if (!std::isfinite(*value)) {
      problem = "vertex coordinate " + quotedText(token) + " is not a finite 32-bit number";
    } else if (!(std::abs(*value) <= kMaxCoordinate)) {
      problem = "vertex coordinate " + quotedText(token) +
                " lies more than 1e8 m from the origin (the most a level may span)";
    }
    ++coordinates;
  });
  if (!problem && coordinates < 3) {
    problem = "vertex has " + std::to_string(coordinates) + " coordinates; expected x y z";
  }
  return problem;
}

std::optional<std::string> checkFace(std::string_view rest, uint64_t& corners) {
  corners = 0;
  std::optional<std::string> problem;
  forEachToken(rest, [&](std::string_view token) {
    if (!problem && !validFaceToken(token)) {
      problem = "malformed face vertex " + quotedText(token);
    }
    ++corners;
  });
  if (problem) return problem;
  if (corners < 3) {
    return "face has " + std::to_string(corners) + " vertices; at least 3 are needed";
  }
  if (corners > kMaxFaceVertices) {
    return "face has " + std::to_string(corners) + " vertices; at most " +
           std::to_string(kMaxFaceVertices) + " are supported";
  }
  return std::nullopt;
}

/// OBJ text whose continued lines (a backslash at a line's end) are joined,
/// with the file's line of each joined line, so that messages name the
/// file's lines. No text when no line continues: the file's is read as it is.
struct JoinedLines {
  std::string text;
  /// fileLine[k]: the file's line number of joined line k + 1.
  std::vector<uint64_t> fileLine;
  uint64_t operator()(uint64_t line) const {
    return line - 1 < fileLine.size() ? fileLine[line - 1] : line;
  }
};

JoinedLines joinContinuedLines(std::string_view text) {
  JoinedLines joined;
  const auto lineEnd = [&](size_t at) {
    if (at >= text.size() || (text[at] != '\r' && text[at] != '\n')) return size_t(0);
    return text[at] == '\r' && at + 1 < text.size() && text[at + 1] == '\n' ? size_t(2) : size_t(1);
  };
  if (text.find("\\\n") == std::string_view::npos && text.find("\\\r") == std::string_view::npos)
    return joined;
  joined.text.reserve(text.size());
  uint64_t fileLine = 1;
  joined.fileLine.push_back(fileLine);
  // The joined line's first character other than a blank ('\0' while there
  // is none): kept as the line grows, so that a line joined from thousands
  // is never scanned again. A comment ends at its line, backslash or not (a
  // Windows path, say).
  char lineFirst = '\0';
  for (size_t i = 0; i < text.size();) {
    if (text[i] == '\\' && lineEnd(i + 1) > 0 && lineFirst != '#') {
      joined.text += ' ';
      i += 1 + lineEnd(i + 1);
      ++fileLine;
    } else if (const size_t end = lineEnd(i); end > 0) {
      joined.text.append(text.substr(i, end));
      i += end;
      lineFirst = '\0';
      joined.fileLine.push_back(++fileLine);
    } else {
      if (lineFirst == '\0' && text[i] != ' ' && text[i] != '\t') lineFirst = text[i];
      joined.text += text[i++];
    }
  }
  return joined;
}

Result<StatementCounts> scanStatements(std::string_view text, std::string_view name,
                                       const JoinedLines& lines) {
  StatementCounts counts;
  std::string error;
  forEachLine(text, [&](uint64_t line, std::string_view content) {
    std::optional<std::string> problem;
    std::string_view rest;
    if (content.find('\0') != std::string_view::npos) {
      problem = "NUL byte: this is not a text OBJ file";
    } else {
      switch (classify(content, rest)) {
        case Statement::Vertex:
          problem = checkVertex(rest);
          ++counts.vertices;
          break;
        case Statement::Face: {
          uint64_t corners = 0;
          problem = checkFace(rest, corners);
          ++counts.faces;
          counts.triangleBound += corners - 2;
          break;
        }
        case Statement::UseMaterial:
          ++counts.materials;
          break;
        case Statement::Other:
          break;
      }
    }
    if (problem) error = located(name, lines(line), *problem);
    return !problem;
  });
  if (!error.empty()) return Result<StatementCounts>::failure(std::move(error));
  // Indices are 32-bit in the file (and in LevelTriangle).
  if (counts.vertices > uint64_t(std::numeric_limits<int32_t>::max())) {
    return Result<StatementCounts>::failure(std::string(name) + ": more than " +
                                            std::to_string(std::numeric_limits<int32_t>::max()) +
                                            " vertices");
  }
  return Result<StatementCounts>::success(counts);
}

/// The file's line of the ordinal-th (0-based) statement of a kind.
uint64_t lineOf(std::string_view text, const JoinedLines& lines, Statement kind, uint64_t ordinal) {
  uint64_t found = 0;
  uint64_t result = 0;
  forEachLine(text, [&](uint64_t line, std::string_view content) {
    std::string_view rest;
    if (classify(content, rest) != kind) return true;
    if (found++ < ordinal) return true;
    result = lines(line);
    return false;
  });
  return result;
}

/// Receives tinyobjloader's callbacks. The first error stops all further work;
/// tinyobjloader has no way to abort, so later callbacks return immediately.
struct ObjBuilder {
  explicit ObjBuilder(const LoadLimits& loadLimits) : limits(loadLimits) {}

  const LoadLimits& limits;
  Level level;
  std::map<std::string, uint16_t, std::less<>> materialIndex;
  uint16_t material = 0;
  uint64_t faces = 0;
  uint64_t materialStatements = 0;

  std::string error;
  Statement errorKind = Statement::Other;
  uint64_t errorOrdinal = 0;

  std::vector<uint32_t> polygon;
  std::vector<std::array<uint32_t, 3>> pieces;

  void fail(Statement kind, uint64_t ordinal, std::string message) {
    error = std::move(message);
    errorKind = kind;
    errorOrdinal = ordinal;
  }

  void addVertex(float x, float y, float z) {
    if (!error.empty()) return;
    level.vertices.emplace_back(x, y, z);
    // The pre-pass rejects non-finite input; tinyobjloader's own arithmetic must agree.
    if (!isFinite(level.vertices.back())) {
      fail(Statement::Vertex, level.vertices.size() - 1, "vertex is not finite");
    }
  }

  void addFace(std::span<const tinyobj::index_t> corners) {
    const uint64_t ordinal = faces++;
    if (!error.empty()) return;
    const int64_t count = int64_t(level.vertices.size());
    polygon.clear();
    for (const tinyobj::index_t& corner : corners) {
      const int64_t raw = corner.vertex_index;
      // Positive indices count from 1; negative ones back from the last vertex so far.
      const int64_t index = raw > 0 ? raw - 1 : count + raw;
      if (raw == 0) {
        return fail(Statement::Face, ordinal, "vertex index 0 is invalid (OBJ indices start at 1)");
      }
      if (index < 0 || index >= count) {
        return fail(Statement::Face, ordinal,
                    "vertex index " + std::to_string(raw) + " is out of range: " +
                        std::to_string(count) + " vertices are defined before this face");
      }
      polygon.push_back(uint32_t(index));
    }
    pieces.clear();
    triangulate(level.vertices, polygon, pieces);
    for (const auto& piece : pieces) {
      if (zeroArea(level.vertices[piece[0]], level.vertices[piece[1]], level.vertices[piece[2]])) {
        continue;
      }
      if (level.triangles.size() >= limits.maxTriangles) {
        return fail(Statement::Face, ordinal,
                    "more than " + std::to_string(limits.maxTriangles) +
                        " triangles (LoadLimits::maxTriangles)");
      }
      level.triangles.push_back({{piece[0], piece[1], piece[2]}, material, uint32_t(ordinal)});
    }
  }

  void useMaterial(std::string_view name) {
    const uint64_t ordinal = materialStatements++;
    if (!error.empty()) return;
    // tinyobjloader passes the rest of the line, surrounding blanks included.
    const size_t first = name.find_first_not_of(" \t");
    name = first == std::string_view::npos
               ? std::string_view()
               : name.substr(first, name.find_last_not_of(" \t") - first + 1);
    if (name.empty()) {
      material = 0;
      return;
    }
    const auto found = materialIndex.find(name);
    if (found != materialIndex.end()) {
      material = found->second;
      return;
    }
    if (materialIndex.size() >= kMaxMaterials) {
      return fail(Statement::UseMaterial, ordinal,
                  "more than " + std::to_string(kMaxMaterials) + " materials");
    }
    material = uint16_t(level.materials.size());
    level.materials.emplace_back(name);
    materialIndex.emplace(std::string(name), material);
  }
};

/// Lets tinyobjloader read the text in place instead of from a copy.
class MemoryBuffer : public std::streambuf {
 public:
  explicit MemoryBuffer(std::string_view text) {
    char* begin = const_cast<char*>(text.data());  // never written: the get area is read-only
    setg(begin, begin, begin + text.size());
  }
};

Result<Level> parseObjUnchecked(std::string_view text, std::string_view name,
                                const LoadLimits& limits) {
  if (text.size() > limits.maxFileBytes) {
    return Result<Level>::failure(std::string(name) + ": text is " + std::to_string(text.size()) +
                                  " bytes, over the limit of " +
                                  std::to_string(limits.maxFileBytes) +
                                  " bytes (LoadLimits::maxFileBytes)");
  }
  // Editors on Windows may start a UTF-8 file with a byte-order mark, which
  // would hide the first statement.
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  // Some exporters continue long statements on the next line.
  const JoinedLines lines = joinContinuedLines(text);
  if (!lines.text.empty()) text = lines.text;
  const Result<StatementCounts> counts = scanStatements(text, name, lines);
  if (!counts) return Result<Level>::failure(counts.error());

  ObjBuilder builder(limits);
  builder.level.source = std::string(name);
  builder.level.vertices.reserve(counts.value().vertices);
  builder.level.triangles.reserve(std::min(counts.value().triangleBound, limits.maxTriangles));

  tinyobj::callback_t callbacks;
  callbacks.vertex_cb = [](void* user, tinyobj::real_t x, tinyobj::real_t y, tinyobj::real_t z,
                           tinyobj::real_t) {
    static_cast<ObjBuilder*>(user)->addVertex(float(x), float(y), float(z));
  };
  callbacks.index_cb = [](void* user, tinyobj::index_t* indices, int count) {
    static_cast<ObjBuilder*>(user)->addFace({indices, size_t(count)});
  };
  callbacks.usemtl_cb = [](void* user, const char* material, int) {
    static_cast<ObjBuilder*>(user)->useMaterial(material);
  };
  MemoryBuffer buffer(text);
  std::istream stream(&buffer);
  std::string warning, error;
  if (!tinyobj::LoadObjWithCallback(stream, callbacks, &builder, nullptr, &warning, &error)) {
    return Result<Level>::failure(std::string(name) + ": " + error);
  }
  if (!builder.error.empty()) {
    return Result<Level>::failure(
        located(name, lineOf(text, lines, builder.errorKind, builder.errorOrdinal), builder.error));
  }
  // Every statement the pre-pass counted must have reached a callback, or the
  // line numbers above would be wrong.
  if (builder.level.vertices.size() != counts.value().vertices ||
      builder.faces != counts.value().faces ||
      builder.materialStatements != counts.value().materials) {
    return Result<Level>::failure(std::string(name) +
                                  ": internal error: statement counts disagree with tinyobjloader");
  }

  Level& level = builder.level;
  if (level.triangles.empty()) {
    return Result<Level>::failure(
        std::string(name) + ": the level has no triangles" +
        (counts.value().faces == 0 ? " (no 'f' statements)" : " (every face has zero area)"));
  }
  level.bounds = triangleBounds(level);
  return Result<Level>::success(std::move(level));
}

// ---------------------------------------------------------------------------
// Files
// ---------------------------------------------------------------------------

// The point of a file read with these axes and scale, in navscope's.
glm::vec3 inNavscopeAxes(const glm::vec3& p, UpAxis up, float scale) {
  const glm::vec3 turned = up == UpAxis::Z ? glm::vec3(p.x, p.z, -p.y) : p;
  return turned * scale;
}

// The level and its sidecar's points put in navscope's axes and metres (its
// settings' upAxis and unitScale).
Result<Level> putInNavscopeAxes(Level level) {
  LevelSettings& settings = level.settings;
  const UpAxis up = settings.upAxis;
  const float scale = settings.unitScale;
  if (up == UpAxis::Y && scale == 1.0f) return Result<Level>::success(std::move(level));
  const auto map = [&](const glm::vec3& p) { return inNavscopeAxes(p, up, scale); };
  for (glm::vec3& v : level.vertices) {
    v = map(v);
    if (!inWorld(v)) {
      std::ostringstream message;
      message << level.source << ": unitScale (the sidecar's, or --unit-scale) " << scale
              << " puts a vertex past " << kMaxCoordinate
              << " m from the origin (the most a level may span)";
      return Result<Level>::failure(message.str());
    }
  }
  level.bounds = triangleBounds(level);
  for (glm::vec3& seed : settings.seeds)
    seed = map(seed);
  if (settings.start) settings.start = map(*settings.start);
  if (settings.goal) settings.goal = map(*settings.goal);
  for (DeviceSpec& device : settings.devices) {
    for (Aabb* zone : {&device.entry, &device.exit}) {
      Aabb mapped;
      mapped.grow(map(zone->min));
      mapped.grow(map(zone->max));
      *zone = mapped;
    }
  }
  for (WaypathSpec& waypath : settings.waypaths) {
    for (glm::vec3& point : waypath.points)
      point = map(point);
  }
  return Result<Level>::success(std::move(level));
}

Result<Level> loadLevelUnchecked(const std::string& path, const LoadLimits& limits,
                                 const LevelReading& reading) {
  Result<Level> level = [&] {
    if (isSceneFile(path)) return importScene(path, limits);
    const Result<std::string> text =
        readRegularFile(path, limits.maxFileBytes, "LoadLimits::maxFileBytes");
    return text ? parseObj(text.value(), path, limits) : Result<Level>::failure(text.error());
  }();
  if (!level) return level;

  const std::filesystem::path sidecar = std::filesystem::path(path).replace_extension(".json");
  std::error_code error;
  if (sidecar != std::filesystem::path(path) &&
      std::filesystem::status(sidecar, error).type() != std::filesystem::file_type::not_found) {
    const Result<std::string> json =
        readRegularFile(sidecar.string(), limits.maxFileBytes, "LoadLimits::maxFileBytes");
    if (!json) return Result<Level>::failure(json.error());
    Result<LevelSettings> settings = parseLevelSettings(json.value(), sidecar.string());
    if (!settings) return Result<Level>::failure(settings.error());
    level.value().settings = std::move(settings).value();
  }
  LevelSettings& settings = level.value().settings;
  const bool flip = reading.flipFaces.value_or(settings.flipFaces);
  settings.flipFaces = false;
  settings.upAxis = reading.upAxis.value_or(settings.upAxis);
  settings.unitScale = reading.unitScale.value_or(settings.unitScale);
  Result<Level> inAxes = putInNavscopeAxes(std::move(level).value());
  if (inAxes) setFacesFlipped(inAxes.value(), flip);
  return inAxes;
}

}  // namespace

Result<Level> parseObj(std::string_view text, std::string_view name, const LoadLimits& limits) {
  return guarded<Level>(name, [&] { return parseObjUnchecked(text, name, limits); });
}

Result<Level> loadLevel(const std::string& path, const LoadLimits& limits,
                        const LevelReading& reading) {
  return guarded<Level>(path, [&] { return loadLevelUnchecked(path, limits, reading); });
}

FacingCounts countFacings(const Level& level, float maxSlopeDegrees,
                          const std::vector<bool>& counted, const glm::dvec3& up) {
  const double minUp = std::cos(double(maxSlopeDegrees) * std::numbers::pi / 180.0);
  FacingCounts counts;
  for (uint32_t t = 0; t < level.triangles.size(); ++t) {
    if (!counted.empty() && !counted[t]) continue;
    const glm::dvec3 a = level.corner(t, 0), b = level.corner(t, 1), c = level.corner(t, 2);
    const glm::dvec3 normal = glm::cross(b - a, c - a);
    const double length = glm::length(normal);
    if (!(length > 0.0)) continue;
    const double along = glm::dot(normal, up);
    const bool facesUp = along >= minUp * length, facesDown = -along >= minUp * length;
    ++(facesUp ? counts.up : facesDown ? counts.down : counts.steep);
    if (facesUp || facesDown) counts.flatArea += 0.5 * length;
  }
  return counts;
}

std::optional<std::string> writtenZUpWarning(const Level& level, float maxSlopeDegrees) {
  // Written Z up, a level lies on its side: its floors upright, its walls flat.
  const glm::vec3 extent = level.bounds.max - level.bounds.min;
  if (level.settings.upAxis == UpAxis::Z || !(extent.y > extent.z)) return std::nullopt;
  const double yUp = countFacings(level, maxSlopeDegrees).flatArea;
  const double zUp = countFacings(level, maxSlopeDegrees, {}, glm::dvec3(0.0, 0.0, 1.0)).flatArea;
  if (!(zUp > yUp)) return std::nullopt;
  char text[400];
  std::snprintf(text, sizeof text,
                "the level may have been written Z up: it spans %.1f m along Y (up) and %.1f m "
                "along Z, and %.0f m2 of its faces would be flat were Z up against %.0f m2 as "
                "read; if so, read it with the sidecar's \"upAxis\": \"z\" or --up-axis z",
                double(extent.y), double(extent.z), zUp, yUp);
  return text;
}

void setFacesFlipped(Level& level, bool flipped) {
  if (level.settings.flipFaces == flipped) return;
  for (LevelTriangle& triangle : level.triangles)
    std::swap(triangle.vertex[1], triangle.vertex[2]);
  level.settings.flipFaces = flipped;
}

glm::vec3 RotationY::apply(const glm::vec3& p) const {
  // In double, so a turn by 0 gives back the very floats it was given.
  const double x = double(p.x) - centre.x, z = double(p.z) - centre.z;
  return {float(centre.x + x * cosine + z * sine), p.y, float(centre.z - x * sine + z * cosine)};
}

ZoneCorners RotationY::apply(const Aabb& box, const std::optional<ZoneCorners>& corners) const {
  ZoneCorners turned = groundCorners(box, corners);
  for (glm::vec2& corner : turned)
    corner = groundOf(apply(glm::vec3(corner.x, 0.0f, corner.y)));
  return turned;
}

Result<RotationY> rotationAboutY(const Level& level, float degrees) {
  if (!(std::abs(degrees) <= kMaxRotationDegrees)) {
    std::ostringstream message;
    message << "degrees = " << degrees << ": expected a finite angle within +-"
            << kMaxRotationDegrees;
    return Result<RotationY>::failure(message.str());
  }
  if (level.bounds.empty()) {
    return Result<RotationY>::failure(level.source + ": no bounds to turn about (no triangles)");
  }
  const CosSin turn = cosSinOfDegrees(degrees);
  const glm::vec3 centre = level.bounds.center();
  return Result<RotationY>::success({glm::dvec3(centre), turn.cos, turn.sin});
}

namespace {

// Every point of the level and its settings moved by `delta`, as GridFrame's
// offset moves them (a float sum each).
void moveBy(Level& level, const glm::vec3& delta) {
  for (glm::vec3& v : level.vertices)
    v += delta;
  level.bounds.min += delta;
  level.bounds.max += delta;
  LevelSettings& settings = level.settings;
  for (glm::vec3& seed : settings.seeds)
    seed += delta;
  if (settings.start) *settings.start += delta;
  if (settings.goal) *settings.goal += delta;
  const glm::vec2 ground(delta.x, delta.z);
  for (DeviceSpec& device : settings.devices) {
    for (auto [zone, corners] : {std::pair(&device.entry, &device.entryCorners),
                                 std::pair(&device.exit, &device.exitCorners)}) {
      zone->min += delta;
      zone->max += delta;
      if (*corners) {
        for (glm::vec2& corner : **corners)
          corner += ground;
      }
    }
  }
  for (WaypathSpec& waypath : settings.waypaths) {
    for (glm::vec3& point : waypath.points)
      point += delta;
  }
}

}  // namespace

Result<Level> rotatedAboutY(const Level& level, float degrees) {
  // Its points would no longer be in the grid's frame.
  if (!level.gridFrame.isFile())
    return Result<Level>::failure(level.source + ": a level on a grid cannot be turned");
  const Result<RotationY> rotation = rotationAboutY(level, degrees);
  if (!rotation) return Result<Level>::failure(rotation.error());
  const RotationY& turn = rotation.value();
  return guarded<Level>(level.source, [&] {
    Level turned = level;
    for (glm::vec3& v : turned.vertices)
      v = turn.apply(v);
    turned.bounds = triangleBounds(turned);
    // A corner of a level near the limit can turn past it (by up to sqrt 2).
    for (const glm::vec3& corner : {turned.bounds.min, turned.bounds.max}) {
      if (!(std::abs(corner.x) <= kMaxCoordinate && std::abs(corner.z) <= kMaxCoordinate)) {
        return Result<Level>::failure(level.source + ": turned " + formatFloat(degrees) +
                                      " degrees, the level reaches " + formatPoint(corner) +
                                      ", more than 1e8 m from the origin (the most a level may "
                                      "span)");
      }
    }
    LevelSettings& settings = turned.settings;
    // Turned, walls no longer lie on the tiles' edges.
    settings.freeTiles = false;
    // The walls turn, and the grid the sidecar asks for turns with them.
    if (settings.gridAngle) {
      const double folded = std::remainder(double(*settings.gridAngle) + double(degrees), 90.0);
      settings.gridAngle = folded == -45.0 ? 45.0f : float(folded);
    }
    for (glm::vec3& seed : settings.seeds)
      seed = turn.apply(seed);
    if (settings.start) settings.start = turn.apply(*settings.start);
    if (settings.goal) settings.goal = turn.apply(*settings.goal);
    for (DeviceSpec& device : settings.devices) {
      for (auto [zone, corners] : {std::pair(&device.entry, &device.entryCorners),
                                   std::pair(&device.exit, &device.exitCorners)}) {
        *corners = turn.apply(*zone, *corners);
        // The box around the turned corners (y unchanged).
        Aabb around;
        for (const glm::vec2& corner : **corners) {
          around.grow(glm::vec3(corner.x, zone->min.y, corner.y));
          around.grow(glm::vec3(corner.x, zone->max.y, corner.y));
        }
        *zone = around;
      }
    }
    for (WaypathSpec& waypath : settings.waypaths) {
      for (glm::vec3& point : waypath.points)
        point = turn.apply(point);
    }
    return Result<Level>::success(std::move(turned));
  });
}

Result<Level> levelOnGrid(const Level& level, float degrees) {
  if (!(std::abs(degrees) <= kMaxGridDegrees)) {
    std::ostringstream message;
    message << "grid angle " << degrees << ": expected degrees from -" << kMaxGridDegrees << " to "
            << kMaxGridDegrees;
    return Result<Level>::failure(message.str());
  }
  if (!level.gridFrame.isFile())
    return Result<Level>::failure(level.source + ": the level is on a grid already");
  Result<Level> onGrid = Result<Level>::success(level);
  if (degrees != 0.0f) {
    onGrid = rotatedAboutY(level, -degrees);
    if (!onGrid) return onGrid;
    onGrid.value().gridFrame = {degrees, {level.bounds.center().x, level.bounds.center().z}};
  }
  Level& moved = onGrid.value();
  const glm::vec3 offset = offsetNearOrigin(moved.bounds.min, moved.bounds.max);
  if (offset == glm::vec3(0.0f)) return onGrid;
  moveBy(moved, -offset);
  moved.gridFrame.offset = offset;
  return onGrid;
}

bool movesOnGrid(const Level& level, float degrees) {
  return degrees != 0.0f || offsetNearOrigin(level.bounds.min, level.bounds.max) != glm::vec3(0.0f);
}

}  // namespace nav
