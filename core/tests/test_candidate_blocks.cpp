// CandidateBlocks must list exactly what the collision tree lists for the same
// box, in the same order, whatever the box: small ones inside a block, ones
// straddling block edges, ones bigger than a block covers, far away ones.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "candidate_blocks.h"
#include "nav/flood_fill.h"
#include "nav/stand_test.h"
#include "nav/terrain_generator.h"
#include "test_levels.h"

namespace nav {
namespace {

Level clutter(uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> position(-10.0f, 10.0f), corner(-1.5f, 1.5f);
  Level level;
  for (int i = 0; i < 2000; ++i) {
    const glm::vec3 center(position(rng), position(rng) * 0.3f, position(rng));
    const uint32_t base = uint32_t(level.vertices.size());
    for (int k = 0; k < 3; ++k)
      level.vertices.push_back(center + glm::vec3(corner(rng), corner(rng), corner(rng)));
    level.triangles.push_back({{base, base + 1, base + 2}, 0});
  }
  // Grid-aligned floors and walls: boxes touch their faces exactly.
  for (int i = -4; i < 4; ++i) {
    test::addFloor(level, float(i) * 2.4f, -9.6f, float(i + 1) * 2.4f, 9.6f, float(i % 3));
    test::addBox(level, Aabb{{float(i) * 2.4f, 0.0f, 1.2f}, {float(i) * 2.4f + 0.2f, 3.0f, 4.8f}});
  }
  test::finish(level);
  return level;
}

TEST(CandidateBlocks, SameTrianglesInTheSameOrderAsTheTree) {
  const Level level = clutter(5);
  const CollisionWorld world(level);
  const glm::vec3 querySize(1.2f, 5.8f, 1.2f);
  CandidateBlocks blocks(world, world.bounds().min, glm::vec3(2.4f, 1.8f, 2.4f), querySize);
  std::mt19937 rng(6);
  std::uniform_real_distribution<float> position(-12.0f, 12.0f), unit(0.0f, 1.0f);
  std::uniform_int_distribution<int> grid(-40, 40);
  std::vector<uint32_t> expected, actual;
  size_t listed = 0;
  for (int i = 0; i < 20000; ++i) {
    glm::vec3 low(position(rng), position(rng) * 0.3f, position(rng));
    if (i % 4 == 0)
      low =
          glm::vec3(float(grid(rng)) * 0.3f, float(grid(rng) % 8) * 0.45f, float(grid(rng)) * 0.3f);
    glm::vec3 size = querySize * glm::vec3(unit(rng), unit(rng), unit(rng));
    if (i % 4 == 1) size = querySize;                // the largest a block covers
    if (i % 50 == 2) size = querySize * 3.0f;        // larger: walks the tree itself
    if (i % 100 == 3) low += glm::vec3(1e4f, 0, 0);  // beyond the level
    const Aabb box{low, low + size};
    world.candidatesInBox(box, expected);
    blocks.candidatesInBox(box, actual);
    ASSERT_EQ(actual, expected) << "box " << i;
    listed += expected.size();
  }
  EXPECT_GT(listed, 20000u * 5u);
  EXPECT_LT(blocks.blocksGathered(), 20000u / 4u) << "blocks are reused";
}

// tryStand through blocks (as portal widening asks it) gives the answer the
// tree gives, for both shapes, with and without footprint support: where it
// stands, on which triangle, with which feet, and whether it hangs. On
// generated terrain: slopes, steps, walls, railings and holes.
TEST(CandidateBlocks, TryStandThroughBlocksAnswersAsTheTree) {
  TerrainParams terrain;
  terrain.seed = 3;
  std::ostringstream obj;
  ASSERT_TRUE(generateTerrain(terrain, obj).ok());
  const Level level = parseObj(obj.str(), "terrain 3").value();
  const CollisionWorld world(level);
  GroundRasterParams rasterParams;
  rasterParams.squareSize = 0.3f;
  rasterParams.origin = glm::vec2(world.bounds().min.x, world.bounds().min.z);
  const GroundRaster ground = GroundRaster::build(level, rasterParams).value();
  std::mt19937 rng(8);
  std::uniform_real_distribution<float> x(world.bounds().min.x, world.bounds().max.x),
      z(world.bounds().min.z, world.bounds().max.z), jitter(-0.5f, 0.5f);
  size_t stood = 0, hung = 0;
  for (const UnitShape shape : {UnitShape::Box, UnitShape::Round}) {
    UnitProfile unit;
    unit.shape = shape;
    unit.width = 1.2f;
    unit.height = 2.0f;
    unit.stepHeight = 0.9f;
    const FootprintSupport support(ground, unit);
    CandidateBlocks blocks(world, world.bounds().min, glm::vec3(2.4f, unit.height, 2.4f),
                           glm::vec3(1.8f, unit.height + 2.0f, 1.8f));
    for (int i = 0; i < 3000; ++i) {
      const glm::vec2 at(x(rng), z(rng));
      // Round the ground under the point; every other window is taller than the blocks serve.
      const std::optional<RayHit> down =
          world.raycast(glm::vec3(at.x, world.bounds().max.y + 1.0f, at.y), {0, -1, 0}, 1e3f);
      const float surface = down ? down->point.y : 0.0f;
      const float low = surface - unit.stepHeight + jitter(rng);
      const float high = low + (i % 2 ? 1.8f : 2.6f);
      const FootprintSupport* supported = i % 3 == 0 ? nullptr : &support;
      const StandResult tree = tryStand(world, unit, at, low, high, {}, supported);
      const StandResult near = tryStand(world, unit, at, low, high, {}, supported, &blocks);
      ASSERT_EQ(near.ok, tree.ok) << "query " << i;
      ASSERT_EQ(near.hangs, tree.hangs) << "query " << i;
      hung += tree.hangs;
      if (!tree.ok) continue;
      EXPECT_EQ(near.y, tree.y) << "query " << i;
      EXPECT_EQ(near.triangle, tree.triangle) << "query " << i;
      EXPECT_EQ(near.feet, tree.feet) << "query " << i;
      ++stood;
    }
  }
  EXPECT_GT(stood, 2000u) << "the unit stood often enough for the test to mean something";
  EXPECT_GT(hung, 20u);
}

}  // namespace
}  // namespace nav
