// Footprint support on hand-made ground: where a unit 0.6 m wide, stepping
// 0.45 m, stands on ground and where it would hang over a ledge. The ground
// raster is the fill's for cells of 0.3: squares of 0.3 from the level's
// corner, 3 cm reach. With no overhang the footprint's samples lie 0.3 apart
// over its whole square (the disc: its centre, the ends of its two axes and
// eight points round its rim), so its edges are tested exactly.
#include <gtest/gtest.h>

#include <cmath>

#include "nav/footprint_support.h"
#include "test_levels.h"

namespace nav {
namespace {

constexpr UnitShape kShapes[] = {UnitShape::Box, UnitShape::Round};

GroundRaster rasterOf(Level& level) {
  test::finish(level);
  GroundRasterParams params;
  params.squareSize = 0.3f;
  params.origin = {level.bounds.min.x, level.bounds.min.z};
  params.reach = 0.03f;
  Result<GroundRaster> raster = GroundRaster::build(level, params);
  EXPECT_TRUE(raster.ok()) << raster.error();
  return raster ? std::move(raster).value() : GroundRaster();
}

UnitProfile unitOf(UnitShape shape, float ledgeOverhang = 0.0f, float stepHeight = 0.45f) {
  UnitProfile unit;
  unit.shape = shape;
  unit.width = 0.6f;
  unit.stepHeight = stepHeight;
  unit.ledgeOverhang = ledgeOverhang;
  return unit;
}

// A ramp over x 0..3, z 0..3 rising along +x at `degrees`, wound to face up.
void addRamp(Level& level, float degrees) {
  const float rise = 3.0f * std::tan(glm::radians(degrees));
  const auto base = uint32_t(level.vertices.size());
  level.vertices.insert(level.vertices.end(), {{0, 0, 0}, {0, 0, 3}, {3, rise, 3}, {3, rise, 0}});
  level.triangles.push_back({{base, base + 1, base + 2}, 0});
  level.triangles.push_back({{base, base + 2, base + 3}, 0});
}

TEST(FootprintSupport, FloorEdgesAndRestHeight) {
  Level level;
  test::addFloor(level, 0, 0, 3, 3, 0);
  const GroundRaster raster = rasterOf(level);
  for (const UnitShape shape : kShapes) {
    SCOPED_TRACE(toString(shape));
    const FootprintSupport support(raster, unitOf(shape));
    EXPECT_TRUE(support.supported({1.5f, 1.5f}, 0.0f));
    // Half the footprint is 0.3: centred 0.3 from an edge it reaches the edge
    // exactly; 0.25 from it, it hangs 0.05 over, past the 0.03 reach.
    EXPECT_TRUE(support.supported({2.7f, 1.5f}, 0.0f));
    EXPECT_TRUE(support.supported({0.3f, 0.3f}, 0.0f));
    for (const glm::vec2 c : {glm::vec2(2.75f, 1.5f), glm::vec2(0.25f, 1.5f),
                              glm::vec2(1.5f, 2.75f), glm::vec2(1.5f, 0.25f)}) {
      EXPECT_FALSE(support.supported(c, 0.0f)) << c.x << ", " << c.y;
    }
    // Resting above the floor: the floor is the highest ground, which must lie
    // within a step (0.45) below the rest: 0.4 is, 0.5 is not.
    EXPECT_TRUE(support.supported({1.5f, 1.5f}, 0.4f));
    EXPECT_FALSE(support.supported({1.5f, 1.5f}, 0.5f));
    // Resting below it: ground counts up to 2 cm above the rest.
    EXPECT_TRUE(support.supported({1.5f, 1.5f}, -0.01f));
    EXPECT_FALSE(support.supported({1.5f, 1.5f}, -0.05f));
  }
}

TEST(FootprintSupport, LedgeOverhangLetsTheFootprintHangThatFar) {
  Level level;
  test::addFloor(level, 0, 0, 3, 3, 0);
  const GroundRaster raster = rasterOf(level);
  for (const UnitShape shape : kShapes) {
    SCOPED_TRACE(toString(shape));
    // Footprint edge at the centre + 0.3: 3.1 hangs 0.1 over the edge at 3,
    // 3.2 hangs 0.2. With 0.15 allowed, the samples span the centre +- 0.15:
    // 2.95 is on the floor, 3.05 is 0.05 past it.
    const FootprintSupport overhang(raster, unitOf(shape, 0.15f));
    EXPECT_TRUE(overhang.supported({2.8f, 1.5f}, 0.0f));
    EXPECT_TRUE(overhang.supported({1.5f, 0.2f}, 0.0f));
    EXPECT_FALSE(overhang.supported({2.9f, 1.5f}, 0.0f));
    EXPECT_FALSE(overhang.supported({1.5f, 0.1f}, 0.0f));
    const FootprintSupport none(raster, unitOf(shape));
    EXPECT_FALSE(none.supported({2.8f, 1.5f}, 0.0f));
    // Half the footprint allowed: only the centre needs ground.
    const FootprintSupport half(raster, unitOf(shape, 0.3f));
    EXPECT_TRUE(half.supported({2.98f, 1.5f}, 0.0f));
    EXPECT_FALSE(half.supported({3.1f, 1.5f}, 0.0f));
  }
}

TEST(FootprintSupport, NotOnAWallTopButOnABlockTop) {
  // A wall 0.3 thick (x 1.35..1.65) and 1 m high on a floor: centred on it,
  // the samples at x 1.2 and 1.8 find the floor 1 m below their neighbour on
  // the wall top, more than a step.
  Level wall;
  test::addFloor(wall, 0, 0, 3, 3, 0);
  test::addBox(wall, Aabb{{1.35f, 0, 0.5f}, {1.65f, 1, 2.5f}});
  const GroundRaster wallRaster = rasterOf(wall);
  // A block 2 m wide (x and z 0.5..2.5), 1 m high: its top holds the
  // footprint up to 0.3 from its edges.
  Level block;
  test::addFloor(block, 0, 0, 3, 3, 0);
  test::addBox(block, Aabb{{0.5f, 0, 0.5f}, {2.5f, 1, 2.5f}});
  const GroundRaster blockRaster = rasterOf(block);
  for (const UnitShape shape : kShapes) {
    SCOPED_TRACE(toString(shape));
    EXPECT_FALSE(FootprintSupport(wallRaster, unitOf(shape)).supported({1.5f, 1.5f}, 1.0f));
    const FootprintSupport onBlock(blockRaster, unitOf(shape));
    EXPECT_TRUE(onBlock.supported({1.5f, 1.5f}, 1.0f));
    EXPECT_TRUE(onBlock.supported({2.2f, 1.5f}, 1.0f));
    EXPECT_FALSE(onBlock.supported({2.3f, 1.5f}, 1.0f)) << "the sample at x 2.6 is on the floor";
  }
}

TEST(FootprintSupport, StairsAndRisers) {
  // Eight steps rising 0.2 with treads of 0.35 along +x: step k spans x
  // 0.35 k .. 0.35 (k + 1) with its top at 0.2 (k + 1). The footprint
  // (centre +- 0.3) rests on the highest step under it, k = floor((c + 0.3) / 0.35);
  // samples 0.3 apart, less than a tread, differ by one rise at most.
  Level stairs;
  test::addFloor(stairs, -1, 0, 4, 2, 0);
  for (int k = 0; k < 8; ++k) {
    test::addBox(stairs,
                 Aabb{{0.35f * float(k), 0, 0}, {0.35f * float(k + 1), 0.2f * float(k + 1), 2}});
  }
  const GroundRaster stairsRaster = rasterOf(stairs);
  // A riser of 0.4 or 0.6 at x = 1.5 on a floor; the centre at 1.45 keeps its
  // sample at 1.45 (0.05 from the riser, past the reach) on the floor and the
  // one at 1.75 on top: neighbours differ by the riser.
  const auto riser = [](float height) {
    Level level;
    test::addFloor(level, 0, 0, 3, 3, 0);
    test::addBox(level, Aabb{{1.5f, 0, 0}, {3, height, 3}});
    return level;
  };
  Level low = riser(0.4f), high = riser(0.6f);
  const GroundRaster lowRaster = rasterOf(low), highRaster = rasterOf(high);
  for (const UnitShape shape : kShapes) {
    SCOPED_TRACE(toString(shape));
    const FootprintSupport onStairs(stairsRaster, unitOf(shape));
    for (const float c : {1.0f, 1.5f, 2.0f}) {
      const float restY = 0.2f * (std::floor((c + 0.3f) / 0.35f) + 1.0f);
      EXPECT_TRUE(onStairs.supported({c, 1.0f}, restY)) << "centre " << c << " at " << restY;
    }
    EXPECT_TRUE(FootprintSupport(lowRaster, unitOf(shape)).supported({1.45f, 1.5f}, 0.4f));
    EXPECT_FALSE(FootprintSupport(highRaster, unitOf(shape)).supported({1.45f, 1.5f}, 0.6f));
  }
}

TEST(FootprintSupport, RampsUpToAStepBetweenSamples) {
  // Centred at x = 1.5 the footprint rests at its uphill edge, 1.8 tan(angle).
  // Samples 0.3 apart along the slope differ by 0.3 tan(angle): 0.25 at 40
  // degrees, 0.64 at 65, more than the 0.45 step (a unit stepping 0.7 stands).
  Level gentle, steep;
  addRamp(gentle, 40.0f);
  addRamp(steep, 65.0f);
  const GroundRaster gentleRaster = rasterOf(gentle), steepRaster = rasterOf(steep);
  const float gentleRest = 1.8f * std::tan(glm::radians(40.0f));
  const float steepRest = 1.8f * std::tan(glm::radians(65.0f));
  for (const UnitShape shape : kShapes) {
    SCOPED_TRACE(toString(shape));
    EXPECT_TRUE(FootprintSupport(gentleRaster, unitOf(shape)).supported({1.5f, 1.5f}, gentleRest));
    EXPECT_FALSE(FootprintSupport(steepRaster, unitOf(shape)).supported({1.5f, 1.5f}, steepRest));
    EXPECT_TRUE(FootprintSupport(steepRaster, unitOf(shape, 0.0f, 0.7f))
                    .supported({1.5f, 1.5f}, steepRest));
  }
}

TEST(FootprintSupport, ADiscFitsNearAHoleCornerWhereASquareDoesNot) {
  // An L-shaped floor round a square hole x, z < 0 (its corner at the
  // origin), the footprint centred at (d, d). The square's corner (d - 0.3,
  // d - 0.3) lies over the hole unless d >= 0.3 - 0.03 (reach). The disc of
  // radius 0.3 clears the hole's corner when d sqrt(2) >= 0.3, d >= 0.212;
  // its nearest sample, the rim point at 225 degrees, stands at
  // d - 0.212 on both axes. At d = 0.24 the disc fits and the square does
  // not; at 0.15 neither, at 0.35 both.
  Level hole;
  test::addFloor(hole, -3, 0, 3, 3, 0);
  test::addFloor(hole, 0, -3, 3, 0, 0);
  const GroundRaster holeRaster = rasterOf(hole);
  // At a convex corner of a floor, though, a disc needs as much room as a
  // square: its samples on its axes (d - 0.3, d) hang over the edges alike.
  Level floor;
  test::addFloor(floor, 0, 0, 3, 3, 0);
  const GroundRaster floorRaster = rasterOf(floor);
  const FootprintSupport boxAtHole(holeRaster, unitOf(UnitShape::Box));
  const FootprintSupport discAtHole(holeRaster, unitOf(UnitShape::Round));
  EXPECT_FALSE(boxAtHole.supported({0.15f, 0.15f}, 0.0f));
  EXPECT_FALSE(discAtHole.supported({0.15f, 0.15f}, 0.0f));
  EXPECT_FALSE(boxAtHole.supported({0.24f, 0.24f}, 0.0f));
  EXPECT_TRUE(discAtHole.supported({0.24f, 0.24f}, 0.0f));
  EXPECT_TRUE(boxAtHole.supported({0.35f, 0.35f}, 0.0f));
  EXPECT_TRUE(discAtHole.supported({0.35f, 0.35f}, 0.0f));
  for (const UnitShape shape : kShapes) {
    SCOPED_TRACE(toString(shape));
    const FootprintSupport atCorner(floorRaster, unitOf(shape));
    EXPECT_FALSE(atCorner.supported({0.24f, 0.24f}, 0.0f));
    EXPECT_TRUE(atCorner.supported({0.3f, 0.3f}, 0.0f));
  }
}

TEST(FootprintSupport, NotOverAPitUnderItsCentre) {
  // A unit 1.2 m wide stepping 0.45 m over a pit in a floor at 0: a terrace
  // at -0.4 (x, z 1 .. 2) round a hole at the pit's bottom (1.3 .. 1.7).
  // Centred at (1.5, 1.5) its samples, 0.3 apart, stand on the floor, the
  // terrace and the bottom: neighbours differ by 0.4 at most, and the floor
  // it rests on is under it. With the bottom at -0.8 (a step and more below
  // its feet) its centre stands on nothing; at -0.4 it stands on the terrace.
  const auto pit = [](float bottom) {
    Level level;
    test::addFloor(level, 0, 0, 3, 1, 0);
    test::addFloor(level, 0, 2, 3, 3, 0);
    test::addFloor(level, 0, 1, 1, 2, 0);
    test::addFloor(level, 2, 1, 3, 2, 0);
    test::addFloor(level, 1, 1, 2, 1.3f, -0.4f);
    test::addFloor(level, 1, 1.7f, 2, 2, -0.4f);
    test::addFloor(level, 1, 1.3f, 1.3f, 1.7f, -0.4f);
    test::addFloor(level, 1.7f, 1.3f, 2, 1.7f, -0.4f);
    test::addFloor(level, 1.3f, 1.3f, 1.7f, 1.7f, bottom);
    return level;
  };
  Level deep = pit(-0.8f), shallow = pit(-0.4f);
  const GroundRaster deepRaster = rasterOf(deep), shallowRaster = rasterOf(shallow);
  for (const UnitShape shape : kShapes) {
    SCOPED_TRACE(toString(shape));
    UnitProfile unit = unitOf(shape);
    unit.width = 1.2f;
    EXPECT_FALSE(FootprintSupport(deepRaster, unit).supported({1.5f, 1.5f}, 0.0f));
    EXPECT_TRUE(FootprintSupport(shallowRaster, unit).supported({1.5f, 1.5f}, 0.0f));
  }
}

}  // namespace
}  // namespace nav
