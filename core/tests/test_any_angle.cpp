// The exact search on grid maps against the Euclidean any-angle optimum,
// worked out without the graph: a visibility graph over the corners of the
// blocked tiles, with a line-of-sight test on the tiles themselves, and
// Dijkstra over it in double precision. The walker is a point that never
// passes through a blocked tile, along an edge between two blocked tiles, or
// through a corner where two blocked tiles touch diagonally.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <random>
#include <string>
#include <vector>

#include "nav/grid_map.h"
#include "nav/nav_build.h"
#include "nav/path_pipeline.h"
#include "test_grid_maps.h"
#include "test_levels.h"

namespace nav {
namespace {

struct Point {
  double x, y;
};

class AnyAngleOracle {
 public:
  explicit AnyAngleOracle(const GridMap& map) : m_map(map) {
    // Every grid vertex with a blocked and a free tile around it: the
    // corners a shortest path can turn at. Where two blocked tiles touch
    // diagonally the vertex is two corners, one for each free side: a way
    // turning there stays on its side.
    for (int32_t y = 0; y <= map.height; ++y) {
      for (int32_t x = 0; x <= map.width; ++x) {
        const Ring ring = ringAt(x, y);
        int free = 0;
        for (int k = 0; k < 4; ++k)
          free += ring.label[k] >= 0 ? 1 : 0;
        if (free == 0 || free == 4) continue;
        for (int k = 0; k < 4; ++k) {
          if (ring.label[k] == k) m_corners.push_back({{double(x), double(y)}, k});
        }
      }
    }
    const size_t n = m_corners.size();
    m_sees.assign(n * n, false);
    for (size_t i = 0; i < n; ++i) {
      for (size_t j = i + 1; j < n; ++j)
        m_sees[i * n + j] = m_sees[j * n + i] = joins(m_corners[i], m_corners[j]);
    }
  }

  /// Whether the straight way from a to b crosses no blocked tile and passes
  /// through no corner between two blocked tiles on the way.
  bool clear(Point a, Point b) const { return joins({a, -1}, {b, -1}); }

  /// The shortest any-angle length from a to b, or infinity; its corners
  /// (a and b included) into `path`.
  double shortest(Point a, Point b, std::vector<Point>& path) const {
    path = {a, b};
    const Corner from{a, -1}, to{b, -1};
    if ((a.x == b.x && a.y == b.y) || joins(from, to)) return length(a, b);
    const size_t n = m_corners.size();
    constexpr size_t kFromA = std::numeric_limits<size_t>::max();
    std::vector<double> distance(n, kInfinity);
    std::vector<size_t> parent(n, kFromA);
    using Entry = std::pair<double, size_t>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
    for (size_t i = 0; i < n; ++i) {
      if (!joins(from, m_corners[i])) continue;
      distance[i] = length(a, m_corners[i].at);
      open.push({distance[i], i});
    }
    double best = kInfinity;
    size_t last = kFromA;
    while (!open.empty()) {
      const auto [d, i] = open.top();
      open.pop();
      if (d > distance[i] || d >= best) continue;
      if (joins(m_corners[i], to) && d + length(m_corners[i].at, b) < best) {
        best = d + length(m_corners[i].at, b);
        last = i;
      }
      for (size_t j = 0; j < n; ++j) {
        if (!m_sees[i * n + j]) continue;
        const double via = d + length(m_corners[i].at, m_corners[j].at);
        if (via < distance[j]) {
          distance[j] = via;
          parent[j] = i;
          open.push({via, j});
        }
      }
    }
    path = {b};
    for (size_t i = last; i != kFromA; i = parent[i])
      path.push_back(m_corners[i].at);
    path.push_back(a);
    std::reverse(path.begin(), path.end());
    return best;
  }

 private:
  static constexpr double kInfinity = std::numeric_limits<double>::infinity();
  static constexpr double kEpsilon = 1e-9;

  static double length(Point a, Point b) { return std::hypot(b.x - a.x, b.y - a.y); }
  static bool whole(double v) { return std::abs(v - std::round(v)) < kEpsilon; }

  bool freeTile(int32_t x, int32_t y) const { return !m_map.isBlocked(x, y); }

  // The four tiles around a grid vertex, counter-clockwise from south-west,
  // each labelled with the first of the free tiles joined to it by edges at
  // the vertex (-1: blocked).
  struct Ring {
    std::pair<int32_t, int32_t> tile[4];
    int label[4];
    int labelOf(const std::pair<int32_t, int32_t>& t) const {
      for (int k = 0; k < 4; ++k)
        if (tile[k] == t) return label[k];
      return -1;
    }
  };
  Ring ringAt(int32_t vx, int32_t vy) const {
    Ring ring{{{vx - 1, vy - 1}, {vx, vy - 1}, {vx, vy}, {vx - 1, vy}}, {}};
    for (int k = 0; k < 4; ++k)
      ring.label[k] = freeTile(ring.tile[k].first, ring.tile[k].second) ? k : -1;
    // Neighbours around the ring share an edge at the vertex.
    for (int pass = 0; pass < 2; ++pass) {
      for (int k = 0; k < 4; ++k) {
        const int next = (k + 1) % 4;
        if (ring.label[k] >= 0 && ring.label[next] >= 0)
          ring.label[k] = ring.label[next] = std::min(ring.label[k], ring.label[next]);
      }
    }
    return ring;
  }

