#pragma once
// What a level's sidecar JSON adds to its geometry: seeds, default start and
// goal, unit profiles, surfaces, teleport devices and innate waypaths.
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nav/geometry.h"
#include "nav/result.h"
#include "nav/unit_profile.h"

namespace nav {

/// How a surface is walked: its cost and who may walk it.
struct SurfaceSpec {
  std::string name;
  /// Multiplies the distance walked on it. [> 0]
  float cost = 1.0f;
  /// Bit (1 << UnitKind) set for each kind allowed on it.
  uint8_t allowedKinds = 0xff;

  bool allows(UnitKind kind) const { return (allowedKinds >> int(kind)) & 1u; }
  bool operator==(const SurfaceSpec&) const = default;
};

enum class DeviceKind : uint8_t { Door, Elevator, Ladder };
constexpr int kDeviceKindCount = 3;
const char* toString(DeviceKind kind);

/// A zone's four corners on the ground, when it is not a box along the axes.
using ZoneCorners = std::array<glm::vec2, 4>;

/// A teleport: a unit standing fully inside the entry zone comes out at the
/// centre of the exit zone (and back, when two-way).
struct DeviceSpec {
  std::string id;
  DeviceKind kind = DeviceKind::Door;
  Aabb entry;
  Aabb exit;
  /// Set when the level was turned after its zones were given (rotatedAboutY,
  /// levelOnGrid): each zone's box turned, whose bounds are `entry` and `exit`.
  /// Used while building only (not kept in .nav files).
  std::optional<ZoneCorners> entryCorners, exitCorners;
  bool twoWay = true;
  /// A locked device needs `key` to use.
  bool locked = false;
  std::string key;
  /// What the game does to use it ("open", "call", "climb"), for the game's code.
  std::string action;
  /// Waiting before use (an elevator's call). [seconds, >= 0]
  float waitTime = 0.0f;
  /// Time to go through. [seconds, >= 0]
  float travelTime = 0.0f;
};

/// A zone's ground corners: its turned corners when it has them, else its box's.
ZoneCorners groundCorners(const Aabb& zone, const std::optional<ZoneCorners>& corners);

/// Whether the ground square [min, max] lies inside the zone: inside its box
/// and, when it has them, inside its corners.
bool zoneHoldsSquare(const Aabb& zone, const std::optional<ZoneCorners>& corners, glm::vec2 min,
                     glm::vec2 max);

/// An innate path that biases the solver: a polyline, optionally one-way and
/// for one unit kind only (vehicles keeping to their side of a road).
struct WaypathSpec {
  std::string id;
  std::vector<glm::vec3> points;
  bool oneWay = false;
  std::optional<UnitKind> unitKind;
};

/// The axis a level's file points up: navscope's own is Y.
enum class UpAxis : uint8_t { Y, Z };
const char* toString(UpAxis axis);

struct LevelSettings {
  /// Points the flood fill starts from; empty means every walkable surface.
  std::vector<glm::vec3> seeds;
  std::optional<glm::vec3> start;
  std::optional<glm::vec3> goal;
  /// Cell size to build with. [metres, > 0]
  std::optional<float> cellSize;
  /// "gridAngle": the cell grid turned this many degrees (GridFrame::degrees,
  /// -45 .. 45). Absent or "auto": chosen for the level (grid_angle.h).
  std::optional<float> gridAngle;
  /// Unit profiles, one build each; the first is the default. Empty: the default human.
  std::vector<UnitProfile> units;
  /// OBJ material name -> surface name ("asphalt" -> "road"). A material named
  /// like a surface needs no entry; anything else is "default".
  std::map<std::string, std::string> materialSurfaces;
  /// Surfaces added to or overriding the built-in ones (defaultSurfaces()).
  std::vector<SurfaceSpec> surfaces;
  std::vector<DeviceSpec> devices;
  std::vector<WaypathSpec> waypaths;
  /// The level's faces are a navigation mesh (navmesh_graph.h): its graph is
  /// read from them, no flood fill runs.
  bool navmesh = false;
  /// "flipFaces": the file's faces are wound clockwise seen from their front
  /// (its floors face down): every face is turned over on loading (setFacesFlipped
  /// in level.h), as only faces turned up are ground.
  bool flipFaces = false;
  /// "upAxis": "z" for a file written Z up (right-handed: x, y on the ground,
  /// z up), turned a quarter turn about X as it is read, (x, y, z) -> (x, z,
  /// -y), which keeps its winding; "y" (the default) as navscope's own.
  UpAxis upAxis = UpAxis::Y;
  /// "unitScale": metres a unit of the file measures (0.01 for centimetres,
  /// 0.0254 for inches); the file's points are scaled by it as it is read. [> 0]
  float unitScale = 1.0f;
  /// Set for a grid map's level (grid_map.h), never read from a sidecar: at
  /// its cell size every cell's square lies in a free tile and every wall on
  /// a tile edge, so for its point-sized unit a sector's whole box is free
  /// and a walk portal spans the whole edge its two sectors share.
  bool freeTiles = false;
};

/// The built-in surfaces: default, sidewalk, road, grass, water, lava.
std::vector<SurfaceSpec> defaultSurfaces();

/// The surfaces of a level: the built-in ones with the sidecar's on top, in a
/// fixed order (built-ins first, then new ones by name).
std::vector<SurfaceSpec> surfaceTable(const LevelSettings& settings);

/// Surface index (into `table`) of each material name.
std::vector<uint16_t> materialSurfaceIndices(const LevelSettings& settings,
                                             const std::vector<std::string>& materials,
                                             const std::vector<SurfaceSpec>& table);

/// Parses sidecar JSON text; `name` is used in error messages.
Result<LevelSettings> parseLevelSettings(std::string_view json, std::string_view name);

}  // namespace nav
