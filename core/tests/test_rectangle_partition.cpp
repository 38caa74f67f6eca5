// Minimum rectangle partitions checked against hand-counted optima, an
// exhaustive search on small random layouts and a greedy partition on large ones.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "rectangle_partition.h"

namespace nav {
namespace {

// Squares drawn as text: '#' is a square, anything else a gap; string i is row
// z = i. Neighbouring squares are joined unless a wall separates them.
class Layout final : public JoinedSquares {
 public:
  explicit Layout(const std::vector<std::string>& rows) {
    for (int z = 0; z < int(rows.size()); ++z) {
      for (int x = 0; x < int(rows[z].size()); ++x) {
        if (rows[z][x] == '#') add(x, z);
      }
    }
  }
  Layout() = default;

  void add(int x, int z) {
    m_index[{x, z}] = uint32_t(m_position.size());
    m_position.push_back({x, z});
  }
  /// Separates square (x, z) from its neighbour in direction d.
  void wall(int x, int z, Direction d) {
    m_walls.insert({x, z, int(d)});
    m_walls.insert({x + kDirectionDx[int(d)], z + kDirectionDz[int(d)], int(opposite(d))});
  }
  /// Renumbers the squares in a shuffled order (positions and joins unchanged).
  void shuffle(std::mt19937& random) {
    std::shuffle(m_position.begin(), m_position.end(), random);
    for (uint32_t i = 0; i < m_position.size(); ++i)
      m_index[m_position[i]] = i;
  }

  uint32_t squareCount() const override { return uint32_t(m_position.size()); }
  uint32_t joined(uint32_t square, Direction d) const override {
    const auto [x, z] = m_position[square];
    if (m_walls.count({x, z, int(d)})) return kNoCell;
    return at(x + kDirectionDx[int(d)], z + kDirectionDz[int(d)]);
  }

  uint32_t at(int x, int z) const {
    const auto found = m_index.find({x, z});
    return found == m_index.end() ? kNoCell : found->second;
  }
  std::pair<int, int> position(uint32_t square) const { return m_position[square]; }
  /// Every square, by row and then column.
  std::vector<uint32_t> order() const {
    std::vector<uint32_t> squares(m_position.size());
    for (uint32_t i = 0; i < squares.size(); ++i)
      squares[i] = i;
    std::sort(squares.begin(), squares.end(), [&](uint32_t a, uint32_t b) {
      return std::pair(m_position[a].second, m_position[a].first) <
             std::pair(m_position[b].second, m_position[b].first);
    });
    return squares;
  }