  // A place a way may turn at: a tile centre (side -1), or a grid vertex on
  // the side of its free tiles labelled `side` (Ring).
  struct Corner {
    Point at;
    int side;
  };

  // The free tiles a stretch of the segment lies in (its midpoint m): the tile
  // around m, or both tiles beside the grid line it runs along. Empty when
  // it crosses a blocked tile or runs between two.
  std::vector<std::pair<int32_t, int32_t>> tilesHolding(Point m) const {
    std::vector<std::pair<int32_t, int32_t>> tiles;
    const int32_t x = int32_t(std::floor(m.x)), y = int32_t(std::floor(m.y));
    if (whole(m.x)) {
      const int32_t line = int32_t(std::round(m.x));
      for (const int32_t tx : {line - 1, line})
        if (freeTile(tx, y)) tiles.push_back({tx, y});
    } else if (whole(m.y)) {
      const int32_t line = int32_t(std::round(m.y));
      for (const int32_t ty : {line - 1, line})
        if (freeTile(x, ty)) tiles.push_back({x, ty});
    } else if (freeTile(x, y)) {
      tiles.push_back({x, y});
    }
    return tiles;
  }

  // The side (Ring label) of grid vertex v that a stretch in `tiles` lies
  // on; -1 when v is no vertex.
  int sideAt(Point v, const std::vector<std::pair<int32_t, int32_t>>& tiles) const {
    if (!whole(v.x) || !whole(v.y)) return -1;
    return ringAt(int32_t(std::round(v.x)), int32_t(std::round(v.y))).labelOf(tiles.front());
  }

  // Whether the straight way from one corner to the other is free, leaving
  // and arriving on the corners' own sides.
  bool joins(const Corner& from, const Corner& to) const {
    const Point p = from.at, q = to.at;
    const double dx = q.x - p.x, dy = q.y - p.y;
    if (dx == 0.0 && dy == 0.0) return false;
    // Where the segment meets grid lines, as fractions of it.
    std::vector<double> cuts = {0.0, 1.0};
    if (dx != 0.0) {
      for (double x = std::ceil(std::min(p.x, q.x)); x <= std::max(p.x, q.x); x += 1.0)
        cuts.push_back((x - p.x) / dx);
    }
    if (dy != 0.0) {
      for (double y = std::ceil(std::min(p.y, q.y)); y <= std::max(p.y, q.y); y += 1.0)
        cuts.push_back((y - p.y) / dy);
    }
    std::sort(cuts.begin(), cuts.end());
    std::vector<double> t;
    for (const double c : cuts) {
      if (c >= 0.0 && c <= 1.0 && (t.empty() || c - t.back() > kEpsilon)) t.push_back(c);
    }
    const auto at = [&](double s) { return Point{p.x + dx * s, p.y + dy * s}; };
    std::vector<std::pair<int32_t, int32_t>> previous;
    for (size_t i = 0; i + 1 < t.size(); ++i) {
      const std::vector<std::pair<int32_t, int32_t>> holding =
          tilesHolding(at(0.5 * (t[i] + t[i + 1])));
      if (holding.empty()) return false;
      if (i == 0) {
        if (from.side >= 0 && sideAt(p, holding) != from.side) return false;
      } else {
        // Through a vertex: both stretches on one side of it.
        const Point v = at(t[i]);
        if (sideAt(v, previous) != sideAt(v, holding)) return false;
      }
      previous = holding;
    }
    return to.side < 0 || sideAt(q, previous) == to.side;
  }

