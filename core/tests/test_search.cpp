#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <set>

#include "nav/locate.h"
#include "nav/path_pipeline.h"
#include "nav/path_solver.h"
#include "nav/search.h"
#include "path_measures.h"
#include "test_levels.h"
#include "test_queries.h"

namespace nav {
namespace {

// These tests cost paths by hand through portal midpoints: the fixed graph of
// PortalPoint::Midpoint (the default, Crossing, is checked on grid maps).
PathResult midpointPath(const NavGraph& graph, const glm::vec3& start, const glm::vec3& goal,
                        SearchOptions options = {}, SearchTrace* trace = nullptr) {
  options.portalPoint = PortalPoint::Midpoint;
  return findPath(graph, start, goal, options, trace);
}

// Builds NavGraphs by hand: rectangular sectors with a ground plane, and
// portals on shared edges whose left/right follow from the walking direction.
class GraphBuilder {
 public:
  UnitProfile& unit() { return m_graph.unit; }

  // Sector over [minX, maxX] x [minZ, maxZ] with ground y = slopeX*x + slopeZ*z + height.
  uint32_t addSector(float minX, float minZ, float maxX, float maxZ, float height,
                     float slopeX = 0.0f, float slopeZ = 0.0f) {
    Sector sector{};
    sector.heightPlane = {slopeX, slopeZ, height};
    sector.bounds.min = {minX, 0.0f, minZ};
    sector.bounds.max = {maxX, 0.0f, maxZ};
    float low = std::numeric_limits<float>::max(), high = -low;
    for (float x : {minX, maxX}) {
      for (float z : {minZ, maxZ}) {
        low = std::min(low, ground(sector, x, z));
        high = std::max(high, ground(sector, x, z));
      }
    }
    sector.bounds.min.y = low;
    sector.bounds.max.y = high;
    m_graph.sectors.push_back(sector);
    return uint32_t(m_graph.sectors.size() - 1);
  }

  // Portal from -> to over the ground segment a..b (on their shared edge); the
  // endpoints take the from side's ground height.
  void addPortal(uint32_t from, uint32_t to, glm::vec2 a, glm::vec2 b) {
    const Sector& fromSector = m_graph.sectors[from];
    const Sector& toSector = m_graph.sectors[to];
    // Walking from the centre of `from` towards the centre of `to`.
    const glm::vec2 walk =
        groundOf(toSector.bounds.center()) - groundOf(fromSector.bounds.center());
    const glm::vec2 mid = (a + b) * 0.5f;
    // Left of the walk when cross2(walk, p - mid) < 0 (Y up: left of +X is -Z).
    if (cross2(walk, a - mid) > 0.0f) std::swap(a, b);
    Portal portal{};
    portal.fromSector = from;
    portal.toSector = to;
    portal.left = {a.x, ground(fromSector, a.x, a.y), a.y};
    portal.right = {b.x, ground(fromSector, b.x, b.y), b.y};
    portal.reverse = kNoPortal;
    m_portals.push_back(portal);
  }

  void addTwoWay(uint32_t a, uint32_t b, glm::vec2 p, glm::vec2 q) {
    addPortal(a, b, p, q);
    addPortal(b, a, p, q);
  }

  NavGraph finish() {
    std::stable_sort(m_portals.begin(), m_portals.end(),
                     [](const Portal& a, const Portal& b) { return a.fromSector < b.fromSector; });
    for (Sector& sector : m_graph.sectors) {
      sector.firstPortal = uint32_t(m_portals.size());
      sector.portalCount = 0;
    }
    for (uint32_t i = 0; i < m_portals.size(); ++i) {
      Sector& sector = m_graph.sectors[m_portals[i].fromSector];
      sector.firstPortal = std::min(sector.firstPortal, i);
      ++sector.portalCount;
      for (uint32_t j = 0; j < m_portals.size(); ++j) {
        const bool backwards = m_portals[j].fromSector == m_portals[i].toSector &&
                               m_portals[j].toSector == m_portals[i].fromSector;
        const bool sameEdge = std::abs(m_portals[j].left.x - m_portals[i].right.x) < 1e-6f &&
                              std::abs(m_portals[j].left.z - m_portals[i].right.z) < 1e-6f;
        if (backwards && sameEdge) m_portals[i].reverse = j;
      }
    }
    m_graph.portals = m_portals;
    for (const Sector& sector : m_graph.sectors)
      m_graph.bounds.grow(sector.bounds);
    return m_graph;
  }

  static float ground(const Sector& sector, float x, float z) {
    return sector.heightPlane.x * x + sector.heightPlane.y * z + sector.heightPlane.z;
  }

