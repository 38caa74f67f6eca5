// A turned cell grid (grid_frame.h) and the choice of its angle (grid_angle.h):
// the conversions between the file's and the grid's coordinates, the level on
// a turned grid, the directions found on levels turned by known angles, and a
// turned level on its chosen grid answering as the level did unturned.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "nav/collision.h"
#include "nav/funnel.h"
#include "nav/grid_angle.h"
#include "nav/level.h"
#include "nav/locate.h"
#include "nav/nav_build.h"
#include "nav/path_solver.h"
#include "nav/search.h"
#include "test_levels.h"

namespace nav {
namespace {

// The difference of two grid angles, folded into [-45, 45): 45 and -45 are one grid.
double gridAngleDifference(double a, double b) {
  return std::remainder(a - b, 90.0);
}

NavBuild buildOn(const Level& level, FloodFillParams params) {
  params.seeds = level.settings.seeds;
  params.devices = level.settings.devices;
  const CollisionWorld world(level);
  BuildOptions options;
  options.keepCells = true;
  Result<NavBuild> built = buildNavigation(level, world, params, options);
  EXPECT_TRUE(built.ok()) << built.error();
  return built ? std::move(built).value() : NavBuild{};
}

// Paths between `wanted` pairs of the reference build's cell centres (a
// seeded stream, each point put through `place` first), and between the same
// points in the other build (`toOther`), where that locates both: compare(the
// reference's funnel, the other's, the pair's number) for each pair found.
// Both builds must find the same pairs. Returns how many pairs were compared.
template <class Place, class ToOther, class Compare>
size_t comparePaths(const NavBuild& reference, const NavBuild& other, uint64_t seed, size_t wanted,
                    Place place, ToOther toOther, Compare compare) {
  const CellGrid& grid = *reference.cells;
  uint64_t random = seed;
  const auto pick = [&] {
    random = random * 6364136223846793005ull + 1442695040888963407ull;
    return place(grid.center(uint32_t((random >> 33) % grid.size())));
  };
  size_t compared = 0;
  for (size_t tries = 0; compared < wanted && tries < 10 * wanted; ++tries) {
    const glm::vec3 start = pick(), goal = pick();
    const glm::vec3 otherStart = toOther(start), otherGoal = toOther(goal);
    if (locateSector(other.graph, otherStart).sector == kNoSector ||
        locateSector(other.graph, otherGoal).sector == kNoSector)
      continue;
    const PathResult path = findPath(reference.graph, start, goal);
    const PathResult otherPath = findPath(other.graph, otherStart, otherGoal);
    EXPECT_EQ(path.status, otherPath.status) << "pair " << compared;
    ++compared;
    if (path.status != PathStatus::Found || otherPath.status != PathStatus::Found) continue;
    compare(pullCorridor(reference.graph, path.corridor),
            pullCorridor(other.graph, otherPath.corridor), compared);
  }
  return compared;
}

TEST(GridFrame, ConvertsBothWaysAndIsTheIdentityUnturned) {
  const GridFrame straight;
  const glm::vec3 p(3.25f, 1.5f, -7.75f);
  EXPECT_EQ(straight.toGrid(p), p);
  EXPECT_EQ(straight.toFile(p), p);

  const GridFrame quarter{45.0f, {10.0f, 20.0f}};
  // The grid's x axis is the file's x axis turned 45 degrees towards -z.
  const glm::vec3 alongGridX = quarter.toFile(glm::vec3(11.0f, 0.0f, 20.0f));
  EXPECT_NEAR(alongGridX.x, 10.0f + std::sqrt(0.5f), 1e-5f);
  EXPECT_NEAR(alongGridX.z, 20.0f - std::sqrt(0.5f), 1e-5f);
  for (const float degrees : {-45.0f, -17.0f, 0.5f, 33.0f}) {
    const GridFrame frame{degrees, {4.0f, -2.0f}};
    const glm::vec3 back = frame.toFile(frame.toGrid(p));
    EXPECT_NEAR(back.x, p.x, 1e-5f) << degrees;
    EXPECT_EQ(back.y, p.y);
    EXPECT_NEAR(back.z, p.z, 1e-5f) << degrees;
    EXPECT_NEAR(glm::distance(frame.toGrid(p), glm::vec3(4.0f, p.y, -2.0f)),
                glm::distance(p, glm::vec3(4.0f, p.y, -2.0f)), 1e-5f);
  }
}

TEST(GridFrame, ParsesDegreesOrAuto) {
  EXPECT_FALSE(parseGridAngle("auto").value().has_value());
  EXPECT_EQ(parseGridAngle("12.5").value(), 12.5f);
  EXPECT_EQ(parseGridAngle("-45").value(), -45.0f);
  for (const char* bad : {"46", "-45.5", "nan", "inf", "0x10", " 5", "5 ", "", "north"}) {
    const Result<std::optional<float>> parsed = parseGridAngle(bad);
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_NE(parsed.error().find("expected degrees from -45 to 45, or auto"), std::string::npos)
        << parsed.error();
  }
}

TEST(GridFrame, LevelOnGridHoldsTheFilesPointsInGridCoordinates) {
  const Level level = test::terrainLevel(1, 0.0f);
  const Result<Level> onGrid = levelOnGrid(level, 21.5f);
  ASSERT_TRUE(onGrid.ok()) << onGrid.error();
  const GridFrame& frame = onGrid.value().gridFrame;
  EXPECT_EQ(frame.degrees, 21.5f);
  ASSERT_EQ(onGrid.value().vertices.size(), level.vertices.size());
  for (size_t i = 0; i < level.vertices.size(); i += 97)
    EXPECT_EQ(onGrid.value().vertices[i], frame.toGrid(level.vertices[i])) << i;

  const Result<Level> same = levelOnGrid(level, 0.0f);
  ASSERT_TRUE(same.ok());
  EXPECT_FALSE(same.value().gridFrame.turned());
  EXPECT_EQ(same.value().vertices, level.vertices);

  for (const float bad : {45.5f, -90.0f, std::nanf(""), INFINITY}) {
    const Result<Level> refused = levelOnGrid(level, bad);
    ASSERT_FALSE(refused.ok()) << bad;
    EXPECT_NE(refused.error().find("grid angle"), std::string::npos) << refused.error();
  }
  const Result<Level> twice = levelOnGrid(onGrid.value(), 5.0f);
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.error().find("on a grid already"), std::string::npos) << twice.error();
  // A sidecar's grid turns with the level, folded into +-45 degrees.
  Level withGrid = level;
  withGrid.settings.gridAngle = 10.0f;
  EXPECT_EQ(rotatedAboutY(withGrid, 30.0f).value().settings.gridAngle, 40.0f);
  EXPECT_EQ(rotatedAboutY(withGrid, 50.0f).value().settings.gridAngle, -30.0f);
  EXPECT_EQ(rotatedAboutY(withGrid, -55.0f).value().settings.gridAngle, 45.0f);
  const Result<Level> turnedAfter = rotatedAboutY(onGrid.value(), 10.0f);
  ASSERT_FALSE(turnedAfter.ok());
  EXPECT_NE(turnedAfter.error().find("cannot be turned"), std::string::npos) << turnedAfter.error();
}

// A level turned by a known angle: its strongest direction is the grid that
// turns it back; unturned, the file's own axes.
TEST(GridAngle, CandidatesFindTheTurnOfATurnedLevel) {
  const FloodFillParams params = test::detourMatchedParams(0.9f);
  for (const uint32_t seed : {1u, 2u, 3u}) {
    EXPECT_EQ(gridAngleCandidates(test::terrainLevel(seed, 0.0f), params).front(), 0.0f) << seed;
    for (const float degrees : {-20.0f, 12.5f, 33.0f, 45.0f}) {
      SCOPED_TRACE(testing::Message() << "terrain " << seed << " turned " << degrees);
      const std::vector<float> candidates =
          gridAngleCandidates(test::terrainLevel(seed, degrees), params);
      ASSERT_FALSE(candidates.empty());
      EXPECT_NEAR(gridAngleDifference(candidates.front(), degrees), 0.0, 0.05);
      EXPECT_NE(std::find(candidates.begin(), candidates.end(), 0.0f), candidates.end())
          << "the file's own axes are always a candidate";
    }
  }
  for (const char* name : {"showcase.obj", "funnel.obj"}) {
    const Level level = loadLevel(test::assetFile(name)).value();
    EXPECT_EQ(gridAngleCandidates(level, defaultFillParams(level)), std::vector<float>{0.0f})
        << name << ": every wall along the axes";
    const Level turned = rotatedAboutY(level, -28.0f).value();
    EXPECT_NEAR(gridAngleCandidates(turned, defaultFillParams(turned)).front(), -28.0f, 0.01)
        << name;
  }
  EXPECT_TRUE(gridAngleCandidates(Level{}, params).empty());
}

// The chosen grid against a build on every candidate at full size: no more
// sectors than the file's axes give, and as few as the level had unturned.
TEST(GridAngle, ChosenGridHasNoMoreSectorsThanAnyCandidate) {
  const FloodFillParams params = test::detourMatchedParams(0.9f);
  struct Case {
    uint32_t seed;
    float degrees;
  };
  for (const Case c : {Case{1, 17.0f}, Case{2, -33.0f}, Case{14, 81.5f}}) {
    SCOPED_TRACE(testing::Message() << "terrain " << c.seed << " turned " << c.degrees);
    const Level level = test::terrainLevel(c.seed, c.degrees);
    const Result<float> chosen = chooseGridAngle(level, params);
    ASSERT_TRUE(chosen.ok()) << chosen.error();
    size_t chosenSectors = 0, fewest = SIZE_MAX, fileAxes = 0;
    for (const float degrees : gridAngleCandidates(level, params)) {
      const size_t sectors = buildOn(levelOnGrid(level, degrees).value(), params).stats.sectors;
      if (degrees == chosen.value()) chosenSectors = sectors;
      if (degrees == 0.0f) fileAxes = sectors;
      fewest = std::min(fewest, sectors);
    }
    EXPECT_EQ(chosenSectors, fewest);
    EXPECT_LT(chosenSectors, fileAxes) << "a turned level's staircases cost sectors";
    const size_t unturned = buildOn(test::terrainLevel(c.seed, 0.0f), params).stats.sectors;
    EXPECT_LE(double(chosenSectors), 1.05 * double(unturned));
  }
  // The file's axes are the strongest direction: no trial build, no turn.
  const Result<float> straight = chooseGridAngle(test::terrainLevel(1, 0.0f), params);
  ASSERT_TRUE(straight.ok());
  EXPECT_EQ(straight.value(), 0.0f);
}

TEST(GridAngle, ChoosingIsCancelled) {
  BuildControl control;
  control.cancelRequested = true;
  const Result<float> chosen =
      chooseGridAngle(test::terrainLevel(1, 30.0f), test::detourMatchedParams(0.9f), &control);
  ASSERT_FALSE(chosen.ok());
  EXPECT_NE(chosen.error().find("cancelled"), std::string::npos) << chosen.error();
}

// The funnel level turned 30 degrees, built for its box unit on its chosen
// grid, against the level unturned: the box lines up with the walls again,
// so the walkable area and the paths come back (on the file's axes the box
// stands further from every wall: 9 % of the area is lost).
TEST(GridAngle, TurnedLevelOnItsGridAnswersAsUnturned) {
  const Level level = loadLevel(test::assetFile("funnel.obj")).value();
  constexpr float kTurn = 30.0f;
  const Level turned = rotatedAboutY(level, kTurn).value();
  const RotationY turn = rotationAboutY(level, kTurn).value();
  const FloodFillParams params = defaultFillParams(level);
  const Result<float> chosen = chooseGridAngle(turned, defaultFillParams(turned));
  ASSERT_TRUE(chosen.ok()) << chosen.error();
  EXPECT_NEAR(chosen.value(), kTurn, 0.01);
  const Level onGrid = levelOnGrid(turned, chosen.value()).value();
  const NavBuild unturnedBuild = buildOn(level, params);
  const NavBuild gridBuild = buildOn(onGrid, params);
  const NavBuild fileAxesBuild = buildOn(turned, params);
  const double cells = double(unturnedBuild.stats.cells);
  EXPECT_NEAR(double(gridBuild.stats.cells) / cells, 1.0, 0.02);
  EXPECT_LT(double(fileAxesBuild.stats.cells) / cells, 0.95);

  const GridFrame& frame = gridBuild.graph.gridFrame;
  double total = 0.0, gridTotal = 0.0;
  const size_t compared = comparePaths(
      unturnedBuild, gridBuild, 7, 30, [](const glm::vec3& p) { return p; },
      [&](const glm::vec3& p) { return frame.toGrid(turn.apply(p)); },
      [&](const FunnelResult& pulled, const FunnelResult& gridPulled, size_t pair) {
        EXPECT_NEAR(gridPulled.length, pulled.length, 0.02 * pulled.length + 0.45)
            << "pair " << pair;
        total += pulled.length;
        gridTotal += gridPulled.length;
      });
  EXPECT_EQ(compared, 30u);
  EXPECT_NEAR(gridTotal / total, 1.0, 0.01);
}

// The level written `away` from where it is: its vertices and seeds.
Level movedBy(const Level& level, const glm::vec3& away) {
  Level moved = level;
  for (glm::vec3& v : moved.vertices)
    v += away;
  moved.bounds.min += away;
  moved.bounds.max += away;
  for (glm::vec3& seed : moved.settings.seeds)
    seed += away;
  return moved;
}

// A level far out is moved near the origin, by its centre in whole metres,
// and its frame converts both ways; one near the origin stays where it is.
TEST(GridFrame, ALevelFarOutIsMovedNearTheOrigin) {
  const Level level = test::terrainLevel(2, 0.0f);
  ASSERT_EQ(offsetNearOrigin(level.bounds.min, level.bounds.max), glm::vec3(0.0f));
  const glm::vec3 away(250000.0f, 0.0f, -180000.0f);
  const Level far = movedBy(level, away);
  for (const float degrees : {0.0f, 17.0f}) {
    SCOPED_TRACE(degrees);
    const Result<Level> onGrid = levelOnGrid(far, degrees);
    ASSERT_TRUE(onGrid.ok()) << onGrid.error();
    const GridFrame& frame = onGrid.value().gridFrame;
    EXPECT_EQ(frame.offset, glm::round(frame.offset));
    EXPECT_GT(glm::length(frame.offset), 200000.0f);
    const Aabb& bounds = onGrid.value().bounds;
    EXPECT_LT(std::max(glm::length(bounds.min), glm::length(bounds.max)),
              glm::length(level.bounds.size()));
    for (size_t i = 0; i < far.vertices.size(); i += 97) {
      const glm::vec3 grid = frame.toGrid(far.vertices[i]);
      EXPECT_EQ(onGrid.value().vertices[i], grid) << i;
      // Back in the file's coordinates within the floats' step out there (1/64 m).
      EXPECT_LE(glm::distance(frame.toFile(grid), far.vertices[i]), 0.02f) << i;
    }
    ASSERT_EQ(onGrid.value().settings.seeds.size(), far.settings.seeds.size());
    for (size_t i = 0; i < far.settings.seeds.size(); ++i)
      EXPECT_EQ(onGrid.value().settings.seeds[i], frame.toGrid(far.settings.seeds[i]));
  }
  const Result<Level> twice = levelOnGrid(levelOnGrid(far, 0.0f).value(), 0.0f);
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.error().find("on a grid already"), std::string::npos) << twice.error();
}

