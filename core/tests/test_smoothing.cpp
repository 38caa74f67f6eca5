#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "nav/funnel.h"
#include "nav/nav_build.h"
#include "nav/nav_draw.h"
#include "nav/path_solver.h"
#include "smoothing.h"
#include "test_levels.h"

namespace nav {
namespace {

void expectPoint(const glm::vec3& actual, const glm::vec3& expected, float tolerance = 1e-4f) {
  EXPECT_NEAR(actual.x, expected.x, tolerance);
  EXPECT_NEAR(actual.y, expected.y, tolerance);
  EXPECT_NEAR(actual.z, expected.z, tolerance);
}

// Hand-built graphs: ground sectors with a height plane y = a*x + b*z + c.
uint32_t addSector(NavGraph& graph, glm::vec2 min, glm::vec2 max, glm::vec3 plane = {0, 0, 0}) {
  Sector sector{};
  sector.heightPlane = plane;
  auto height = [&](float x, float z) { return plane.x * x + plane.y * z + plane.z; };
  const float low = std::min(
      {height(min.x, min.y), height(min.x, max.y), height(max.x, min.y), height(max.x, max.y)});
  const float high = std::max(
      {height(min.x, min.y), height(min.x, max.y), height(max.x, min.y), height(max.x, max.y)});
  sector.bounds.min = {min.x, low, min.y};
  sector.bounds.max = {max.x, high, max.y};
  sector.kind = SectorKind::Ground;
  sector.waypath = kNoWaypath;
  graph.sectors.push_back(sector);
  return uint32_t(graph.sectors.size() - 1);
}

uint32_t addPortal(NavGraph& graph, uint32_t from, uint32_t to, glm::vec3 left, glm::vec3 right,
                   Direction direction, PortalKind kind = PortalKind::Walk, uint32_t link = 0) {
  graph.portals.push_back({from, to, left, right, direction, kind, link, kNoPortal});
  return uint32_t(graph.portals.size() - 1);
}

bool inRectangles(const NavGraph& graph, const std::vector<uint32_t>& sectors, const glm::vec3& p,
                  float tolerance = 1e-4f) {
  for (uint32_t s : sectors) {
    const Aabb& b = graph.sectors[s].bounds;
    if (graph.sectors[s].kind != SectorKind::Waypath && p.x >= b.min.x - tolerance &&
        p.x <= b.max.x + tolerance && p.z >= b.min.z - tolerance && p.z <= b.max.z + tolerance)
      return true;
  }
  return false;
}

// Cubic Bezier by its Bernstein form.
glm::vec2 bezier(glm::vec2 p0, glm::vec2 c1, glm::vec2 c2, glm::vec2 p3, float t) {
  const float u = 1 - t;
  return u * u * u * p0 + 3 * u * u * t * c1 + 3 * u * t * t * c2 + t * t * t * p3;
}

// East along A = [0,4] x [0,2], then north up B = [4, 4 + width] x [0,8], round
// the inner corner (4, 2); cells of 0.3 m, so the portal spans z 0.15..1.85.
// B climbs 0.1 m per metre of z.
struct LCorridor {
  NavGraph graph;
  Corridor corridor;
};

LCorridor lCorridor(float width, glm::vec3 goal) {
  LCorridor l;
  l.graph.cellSize = 0.3f;
  addSector(l.graph, {0, 0}, {4, 2});
  addSector(l.graph, {4, 0}, {4 + width, 8}, {0, 0.1f, 0});
  // Walking +X, left is -Z.
  addPortal(l.graph, 0, 1, {4, 0, 0.15f}, {4, 0, 1.85f}, Direction::PlusX);
  l.corridor.start = {1, 0, 1};
  l.corridor.goal = goal;
  l.corridor.sectors = {0, 1};
  l.corridor.portals = {0};
  return l;
}

TEST(Smoothing, CurveThroughAnLTurn) {
  const LCorridor l = lCorridor(2.0f, {5, 0.7f, 7});
  const std::vector<glm::vec3> corners = pullCorridor(l.graph, l.corridor).corners;
  ASSERT_EQ(corners.size(), 3u);
  expectPoint(corners[1], {4, 0, 1.85f});

  SmoothingOptions options;
  options.samplesPerSegment = 8;
  options.controlReach = 0.3f;
  const std::vector<glm::vec3> samples = smoothPath(l.graph, l.corridor, corners, options);
  ASSERT_EQ(samples.size(), 17u);
  expectPoint(samples[0], corners[0], 0.0f);
  expectPoint(samples[8], corners[1], 0.0f);
  expectPoint(samples[16], corners[2], 0.0f);

  // By hand: the tangent at the corner bisects the turn from (3, 0.85) to
  // (1, 5.15); arms reach 0.3 of each stretch, meeting no wall (A's floor
  // z = 0 is 2.4 m back along the tangent, B's wall x = 6 is 2.9 m on).
  const glm::vec2 start(1, 1), corner(4, 1.85f), goal(5, 7);
  const glm::vec2 in = glm::normalize(corner - start), out = glm::normalize(goal - corner);
  const glm::vec2 tangent = glm::normalize(in + out);
  const float arm1 = 0.3f * glm::distance(start, corner), arm2 = 0.3f * glm::distance(corner, goal);
  for (int s = 1; s < 8; ++s) {
    const float t = float(s) / 8.0f;
    const glm::vec2 p = bezier(start, start + in * arm1, corner - tangent * arm1, corner, t);
    const glm::vec2 q = bezier(corner, corner + tangent * arm2, goal - out * arm2, goal, t);
    EXPECT_NEAR(samples[size_t(s)].x, p.x, 1e-4f);
    EXPECT_NEAR(samples[size_t(s)].z, p.y, 1e-4f);
    EXPECT_NEAR(samples[size_t(8 + s)].x, q.x, 1e-4f);
    EXPECT_NEAR(samples[size_t(8 + s)].z, q.y, 1e-4f);
  }
  // Heights follow the ground: flat in A, 0.1 per metre of z in B.
  for (size_t i = 1; i < 8; ++i)
    EXPECT_NEAR(samples[i].y, 0.0f, 1e-5f);
  for (size_t i = 9; i < 16; ++i)
    EXPECT_NEAR(samples[i].y, 0.1f * samples[i].z, 1e-5f);
  for (const glm::vec3& p : samples)
    EXPECT_TRUE(inRectangles(l.graph, {0, 1}, p));
}

TEST(Smoothing, ControlArmsStopAtWalls) {
  // B only 0.6 m wide: the arm along the corner's tangent meets its wall x = 4.6.
  const LCorridor l = lCorridor(0.6f, {4.3f, 0.7f, 7});
  const std::vector<glm::vec3> corners = pullCorridor(l.graph, l.corridor).corners;
  ASSERT_EQ(corners.size(), 3u);
  SmoothingOptions options;
  options.samplesPerSegment = 10;
  options.controlReach = 0.5f;
  const std::vector<glm::vec3> samples = smoothPath(l.graph, l.corridor, corners, options);
  ASSERT_EQ(samples.size(), 21u);

  const glm::vec2 start(1, 1), corner(4, 1.85f), goal(4.3f, 7);
  const glm::vec2 in = glm::normalize(corner - start), out = glm::normalize(goal - corner);
  const glm::vec2 tangent = glm::normalize(in + out);
  const float wanted = 0.5f * glm::distance(corner, goal);
  // Unclamped, the control point would stand beyond the wall, and so would the curve.
  const glm::vec2 unclamped = corner + tangent * wanted;
  ASSERT_GT(unclamped.x, 4.6f);
  float unclampedMaxX = 0.0f;
  for (int s = 1; s < 10; ++s) {
    const float t = float(s) / 10.0f;
    unclampedMaxX =
        std::max(unclampedMaxX, bezier(corner, unclamped, goal - out * wanted, goal, t).x);
  }
  EXPECT_GT(unclampedMaxX, 4.6f);
  // Clamped: the control point is where the tangent meets the wall x = 4.6.
  const glm::vec2 onWall = corner + tangent * ((4.6f - corner.x) / tangent.x);
  for (int s = 1; s < 10; ++s) {
    const float t = float(s) / 10.0f;
    const glm::vec2 q = bezier(corner, onWall, goal - out * wanted, goal, t);
    EXPECT_NEAR(samples[size_t(10 + s)].x, q.x, 1e-4f);
    EXPECT_NEAR(samples[size_t(10 + s)].z, q.y, 1e-4f);
  }
  for (const glm::vec3& p : samples)
    EXPECT_TRUE(inRectangles(l.graph, {0, 1}, p));
}

TEST(Smoothing, DeviceLegsAreNotCurvedAcross) {
  // Room A on the ground, room B 3 m up and 6 m away; a lift between them.
  NavGraph graph;
  graph.cellSize = 0.3f;
  addSector(graph, {0, 0}, {4, 4});
  addSector(graph, {10, 0}, {14, 4}, {0, 0, 3});
  graph.deviceLinks.push_back({0, Aabb{}, {3, 0, 2}, {11, 3, 2}, false});
  addPortal(graph, 0, 1, {3, 0, 2}, {3, 0, 2}, Direction::PlusX, PortalKind::Device, 0);
  Corridor corridor;
  corridor.start = {1, 0, 1};
  corridor.goal = {13, 3, 3};
  corridor.sectors = {0, 1};
  corridor.portals = {0};
  const std::vector<glm::vec3> corners = pullCorridor(graph, corridor).corners;
  ASSERT_EQ(corners.size(), 4u);
  SmoothingOptions options;
  options.samplesPerSegment = 5;
  const std::vector<glm::vec3> samples = smoothPath(graph, corridor, corners, options);
  // Each walk leg is one straight stretch; the lift is one step from entry to exit.
  ASSERT_EQ(samples.size(), 12u);
  expectPoint(samples[5], {3, 0, 2}, 0.0f);
  expectPoint(samples[6], {11, 3, 2}, 0.0f);
  for (size_t i = 0; i < samples.size(); ++i) {
    EXPECT_TRUE(inRectangles(graph, corridor.sectors, samples[i])) << i;
    // On the straight line between its leg's ends, on its room's floor.
    const glm::vec3& a = i <= 5 ? corridor.start : samples[6];
    const glm::vec3& b = i <= 5 ? samples[5] : corridor.goal;
    EXPECT_NEAR(cross2(groundOf(b) - groundOf(a), groundOf(samples[i]) - groundOf(a)), 0.0f, 1e-4f);
    EXPECT_NEAR(samples[i].y, i <= 5 ? 0.0f : 3.0f, 1e-5f);
  }
}

TEST(Smoothing, WaypathRidesComeOutAsTheirPoints) {
  NavGraph graph;
  graph.cellSize = 0.3f;
  addSector(graph, {0, 0}, {4, 4});
  addSector(graph, {0, 10}, {4, 14});
  WaypathSpec waypath;
  waypath.points = {{3, 0, 3}, {6, 0, 7}, {3, 0, 11}};
  graph.waypaths.push_back(waypath);
  Sector ride{};
  ride.kind = SectorKind::Waypath;
  ride.waypath = 0;
  graph.sectors.push_back(ride);
  addPortal(graph, 0, 2, waypath.points[0], waypath.points[0], Direction::PlusX,
            PortalKind::Waypath, 0);
  addPortal(graph, 2, 1, waypath.points[2], waypath.points[2], Direction::PlusX,
            PortalKind::Waypath, 2);
  Corridor corridor;
  corridor.start = {1, 0, 1};
  corridor.goal = {1, 0, 13};
  corridor.sectors = {0, 2, 1};
  corridor.portals = {0, 1};
  const std::vector<glm::vec3> corners = pullCorridor(graph, corridor).corners;
  ASSERT_EQ(corners.size(), 5u);
  SmoothingOptions options;
  options.samplesPerSegment = 4;
  const std::vector<glm::vec3> samples = smoothPath(graph, corridor, corners, options);
  ASSERT_EQ(samples.size(), 11u);
  expectPoint(samples[4], waypath.points[0], 0.0f);
  expectPoint(samples[5], waypath.points[1], 0.0f);
  expectPoint(samples[6], waypath.points[2], 0.0f);
}

TEST(Smoothing, DegenerateInput) {
  const LCorridor l = lCorridor(2.0f, {5, 0.7f, 7});
  EXPECT_TRUE(smoothPath(l.graph, l.corridor, {}).empty());
  // No corridor, or corners that are not its funnel's: back unchanged.
  const std::vector<glm::vec3> stray{{1, 0, 1}, {2, 0, 1.5f}, {5, 0.7f, 7}};
  const std::vector<glm::vec3> unchanged = smoothPath(l.graph, Corridor{}, stray);
  ASSERT_EQ(unchanged.size(), stray.size());
  for (size_t i = 0; i < stray.size(); ++i)
    expectPoint(unchanged[i], stray[i], 0.0f);
  const std::vector<glm::vec3> notFunnel = smoothPath(l.graph, l.corridor, stray);
  ASSERT_EQ(notFunnel.size(), stray.size());
  // Start and goal together: one point.
  Corridor still;
  still.start = still.goal = {1, 0, 1};
  still.sectors = {0};
  const std::vector<glm::vec3> one =
      smoothPath(l.graph, still, pullCorridor(l.graph, still).corners);
  ASSERT_EQ(one.size(), 1u);
  expectPoint(one[0], {1, 0, 1}, 0.0f);
  // A straight stretch stays on its line whatever the reach.
  Corridor straight = l.corridor;
  straight.goal = {5, 0.1f, 1};
  SmoothingOptions far;
  far.controlReach = 5.0f;  // clamped to 0.5
  for (const glm::vec3& p :
       smoothPath(l.graph, straight, pullCorridor(l.graph, straight).corners, far))
    EXPECT_NEAR(p.z, 1.0f, 1e-5f);
}

TEST(Smoothing, DrawsALineThroughTheSamples) {
  struct Recorder : DebugDraw {
    std::vector<std::pair<glm::vec3, glm::vec3>> lines;
    void line(const glm::vec3& a, const glm::vec3& b, Color) override { lines.push_back({a, b}); }
    void triangle(const glm::vec3&, const glm::vec3&, const glm::vec3&, Color) override {}
    void point(const glm::vec3&, float, Color) override {}
    void text(const glm::vec3&, std::string_view, Color) override {}
  } recorder;
  const std::vector<glm::vec3> samples{{0, 0, 0}, {1, 0, 0}, {2, 0, 1}};
  drawSmoothedPath(recorder, samples, colors::kSmoothedPath);
  ASSERT_EQ(recorder.lines.size(), 2u);
  EXPECT_NEAR(recorder.lines[1].second.x, 2.0f, 1e-6f);
  EXPECT_GT(recorder.lines[1].second.y, 0.0f);  // lifted off the ground
}

// Random queries on a bundled level: every sample inside the corridor's ground
// rectangles, every corner on the curve in order, every point on the ground.
void checkRandomQueries(const char* name) {
  SCOPED_TRACE(name);
  Result<Level> level = loadLevel(test::assetFile(name));
  ASSERT_TRUE(level.ok()) << level.error();
  const CollisionWorld world(level.value());
  Result<NavBuild> build = buildNavigation(level.value(), world, defaultFillParams(level.value()));
  ASSERT_TRUE(build.ok()) << build.error();
  const NavGraph& graph = build.value().graph;
  std::vector<uint32_t> ground;
  for (uint32_t s = 0; s < graph.sectors.size(); ++s)
    if (graph.sectors[s].kind == SectorKind::Ground) ground.push_back(s);

  std::mt19937 rng(20240611);
  auto randomPoint = [&] {
    const Sector& sector =
        graph.sectors[ground[std::uniform_int_distribution<size_t>(0, ground.size() - 1)(rng)]];
    const float x =
        std::uniform_real_distribution<float>(sector.bounds.min.x, sector.bounds.max.x)(rng);
    const float z =
        std::uniform_real_distribution<float>(sector.bounds.min.z, sector.bounds.max.z)(rng);
    return glm::vec3(x, graph.heightAt(sector, x, z) + 0.05f, z);
  };
  int paths = 0, turns = 0, rounded = 0;
  for (int query = 0; query < 200; ++query) {
    const PathResult path = findPath(graph, randomPoint(), randomPoint());
    if (path.status != PathStatus::Found && path.status != PathStatus::Partial) continue;
    SCOPED_TRACE(testing::Message() << "query " << query);
    ++paths;
    const std::vector<glm::vec3> corners = pullCorridor(graph, path.corridor).corners;
    const std::vector<glm::vec3> samples = smoothPath(graph, path.corridor, corners);
    ASSERT_FALSE(samples.empty());
    size_t nextCorner = 0;
    for (size_t i = 0; i < samples.size(); ++i) {
      const glm::vec3& p = samples[i];
      ASSERT_TRUE(inRectangles(graph, path.corridor.sectors, p))
          << "sample " << i << " (" << p.x << ", " << p.y << ", " << p.z << ")";
      // Corners come back where they are on the ground plane, on the ground.
      if (nextCorner < corners.size() && sameGroundPoint(samples[i], corners[nextCorner]))
        ++nextCorner;
      // On the ground of a corridor sector under it (test_smoothing_3d.cpp
      // checks that it is the right one).
      bool onGround = false;
      for (uint32_t s : path.corridor.sectors) {
        const Sector& sector = graph.sectors[s];
        if (inRectangles(graph, {s}, p) && std::abs(graph.heightAt(sector, p.x, p.z) - p.y) < 1e-4f)
          onGround = true;
      }
      EXPECT_TRUE(onGround) << "sample " << i;
    }
    EXPECT_EQ(nextCorner, corners.size()) << "the curve passes every corner";

    // How much the curve turns at a corner, against the polyline.
    for (size_t c = 1; c + 1 < corners.size(); ++c) {
      const glm::vec2 in = groundOf(corners[c]) - groundOf(corners[c - 1]);
      const glm::vec2 out = groundOf(corners[c + 1]) - groundOf(corners[c]);
      const float turn = std::atan2(std::abs(cross2(in, out)), glm::dot(in, out));
      if (turn < 0.2f || glm::length(in) < 0.5f || glm::length(out) < 0.5f) continue;
      const auto at = std::find_if(samples.begin(), samples.end(), [&](const glm::vec3& p) {
        return sameGroundPoint(p, corners[c]);
      });
      if (at == samples.end() || at == samples.begin() || at + 1 == samples.end()) continue;
      const glm::vec2 before = groundOf(*at) - groundOf(*(at - 1));
      const glm::vec2 after = groundOf(*(at + 1)) - groundOf(*at);
      ++turns;
      if (std::atan2(std::abs(cross2(before, after)), glm::dot(before, after)) < 0.5f * turn)
        ++rounded;
    }
  }
  EXPECT_GT(paths, 100);
  // Most corners are rounded; the rest were left straight to stay inside.
  EXPECT_GT(rounded, turns * 8 / 10) << rounded << " of " << turns << " corners rounded";
  testing::Test::RecordProperty(std::string(name) + " rounded", rounded);
  testing::Test::RecordProperty(std::string(name) + " turns", turns);
}

TEST(Smoothing, BezierSamplesInsideTheCorridor) {
  checkRandomQueries("showcase.obj");
  checkRandomQueries("funnel.obj");
}

}  // namespace
}  // namespace nav
