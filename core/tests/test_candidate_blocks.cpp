// CandidateBlocks must list exactly what the collision tree lists for the same
// box, in the same order, whatever the box: small ones inside a block, ones
// straddling block edges, ones bigger than a block covers, far away ones.
#include <gtest/gtest.h>

#include <random>

#include "nav/candidate_blocks.h"
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

}  // namespace
}  // namespace nav