// Moved near the origin, a level 1,000 km out is built as it is at the
// origin. Its vertices are put on the floats' step out there (1/16 m) first,
// so that both levels hold the same geometry; built where it lies, the same
// level gets other cells and more sectors from the floats' rounding.
TEST(GridFrame, ALevelFarOutIsBuiltAsAtTheOrigin) {
  Level level = test::terrainLevel(1, 0.0f);
  const auto onFarStep = [](glm::vec3 p) { return glm::round(p * 16.0f) / 16.0f; };
  for (glm::vec3& v : level.vertices)
    v = onFarStep(v);
  for (glm::vec3& seed : level.settings.seeds)
    seed = onFarStep(seed);
  level.bounds = {};
  for (const glm::vec3& v : level.vertices)
    level.bounds.grow(v);
  const glm::vec3 away(1000000.0f, 0.0f, 1000000.0f);
  const Level far = movedBy(level, away);
  const FloodFillParams params = defaultFillParams(level);
  const NavBuild atOrigin = buildOn(level, params);
  const Level onGrid = levelOnGrid(far, 0.0f).value();
  const NavBuild moved = buildOn(onGrid, params);
  EXPECT_EQ(moved.graph.gridFrame.offset, onGrid.gridFrame.offset);
  EXPECT_NEAR(double(moved.stats.cells) / double(atOrigin.stats.cells), 1.0, 0.001);
  EXPECT_NEAR(double(moved.graph.sectors.size()) / double(atOrigin.graph.sectors.size()), 1.0,
              0.02);
  const NavBuild inPlace = buildOn(far, params);
  // Terrain 1: 43,224 cells and 541 sectors at the origin, 43,024 and 645 in place.
  EXPECT_GT(std::abs(double(inPlace.stats.cells) / double(atOrigin.stats.cells) - 1.0), 0.002);
  EXPECT_GT(double(inPlace.graph.sectors.size()), 1.1 * double(atOrigin.graph.sectors.size()));

  const GridFrame& frame = moved.graph.gridFrame;
  const size_t compared = comparePaths(
      atOrigin, moved, 11, 20, onFarStep,
      [&](const glm::vec3& p) { return frame.toGrid(p + away); },
      [&](const FunnelResult& pulled, const FunnelResult& movedPulled, size_t pair) {
        EXPECT_NEAR(movedPulled.length, pulled.length, 0.005f * pulled.length + 0.02f)
            << "pair " << pair;
        // The goal, back in the file's coordinates.
        EXPECT_LE(
            glm::distance(frame.toFile(movedPulled.corners.back()), pulled.corners.back() + away),
            0.02f)
            << "pair " << pair;
      });
  EXPECT_EQ(compared, 20u);
}

}  // namespace
}  // namespace nav
