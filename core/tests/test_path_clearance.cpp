// Path clearance against hand-computed depths: a unit beside a wall reaches in
// by its half width less its distance; a box passing a corner diagonally
// reaches in with its own corner (half its side times the square root of two)
// where a disc reaches with its radius; kerbs it steps over and ramps it walks
// do not count; a ceiling too low does; a ride it cannot walk is not measured.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "nav/collision.h"
#include "nav/footprint_support.h"
#include "nav/path_clearance.h"
#include "test_levels.h"

namespace nav {
namespace {

// The footprint as the clearance sweeps it: half the width less the 5 mm rim allowance.
constexpr float kHalf = 0.3f - 0.005f;
constexpr float kDepthTolerance = 2e-3f;

UnitProfile unitOfShape(UnitShape shape) {
  UnitProfile unit;
  unit.shape = shape;
  unit.width = 0.6f;
  unit.height = 1.8f;
  unit.stepHeight = 0.45f;
  unit.maxDrop = 0.45f;
  return unit;
}

// A 20 x 10 m floor at y 0 with a wall along z 5..5.5 (x 0..20, 2.5 m high).
Level walledFloor() {
  Level level;
  test::addFloor(level, 0, 0, 20, 10, 0);
  test::addBox(level, Aabb{{0, 0, 5}, {20, 2.5f, 5.5f}});
  return level;
}

StretchClearance onlyStretch(const Level& level, const UnitProfile& unit, glm::vec3 from,
                             glm::vec3 to) {
  const CollisionWorld world(level);
  const std::vector<glm::vec3> corners = {from, to};
  const std::vector<StretchClearance> stretches = pathClearance(world, unit, corners);
  EXPECT_EQ(stretches.size(), 1u);
  return stretches.empty() ? StretchClearance{} : stretches.front();
}

// Walked, and the footprint passes clear all the way.
void expectClear(const StretchClearance& stretch) {
  EXPECT_TRUE(stretch.walked);
  EXPECT_EQ(stretch.depth, 0.0f);
}

TEST(PathClearance, BesideAWallTheUnitReachesInByItsHalfWidthLessItsDistance) {
  Level level = walledFloor();
  test::finish(level);
  for (const UnitShape shape : {UnitShape::Box, UnitShape::Round}) {
    SCOPED_TRACE(toString(shape));
    for (const float distance : {0.05f, 0.1f, 0.2f, 0.28f}) {
      SCOPED_TRACE(distance);
      const StretchClearance s =
          onlyStretch(level, unitOfShape(shape), {2, 0, 5 - distance}, {10, 0, 5 - distance});
      EXPECT_TRUE(s.walked);
      EXPECT_NEAR(s.depth, kHalf - distance, kDepthTolerance);
      EXPECT_NEAR(s.deepestAt.z, 5 - distance, 1e-4f);
      EXPECT_GE(s.deepestAt.x, 2.0f);
      EXPECT_LE(s.deepestAt.x, 10.0f);
    }
    for (const float distance : {0.3f, 0.5f, 2.0f}) {
      SCOPED_TRACE(distance);
      expectClear(
          onlyStretch(level, unitOfShape(shape), {2, 0, 5 - distance}, {10, 0, 5 - distance}));
    }
  }
}

TEST(PathClearance, PassingACornerDiagonallyTheBoxReachesWithItsCorner) {
  Level level;
  test::addFloor(level, 0, 0, 10, 6, 0);
  test::addBox(level, Aabb{{5, 0, 1}, {6, 2.5f, 2}});  // a pillar
  test::finish(level);
  // The line z = x - 2.8 passes the pillar's corner (5, 2) at 0.2 / sqrt(2) m;
  // the rest of the pillar lies further off on the same side.
  const float gap = 0.2f / std::sqrt(2.0f);
  const glm::vec3 from(3.0f, 0, 0.2f), to(7.0f, 0, 4.2f);
  // A disc reaches across the line by its radius.
  EXPECT_NEAR(onlyStretch(level, unitOfShape(UnitShape::Round), from, to).depth, kHalf - gap,
              kDepthTolerance);
  // A square moving at 45 degrees reaches across by half its diagonal: its
  // half side must shrink to gap / sqrt(2) = 0.1 m to pass.
  EXPECT_NEAR(onlyStretch(level, unitOfShape(UnitShape::Box), from, to).depth,
              kHalf - gap / std::sqrt(2.0f), kDepthTolerance);
}

TEST(PathClearance, KerbsItStepsOverDoNotCountBlocksTooHighDo) {
  Level level;
  test::addFloor(level, 0, 0, 20, 10, 0);
  test::addBox(level, Aabb{{0, 0, 2}, {20, 0.3f, 2.4f}});  // a kerb under the step height
  test::addBox(level, Aabb{{0, 0, 6}, {20, 0.6f, 6.4f}});  // a block over it
  test::finish(level);
  for (const UnitShape shape : {UnitShape::Box, UnitShape::Round}) {
    SCOPED_TRACE(toString(shape));
    expectClear(onlyStretch(level, unitOfShape(shape), {8, 0, 0.5f}, {8, 0, 4}));
    // Straight through the block: even a footprint shrunk to a line touches it.
    const StretchClearance block = onlyStretch(level, unitOfShape(shape), {8, 0, 4.5f}, {8, 0, 8});
    EXPECT_TRUE(block.walked);
    EXPECT_NEAR(block.depth, kHalf, kDepthTolerance);
    // On the piece that first meets it.
    EXPECT_GE(block.deepestAt.z, 6.0f - kClearancePiece);
    EXPECT_LE(block.deepestAt.z, 6.4f);
  }
}

// The fill lets the unit rest on ground up to kGroundClearance above its
// step's reach (that ground counts as under its feet, footprint_support.h):
// a kerb 1.5 cm over the step height is ground it may step onto, one 3 cm
// over it is touched.
TEST(PathClearance, AKerbWithinTheGroundUnderItsFeetIsNotTouched) {
  for (const UnitShape shape : {UnitShape::Box, UnitShape::Round}) {
    SCOPED_TRACE(toString(shape));
    UnitProfile unit = unitOfShape(shape);
    unit.maxDrop = 1.0f;  // down off the kerb
    for (const float over : {0.015f, 0.03f}) {
      SCOPED_TRACE(over);
      Level level;
      test::addFloor(level, 0, 0, 20, 10, 0);
      test::addBox(level, Aabb{{0, 0, 2}, {20, unit.stepHeight + over, 3}});
      test::finish(level);
      const StretchClearance across = onlyStretch(level, unit, {8, 0, 0.5f}, {8, 0, 5});
      EXPECT_TRUE(across.walked);
      if (over < kGroundClearance) {
        EXPECT_EQ(across.depth, 0.0f);
      } else {
        EXPECT_NEAR(across.depth, kHalf, kDepthTolerance);
      }
    }
  }
}

TEST(PathClearance, ACeilingTooLowTouchesTheHead) {
  Level level;
  test::addFloor(level, 0, 0, 20, 10, 0);
  test::addBox(level, Aabb{{8, 1.5f, 0}, {9, 1.7f, 10}});     // a beam at 1.5 m, under 1.8 m
  test::addBox(level, Aabb{{12, 1.85f, 0}, {13, 2.0f, 10}});  // and one above the head
  test::finish(level);
  const UnitProfile unit = unitOfShape(UnitShape::Round);
  EXPECT_NEAR(onlyStretch(level, unit, {6, 0, 5}, {10, 0, 5}).depth, kHalf, kDepthTolerance);
  EXPECT_EQ(onlyStretch(level, unit, {10.5f, 0, 5}, {15, 0, 5}).depth, 0.0f);
}

// A ramp from (10, 0) up to (14, 1) (14 degrees), 3 m wide, and a landing at 1 m.
void addRampAndLanding(Level& level) {
  const uint32_t first = uint32_t(level.vertices.size());
  level.vertices.insert(level.vertices.end(),
                        {{10, 0, 6.5f}, {10, 0, 9.5f}, {14, 1, 9.5f}, {14, 1, 6.5f}});
  level.triangles.push_back({{first, first + 1, first + 2}, 0});
  level.triangles.push_back({{first, first + 2, first + 3}, 0});
  test::addBox(level, Aabb{{14, 0, 6.5f}, {18, 1, 9.5f}});
}

TEST(PathClearance, TheGroundIsWalkedUpARamp) {
  Level level;
  test::addFloor(level, 0, 0, 20, 10, 0);
  addRampAndLanding(level);
  test::finish(level);
  for (const UnitShape shape : {UnitShape::Box, UnitShape::Round}) {
    SCOPED_TRACE(toString(shape));
    // Up the ramp, and back down: the body follows the ground, so neither the
    // ramp nor the landing is in its way.
    expectClear(onlyStretch(level, unitOfShape(shape), {8, 0, 8}, {17, 1, 8}));
    expectClear(onlyStretch(level, unitOfShape(shape), {17, 1, 8}, {8, 0, 8}));
  }
}

TEST(PathClearance, ARideItCannotWalkIsNotMeasured) {
  Level level;
  test::addFloor(level, 0, 0, 20, 10, 0);
  test::addBox(level, Aabb{{14, 0, 6.5f}, {18, 3, 9.5f}});  // a platform 3 m up: a lift's stop
  test::finish(level);
  const StretchClearance ride =
      onlyStretch(level, unitOfShape(UnitShape::Round), {13, 0, 8}, {15, 3, 8});
  EXPECT_FALSE(ride.walked);
  EXPECT_EQ(ride.depth, 0.0f);
}

TEST(PathClearance, OneEntryPerStretchAndNothingSweptForBrokenCornersOrAPointUnit) {
  Level level = walledFloor();
  test::finish(level);
  const CollisionWorld world(level);
  const std::vector<glm::vec3> corners = {{2, 0, 4.9f}, {10, 0, 4.9f}, {10, 0, 1}, {2, 0, 1}};
  const std::vector<StretchClearance> stretches =
      pathClearance(world, unitOfShape(UnitShape::Round), corners);
  ASSERT_EQ(stretches.size(), 3u);
  EXPECT_NEAR(stretches[0].depth, kHalf - 0.1f, kDepthTolerance);
  EXPECT_GT(stretches[1].depth, 0.0f);  // leaves from beside the wall
  EXPECT_EQ(stretches[2].depth, 0.0f);
  const ClearanceSummary summary = summarizeClearance(stretches);
  EXPECT_EQ(summary.stretches, 3u);
  EXPECT_EQ(summary.touching, 2u);
  EXPECT_EQ(summary.deepest, std::max(stretches[0].depth, stretches[1].depth));
  EXPECT_EQ(summary.deepestAt, stretches[0].depth >= stretches[1].depth ? stretches[0].deepestAt
                                                                        : stretches[1].deepestAt);
  EXPECT_TRUE(pathClearance(world, unitOfShape(UnitShape::Round), {}).empty());
  EXPECT_TRUE(pathClearance(world, unitOfShape(UnitShape::Round), {corners.data(), 1}).empty());
  // Corners no level holds are no walk, and nothing is swept for them.
  const float nan = std::nanf("");
  const std::vector<glm::vec3> broken = {{2, 0, 1}, {nan, 0, 1}, {1e30f, 0, 1}, {3, nan, 1}};
  const std::vector<StretchClearance> none =
      pathClearance(world, unitOfShape(UnitShape::Box), broken);
  for (const StretchClearance& s : none) {
    EXPECT_FALSE(s.walked);
    EXPECT_EQ(s.depth, 0.0f);
  }
  EXPECT_EQ(summarizeClearance(none).stretches, 0u);
  UnitProfile point = unitOfShape(UnitShape::Round);
  point.width = 0.0f;
  for (const StretchClearance& s : pathClearance(world, point, corners))
    expectClear(s);
}

// A crack 0.5 m wide across a floor (x 5 to 5.5), narrower than the unit,
// with a floor 0.3 m down in it between z 4 and 6: the footprint rests on
// both edges, but its centre steps into the crack. A stretch straight across
// (at z 8 or 1) has 0.5 m over no ground, to within a piece (kClearancePiece)
// at each edge; one beside the crack has none, nor has one stepping down onto
// the lower floor (within the unit's drop).
TEST(PathClearance, AStretchAcrossACrackHasItsWidthOverNoGround) {
  Level level;
  test::addFloor(level, 0, 0, 5, 10, 0);
  test::addFloor(level, 5.5f, 0, 10, 10, 0);
  test::addFloor(level, 5, 4, 5.5f, 6, -0.3f);
  test::finish(level);
  UnitProfile unit = unitOfShape(UnitShape::Round);
  unit.width = 1.2f;
  for (const UnitShape shape : {UnitShape::Round, UnitShape::Box}) {
    SCOPED_TRACE(toString(shape));
    unit.shape = shape;
    const StretchClearance across = onlyStretch(level, unit, {2, 0, 8}, {8, 0, 8});
    EXPECT_TRUE(across.walked);
    EXPECT_NEAR(across.overNoGround, 0.5f, kClearancePiece + 1e-4f);
    EXPECT_GT(across.overNoGround, 0.5f - kClearancePiece);
    const StretchClearance down = onlyStretch(level, unit, {2, 0, 5}, {5.25f, -0.3f, 5});
    EXPECT_EQ(down.overNoGround, 0.0f);
    const StretchClearance beside = onlyStretch(level, unit, {2, 0, 8}, {4.9f, 0, 2});
    EXPECT_EQ(beside.overNoGround, 0.0f);
    // Across, along the far side, and back across: two of three stretches.
    const CollisionWorld world(level);
    const std::vector<glm::vec3> corners = {{2, 0, 8}, {8, 0, 8}, {8, 0, 1}, {2, 0, 1}};
    const ClearanceSummary summary = summarizeClearance(pathClearance(world, unit, corners));
    EXPECT_EQ(summary.stretches, 3u);
    EXPECT_EQ(summary.overNoGround, 2u);
    EXPECT_GT(summary.lengthOverNoGround, 2 * (0.5f - kClearancePiece));
  }
}

// On a bundled level: a stretch the funnel makes on the showcase for the round
// unit, 0.2 m from the face at z 24 of a wall and a building (x 30.7 to 37).
TEST(PathClearance, AGrazingStretchOnTheShowcase) {
  Result<Level> level = loadLevel(test::assetFile("showcase.obj"));
  ASSERT_TRUE(level.ok()) << level.error();
  const StretchClearance s = onlyStretch(level.value(), unitOfShape(UnitShape::Round),
                                         {30.35f, 0, 24.2f}, {37.85f, 0, 24.2f});
  EXPECT_TRUE(s.walked);
  EXPECT_NEAR(s.depth, kHalf - 0.2f, kDepthTolerance);
  EXPECT_GE(s.deepestAt.x, 30.7f - kClearancePiece);
  EXPECT_LE(s.deepestAt.x, 37.0f + kClearancePiece);
}

}  // namespace
}  // namespace nav
