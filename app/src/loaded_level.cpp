#include "loaded_level.h"

#include <chrono>
#include <cmath>
#include <exception>

#include "nav/grid_map.h"
#include "nav/nav_file.h"

namespace nav::app {

Result<std::shared_ptr<const LoadedLevel>> levelOnItsGrid(
    Level file, const std::optional<GridAngleOverride>& grid) {
  using LevelResult = Result<std::shared_ptr<const LoadedLevel>>;
  const std::string source = file.source;
  try {
    // A navigation mesh has no cells.
    std::optional<float> degrees = grid ? grid->degrees : file.settings.gridAngle;
    if (file.settings.navmesh && !degrees) degrees = 0.0f;
    const bool chosen = !degrees;
    // A grid left to choose starts on the file's axes (moved near the origin
    // if the level lies far out).
    const float start = degrees.value_or(0.0f);
    // On the file's axes and near the origin the level is its file's: no copy.
    if (!movesOnGrid(file, start))
      return LevelResult::success(
          std::make_shared<const LoadedLevel>(std::nullopt, std::move(file), chosen));
    Result<Level> onGrid = levelOnGrid(file, start);
    if (!onGrid) return LevelResult::failure(source + ": " + onGrid.error());
    return LevelResult::success(
        std::make_shared<const LoadedLevel>(std::move(file), std::move(onGrid).value(), chosen));
  } catch (const std::exception& error) {
    // Only resource exhaustion gets here.
    return LevelResult::failure(source + ": " + error.what());
  }
}

Result<std::shared_ptr<const LoadedLevel>> loadLevelFile(
    const std::string& path, const std::optional<GridAngleOverride>& grid,
    const LevelReading& reading) {
  using LevelResult = Result<std::shared_ptr<const LoadedLevel>>;
  try {
    if (isGridMapPath(path)) {
      // Built as the CLI's scen and query build it: its tiles' centres are
      // cell centres on the map's own axes, so its grid is never turned.
      Result<GridMap> map = loadGridMap(path);
      if (!map) return LevelResult::failure(map.error());
      Result<Level> level = gridMapLevel(map.value());
      if (!level) return LevelResult::failure(level.error());
      level.value().settings.gridAngle = 0.0f;
      return levelOnItsGrid(std::move(level).value(), GridAngleOverride{0.0f});
    }
    Result<Level> level = loadLevel(path, {}, reading);
    if (!level) return LevelResult::failure(level.error());
    if (level.value().triangles.empty()) return LevelResult::failure(path + ": no triangles");
    return levelOnItsGrid(std::move(level).value(), grid);
  } catch (const std::exception& error) {
    // Only resource exhaustion gets here (the loader reports bad input itself).
    return LevelResult::failure(path + ": " + error.what());
  }
}

Result<std::shared_ptr<const NavBuild>> loadNavFile(const std::string& path) {
  using BuildResult = Result<std::shared_ptr<const NavBuild>>;
  try {
    const auto start = std::chrono::steady_clock::now();
    Result<NavGraph> graph = readNavFile(path);
    if (!graph) return BuildResult::failure(graph.error());
    auto build = std::make_shared<NavBuild>();
    build->graph = std::move(graph).value();
    BuildStats& stats = build->stats;
    stats.sectors = build->graph.sectors.size();
    stats.portals = build->graph.portals.size();
    stats.graphBytes = build->graph.memoryBytes();
    stats.totalMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return BuildResult::success(std::move(build));
  } catch (const std::exception& error) {
    // The reader reports bad files itself; only resource exhaustion gets here.
    return BuildResult::failure(path + ": " + error.what());
  }
}

std::optional<RayHit> raycastSectors(const NavGraph& graph, const Ray& ray, float maxDistance) {
  std::optional<RayHit> nearest;
  for (size_t index = 0; index < graph.sectors.size(); ++index) {
    const Sector& sector = graph.sectors[index];
    if (sector.kind != SectorKind::Ground) continue;
    // y = a*x + b*z + c along origin + t*direction, solved for t.
    const glm::vec3& plane = sector.heightPlane;
    const glm::vec3& o = ray.origin;
    const glm::vec3& d = ray.direction;
    const float denominator = d.y - plane.x * d.x - plane.y * d.z;
    if (std::abs(denominator) < 1e-6f) continue;  // the ray runs along the plane
    const float t = (plane.x * o.x + plane.y * o.z + plane.z - o.y) / denominator;
    if (!(t >= 0.0f && t <= maxDistance)) continue;
    if (nearest && t >= nearest->distance) continue;
    const glm::vec3 point = o + t * d;
    if (!graph.contains(sector, point.x, point.z)) continue;
    glm::vec3 normal = glm::normalize(glm::vec3(-plane.x, 1.0f, -plane.y));
    if (glm::dot(normal, d) > 0.0f) normal = -normal;
    nearest = RayHit{t, glm::vec3(point.x, graph.heightAt(sector, point.x, point.z), point.z),
                     normal, uint32_t(index)};
  }
  return nearest;
}

}  // namespace nav::app