 private:
  NavGraph m_graph;
  std::vector<Portal> m_portals;
};

constexpr double kInfinity = std::numeric_limits<double>::infinity();

double distance(const glm::vec3& a, const glm::vec3& b) {
  const glm::dvec3 d = glm::dvec3(a) - glm::dvec3(b);
  return std::sqrt(glm::dot(d, d));
}

// Plain O(V^2) Dijkstra over the explicit node graph: node 0 is the start, 1..P
// the portal midpoints, P+1 the goal. Returns infinity when unreachable.
double dijkstraCost(const NavGraph& graph, uint32_t startSector, const glm::vec3& start,
                    uint32_t goalSector, const glm::vec3& goal) {
  const size_t portalCount = graph.portals.size();
  const size_t nodeCount = portalCount + 2;
  const size_t goalNode = portalCount + 1;
  auto pointOf = [&](size_t node) {
    if (node == 0) return start;
    if (node == goalNode) return goal;
    const Portal& p = graph.portals[node - 1];
    return (p.left + p.right) * 0.5f;
  };
  std::vector<double> cost(nodeCount, kInfinity);
  std::vector<bool> done(nodeCount, false);
  cost[0] = 0.0;
  for (;;) {
    size_t best = nodeCount;
    for (size_t n = 0; n < nodeCount; ++n) {
      if (!done[n] && cost[n] < kInfinity && (best == nodeCount || cost[n] < cost[best])) best = n;
    }
    if (best == nodeCount || best == goalNode) break;
    done[best] = true;
    const uint32_t sector = best == 0 ? startSector : graph.portals[best - 1].toSector;
    for (size_t q = 0; q < portalCount; ++q) {
      if (graph.portals[q].fromSector != sector) continue;
      cost[q + 1] = std::min(cost[q + 1], cost[best] + distance(pointOf(best), pointOf(q + 1)));
    }
    if (sector == goalSector) {
      cost[goalNode] = std::min(cost[goalNode], cost[best] + distance(pointOf(best), goal));
    }
  }
  return cost[goalNode];
}

// Checks the corridor's shape and that its cost matches the path it describes.
void expectConsistentCorridor(const NavGraph& graph, const PathResult& result, uint32_t startSector,
                              uint32_t goalSector) {
  const Corridor& corridor = result.corridor;
  ASSERT_EQ(corridor.sectors.size(), corridor.portals.size() + 1);
  EXPECT_EQ(corridor.sectors.front(), startSector);
  EXPECT_EQ(corridor.sectors.back(), goalSector);
  double cost = 0.0;
  glm::vec3 at = corridor.start;
  for (size_t i = 0; i < corridor.portals.size(); ++i) {
    ASSERT_LT(corridor.portals[i], graph.portals.size());
    const Portal& portal = graph.portals[corridor.portals[i]];
    // A directed portal from sectors[i] to sectors[i+1]: one-way portals are never walked
    // backwards.
    EXPECT_EQ(portal.fromSector, corridor.sectors[i]);
    EXPECT_EQ(portal.toSector, corridor.sectors[i + 1]);
    cost += distance(at, portal.midpoint());
    at = portal.midpoint();
  }
  cost += distance(at, corridor.goal);
  EXPECT_NEAR(result.cost, cost, 1e-3);
}

// Three 2x2 sectors in a row along +X at y = 0, joined both ways over whole edges.
NavGraph rowOfThree() {
  GraphBuilder builder;
  builder.addSector(0, 0, 2, 2, 0);
  builder.addSector(2, 0, 4, 2, 0);
  builder.addSector(4, 0, 6, 2, 0);
  builder.addTwoWay(0, 1, {2, 0}, {2, 2});
  builder.addTwoWay(1, 2, {4, 0}, {4, 2});
  return builder.finish();
}

// Four 2x2 sectors in a ring: A(0) -> B(1) -> C(2) -> D(3) both ways, D -> A one-way.
NavGraph ringWithOneWay() {
  GraphBuilder builder;
  builder.addSector(0, 0, 2, 2, 0);
  builder.addSector(2, 0, 4, 2, 0);
  builder.addSector(2, 2, 4, 4, 0);
  builder.addSector(0, 2, 2, 4, 0);
  builder.addTwoWay(0, 1, {2, 0}, {2, 2});
  builder.addTwoWay(1, 2, {2, 2}, {4, 2});
  builder.addTwoWay(2, 3, {2, 2}, {2, 4});
  builder.addPortal(3, 0, {0, 2}, {2, 2});
  return builder.finish();
}

TEST(SearchBuilder, PortalSidesFollowTheWalk) {
  // Checks the test's own builder against the convention: walking +X, left is -Z.
  const NavGraph graph = rowOfThree();
  const Portal& forward = graph.portals[graph.sectors[0].firstPortal];
  EXPECT_EQ(forward.toSector, 1u);
  EXPECT_FLOAT_EQ(forward.left.z, 0.0f);
  EXPECT_FLOAT_EQ(forward.right.z, 2.0f);
  EXPECT_LT(triArea2({0, 0, 1}, {1, 0, 1}, forward.left), 0.0f);
  EXPECT_NE(forward.reverse, kNoPortal);
  EXPECT_EQ(graph.portals[forward.reverse].toSector, 0u);
  EXPECT_FLOAT_EQ(graph.portals[forward.reverse].left.z, 2.0f);
}

TEST(Search, PortalPointNamesRoundTrip) {
  for (PortalPoint point : kPortalPoints) {
    EXPECT_EQ(portalPointNamed(toString(point)), point) << toString(point);
  }
  EXPECT_EQ(portalPointNamed("sideways"), std::nullopt);
  EXPECT_EQ(portalPointNamed(""), std::nullopt);
  // Exact names only: front ends match case before asking.
  EXPECT_EQ(portalPointNamed("Exact"), std::nullopt);
}

TEST(Search, StraightRow) {
  const NavGraph graph = rowOfThree();
  const PathResult result = midpointPath(graph, {1, 0, 1}, {5, 0, 1});
  ASSERT_EQ(result.status, PathStatus::Found);
  // start -> (2,0,1) -> (4,0,1) -> goal.
  EXPECT_NEAR(result.cost, 4.0f, 1e-5);
  EXPECT_EQ(result.corridor.sectors, (std::vector<uint32_t>{0, 1, 2}));
  ASSERT_EQ(result.corridor.portals.size(), 2u);
  expectConsistentCorridor(graph, result, 0, 2);
}

TEST(Search, OneWayPortalIsNotWalkedBackwards) {
  const NavGraph graph = ringWithOneWay();
  // A to D cannot use D -> A: it goes round through B and C.
  const PathResult around = midpointPath(graph, {1, 0, 1}, {1, 0, 3});
  ASSERT_EQ(around.status, PathStatus::Found);
  EXPECT_EQ(around.corridor.sectors, (std::vector<uint32_t>{0, 1, 2, 3}));
  // (1,1) -> (2,1) -> (3,2) -> (2,3) -> (1,3).
  EXPECT_NEAR(around.cost, 2.0 + 2.0 * std::sqrt(2.0), 1e-5);
  expectConsistentCorridor(graph, around, 0, 3);

  // D to A uses the one-way portal directly: (1,3) -> (1,2) -> (1,1).
  const PathResult direct = midpointPath(graph, {1, 0, 3}, {1, 0, 1});
  ASSERT_EQ(direct.status, PathStatus::Found);
  EXPECT_EQ(direct.corridor.sectors, (std::vector<uint32_t>{3, 0}));
  EXPECT_NEAR(direct.cost, 2.0f, 1e-5);
  expectConsistentCorridor(graph, direct, 3, 0);
}

TEST(Search, GoalIsReachedWhenPoppedNotWhenSeen) {
  // Two ways into a 1 km goal sector: a portal at its far end from the goal,
  // reached first, and a slightly shorter way along a parallel corridor
  // entering beside the goal. With the 0.999 heuristic the far portal is
  // expanded first; stopping there would cost 0.7 m more.
  GraphBuilder builder;
  const uint32_t start = builder.addSector(-2, 0, 0, 4, 0);
  const uint32_t goal = builder.addSector(0, 0, 1000, 2, 0);
  const uint32_t side = builder.addSector(0, 2, 1000, 4, 0);
  builder.addPortal(start, goal, {0, 0}, {0, 0});
  builder.addPortal(start, side, {0, 2}, {0, 4});
  builder.addPortal(side, goal, {999, 2}, {999, 2});
  const NavGraph graph = builder.finish();
  const PathResult result = midpointPath(graph, {-1, 0, 2}, {999, 0, 1.9f});
  ASSERT_EQ(result.status, PathStatus::Found);
  EXPECT_EQ(result.corridor.sectors, (std::vector<uint32_t>{start, side, goal}));
  // (-1,2) -> (0,3) -> (999,2) -> (999,1.9).
  EXPECT_NEAR(result.cost, std::sqrt(2.0) + std::sqrt(999.0 * 999.0 + 1.0) + 0.1, 1e-3);
}

TEST(Search, UnreachableGoal) {
  GraphBuilder builder;
  builder.addSector(0, 0, 2, 2, 0);
  builder.addSector(2, 0, 4, 2, 0);
  builder.addSector(10, 0, 12, 2, 0);  // island
  builder.addPortal(1, 0, {2, 0}, {2, 2});
  const NavGraph graph = builder.finish();
  SearchOptions noPartial;
  noPartial.allowPartial = false;
  EXPECT_EQ(midpointPath(graph, {1, 0, 1}, {3, 0, 1}, noPartial).status, PathStatus::Unreachable);
  EXPECT_EQ(midpointPath(graph, {1, 0, 1}, {11, 0, 1}, noPartial).status, PathStatus::Unreachable);
  // By default: the path to the reachable point closest to the goal, here the
  // start's own sector (the portal only leads back into it), at its edge.
  const PathResult partial = midpointPath(graph, {1, 0, 1}, {3, 0, 1});
  EXPECT_EQ(partial.status, PathStatus::Partial);
  EXPECT_FALSE(partial.reason.empty());
  EXPECT_EQ(partial.corridor.sectors, (std::vector<uint32_t>{0}));
  EXPECT_NEAR(partial.corridor.goal.x, 2.0f, 1e-5);
  EXPECT_NEAR(partial.corridor.goal.z, 1.0f, 1e-5);
  const PathResult back = midpointPath(graph, {3, 0, 1}, {1, 0, 1});
  EXPECT_EQ(back.status, PathStatus::Found);
  EXPECT_NEAR(back.cost, 2.0f, 1e-5);
}

TEST(Search, OffMeshStartAndGoal) {
  const NavGraph graph = rowOfThree();
  const PathResult offStart = midpointPath(graph, {-5, 0, 1}, {5, 0, 1});
  EXPECT_EQ(offStart.status, PathStatus::StartOffMesh);
  EXPECT_TRUE(offStart.corridor.sectors.empty());
  EXPECT_EQ(midpointPath(graph, {1, 0, 1}, {5, 0, 9}).status, PathStatus::GoalOffMesh);
  // Far above the floor is off the mesh too.
  EXPECT_EQ(midpointPath(graph, {1, 0, 1}, {5, 10, 1}).status, PathStatus::GoalOffMesh);
  EXPECT_EQ(midpointPath(graph, {-5, 0, 1}, {5, 0, 9}).status, PathStatus::StartOffMesh);
  EXPECT_STREQ(toString(PathStatus::GoalOffMesh), "goal off mesh");
}

TEST(Search, SameSector) {
  const NavGraph graph = rowOfThree();
  const PathResult result = midpointPath(graph, {0.5f, 0.2f, 0.5f}, {1.5f, 0.0f, 1.5f});
  ASSERT_EQ(result.status, PathStatus::Found);
  EXPECT_EQ(result.corridor.sectors, (std::vector<uint32_t>{0}));
  EXPECT_TRUE(result.corridor.portals.empty());
  // The start is snapped to the ground.
  EXPECT_FLOAT_EQ(result.corridor.start.y, 0.0f);
  EXPECT_NEAR(result.cost, std::sqrt(2.0), 1e-5);
}

TEST(Search, SnapsStartAndGoalToTheGround) {
  GraphBuilder builder;
  builder.addSector(0, 0, 4, 2, 1.0f, 0.25f);  // y = 1 + x/4
  builder.addSector(4, 0, 8, 2, 2.0f);
  builder.addTwoWay(0, 1, {4, 0}, {4, 2});
  const NavGraph graph = builder.finish();
  const PathResult result = midpointPath(graph, {2, 1.7f, 1}, {6, 2.3f, 1});
  ASSERT_EQ(result.status, PathStatus::Found);
  EXPECT_NEAR(result.corridor.start.y, 1.5f, 1e-5);
  EXPECT_NEAR(result.corridor.goal.y, 2.0f, 1e-5);
  // (2,1.5,1) -> (4,2,1) -> (6,2,1).
  EXPECT_NEAR(result.cost, std::sqrt(4.25) + 2.0, 1e-5);
}

TEST(Search, TooManyExpansions) {
  const NavGraph graph = rowOfThree();
  SearchOptions options;
  options.maxExpansions = 1;
  const PathResult partial = midpointPath(graph, {1, 0, 1}, {5, 0, 1}, options);
  EXPECT_EQ(partial.status, PathStatus::Partial);
  EXPECT_NE(partial.reason.find("maxExpansions"), std::string::npos) << partial.reason;
  options.allowPartial = false;
  const PathResult limited = midpointPath(graph, {1, 0, 1}, {5, 0, 1}, options);
  EXPECT_EQ(limited.status, PathStatus::TooManyExpansions);
  EXPECT_LE(limited.expansions, 1u);
  options.maxExpansions = 100;
  EXPECT_EQ(midpointPath(graph, {1, 0, 1}, {5, 0, 1}, options).status, PathStatus::Found);
}

// The sectors the search's nodes lead into.
std::set<uint32_t> sectorsEntered(const NavGraph& graph, const SearchTrace& trace) {
  std::set<uint32_t> sectors;
  for (const SearchEvent& event : trace.events) {
    if (event.portal < graph.portals.size()) sectors.insert(graph.portals[event.portal].toSector);
  }
  return sectors;
}

// A bay off a hall (a sector whose only way out is back into the hall) is
// never on a shortest way: no search opens a node into it, unless the goal is in it.
TEST(Search, DeadEndsAreNotEntered) {
  GraphBuilder builder;
  builder.addSector(0, 0, 10, 4, 0);   // 0: the hall
  builder.addSector(4, 4, 6, 6, 0);    // 1: a bay north of it
  builder.addSector(10, 0, 12, 4, 0);  // 2: a room east of it
  builder.addTwoWay(0, 1, {4, 4}, {6, 4});
  builder.addTwoWay(0, 2, {10, 0}, {10, 4});
  NavGraph graph = builder.finish();
  finishGraphIndexes(graph);
  const glm::vec3 start{1, 0, 3.9f};
  for (PortalPoint method : {PortalPoint::Midpoint, PortalPoint::Crossing, PortalPoint::Exact}) {
    SCOPED_TRACE(toString(method));
    SearchOptions options;
    options.portalPoint = method;
    SearchTrace trace;
    const PathResult past = findPath(graph, start, {11, 0, 3.9f}, options, &trace);
    ASSERT_EQ(past.status, PathStatus::Found);
    EXPECT_EQ(past.corridor.sectors, (std::vector<uint32_t>{0, 2}));
    EXPECT_FALSE(sectorsEntered(graph, trace).contains(1)) << "a node into the bay";
    const PathResult into = findPath(graph, start, {5, 0, 5}, options);
    ASSERT_EQ(into.status, PathStatus::Found);
    EXPECT_EQ(into.corridor.sectors, (std::vector<uint32_t>{0, 1}));
  }
}

// A suite of two rooms off a hall, joined to each other and to the hall
// (neither room alone is a dead end), is never on a shortest way between
// points outside it: no search opens a node into it. A start or goal inside
// it opens it.
TEST(Search, DeadEndRegionsAreNotEntered) {
  GraphBuilder builder;
  builder.addSector(0, 0, 10, 4, 0);   // 0: the hall
  builder.addSector(4, 4, 6, 6, 0);    // 1: the suite's first room, north of the hall
  builder.addSector(6, 4, 8, 6, 0);    // 2: its second room, beside the first
  builder.addSector(10, 0, 12, 4, 0);  // 3: a room east of the hall
  builder.addTwoWay(0, 1, {4, 4}, {6, 4});
  builder.addTwoWay(0, 2, {6, 4}, {8, 4});
  builder.addTwoWay(1, 2, {6, 4}, {6, 6});
  builder.addTwoWay(0, 3, {10, 0}, {10, 4});
  NavGraph graph = builder.finish();
  finishGraphIndexes(graph);
  ASSERT_FALSE(graph.leadsOnlyBackTo(1, 0));
  ASSERT_FALSE(graph.leadsOnlyBackTo(2, 0));
  const glm::vec3 hall{1, 0, 3.9f}, east{11, 0, 3.9f}, suite{7, 0, 5};
  for (PortalPoint method : kPortalPoints) {
    SCOPED_TRACE(toString(method));
    SearchOptions options;
    options.portalPoint = method;
    SearchTrace trace;
    const PathResult past = findPath(graph, hall, east, options, &trace);
    ASSERT_EQ(past.status, PathStatus::Found);
    EXPECT_EQ(past.corridor.sectors, (std::vector<uint32_t>{0, 3}));
    EXPECT_EQ(sectorsEntered(graph, trace), (std::set<uint32_t>{3})) << "a node into the suite";
    const PathResult into = findPath(graph, hall, suite, options);
    ASSERT_EQ(into.status, PathStatus::Found);
    EXPECT_EQ(into.corridor.sectors.back(), 2u);
    const PathResult outOf = findPath(graph, suite, east, options);
    ASSERT_EQ(outOf.status, PathStatus::Found);
    EXPECT_EQ(outOf.corridor.sectors.back(), 3u);
  }
}

// Between two rooms of a suite off a hall, the way goes through the hall
// (the rooms' own door is at their far end) but never past it: no node
// opens beyond the hall, whose other side is no dead end.
TEST(Search, AWayWithinADeadEndRegionStaysInIt) {
  GraphBuilder builder;
  builder.addSector(10, 0, 12, 4, 0);  // 0: east of the hall, the first sector of the island
  builder.addSector(0, 0, 10, 4, 0);   // 1: the hall
  builder.addSector(4, 4, 6, 8, 0);    // 2: the suite's first room
  builder.addSector(6, 4, 8, 8, 0);    // 3: its second room
  builder.addSector(8, 4, 12, 6, 0);   // 4: north of the hall and of sector 0
  builder.addTwoWay(1, 0, {10, 0}, {10, 4});
  builder.addTwoWay(1, 2, {4, 4}, {6, 4});
  builder.addTwoWay(1, 3, {6, 4}, {8, 4});
  builder.addTwoWay(2, 3, {6, 7.5f}, {6, 8});
  builder.addTwoWay(1, 4, {8, 4}, {10, 4});
  builder.addTwoWay(0, 4, {10, 4}, {12, 4});
  NavGraph graph = builder.finish();
  finishGraphIndexes(graph);
  ASSERT_EQ(graph.deadEnds.smallestHolding(2, 3), 2u);
  for (PortalPoint method : kPortalPoints) {
    SCOPED_TRACE(toString(method));
    SearchOptions options;
    options.portalPoint = method;
    SearchTrace trace;
    const PathResult result = findPath(graph, {5, 0, 4.1f}, {7, 0, 4.1f}, options, &trace);
    ASSERT_EQ(result.status, PathStatus::Found);
    // Centroids stand far from the doors: that search takes the rooms' own.
    if (method != PortalPoint::Centroid) {
      EXPECT_EQ(result.corridor.sectors, (std::vector<uint32_t>{2, 1, 3}));
    }
    const std::set<uint32_t> entered = sectorsEntered(graph, trace);
    EXPECT_FALSE(entered.contains(0) || entered.contains(4)) << "a node past the hall";
  }
}

// A goal this query cannot reach (the only way there crosses lava it
// excludes): the partial path ends at the point nearest it, here in a bay (a
// dead end) that the searches skip while the goal may be reached. A goal no
// way reaches at all is known before searching (test_strong_components.cpp).
TEST(Search, APartialPathMayEndInADeadEnd) {
  GraphBuilder builder;
  builder.addSector(0, 0, 10, 4, 0);    // 0: the hall
  builder.addSector(4, 4, 6, 8, 0);     // 1: a bay north of it
  builder.addSector(6, 8, 10, 10, 0);   // 2: a room beyond the bay's corner
  builder.addSector(10, 0, 12, 10, 0);  // 3: lava, east of the hall and the room
  builder.addTwoWay(0, 1, {4, 4}, {6, 4});
  builder.addTwoWay(0, 3, {10, 0}, {10, 4});
  builder.addTwoWay(2, 3, {10, 8}, {10, 10});
  NavGraph graph = builder.finish();
  graph.surfaces = {{"floor", 1.0f}, {"lava", 1.0f}};
  graph.sectors[3].surface = 1;
  finishGraphIndexes(graph);
  ASSERT_TRUE(graph.leadsOnlyBackTo(1, 0));
  for (PortalPoint method : kPortalPoints) {
    SCOPED_TRACE(toString(method));
    SearchOptions options;
    options.portalPoint = method;
    options.filter.excludedSurfaces = {"lava"};
    const PathResult result = findPath(graph, {1, 0, 2}, {6.5f, 0, 8.5f}, options);
    ASSERT_EQ(result.status, PathStatus::Partial);
    EXPECT_EQ(result.corridor.sectors, (std::vector<uint32_t>{0, 1}));
    EXPECT_NEAR(result.corridor.goal.x, 6.0f, 0.01f);
    EXPECT_NEAR(result.corridor.goal.z, 8.0f, 0.01f);
  }
}

// A dead end that costs less a metre than the sector it leaves may be worth
// entering: a road beside a muddy hall, joined to it at both ends.
TEST(Search, ACheaperDeadEndIsEntered) {
  GraphBuilder builder;
  builder.addSector(0, 0, 10, 2, 0);   // 0: mud
  builder.addSector(0, 2, 10, 3, 0);   // 1: road, only back into the mud
  builder.addSector(10, 0, 12, 2, 0);  // 2: a room east of the mud
  builder.addTwoWay(0, 1, {0, 2}, {1, 2});
  builder.addTwoWay(0, 1, {9, 2}, {10, 2});
  builder.addTwoWay(0, 2, {10, 0}, {10, 2});
  NavGraph graph = builder.finish();
  graph.surfaces = {{"mud", 10.0f}, {"road", 1.0f}};
  graph.sectors[0].surface = 0;
  graph.sectors[1].surface = 1;
  graph.sectors[2].surface = 1;
  finishGraphIndexes(graph);
  ASSERT_TRUE(graph.leadsOnlyBackTo(1, 0)) << "the road is a dead end";
  for (PortalPoint method : {PortalPoint::Midpoint, PortalPoint::Crossing}) {
    SCOPED_TRACE(toString(method));
    SearchOptions options;
    options.portalPoint = method;
    const PathResult result = findPath(graph, {0.5f, 0, 1.9f}, {11, 0, 1}, options);
    ASSERT_EQ(result.status, PathStatus::Found);
    EXPECT_EQ(result.corridor.sectors, (std::vector<uint32_t>{0, 1, 0, 2}));
    EXPECT_LT(result.cost, 40.0f) << "9.5 m of mud would cost 95";
  }
}

// The same with the road in two pieces: a region off the mud, not a single dead end.
TEST(Search, ACheaperDeadEndRegionIsEntered) {
  GraphBuilder builder;
  builder.addSector(0, 0, 10, 2, 0);   // 0: mud
  builder.addSector(0, 2, 5, 3, 0);    // 1: road, west half
  builder.addSector(5, 2, 10, 3, 0);   // 2: road, east half
  builder.addSector(10, 0, 12, 2, 0);  // 3: a room east of the mud
  builder.addTwoWay(0, 1, {0, 2}, {1, 2});
  builder.addTwoWay(1, 2, {5, 2}, {5, 3});
  builder.addTwoWay(0, 2, {9, 2}, {10, 2});
  builder.addTwoWay(0, 3, {10, 0}, {10, 2});
  NavGraph graph = builder.finish();
  graph.surfaces = {{"mud", 10.0f}, {"road", 1.0f}};
  graph.sectors[0].surface = 0;
  for (uint32_t s : {1u, 2u, 3u})
    graph.sectors[s].surface = 1;
  finishGraphIndexes(graph);
  ASSERT_NE(graph.deadEnds.hangsOff(1) == 0, graph.deadEnds.hangsOff(2) == 0)
      << "the road is a region off the mud";
  for (PortalPoint method : {PortalPoint::Midpoint, PortalPoint::Crossing}) {
    SCOPED_TRACE(toString(method));
    SearchOptions options;
    options.portalPoint = method;
    const PathResult result = findPath(graph, {0.5f, 0, 1.9f}, {11, 0, 1}, options);
    ASSERT_EQ(result.status, PathStatus::Found);
    EXPECT_EQ(result.corridor.sectors, (std::vector<uint32_t>{0, 1, 2, 0, 3}));
    EXPECT_LT(result.cost, 40.0f) << "9.5 m of mud would cost 95";
  }
}

TEST(Search, TraceOnlyWhenAsked) {
  const NavGraph graph = ringWithOneWay();
  const PathResult plain = midpointPath(graph, {1, 0, 1}, {1, 0, 3});
  SearchTrace trace;
  const PathResult traced = midpointPath(graph, {1, 0, 1}, {1, 0, 3}, {}, &trace);
  EXPECT_EQ(plain.status, traced.status);
  EXPECT_EQ(plain.cost, traced.cost);
  EXPECT_EQ(plain.expansions, traced.expansions);
  EXPECT_EQ(plain.corridor.portals, traced.corridor.portals);

  ASSERT_FALSE(trace.events.empty());
  EXPECT_EQ(trace.events.front().kind, SearchEvent::Kind::Open);
  EXPECT_EQ(trace.events.front().portal, kNoPortal);
  EXPECT_EQ(trace.events.front().costSoFar, 0.0f);
  size_t closes = 0;
  float lastClosedEstimate = 0.0f;
  std::vector<bool> opened(graph.portals.size(), false);
  for (const SearchEvent& event : trace.events) {
    if (event.portal != kNoPortal) {
      ASSERT_LT(event.portal, graph.portals.size());
      // Open comes first for every node; later improvements are Reopen.
      EXPECT_EQ(opened[event.portal], event.kind != SearchEvent::Kind::Open);
      opened[event.portal] = true;
    }
    if (event.kind == SearchEvent::Kind::Close) {
      ++closes;
      // A consistent heuristic closes nodes in non-decreasing estimate order.
      EXPECT_GE(event.estimatedTotal, lastClosedEstimate - 1e-5f);
      lastClosedEstimate = event.estimatedTotal;
    }
  }
  EXPECT_EQ(closes, traced.expansions);
  for (uint32_t portal : traced.corridor.portals)
    EXPECT_TRUE(opened[portal]);

  // A second query appends to the same trace.
  const size_t before = trace.events.size();
  midpointPath(graph, {1, 0, 3}, {1, 0, 1}, {}, &trace);
  EXPECT_GT(trace.events.size(), before);
}

// A grid of rectangles with random sizes, holes, heights and slopes, joined by
// random sub-segments of their shared edges, some one-way, some zero width.
struct RandomGraph {
  NavGraph graph;
  std::vector<uint32_t> sectorIds;
};

RandomGraph randomGridGraph(std::mt19937& rng) {
  auto uniform = [&](float lo, float hi) {
    return std::uniform_real_distribution<float>(lo, hi)(rng);
  };
  auto chance = [&](double p) { return std::bernoulli_distribution(p)(rng); };
  const int columns = std::uniform_int_distribution<int>(2, 7)(rng);
  const int rows = std::uniform_int_distribution<int>(1, 6)(rng);
  std::vector<float> xs{0.0f}, zs{0.0f};
  for (int i = 0; i < columns; ++i)
    xs.push_back(xs.back() + float(int(uniform(1, 5))));
  for (int j = 0; j < rows; ++j)
    zs.push_back(zs.back() + float(int(uniform(1, 5))));

  GraphBuilder builder;
  std::vector<uint32_t> id(size_t(columns * rows), kNoSector);
  for (int j = 0; j < rows; ++j) {
    for (int i = 0; i < columns; ++i) {
      if (!chance(0.85)) continue;
      const bool sloped = chance(0.3);
      id[size_t(j * columns + i)] = builder.addSector(
          xs[size_t(i)], zs[size_t(j)], xs[size_t(i) + 1], zs[size_t(j) + 1], uniform(0, 2),
          sloped ? uniform(-0.1f, 0.1f) : 0.0f, sloped ? uniform(-0.1f, 0.1f) : 0.0f);
    }
  }
  auto connect = [&](uint32_t a, uint32_t b, glm::vec2 edgeFrom, glm::vec2 edgeTo) {
    if (a == kNoSector || b == kNoSector || !chance(0.85)) return;
    float t0 = uniform(0, 1), t1 = chance(0.1) ? t0 : uniform(0, 1);
    if (t0 > t1) std::swap(t0, t1);
    const glm::vec2 p = edgeFrom + (edgeTo - edgeFrom) * t0;
    const glm::vec2 q = edgeFrom + (edgeTo - edgeFrom) * t1;
    const float kind = uniform(0, 1);
    if (kind < 0.7f || kind >= 0.85f) builder.addPortal(a, b, p, q);
    if (kind < 0.85f) builder.addPortal(b, a, p, q);
  };
  for (int j = 0; j < rows; ++j) {
    for (int i = 0; i < columns; ++i) {
      const uint32_t here = id[size_t(j * columns + i)];
      const float x1 = xs[size_t(i) + 1], z0 = zs[size_t(j)], z1 = zs[size_t(j) + 1];
      if (i + 1 < columns) connect(here, id[size_t(j * columns + i + 1)], {x1, z0}, {x1, z1});
      if (j + 1 < rows) {
        connect(here, id[size_t((j + 1) * columns + i)], {xs[size_t(i)], z1}, {x1, z1});
      }
    }
  }
  RandomGraph result{builder.finish(), {}};
  for (uint32_t s : id) {
    if (s != kNoSector) result.sectorIds.push_back(s);
  }
  return result;
}

// A point strictly inside the sector, on its ground.
glm::vec3 randomPointIn(const Sector& sector, std::mt19937& rng) {
  auto inside = [&](float lo, float hi) {
    return std::uniform_real_distribution<float>(lo + 0.1f, hi - 0.1f)(rng);
  };
  const float x = inside(sector.bounds.min.x, sector.bounds.max.x);
  const float z = inside(sector.bounds.min.z, sector.bounds.max.z);
  return {x, GraphBuilder::ground(sector, x, z), z};
}

TEST(Search, MatchesDijkstraOnRandomGrids) {
  std::mt19937 rng(20240611);
  int found = 0, unreachable = 0;
  for (int trial = 0; trial < 400; ++trial) {
    RandomGraph random = randomGridGraph(rng);
    if (random.sectorIds.empty()) continue;
    const NavGraph& graph = random.graph;
    std::uniform_int_distribution<size_t> pick(0, random.sectorIds.size() - 1);
    const uint32_t startSector = random.sectorIds[pick(rng)];
    const uint32_t goalSector = random.sectorIds[pick(rng)];
    const glm::vec3 start = randomPointIn(graph.sectors[startSector], rng);
    const glm::vec3 goal = randomPointIn(graph.sectors[goalSector], rng);
    const double expected = dijkstraCost(graph, startSector, start, goalSector, goal);

    for (float scale : {0.999f, 1.0f}) {
      SCOPED_TRACE(testing::Message() << "trial " << trial << " scale " << scale);
      SearchOptions options;
      options.heuristicScale = scale;
      options.allowPartial = false;
      options.portalPoint = PortalPoint::Midpoint;  // the graph the Dijkstra above costs
      const PathResult result = midpointPath(graph, start, goal, options);
      if (expected == kInfinity) {
        EXPECT_EQ(result.status, PathStatus::Unreachable);
        continue;
      }
      ASSERT_EQ(result.status, PathStatus::Found);
      EXPECT_NEAR(result.cost, expected, 1e-3);
      expectConsistentCorridor(graph, result, startSector, goalSector);
    }
    ++(expected == kInfinity ? unreachable : found);
  }
  // The generator must exercise both outcomes.
  EXPECT_GT(found, 200);
  EXPECT_GT(unreachable, 10);
}

// The default search's path, costs made even, no longer in the ground
// plane than the exact search's times `most` (by default 0.5 % longer at most).
void expectAsShortAsTheExactSearch(const NavGraph& graph, const glm::vec3& start,
                                   const glm::vec3& goal, double most = 1.005) {
  SearchOptions options = test::uniformCosts(graph);
  PathAnswer exact, crossing;
  options.portalPoint = PortalPoint::Exact;
  planPath(graph, start, goal, options, {}, exact);
  options.portalPoint = PortalPoint::Crossing;
  planPath(graph, start, goal, options, {}, crossing);
  ASSERT_EQ(exact.search.status, PathStatus::Found) << exact.search.reason;
  ASSERT_EQ(crossing.search.status, PathStatus::Found) << crossing.search.reason;
  EXPECT_LE(test::groundLength(crossing.funnel.corners),
            test::groundLength(exact.funnel.corners) * most)
      << "crossing: " << test::describe(crossing.search.corridor)
      << "\nexact: " << test::describe(exact.search.corridor);
}

// Found on terrain 701 (unturned, round unit, Detour's settings): the way
// runs into a strip one cell wide and 44 m long, from several sectors beside
// it, and on through its long side. Arrivals on that side stood metres apart;
// compared by cost so far, a cheaper one further from the goal replaced one on
// the straight way, and the path came out 6.96 m against the exact 5.74 m.
TEST(Search, ArrivalsOnALongPortalCompareByTheWholeWay) {
  const Result<NavBuild> build = test::terrainOnChosenGrid(701, 0.0f, UnitShape::Round);
  ASSERT_TRUE(build.ok()) << build.error();
  expectAsShortAsTheExactSearch(build.value().graph, {38.744f, 1.511f, 30.722f},
                                {34.518f, 0.868f, 34.573f});
}

// The bundled showcase, costs made even, from the deck to the far side of
// the road: the way turns back across the deck's long edge towards the ramp,
// and the string started again from where it had crossed that edge heading
// for the goal, metres off; costed so, the ramp looked dearer than a way
// round, and the path came out 74.91 m against the exact search's 69.46 m.
TEST(Search, AWayThatTurnsBackStartsFromTheBestPointOfThePortal) {
  expectAsShortAsTheExactSearch(test::bundledBuild("showcase.obj").graph, {9.65f, 3.05f, 18.95f},
                                {33.65f, 0.05f, 35.45f});
}

// The showcase as the Detour comparison builds it, from the yard below the
// deck to the deck's east end, up the ramp that leaves the row at z 17.9
// between x 4.4 and 6.2. The search crossed that row far east, heading for
// the goal, and the way on turns back west along it. The best point of the
// crossed portal for that way lay outside what the string's apex saw, so the
// string started again from the node's own point, metres east; the ramp
// looked dearer than a way round through a strip in the west, and the path
// came out 50.31 m against the exact search's 43.76 m. The string now starts
// from the seen point nearest the best: 44.26 m against the exact 42.97 m
// (both turning past a wall's end on reaches), within 3.1 %.
TEST(Search, AWayThatTurnsBackStartsFromThePartOfThePortalTheStringSees) {
  const test::BuiltLevel s = test::builtForARoundUnit("showcase.obj");
  ASSERT_FALSE(s.build.graph.sectors.empty());
  expectAsShortAsTheExactSearch(s.build.graph, {11.244f, 0.2f, 10.92f}, {31.336f, 3.2f, 16.659f},
                                1.031);
}

TEST(Search, Deterministic) {
  std::mt19937 rng(7);
  const RandomGraph random = randomGridGraph(rng);
  const NavGraph& graph = random.graph;
  const glm::vec3 start = randomPointIn(graph.sectors[random.sectorIds.front()], rng);
  const glm::vec3 goal = randomPointIn(graph.sectors[random.sectorIds.back()], rng);
  SearchTrace first, second;
  const PathResult a = midpointPath(graph, start, goal, {}, &first);
  const PathResult b = midpointPath(graph, start, goal, {}, &second);
  EXPECT_EQ(a.cost, b.cost);
  EXPECT_EQ(a.corridor.portals, b.corridor.portals);
  ASSERT_EQ(first.events.size(), second.events.size());
  for (size_t i = 0; i < first.events.size(); ++i) {
    EXPECT_EQ(first.events[i].portal, second.events[i].portal);
    EXPECT_EQ(first.events[i].costSoFar, second.events[i].costSoFar);
  }
}

// Locate: a floor at y = 0 and a bridge over it at y = 3 (same x, z).
NavGraph floorAndBridge() {
  GraphBuilder builder;
  builder.addSector(0, 0, 10, 10, 0.0f);
  builder.addSector(4, 0, 6, 10, 3.0f);
  return builder.finish();
}

TEST(Locate, PicksTheFloorUnderTheBridge) {
  const NavGraph graph = floorAndBridge();  // human: step 0.45, height 1.8
  EXPECT_EQ(locateSector(graph, {5, 0.1f, 5}).sector, 0u);
  // Half way up: the bridge is out of step reach.
  EXPECT_EQ(locateSector(graph, {5, 1.5f, 5}).sector, 0u);
  EXPECT_EQ(locateSector(graph, {5, 3.2f, 5}).sector, 1u);
  // Just below the bridge deck: steps up onto it (the floor is beyond one unit height).
  const Location up = locateSector(graph, {5, 2.7f, 5});
  EXPECT_EQ(up.sector, 1u);
  EXPECT_FLOAT_EQ(up.point.y, 3.0f);
  EXPECT_FLOAT_EQ(up.point.x, 5.0f);
  EXPECT_FLOAT_EQ(up.point.z, 5.0f);
  // Beside the bridge only the floor is there.
  EXPECT_EQ(locateSector(graph, {2, 3.2f, 5}).sector, kNoSector);
  EXPECT_EQ(locateSector(graph, {2, 1.0f, 5}).sector, 0u);
}

TEST(Locate, OffMesh) {
  const NavGraph graph = floorAndBridge();
  EXPECT_EQ(locateSector(graph, {-1, 0, 5}).sector, kNoSector);
  EXPECT_EQ(locateSector(graph, {5, -1, 5}).sector, kNoSector);    // more than a step below
  EXPECT_EQ(locateSector(graph, {5, 5.0f, 5}).sector, kNoSector);  // more than a unit above
  EXPECT_EQ(locateSector(graph, {std::nanf(""), 0, 5}).sector, kNoSector);
  EXPECT_EQ(locateSector(NavGraph{}, {0, 0, 0}).sector, kNoSector);
}

TEST(Locate, EdgesAreInclusiveAndTiesPickTheLowerIndex) {
  GraphBuilder builder;
  builder.unit().stepHeight = 0.5f;
  builder.addSector(0, 0, 2, 2, 2.0f);
  builder.addSector(0, 0, 2, 2, 1.0f);
  const NavGraph graph = builder.finish();
  // 0.5 above one and 0.5 below the other.
  EXPECT_EQ(locateSector(graph, {1, 1.5f, 1}).sector, 0u);
  EXPECT_EQ(locateSector(graph, {2, 1.1f, 0}).sector, 1u);
}

TEST(Locate, SnapsToASlopeClampedToTheSectorHeights) {
  GraphBuilder builder;
  builder.addSector(0, 0, 4, 2, 0.0f, 0.1f);  // y = x / 10
  NavGraph graph = builder.finish();
  const Location on = locateSector(graph, {2, 0.5f, 1});
  EXPECT_EQ(on.sector, 0u);
  EXPECT_NEAR(on.point.y, 0.2f, 1e-6);
  graph.sectors[0].bounds.max.y = 0.3f;
  EXPECT_NEAR(locateSector(graph, {4, 0.5f, 1}).point.y, 0.3f, 1e-6);
}

// Portals over whole sides, as these hand-made graphs have them, meet at the
// sectors' corners, where crossing from one sector to the next costs nothing.
// The exact search still ends at once (each sector and point is expanded once)
// and finds the straight lines through the shared corner.
TEST(ExactSearchByHand, FourSectorsRoundACornerAndAOneWayEdge) {
  GraphBuilder b;
  const uint32_t s = b.addSector(-2, 0, 0, 2, 0), t = b.addSector(0, 0, 2, 2, 0);
  const uint32_t u = b.addSector(0, -2, 2, 0, 0), v = b.addSector(-2, -2, 0, 0, 0);
  const uint32_t w = b.addSector(2, -2, 4, 0, 0);
  b.addSector(10, 10, 12, 12, 0);  // out of reach
  b.addTwoWay(s, t, {0, 0}, {0, 2});
  b.addTwoWay(t, u, {0, 0}, {2, 0});
  b.addTwoWay(u, v, {0, -2}, {0, 0});
  b.addTwoWay(v, s, {-2, 0}, {0, 0});
  b.addTwoWay(u, w, {2, -2}, {2, 0});
  const NavGraph graph = b.finish();
  SearchOptions exact;
  exact.portalPoint = PortalPoint::Exact;
  exact.maxExpansions = 10'000;
  const glm::vec3 start{-1, 0, 1};
  const PathResult diagonal = findPath(graph, start, {1, 0, -1}, exact);
  ASSERT_EQ(diagonal.status, PathStatus::Found) << diagonal.reason;
  EXPECT_EQ(diagonal.portalPoint, PortalPoint::Exact);
  EXPECT_NEAR(diagonal.cost, std::sqrt(8.0f), 1e-4f);
  EXPECT_LT(diagonal.expansions, 100u);
  const PathResult far = findPath(graph, start, {3, 0, -1}, exact);
  ASSERT_EQ(far.status, PathStatus::Found) << far.reason;
  EXPECT_NEAR(far.cost, std::sqrt(4.0f * 4.0f + 2.0f * 2.0f), 1e-4f);
  const PathResult none = findPath(graph, start, {11, 0, 11}, exact);
  EXPECT_EQ(none.status, PathStatus::Partial);
  EXPECT_LT(none.expansions, 200u) << "the search must not go round the corner for ever";

  // S to T over the whole edge, T to S over its middle only: two one-way portals.
  GraphBuilder oneWay;
  const uint32_t a = oneWay.addSector(0, 0, 2, 2, 0), c = oneWay.addSector(2, 0, 4, 2, 0);
  const uint32_t d = oneWay.addSector(4, 0, 6, 2, 0);
  oneWay.addPortal(a, c, {2, 0}, {2, 2});
  oneWay.addPortal(c, a, {2, 0.5f}, {2, 1.5f});
  oneWay.addTwoWay(c, d, {4, 0}, {4, 2});
  const NavGraph line = oneWay.finish();
  const PathResult across = findPath(line, {1, 0, 1}, {5, 0, 1}, exact);
  ASSERT_EQ(across.status, PathStatus::Found) << across.reason;
  EXPECT_NEAR(across.cost, 4.0f, 1e-4f);
  EXPECT_LT(across.expansions, 100u);
}

}  // namespace
}  // namespace nav
