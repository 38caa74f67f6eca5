// Cells numbered row by row (CellGrid::numberRowMajor) against what the grid
// said of each cell before: its place, links, material, the cells its steps
// and falls lead to, all found again by place.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <tuple>
#include <vector>

#include "nav/cells.h"

namespace nav {
namespace {

using Place = std::tuple<int32_t, int32_t, float>;  // z, x, y: row-major order

Place placeOf(const CellGrid& grid, uint32_t i) {
  const Cell cell = grid[i];
  return {cell.z, cell.x, cell.y};
}

struct Seen {
  uint8_t links;
  uint16_t material;
  /// Where each direction's step leads (the cell's own place when nowhere).
  Place steps[kDirectionCount];
};

std::map<Place, Seen> describe(const CellGrid& grid) {
  std::map<Place, Seen> seen;
  for (uint32_t i = 0; i < grid.size(); ++i) {
    Seen s{grid[i].links, grid[i].material, {}};
    for (int d = 0; d < kDirectionCount; ++d) {
      const uint32_t next = grid.neighbor(i, Direction(d));
      s.steps[d] = placeOf(grid, next == kNoCell ? i : next);
    }
    seen[placeOf(grid, i)] = s;
  }
  return seen;
}

using FallSeen = std::tuple<Place, Direction, Place, uint8_t>;

std::vector<FallSeen> fallsOf(const CellGrid& grid) {
  std::vector<FallSeen> falls;
  for (const FallLink& fall : grid.falls())
    falls.emplace_back(placeOf(grid, fall.from), fall.direction, placeOf(grid, fall.to),
                       fall.columns);
  std::sort(falls.begin(), falls.end());
  return falls;
}

TEST(CellGrid, NumberedRowByRowEveryCellKeepsWhatItWas) {
  // Two floors 2.5 m apart over 40 x 40 columns from (-20, -20), across tile
  // borders and negative columns, added in a shuffled order.
  std::vector<Place> places;
  for (int32_t z = -20; z < 20; ++z) {
    for (int32_t x = -20; x < 20; ++x) {
      places.emplace_back(z, x, 0.1f * float((x + z) & 3));
      if ((x * 7 + z * 3) % 5 == 0) places.emplace_back(z, x, 2.5f + 0.1f * float(x & 1));
    }
  }
  std::mt19937 random(5);
  std::shuffle(places.begin(), places.end(), random);
  CellGrid grid(0.3f, {0.0f, 0.0f}, 0.45f, 3.0f);
  for (const auto& [z, x, y] : places)
    grid.add(x, z, y, uint16_t(random() % 4));
  for (uint32_t i = 0; i < grid.size(); ++i)
    grid.setLinks(i, uint8_t(random() % 16));
  grid.indexColumns();
  // Falls from some upper cells, three columns along +X down to the lower floor.
  for (uint32_t i = 0; i < grid.size(); ++i) {
    const Cell cell = grid[i];
    if (cell.y < 2.0f || cell.x + 3 >= 20) continue;
    const uint32_t below = grid.findInColumn(cell.x + 3, cell.z, -1.0f, 1.0f);
    if (below != kNoCell) grid.addFall({i, below, Direction::PlusX, 3});
  }
  ASSERT_GT(grid.falls().size(), 10u);
  const std::map<Place, Seen> before = describe(grid);
  const std::vector<FallSeen> fallsBefore = fallsOf(grid);

  grid.numberRowMajor();

  ASSERT_EQ(grid.size(), places.size());
  for (uint32_t i = 1; i < grid.size(); ++i)
    EXPECT_LT(placeOf(grid, i - 1), placeOf(grid, i)) << "cell " << i;
  const std::map<Place, Seen> after = describe(grid);
  ASSERT_EQ(after.size(), before.size());
  for (const auto& [place, seen] : before) {
    const auto found = after.find(place);
    ASSERT_NE(found, after.end());
    EXPECT_EQ(found->second.links, seen.links);
    EXPECT_EQ(found->second.material, seen.material);
    for (int d = 0; d < kDirectionCount; ++d)
      EXPECT_EQ(found->second.steps[d], seen.steps[d]) << "direction " << d;
  }
  EXPECT_EQ(fallsOf(grid), fallsBefore);
  for (const FallLink& fall : grid.falls()) {
    const FallLink* found = grid.fallFrom(fall.from, fall.direction);
    ASSERT_NE(found, nullptr);
    EXPECT_EQ(found->to, fall.to);
  }

  // A cell added afterwards, in a row before all others, comes first in the
  // row-major order although its number is the last.
  const uint32_t added = grid.add(0, -21, 0.0f, 0);
  const std::vector<uint32_t> order = grid.rowMajorOrder();
  ASSERT_EQ(order.size(), grid.size());
  EXPECT_EQ(order.front(), added);
  EXPECT_EQ(order[1], 0u);
}

}  // namespace
}  // namespace nav
