#pragma once
// What the debugger opens: a level (OBJ and sidecar) with its collision world,
// immutable once loaded and shared by the main thread and the build worker; or
// a finished graph read from a .nav file, which has no mesh, so clicks are
// picked against its sectors instead.
#include <memory>
#include <optional>
#include <string>

#include "frame_view.h"
#include "nav/collision.h"
#include "nav/level.h"
#include "nav/nav_build.h"
#include "nav/result.h"

namespace nav::app {

struct LoadedLevel {
  /// `fromFile`: the level as its file holds it when `onGrid` is on a grid
  /// other than the file's axes and origin; else empty.
  LoadedLevel(std::optional<Level> fromFile, Level onGrid, bool chosenGrid)
      : turnedFrom(onGrid.gridFrame.isFile() ? std::nullopt : std::move(fromFile)),
        level(std::move(onGrid)),
        gridChosen(chosenGrid),
        world(level) {}

  /// The level as its file holds it (to put on another grid).
  const Level& fileLevel() const { return turnedFrom ? *turnedFrom : level; }

  /// The file's level when the grid is not the file's.
  std::optional<Level> turnedFrom;
  /// The level on its grid (Level::gridFrame): what is built, drawn and picked.
  Level level;
  /// The grid is chosen for the level (auto) rather than set. Choosing takes
  /// trial builds, so levelOnItsGrid leaves it to the build worker: such a
  /// level starts on the file's axes and is put on its grid with its first build.
  bool gridChosen;
  CollisionWorld world;
};

/// A grid angle given for a level in place of its sidecar's gridAngle.
struct GridAngleOverride {
  /// GridFrame::degrees; empty: chosen for the level (auto).
  std::optional<float> degrees;
};

/// The level read from its file put on its grid (`grid`'s, else the
/// sidecar's gridAngle; a navigation mesh stays as it is), with its collision
/// world. A grid left to choose (auto) is the file's axes until the build
/// worker chooses it (LoadedLevel::gridChosen). Never throws.
Result<std::shared_ptr<const LoadedLevel>> levelOnItsGrid(
    Level file, const std::optional<GridAngleOverride>& grid = std::nullopt);

/// Loads the level file (and its sidecar), read as `reading` says where it
/// says (its faces turned over, up axis, unit scale; else as the sidecar's),
/// and puts it on its grid as levelOnItsGrid does. A Moving AI grid map
/// (.map) becomes its level as gridMapLevel makes it, on the map's axes.
/// Never throws.
Result<std::shared_ptr<const LoadedLevel>> loadLevelFile(
    const std::string& path, const std::optional<GridAngleOverride>& grid = std::nullopt,
    const LevelReading& reading = {});

/// Reads a .nav file into a build without cells: stats hold its sector, portal
/// and byte counts, and totalMs the time reading took. Never throws.
Result<std::shared_ptr<const NavBuild>> loadNavFile(const std::string& path);

/// The nearest ground sector hit by the ray within maxDistance: the ray against
/// the sector's height plane, inside its rectangle (the picking of a graph that
/// has no mesh). RayHit::triangle holds the sector's index.
std::optional<RayHit> raycastSectors(const NavGraph& graph, const Ray& ray, float maxDistance);

}  // namespace nav::app
