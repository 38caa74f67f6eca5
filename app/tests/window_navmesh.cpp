// A navigation mesh opened in the real window: assets/navmesh_plaza.obj, whose
// sidecar says "navmesh": true, shows its polygons; clicks set a start and a
// goal on either side of its two holes; the A* is stepped to its last
// expansion and the funnel to the goal; the printed state and the screenshot's
// pixels are checked.
#include <cstdio>

#include "window_test_support.h"

namespace {

using namespace window_test;

// nav::colors::kSectorOutline: the polygons' edges.
constexpr int kOutlineColor[3] = {20, 60, 90};

TEST(WindowNavMesh, ClickedPathOnANavMeshStepsThroughTheSearchAndTheFunnel) {
  requireDisplay();
  namespace fs = std::filesystem;
  const fs::path screenshot = prepareOutput("window_navmesh") / "navmesh.png";
  fs::remove(screenshot);
  const std::string level = std::string(NAVSCOPE_ASSETS_DIR) + "/navmesh_plaza.obj";
  ASSERT_TRUE(fs::exists(level)) << level;
  // The sidecar's path runs corner to corner; the app starts with a short one
  // elsewhere, so the path near the clicked places can only come from the clicks.
  const Point3 start{1.5f, 0.06f, 1.5f};
  const Point3 goal{16.5f, 0.66f, 16.5f};
  const Session session = runSession(
      shellQuote(level) +
          " --size 1280x720 --print-state --frames 900 --start 16.5,0.71,1.5 --goal 16.5,0.71,3"
          " --probe 1.5,0.06,1.5 --probe 16.5,0.66,16.5 --screenshot " +
          shellQuote(screenshot.string()),
      2, [](const std::string& window, const std::vector<Pixel>& probes) {
        const std::string key = std::string(NAVSCOPE_XDOTOOL) + " key --window " + window;
        // Home: the search's first expansion; Right, again and again: each next
        // one, past the last into the funnel; End: the funnel's goal. A Home
        // handled in the frame that takes the goal click is undone by the new
        // path: on a loaded machine frames are slow, so wait a second.
        return clickStartAndGoal(window, probes) && run("sleep 1") &&
               run(key + " Home") && run(key + " --repeat 60 --delay 40 Right") &&
               run(key + " End") && run("sleep 0.5");
      });
  ASSERT_TRUE(ranCleanly(session, 2));

  const std::string build = lastLine(session.lines, "build unit=");
  EXPECT_NE(build.find(" graph=navmesh"), std::string::npos) << session.transcript;
  EXPECT_NE(build.find(" sectors=35 "), std::string::npos) << build;
  ASSERT_TRUE(clickedAt(session, start, goal));
  EXPECT_EQ(lastLine(session.lines, "path ").rfind("path status=found ", 0), 0u)
      << session.transcript;
  // The straight line crosses both holes: between them, round the first's
  // corner (6, 3) and the second's (9, 12), the shortest way (22.99 m, as the
  // exact search goes; round (3, 9) alone is 23.09 m).
  const std::vector<Point3> corners = lastCorners(session.lines);
  ASSERT_EQ(corners.size(), 4u) << session.transcript;
  EXPECT_NEAR(corners[1].x, 6.0f, 1e-3f);
  EXPECT_NEAR(corners[1].z, 3.0f, 1e-3f);
  EXPECT_NEAR(corners[2].x, 9.0f, 1e-3f);
  EXPECT_NEAR(corners[2].z, 12.0f, 1e-3f);

  // Some search step showed the last expansion.
  bool lastExpansion = false;
  for (const std::string& line : session.lines) {
    unsigned shown = 0, total = 0;
    if (std::sscanf(line.c_str(), "search step=%u/%u", &shown, &total) == 2)
      lastExpansion |= total > 1 && shown == total;
  }
  EXPECT_TRUE(lastExpansion) << session.transcript;
  const std::string funnel = lastLine(session.lines, "funnel ");
  unsigned shown = 0, total = 0;
  ASSERT_EQ(std::sscanf(funnel.c_str(), "funnel step=%u/%u", &shown, &total), 2)
      << session.transcript;
  EXPECT_EQ(shown, total) << funnel;
  EXPECT_NE(funnel.find("event=goal"), std::string::npos) << funnel;

  const Image image(screenshot.string());
  ASSERT_TRUE(image.loaded()) << screenshot;
  EXPECT_GE(image.countPath(session.probes[0], 30), 40) << "path at the start";
  EXPECT_GE(image.countPath(session.probes[1], 30), 40) << "path at the goal";
  // 34 faces' edges, drawn between the side panels.
  EXPECT_GE(image.countColorIn(kOutlineColor, 290, 20, 990, 720), 500) << "polygon outlines";
}

}  // namespace
