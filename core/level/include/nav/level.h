#pragma once
// A level: triangle soup from a Wavefront OBJ, glTF or FBX file plus the
// optional sidecar JSON of the same stem (seed points, default start and goal,
// unit settings).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nav/geometry.h"
#include "nav/grid_frame.h"
#include "nav/level_settings.h"
#include "nav/result.h"
#include "nav/unit_profile.h"

namespace nav {

/// LevelTriangle::face of a triangle that no file face names (a level built in code).
constexpr uint32_t kNoFace = 0xffffffffu;

struct LevelTriangle {
  /// Indices into Level::vertices.
  uint32_t vertex[3];
  /// Index into Level::materials (0 is the unnamed default material).
  uint16_t material;
  /// The file face it was cut from, counted from 0 in file order (a
  /// navigation mesh's polygons are its faces); kNoFace: its own face.
  uint32_t face = kNoFace;
};

struct Level {
  /// Path the level was loaded from (used in messages).
  std::string source;
  std::vector<glm::vec3> vertices;
  std::vector<LevelTriangle> triangles;
  /// Material names from `usemtl` (a scene's material names); entry 0 is "" for
  /// faces before any usemtl (with no named material).
  std::vector<std::string> materials{""};
  /// How the file's own settings placed its points before anything else (an
  /// FBX file's declared axes and unit, importScene), "" when they did not.
  std::string declaredFrame;
  LevelSettings settings;
  Aabb bounds;
  /// Identity unless the level was put on a turned grid or moved near the
  /// origin (levelOnGrid): then its vertices and settings are in the grid's
  /// coordinates.
  GridFrame gridFrame;

  glm::vec3 corner(uint32_t triangle, int i) const {
    return vertices[triangles[triangle].vertex[i]];
  }
};

struct LoadLimits {
  /// Files larger than this are refused before reading. [bytes]
  uint64_t maxFileBytes = 1ull << 30;
  /// Levels with more triangles than this are refused.
  uint64_t maxTriangles = 20'000'000;
};

/// Parses OBJ text. `name` is used in error messages ("name:line: ...").
/// Handles n-gons (ear clipping), negative (relative) indices and usemtl.
Result<Level> parseObj(std::string_view text, std::string_view name, const LoadLimits& limits = {});

/// How a level's file is read, in place of its sidecar's (unset: the sidecar's).
struct LevelReading {
  std::optional<bool> flipFaces;
  std::optional<UpAxis> upAxis;
  std::optional<float> unitScale;
};

/// Loads `path` and, when present, the sidecar with the same stem and a .json
/// extension. The file's points, the sidecar's with them, are then put in
/// navscope's axes and metres (upAxis, unitScale) and its faces turned over
/// when flipFaces asks, as the sidecar or `reading` say; settings then hold
/// what was done. An .obj is read by parseObj; .gltf, .glb and .fbx (any case)
/// by importScene (scene_import.h). Fails, naming the setting, when a scaled
/// point lies past kMaxCoordinate.
Result<Level> loadLevel(const std::string& path, const LoadLimits& limits = {},
                        const LevelReading& reading = {});

/// A level's triangles by the way they face (degenerate ones in none).
struct FacingCounts {
  /// No steeper than the slope limit, turned up: ground.
  size_t up = 0;
  /// No steeper than the slope limit, turned down (the underside of a floor).
  size_t down = 0;
  /// Steeper: walls, and slopes too steep to stand on.
  size_t steep = 0;
  /// The area of the faces counted up and down together. [m2]
  double flatArea = 0.0;
};

/// The level's triangles counted by facing (and the flat ones' area), for slopes up to
/// maxSlopeDegrees from the `up` axis (a unit vector; navscope's is +Y); only those `counted` marks
/// when it is not empty (one entry per triangle).
FacingCounts countFacings(const Level& level, float maxSlopeDegrees,
                          const std::vector<bool>& counted = {},
                          const glm::dvec3& up = glm::dvec3(0.0, 1.0, 0.0));

/// When the level, read Y up, looks written Z up (it spans more along Y than
/// along Z, and its faces no steeper than maxSlopeDegrees cover more area
/// with Z up): a warning that says so and names the settings that read it Z
/// up. A hint only: a tall, narrow level with many walls facing Z can look
/// the same.
std::optional<std::string> writtenZUpWarning(const Level& level, float maxSlopeDegrees);

/// Turns every face over (reverses its winding) when `flipped` differs from
/// settings.flipFaces, and sets it: for a file whose faces are wound the
/// other way, so that its floors face down.
void setFacesFlipped(Level& level, bool flipped);

/// A turn about the vertical axis through a point. Positive angles turn +x
/// towards -z: counter-clockwise seen from above with x east and z south.
struct RotationY {
  /// On the axis; only x and z matter.
  glm::dvec3 centre{0.0};
  double cosine = 1.0, sine = 0.0;

  glm::vec3 apply(const glm::vec3& p) const;
  /// The ground corners of a zone turned: its corners, else its box's.
  ZoneCorners apply(const Aabb& box, const std::optional<ZoneCorners>& corners) const;
};

/// Turns of more degrees than this are refused: a float that large has lost
/// the fraction of a degree.
constexpr float kMaxRotationDegrees = 36000.0f;

/// The turn rotatedAboutY gives the level: about the vertical axis through the
/// centre of its bounds. Whole quarter turns are exact. Fails, naming
/// `degrees`, when it is not finite or beyond +-kMaxRotationDegrees, or when
/// the level has no bounds.
Result<RotationY> rotationAboutY(const Level& level, float degrees);

/// The level turned by rotationAboutY(level, degrees): its vertices (bounds
/// recomputed) and its sidecar's seeds, start, goal and waypath points (and
/// its gridAngle, folded into +-45). A
/// device's zones become the axis-aligned bounds of its turned zones, larger
/// than they were unless the turn is a whole number of quarter turns. Fails
/// for a level on a grid (turn the level first, then put it on a grid).
Result<Level> rotatedAboutY(const Level& level, float degrees);

/// The level on a grid turned `degrees` (GridFrame::degrees) about the vertical
/// axis through the centre of its bounds: the level turned by -degrees, then,
/// if it reaches beyond kFarFromOrigin, moved by offsetNearOrigin; its
/// gridFrame set. 0 gives the level as it is, unless it lies that far out.
/// Fails, naming `degrees`, when it is not finite or beyond +-kMaxGridDegrees,
/// or when the level is on a grid already or has no bounds.
Result<Level> levelOnGrid(const Level& level, float degrees);

/// True when levelOnGrid(level, degrees) is another level than `level`: the
/// grid is turned, or the level lies far enough out to be moved.
bool movesOnGrid(const Level& level, float degrees);

}  // namespace nav
