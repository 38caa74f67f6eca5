// Portal widening against the collision world: on random queries, the string-
// pulled paths of box and round units turn at widened portal ends, and every
// stretch from such an end through the sector it enters is swept with the
// unit's own footprint (a stadium, or a hexagon for a square) and must touch nothing; widened ends
// stay inside both sectors, within half a cell of where they were; and through the same corridor no
// path gets longer.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>

#include "nav/collision.h"
#include "nav/funnel.h"
#include "nav/nav_build.h"
#include "nav/path_clearance.h"
#include "nav/path_pipeline.h"
#include "nav/path_solver.h"
#include "portal_widening.h"
#include "test_levels.h"
#include "test_queries.h"

namespace nav {
namespace {

// The level's own fill parameters for the unit, with the unit as given (the
// sidecar's first profile would otherwise replace it).
FloodFillParams paramsFor(const Level& level, const UnitProfile& unit) {
  FloodFillParams params = fillParamsFor(level, unit);
  params.unit = unit;
  return params;
}

UnitProfile unitOfShape(UnitShape shape) {
  UnitProfile unit;
  unit.shape = shape;
  return unit;
}

struct Builds {
  Level level;
  std::unique_ptr<CollisionWorld> world;
  NavBuild widened;
  NavBuild plain;
};

Builds buildBoth(const std::string& path, UnitShape shape, float width, float height, float step) {
  Builds builds;
  Result<Level> level = loadLevel(path);
  EXPECT_TRUE(level.ok()) << level.error();
  if (!level) return builds;
  builds.level = std::move(level).value();
  builds.world = std::make_unique<CollisionWorld>(builds.level);
  UnitProfile unit = unitOfShape(shape);
  unit.width = width;
  unit.height = height;
  unit.stepHeight = step;
  FloodFillParams params = paramsFor(builds.level, unit);
  params.cellSize = 0.3f;
  BuildOptions options;
  options.keepCells = true;
  Result<NavBuild> widened = buildNavigation(builds.level, *builds.world, params, options);
  options.widenPortals = false;
  Result<NavBuild> plain = buildNavigation(builds.level, *builds.world, params, options);
  EXPECT_TRUE(widened.ok() && plain.ok());
  if (widened && plain) {
    builds.widened = std::move(widened).value();
    builds.plain = std::move(plain).value();
  }
  return builds;
}

bool insideGround(const Aabb& box, const glm::vec3& p) {
  constexpr float kSlack = 1e-4f;
  return p.x >= box.min.x - kSlack && p.x <= box.max.x + kSlack && p.z >= box.min.z - kSlack &&
         p.z <= box.max.z + kSlack;
}

// A widened end E of portal `portal`: the first stretch of the path from E to
// `other` (its part inside the sector it enters), swept by the unit above its
// step height (where a body meets walls, not the floor it walks on). The rest
// of the segment lies beyond what widening looked at.
bool stretchIsBlocked(const CollisionWorld& world, const NavGraph& graph, const Portal& portal,
                      const glm::vec3& end, const glm::vec3& other) {
  // Well under the cells' own millimetre, so that a real overlap is never excused.
  constexpr float kRimTolerance = 0.005f;
  constexpr float kLevel = 0.01f;
  const glm::vec2 from = groundOf(end), along = groundOf(other) - from;
  if (glm::length(along) < 1e-4f || std::abs(end.y - other.y) > kLevel) return false;
  const glm::vec2 inward = from + along * (1e-3f / glm::length(along));
  for (const uint32_t s : {portal.fromSector, portal.toSector}) {
    const Aabb& box = graph.sectors[s].bounds;
    if (!insideGround(box, glm::vec3(inward.x, 0.0f, inward.y))) continue;
    // Where the segment leaves the box (slab clipping on x and z).
    float leave = 1.0f;
    for (int axis = 0; axis < 2; ++axis) {
      const float low = axis == 0 ? box.min.x : box.min.z, high = axis == 0 ? box.max.x : box.max.z;
      if (along[axis] > 0.0f) leave = std::min(leave, (high - from[axis]) / along[axis]);
      if (along[axis] < 0.0f) leave = std::min(leave, (low - from[axis]) / along[axis]);
    }
    const UnitProfile& unit = graph.unit;
    const glm::vec2 to = from + along * std::max(leave, 0.0f);
    const float half = unit.footprint() * 0.5f - kRimTolerance;
    const float low = end.y + unit.stepHeight + kLevel, high = end.y + unit.height - kLevel;
    if (unit.shape == UnitShape::Round) return world.overlapsStadium({from, to, half, low, high});
    return world.overlapsPrism(Prism::sweptSquare(from, to, half, low, high));
  }
  return false;
}

float groundLength(const std::vector<glm::vec3>& corners) {
  float length = 0.0f;
  for (size_t i = 0; i + 1 < corners.size(); ++i)
    length += glm::distance(groundOf(corners[i]), groundOf(corners[i + 1]));
  return length;
}

struct WidenedEnd {
  glm::vec3 point;
  uint32_t portal;
};

// The stretches of the path that leave from or arrive at a widened end and are blocked.
int blockedStretches(const CollisionWorld& world, const NavGraph& graph,
                     const std::vector<WidenedEnd>& ends, const std::vector<glm::vec3>& corners,
                     std::string& first) {
  int blocked = 0;
  for (size_t i = 0; i + 1 < corners.size(); ++i) {
    for (const auto& [end, other] :
         {std::pair{corners[i], corners[i + 1]}, std::pair{corners[i + 1], corners[i]}}) {
      for (const WidenedEnd& widened : ends) {
        if (glm::distance(widened.point, end) > 1e-4f) continue;
        if (!stretchIsBlocked(world, graph, graph.portals[widened.portal], end, other)) continue;
        if (blocked++ == 0) {
          std::ostringstream text;
          text << '(' << end.x << ", " << end.z << ") towards (" << other.x << ", " << other.z
               << ')';
          first = text.str();
        }
      }
    }
  }
  return blocked;
}

void checkLevel(const std::string& path, UnitShape shape, float width, float height, float step,
                size_t pairs) {
  SCOPED_TRACE(toString(shape));
  const Builds builds = buildBoth(path, shape, width, height, step);
  const NavGraph& widened = builds.widened.graph;
  const NavGraph& plain = builds.plain.graph;
  ASSERT_FALSE(widened.sectors.empty());
  ASSERT_EQ(widened.portals.size(), plain.portals.size());
  EXPECT_GT(builds.widened.stats.widenedPortalEnds, 0u);
  EXPECT_EQ(builds.plain.stats.widenedPortalEnds, 0u);

  // Where the ends went.
  size_t moved = 0;
  std::vector<WidenedEnd> widenedEnds, plainEnds;
  for (size_t p = 0; p < widened.portals.size(); ++p) {
    const Portal& after = widened.portals[p];
    const Portal& before = plain.portals[p];
    if (after.kind != PortalKind::Walk) {
      EXPECT_TRUE(after.left == before.left && after.right == before.right) << "portal " << p;
      continue;
    }
    for (const auto& [now, was] :
         {std::pair{after.left, before.left}, {after.right, before.right}}) {
      if (now != was) {
        ++moved;
        widenedEnds.push_back({now, uint32_t(p)});
        plainEnds.push_back({was, uint32_t(p)});
      }
      EXPECT_LE(glm::distance(now, was), widened.cellSize * 0.5f + 1e-4f) << "portal " << p;
      EXPECT_EQ(now.y, was.y) << "portal " << p;
      EXPECT_TRUE(insideGround(widened.sectors[after.fromSector].bounds, now)) << "portal " << p;
      EXPECT_TRUE(insideGround(widened.sectors[after.toSector].bounds, now)) << "portal " << p;
    }
  }
  // Each end counted once, though both of a pair's portals move it.
  EXPECT_EQ(moved, 2 * builds.widened.stats.widenedPortalEnds);

  double widenedTotal = 0.0, plainTotal = 0.0;
  int blocked = 0, plainBlocked = 0, shorter = 0;
  std::string first, plainFirst;
  for (const test::QueryPair& pair : test::randomPairs(builds.widened, pairs, 20261122)) {
    const PathResult a = findPath(widened, pair.start, pair.goal);
    const PathResult b = findPath(plain, pair.start, pair.goal);
    if (a.status != PathStatus::Found || b.status != PathStatus::Found) continue;
    const FunnelResult pathA = pullCorridor(widened, a.corridor);
    const FunnelResult pathB = pullCorridor(plain, b.corridor);
    blocked += blockedStretches(*builds.world, widened, widenedEnds, pathA.corners, first);
    plainBlocked += blockedStretches(*builds.world, plain, plainEnds, pathB.corners, plainFirst);
    widenedTotal += pathA.length;
    plainTotal += pathB.length;
    shorter += pathA.length < pathB.length - 1e-3f;
    // Through the same corridor, wider portals never make the path longer on
    // the ground (in 3D a path turning elsewhere may climb a little more).
    const FunnelResult sameCorridor = pullCorridor(widened, b.corridor);
    EXPECT_LE(groundLength(sameCorridor.corners), groundLength(pathB.corners) + 1e-3f)
        << test::describe(pair);
  }
  EXPECT_EQ(blocked, 0) << "first: " << first;
  EXPECT_GT(shorter, 0);
  // The same stretches from where the ends were: the cells alone do not keep them all clear.
  std::printf(
      "  %s: %zu ends moved, total length %.1f m widened against %.1f m (%.4f), %d paths "
      "shorter; blocked stretches at the ends' old places: %d%s%s\n",
      path.c_str(), builds.widened.stats.widenedPortalEnds, widenedTotal, plainTotal,
      widenedTotal / plainTotal, shorter, plainBlocked, plainBlocked ? ", first " : "",
      plainFirst.c_str());
}

TEST(PortalWidening, PathsTouchNothingOnTheShowcase) {
  for (const UnitShape shape : {UnitShape::Box, UnitShape::Round})
    checkLevel(test::assetFile("showcase.obj"), shape, 0.6f, 1.8f, 0.45f, 1500);
}

TEST(PortalWidening, PathsTouchNothingOnTheFunnelLevel) {
  for (const UnitShape shape : {UnitShape::Box, UnitShape::Round})
    checkLevel(test::assetFile("funnel.obj"), shape, 0.6f, 1.8f, 0.45f, 1000);
}

TEST(PortalWidening, PathsTouchNothingInTheDungeon) {
  const std::string path = test::sharedFile("meshes/dungeon.obj");
  if (path.empty()) GTEST_SKIP() << "../shared/meshes/dungeon.obj is absent";
  for (const UnitShape shape : {UnitShape::Box, UnitShape::Round})
    checkLevel(path, shape, 1.2f, 2.0f, 0.9f, 1000);
}

// Cells so far apart that some point of a sector lies outside every cell
// centre's footprint: nothing there is known to be clear, and nothing moves.
TEST(PortalWidening, CellsTooWideForTheFootprintMoveNothing) {
  Result<Level> level = loadLevel(test::assetFile("showcase.obj"));
  ASSERT_TRUE(level.ok()) << level.error();
  const CollisionWorld world(level.value());
  // Round, 0.6 m across: half a cell's diagonal, 0.32 m, is more than the 0.3 m radius.
  // Box, 0.6 m wide: half a cell, 0.3 m, is no less than half the side (less a millimetre).
  for (const auto& [shape, cell] : {std::pair{UnitShape::Round, 0.45f}, {UnitShape::Box, 0.6f}}) {
    SCOPED_TRACE(toString(shape));
    FloodFillParams params = paramsFor(level.value(), unitOfShape(shape));
    params.cellSize = cell;
    Result<NavBuild> build = buildNavigation(level.value(), world, params);
    ASSERT_TRUE(build.ok()) << build.error();
    EXPECT_GT(build.value().graph.portals.size(), 0u);
    EXPECT_EQ(build.value().stats.widenedPortalEnds, 0u);
    NavGraph graph = build.value().graph;
    EXPECT_EQ(widenPortals(graph, world), std::optional<size_t>(0));
  }
}

// Widening checks the build's cancel flag: asked to stop, it gives no count and
// the build fails, as every other stage of the build does.
TEST(PortalWidening, StopsWhenCancelled) {
  Result<Level> level = loadLevel(test::assetFile("showcase.obj"));
  ASSERT_TRUE(level.ok()) << level.error();
  const CollisionWorld world(level.value());
  const FloodFillParams params = defaultFillParams(level.value());
  BuildOptions unwidened;
  unwidened.widenPortals = false;
  Result<NavBuild> build = buildNavigation(level.value(), world, params, unwidened);
  ASSERT_TRUE(build.ok()) << build.error();
  BuildControl control;
  control.cancelRequested = true;
  NavGraph graph = build.value().graph;
  EXPECT_EQ(widenPortals(graph, world, {}, nullptr, 2, &control), std::nullopt);
  control.cancelRequested = false;
  const std::optional<size_t> widened = widenPortals(graph, world, {}, nullptr, 2, &control);
  ASSERT_TRUE(widened.has_value());
  EXPECT_GT(*widened, 0u);
}

// The L-shaped room of the exact search's tests (a 6 m floor, a 3 m box on its
// far corner), flat or tilted: the portal's end next to the box's corner moves
// out on a slope as on the flat (the sweeps follow the ground, and corners take
// their height from it, not from the sector's fitted plane).
TEST(PortalWidening, WidensOnSlopesAsOnTheFlat) {
  for (const UnitShape shape : {UnitShape::Box, UnitShape::Round}) {
    for (const float rise : {0.0f, 0.01f, 0.03f}) {
      SCOPED_TRACE(::testing::Message() << toString(shape) << ", rise " << rise << " per metre");
      Level level;
      auto at = [&](float x, float z) { return glm::vec3(x, rise * x, z); };
      const auto base = uint32_t(level.vertices.size());
      level.vertices.insert(level.vertices.end(), {at(0, 0), at(0, 6), at(6, 6), at(6, 0)});
      level.triangles.push_back({{base, base + 1, base + 2}, 0});
      level.triangles.push_back({{base, base + 2, base + 3}, 0});
      test::addBox(level, Aabb{{3, -1, 3}, {6, 3, 6}}, "wall");
      level.settings.seeds = {at(1, 1) + glm::vec3(0, 0.05f, 0)};
      test::finish(level);
      const CollisionWorld world(level);
      const FloodFillParams params = paramsFor(level, unitOfShape(shape));
      Result<NavBuild> build = buildNavigation(level, world, params);
      ASSERT_TRUE(build.ok()) << build.error();
      EXPECT_GT(build.value().stats.widenedPortalEnds, 0u);
    }
  }
}

// A floor the unit may stand on (z below 2.9) beside one of the same height it
// may not (z above; its triangles come first, so ties under a footprint go to
// it, as they do in the fill). A pillar splits the walkable part so that
// portals end next to the forbidden floor. No widened end may put the unit's
// footprint over it: half a cell's move would.
TEST(PortalWidening, KeepsOffSurfacesTheUnitMayNotStandOn) {
  for (const UnitShape shape : {UnitShape::Box, UnitShape::Round}) {
    SCOPED_TRACE(toString(shape));
    Level level;
    test::addFloor(level, 0, 2.9f, 6, 6, 0, "forbidden");
    test::addFloor(level, 0, 0, 6, 2.9f, 0, "floor");
    test::addBox(level, Aabb{{2.8f, 0, 0}, {3.2f, 2, 1.2f}}, "wall");
    level.settings.seeds = {{1, 0.05f, 1}};
    test::finish(level);
    const CollisionWorld world(level);
    const UnitProfile unit = unitOfShape(shape);
    FloodFillParams params = paramsFor(level, unit);
    params.walkableMaterials.assign(level.materials.size(), true);
    for (size_t m = 0; m < level.materials.size(); ++m)
      params.walkableMaterials[m] = level.materials[m] != "forbidden";
    BuildOptions options;
    options.widenPortals = false;
    Result<NavBuild> plain = buildNavigation(level, world, params, options);
    Result<NavBuild> widened = buildNavigation(level, world, params);
    ASSERT_TRUE(plain.ok() && widened.ok());
    const float half = unit.footprint() * 0.5f - 1e-3f;
    int nextToIt = 0;
    for (const Portal& portal : plain.value().graph.portals) {
      for (const glm::vec3& end : {portal.left, portal.right})
        nextToIt += portal.kind == PortalKind::Walk && std::abs(end.z - 2.55f) < 1e-4f;
    }
    ASSERT_GT(nextToIt, 0) << "no portal ends next to the forbidden floor: the test shows nothing";
    for (const Portal& portal : widened.value().graph.portals) {
      for (const glm::vec3& end : {portal.left, portal.right})
        EXPECT_LT(end.z + half, 2.9f)
            << "an end at z " << end.z << " stands on the forbidden floor";
    }
  }
}

// Terrain 927 turned -42 on cells of 0.45 m, round unit: a reach's point
// stands 7.5 cm inside its sector's side, and the exact path runs from it
// 2.25 m along that side to the next reach's point. The rays towards the
// side were swept only to the sector's edge (0.2 m), so the directions
// between them passed for clear while the footprint along the stretch
// reached past what was swept, into the level by 1.2 mm.
TEST(PortalWidening, AReachsDirectionsHoldAlongItsSectorsSide) {
  const auto terrain = test::terrainOnChosenGridWithWorld(927, -42.0f, UnitShape::Round, 0.45f);
  ASSERT_TRUE(terrain);
  const NavGraph& graph = terrain->build.graph;
  const CollisionWorld& world = *terrain->world;
  SearchOptions options = test::uniformCosts(graph);
  options.portalPoint = PortalPoint::Exact;
  PathAnswer answer;
  planPath(graph, {7.563f, 0.822f, 14.135f}, {12.281f, -0.046f, 42.173f}, options, {}, answer);
  ASSERT_EQ(answer.search.status, PathStatus::Found) << answer.search.reason;
  for (const StretchClearance& stretch : pathClearance(world, graph.unit, answer.funnel.corners))
    EXPECT_EQ(stretch.depth, 0.0f)
        << "at (" << stretch.deepestAt.x << ", " << stretch.deepestAt.z << ")";
}

}  // namespace
}  // namespace nav