  const GridMap& m_map;
  std::vector<Corner> m_corners;
  std::vector<bool> m_sees;
};

std::optional<NavGraph> buildGridGraph(const GridMap& map, float cellSize) {
  GridLevelOptions options;
  options.cellSize = cellSize;
  Result<Level> level = gridMapLevel(map, options);
  EXPECT_TRUE(level.ok()) << level.error();
  if (!level) return std::nullopt;
  std::optional<NavBuild> build = test::buildLevel(level.value());
  if (!build) return std::nullopt;
  return std::move(build->graph);
}

// The exact search's path between two tile centres, against the oracle:
// found exactly when the oracle finds a way, as long within 0.01 % + 1 mm
// (rounding; the issue asks for 0.1 %), each stretch clear of the blocks.
void expectAnyAngleOptimum(const NavGraph& graph, const AnyAngleOracle& oracle, glm::ivec2 a,
                           glm::ivec2 b, PathAnswer& answer) {
  std::vector<Point> corners;
  const double optimum =
      oracle.shortest({a.x + 0.5, a.y + 0.5}, {b.x + 0.5, b.y + 0.5}, corners);
  std::string expected = "shortest by";
  for (const Point& corner : corners)
    expected += " (" + std::to_string(corner.x) + ", " + std::to_string(corner.y) + ")";
  SearchOptions exact;
  exact.portalPoint = PortalPoint::Exact;
  planPath(graph, gridTileCenter(a.x, a.y), gridTileCenter(b.x, b.y), exact, {}, answer);
  SCOPED_TRACE("tiles (" + std::to_string(a.x) + ", " + std::to_string(a.y) + ") -> (" +
               std::to_string(b.x) + ", " + std::to_string(b.y) + "): " + expected);
  if (!std::isfinite(optimum)) {
    EXPECT_NE(answer.search.status, PathStatus::Found);
    return;
  }
  ASSERT_EQ(answer.search.status, PathStatus::Found) << answer.search.reason;
  EXPECT_EQ(answer.search.portalPoint, PortalPoint::Exact);
  EXPECT_NEAR(answer.funnel.length, optimum, 1e-4 * optimum + 1e-3);
  EXPECT_NEAR(answer.search.cost, optimum, 1e-4 * optimum + 1e-3);
  // Corners are block corners or tile centres, up to float rounding.
  const auto snapped = [](const glm::vec3& p) {
    const auto snap = [](float v) {
      const double half = std::round(double(v) * 2.0) / 2.0;
      return std::abs(double(v) - half) < 1e-4 ? half : double(v);
    };
    return Point{snap(p.x), snap(p.z)};
  };
  const std::vector<glm::vec3>& path = answer.funnel.corners;
  for (size_t i = 0; i + 1 < path.size(); ++i) {
    EXPECT_TRUE(oracle.clear(snapped(path[i]), snapped(path[i + 1])))
        << "stretch " << i << " (" << path[i].x << ", " << path[i].z << ") -> ("
        << path[i + 1].x << ", " << path[i + 1].z << ")";
  }
  // The other searches' paths are no shorter than the optimum, which the
  // exact search's therefore never exceeds either.
  for (const PortalPoint other : {PortalPoint::Crossing, PortalPoint::Midpoint}) {
    SearchOptions options;
    options.portalPoint = other;
    planPath(graph, gridTileCenter(a.x, a.y), gridTileCenter(b.x, b.y), options, {}, answer);
    ASSERT_EQ(answer.search.status, PathStatus::Found) << answer.search.reason;
    EXPECT_GE(answer.funnel.length, optimum - 1e-3) << toString(other);
  }
}

TEST(AnyAngle, ExactSearchIsTheOptimumOnRandomGridMaps) {
  std::mt19937 random(20261126);
  std::uniform_int_distribution<int> side(6, 14);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  PathAnswer answer;
  for (int m = 0; m < 60; ++m) {
    const int width = side(random), height = side(random);
    const GridMap map = test::randomGridMap(random, width, height, 0.1 + 0.3 * unit(random));
    std::vector<glm::ivec2> free;
    for (int32_t y = 0; y < height; ++y) {
      for (int32_t x = 0; x < width; ++x) {
        if (!map.isBlocked(x, y)) free.push_back({x, y});
      }
    }
    if (free.size() < 2) continue;
    // Both cell sizes: one cell a tile, and three a tile.
    const float cellSize = m % 2 == 0 ? 1.0f : 1.0f / 3.0f;
    const std::optional<NavGraph> graph = buildGridGraph(map, cellSize);
    ASSERT_TRUE(graph);
    const AnyAngleOracle oracle(map);
    SCOPED_TRACE("map " + std::to_string(m) + " (cell " + std::to_string(cellSize) + ")\n" +
                 test::gridRows(map));
    std::uniform_int_distribution<size_t> pick(0, free.size() - 1);
    for (int q = 0; q < 30; ++q)
      expectAnyAngleOptimum(*graph, oracle, free[pick(random)], free[pick(random)], answer);
  }
}

TEST(AnyAngle, ExactSearchIsTheOptimumOnTheArenaScenarios) {
  const Result<GridMap> map = loadGridMap(test::sharedFile("movingai/arena.map"));
  const Result<std::vector<GridScenario>> scenarios =
      loadGridScenarios(test::sharedFile("movingai/arena.map.scen"));
  if (!map || !scenarios) GTEST_SKIP() << "the shared Moving AI map is not here";
  const std::optional<NavGraph> graph = buildGridGraph(map.value(), 1.0f / 3.0f);
  ASSERT_TRUE(graph);
  const AnyAngleOracle oracle(map.value());
  PathAnswer answer;
  for (const GridScenario& scenario : scenarios.value()) {
    SCOPED_TRACE("arena.map.scen line " + std::to_string(scenario.line));
    expectAnyAngleOptimum(*graph, oracle, scenario.start, scenario.goal, answer);
  }
  EXPECT_EQ(scenarios.value().size(), 160u);
}

}  // namespace
}  // namespace nav