 private:
  std::vector<std::pair<int, int>> m_position;
  std::map<std::pair<int, int>, uint32_t> m_index;
  std::set<std::tuple<int, int, int>> m_walls;
};

// The pieces a partition leaves (squares connected through uncut joins), each
// as its sorted positions; a piece that is not a full rectangle fails the test.
std::set<std::vector<std::pair<int, int>>> pieces(const Layout& layout,
                                                  const RectanglePartition& partition) {
  std::set<std::vector<std::pair<int, int>>> found;
  std::vector<bool> seen(layout.squareCount(), false);
  for (uint32_t start = 0; start < layout.squareCount(); ++start) {
    if (seen[start]) continue;
    std::vector<uint32_t> open{start};
    std::vector<std::pair<int, int>> piece;
    seen[start] = true;
    while (!open.empty()) {
      const uint32_t s = open.back();
      open.pop_back();
      piece.push_back(layout.position(s));
      for (int d = 0; d < kDirectionCount; ++d) {
        const uint32_t next = partition.neighbor(s, Direction(d));
        if (next == kNoCell) continue;
        EXPECT_EQ(partition.neighbor(next, opposite(Direction(d))), s) << "cuts are mutual";
        if (!seen[next]) {
          seen[next] = true;
          open.push_back(next);
        }
      }
    }
    std::sort(piece.begin(), piece.end());
    const int width = piece.back().first - piece.front().first + 1;
    int zMin = piece.front().second, zMax = zMin;
    for (const auto& p : piece) {
      zMin = std::min(zMin, p.second);
      zMax = std::max(zMax, p.second);
    }
    EXPECT_EQ(size_t(width) * size_t(zMax - zMin + 1), piece.size())
        << "a piece at (" << piece.front().first << ", " << zMin << ") is not a rectangle";
    found.insert(std::move(piece));
  }
  return found;
}

size_t partitionCount(const Layout& layout) {
  const RectanglePartition partition(layout, SquareOrder(layout.order()));
  EXPECT_FALSE(partition.tangled());
  return pieces(layout, partition).size();
}

// True when (x, z) .. (x + w - 1, z + h - 1) are all squares joined to each other.
bool wholeRectangle(const Layout& layout, int x, int z, int w, int h) {
  for (int j = 0; j < h; ++j) {
    for (int i = 0; i < w; ++i) {
      const uint32_t s = layout.at(x + i, z + j);
      if (s == kNoCell) return false;
      if (i + 1 < w && layout.joined(s, Direction::PlusX) == kNoCell) return false;
      if (j + 1 < h && layout.joined(s, Direction::PlusZ) == kNoCell) return false;
    }
  }
  return true;
}

// Greedy rectangles: from the lowest free square, as wide as possible, then as tall.
size_t greedyCount(const Layout& layout) {
  std::set<std::pair<int, int>> taken;
  size_t count = 0;
  auto freeAt = [&](int x, int z) { return !taken.count({x, z}); };
  for (const uint32_t s : layout.order()) {
    const auto [x, z] = layout.position(s);
    if (!freeAt(x, z)) continue;
    int w = 1;
    while (freeAt(x + w, z) && wholeRectangle(layout, x, z, w + 1, 1))
      ++w;
    int h = 1;
    for (;; ++h) {
      bool rowFree = true;
      for (int i = 0; i < w; ++i)
        rowFree = rowFree && freeAt(x + i, z + h);
      if (!rowFree || !wholeRectangle(layout, x, z, w, h + 1)) break;
    }
    for (int j = 0; j < h; ++j) {
      for (int i = 0; i < w; ++i)
        taken.insert({x + i, z + j});
    }
    ++count;
  }
  return count;
}

// Fewest rectangles by exhaustive search: the lowest uncovered square is the
// first square of some rectangle; try them all, remembering covered sets.
size_t exhaustiveCount(const Layout& layout) {
  const std::vector<uint32_t> order = layout.order();
  const uint32_t n = layout.squareCount();
  std::map<uint32_t, size_t>
      best;  // covered set (bit per square) -> fewest rectangles for the rest
  auto search = [&](auto&& self, uint32_t covered) -> size_t {
    if (covered == (1u << n) - 1) return 0;
    if (const auto known = best.find(covered); known != best.end()) return known->second;
    uint32_t first = 0;
    while (covered & (1u << order[first]))
      ++first;
    const auto [x, z] = layout.position(order[first]);
    size_t fewest = n;
    for (int w = 1; layout.at(x + w - 1, z) != kNoCell; ++w) {
      for (int h = 1; layout.at(x, z + h - 1) != kNoCell; ++h) {
        if (!wholeRectangle(layout, x, z, w, h)) break;
        uint32_t cells = 0;
        for (int j = 0; j < h; ++j) {
          for (int i = 0; i < w; ++i)
            cells |= 1u << layout.at(x + i, z + j);
        }
        if (cells & covered) break;
        fewest = std::min(fewest, 1 + self(self, covered | cells));
      }
    }
    best[covered] = fewest;
    return fewest;
  };
  return search(search, 0);
}

TEST(RectanglePartition, KnownOptima) {
  struct Case {
    const char* name;
    std::vector<std::string> rows;
    size_t fewest;
  };
  const Case cases[] = {
      {"square", {"####", "####", "####"}, 1},
      {"L", {"####", "#...", "#...", "#..."}, 2},
      {"U", {"#..#", "#..#", "####"}, 3},
      {"plus", {".##.", "####", "####", ".##."}, 3},
      {"ring", {"#####", "#...#", "#...#", "#####"}, 4},
      {"staircase", {"#....", "##...", "###..", "####.", "#####"}, 5},
      {"H", {"#..#", "####", "#..#"}, 3},
      {"comb", {"#######", "#.#.#.#"}, 5},
      // Two notches facing each other: chords join their corners.
      {"notches", {"######", "######", ".####.", "######", "######"}, 3},
      {"hole", {"######", "######", "##..##", "######", "######"}, 4},
      {"three holes", {"#######", "#.#.#.#", "#######"}, 6},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const Layout layout(c.rows);
    EXPECT_EQ(exhaustiveCount(layout), c.fewest) << "the hand count is right";
    EXPECT_EQ(partitionCount(layout), c.fewest);
  }
}

TEST(RectanglePartition, WallsInsideTheSquares) {
  // A wall from the bottom edge half way up: its tip is cut straight on.
  Layout slit({"####", "####", "####", "####"});
  slit.wall(1, 0, Direction::PlusX);
  slit.wall(1, 1, Direction::PlusX);
  EXPECT_EQ(partitionCount(slit), 2u);
  // The same wall from the top edge: greedy, row by row, needs three.
  Layout fromTop({"#####", "#####", "#####", "#####", "#####"});
  fromTop.wall(1, 3, Direction::PlusX);
  fromTop.wall(1, 4, Direction::PlusX);
  EXPECT_EQ(partitionCount(fromTop), 2u);
  EXPECT_EQ(greedyCount(fromTop), 3u);
  // Two walls pointing at each other along one line: one chord joins their tips.
  Layout facing({"#####", "#####", "#####", "#####", "#####"});
  facing.wall(1, 0, Direction::PlusX);
  facing.wall(1, 4, Direction::PlusX);
  EXPECT_EQ(exhaustiveCount(facing), 2u);
  EXPECT_EQ(partitionCount(facing), 2u);
  // A wall standing free in the middle: each tip is cut on to the edge.
  Layout island({"#####", "#####", "#####", "#####"});
  island.wall(2, 1, Direction::PlusZ);
  island.wall(1, 1, Direction::PlusZ);
  EXPECT_EQ(exhaustiveCount(island), 2u);
  EXPECT_EQ(partitionCount(island), 2u);
}

TEST(RectanglePartition, OptimalOnSmallRandomLayouts) {
  std::mt19937 random(7);
  for (int trial = 0; trial < 1000; ++trial) {
    std::bernoulli_distribution holes(0.05 * (trial % 5)), walls(0.04 * (trial % 7));
    Layout layout;
    const int width = 3 + trial % 3, depth = 4;  // at most 20 squares for the exhaustive search
    for (int z = 0; z < depth; ++z) {
      for (int x = 0; x < width; ++x) {
        if (!holes(random)) layout.add(x, z);
      }
    }
    for (int z = 0; z < depth; ++z) {
      for (int x = 0; x < width; ++x) {
        if (walls(random)) layout.wall(x, z, Direction::PlusX);
        if (walls(random)) layout.wall(x, z, Direction::PlusZ);
      }
    }
    if (layout.squareCount() == 0) continue;
    SCOPED_TRACE(trial);
    EXPECT_EQ(partitionCount(layout), exhaustiveCount(layout));
  }
}

TEST(RectanglePartition, NeverWorseThanGreedyOnLargeRandomLayouts) {
  std::mt19937 random(11);
  size_t better = 0;
  for (int trial = 0; trial < 40; ++trial) {
    // Blobs of squares with scattered holes and walls, 40 x 30.
    std::bernoulli_distribution holes(0.03 + 0.01 * (trial % 5)), walls(0.02);
    Layout layout;
    for (int z = 0; z < 30; ++z) {
      for (int x = 0; x < 40; ++x) {
        if (!holes(random)) layout.add(x, z);
      }
    }
    for (int z = 0; z < 30; ++z) {
      for (int x = 0; x < 40; ++x) {
        if (walls(random)) layout.wall(x, z, Direction::PlusX);
        if (walls(random)) layout.wall(x, z, Direction::PlusZ);
      }
    }
    SCOPED_TRACE(trial);
    const size_t partition = partitionCount(layout), greedy = greedyCount(layout);
    EXPECT_LE(partition, greedy);
    better += partition < greedy;
  }
  EXPECT_GT(better, 30u) << "the partition usually beats greedy";
}

TEST(RectanglePartition, SamePiecesWhateverTheNumbering) {
  std::mt19937 random(3);
  std::bernoulli_distribution holes(0.1), walls(0.05);
  Layout layout;
  for (int z = 0; z < 20; ++z) {
    for (int x = 0; x < 25; ++x) {
      if (!holes(random)) layout.add(x, z);
    }
  }
  for (int z = 0; z < 20; ++z) {
    for (int x = 0; x < 25; ++x) {
      if (walls(random)) layout.wall(x, z, Direction::PlusX);
    }
  }
  const auto first = pieces(layout, RectanglePartition(layout, SquareOrder(layout.order())));
  layout.shuffle(random);
  EXPECT_EQ(pieces(layout, RectanglePartition(layout, SquareOrder(layout.order()))), first);
}

TEST(RectanglePartition, SquaresOnTwoFloors) {
  // Two floors over the same columns, joined by nothing: each is one piece.
  class TwoFloors final : public JoinedSquares {
   public:
    uint32_t squareCount() const override { return 2 * 16; }
    uint32_t joined(uint32_t square, Direction d) const override {
      const uint32_t floor = square / 16, x = square % 4, z = (square % 16) / 4;
      const int nx = int(x) + kDirectionDx[int(d)], nz = int(z) + kDirectionDz[int(d)];
      if (nx < 0 || nx > 3 || nz < 0 || nz > 3) return kNoCell;
      return floor * 16 + uint32_t(nz) * 4 + uint32_t(nx);
    }
  };
  const TwoFloors floors;
  std::vector<uint32_t> order;
  for (uint32_t row = 0; row < 4; ++row) {
    for (uint32_t x = 0; x < 4; ++x) {
      order.push_back(row * 4 + x);
      order.push_back(16 + row * 4 + x);
    }
  }
  const RectanglePartition partition(floors, SquareOrder(order));
  EXPECT_FALSE(partition.tangled());
  for (uint32_t s = 0; s < 32; ++s) {
    for (int d = 0; d < kDirectionCount; ++d) {
      EXPECT_EQ(partition.neighbor(s, Direction(d)), floors.joined(s, Direction(d))) << "no cuts";
    }
  }
}

TEST(RectanglePartition, ReportsJoinsThatDoNotClose) {
  // Going +x then +z from square 0 reaches square 3, going +z then +x square 4,
  // though both stand on the same grid position (cells on two floors).
  class Spiral final : public JoinedSquares {
   public:
    uint32_t squareCount() const override { return 5; }
    uint32_t joined(uint32_t square, Direction d) const override {
      using enum Direction;
      const uint32_t links[5][4] = {{1, 2, kNoCell, kNoCell},
                                    {kNoCell, 3, 0, kNoCell},
                                    {4, kNoCell, kNoCell, 0},
                                    {kNoCell, kNoCell, kNoCell, 1},
                                    {kNoCell, kNoCell, 2, kNoCell}};
      return links[square][int(d)];
    }
  };
  const Spiral spiral;
  const RectanglePartition partition(spiral, SquareOrder(5));
  EXPECT_TRUE(partition.tangled());
}

}  // namespace
}  // namespace nav
