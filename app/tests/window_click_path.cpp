// Runs the real navscope window on the funnel level, clicks a start (left
// button) and a goal (right button) on floor points located with --probe, and
// checks the screenshot and the printed state: the path colour must appear
// around both clicked places, and the path must be reported found. Also the
// showcase's stairs, the search modes, and the path's clearance.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include "window_test_support.h"

namespace {

using namespace window_test;

TEST(WindowClickPath, ClicksSetStartAndGoalAndTheFoundPathIsDrawnBetweenThem) {
  requireDisplay();
  namespace fs = std::filesystem;
  const fs::path screenshot = prepareOutput("window_click_path") / "after_clicks.png";
  fs::remove(screenshot);

  // Lane 2 and lane 4 of the serpentine; the path between them winds around two
  // baffles. The app starts with a short path far from both (in lane 5), so the
  // path colour near the clicked places can only come from the clicks.
  const Point3 start{6.0f, 0.0f, 2.0f};
  const Point3 goal{14.0f, 0.0f, 2.0f};
  const std::string level = std::string(NAVSCOPE_ASSETS_DIR) + "/funnel.obj";
  ASSERT_TRUE(fs::exists(level)) << level;
  const Session session =
      runSession(shellQuote(level) +
                     " --size 1280x720 --print-state --frames 420 --start 18,0,1.5 --goal 18,0,3"
                     " --probe 6,0,2 --probe 14,0,2 --screenshot " +
                     shellQuote(screenshot.string()),
                 2, clickStartAndGoal);
  ASSERT_TRUE(ranCleanly(session, 2));

  const auto printed = clickedAt(session, start, goal);
  ASSERT_TRUE(printed);
  EXPECT_EQ(lastLine(session.lines, "path ").rfind("path status=found ", 0), 0u)
      << session.transcript;

  const Image image(screenshot.string());
  ASSERT_TRUE(image.loaded()) << screenshot;
  const std::vector<Pixel>& probes = session.probes;
  // A 4-pixel line leaving each place covers well over 40 pixels within 30 of it.
  EXPECT_GE(image.countPath(probes[0], 30), 40) << "start at " << probes[0].x << "," << probes[0].y;
  EXPECT_GE(image.countPath(probes[1], 30), 40) << "goal at " << probes[1].x << "," << probes[1].y;
  EXPECT_GE(image.countPath({0, 0}, -1), 1000) << "the whole path";
}

// The default level: a click on the plaza (ground floor) and one on the East
// upper floor give a path up the stairs, and End steps the funnel to its goal.
TEST(WindowClickPath, ShowcaseGroundToUpperFloorClimbsTheStairsAndTheFunnelReachesTheGoal) {
  requireDisplay();
  namespace fs = std::filesystem;
  const fs::path screenshot = prepareOutput("window_showcase") / "after_clicks.png";
  fs::remove(screenshot);
  const std::string level = std::string(NAVSCOPE_ASSETS_DIR) + "/showcase.obj";
  ASSERT_TRUE(fs::exists(level)) << level;
  const Point3 start{20.0f, 0.0f, 24.0f};  // plaza, open sky
  const Point3 goal{32.0f, 3.0f, 6.0f};    // East upper floor
  const Session session = runSession(
      shellQuote(level) +
          " --size 1280x720 --print-state --frames 480 --start 2,0.05,38 --goal 2,0.05,39"
          " --probe 20,0,24 --probe 32,3,6 --screenshot " +
          shellQuote(screenshot.string()),
      2, [](const std::string& window, const std::vector<Pixel>& probes) {
        const std::string xdotool = NAVSCOPE_XDOTOOL;
        return click(window, probes[0], 1) && click(window, probes[1], 3) &&
               run(xdotool + " key --window " + window + " End") && run("sleep 0.5");
      });
  ASSERT_TRUE(ranCleanly(session, 2));

  const auto printed = clickedAt(session, start, goal);
  ASSERT_TRUE(printed);
  EXPECT_NEAR(printed->second.y, 3.0f, 0.1f) << "the goal click must land on the upper floor";
  EXPECT_EQ(lastLine(session.lines, "path ").rfind("path status=found ", 0), 0u)
      << session.transcript;

  // The stairs climb from (x 4..6.4, z 17) up to (x 4..6.4, z 12.1): the path
  // must turn there, at the bottom or the top of the flight.
  const std::vector<Point3> corners = lastCorners(session.lines);
  ASSERT_GE(corners.size(), 3u) << session.transcript;
  bool onStairs = false;
  for (const Point3& c : corners)
    onStairs |= c.x > 3.5f && c.x < 7.0f && c.z > 11.0f && c.z < 18.5f;
  EXPECT_TRUE(onStairs) << session.transcript;

  // End jumps the funnel panel to its last step: the goal.
  const std::string funnel = lastLine(session.lines, "funnel ");
  unsigned shown = 0, total = 0;
  ASSERT_EQ(std::sscanf(funnel.c_str(), "funnel step=%u/%u", &shown, &total), 2)
      << session.transcript;
  EXPECT_EQ(shown, total) << session.transcript;
  EXPECT_NE(funnel.find("event=goal"), std::string::npos) << session.transcript;

  const Image image(screenshot.string());
  ASSERT_TRUE(image.loaded()) << screenshot;
  EXPECT_GE(image.countPath(session.probes[0], 30), 40);
  EXPECT_GE(image.countPath(session.probes[1], 30), 40);
}

// The Steps panel's timeline: Home goes back to the search's first expansion,
// Right and Left step through it (the printed step, the node expanded and the
// one taken next follow the search), and the expanded node is drawn in its
// own colour in the 3D view; End goes on through the funnel to the goal.
TEST(WindowClickPath, HomeStepsBackIntoTheSearchAndEndOnToTheGoal) {
  requireDisplay();
  namespace fs = std::filesystem;
  const fs::path output = prepareOutput("window_search_steps");
  const fs::path searching = output / "search_step.png";
  fs::remove(searching);
  const std::string level = std::string(NAVSCOPE_ASSETS_DIR) + "/showcase.obj";
  RunningApp app(shellQuote(level) + " --size 1280x720 --print-state --frames 400 --screenshot " +
                 shellQuote(searching.string()));
  ASSERT_TRUE(app.waitFor("funnel step=1/")) << app.transcript();
  const std::string window = RunningApp::findWindow();
  ASSERT_FALSE(window.empty());
  const std::string key = std::string(NAVSCOPE_XDOTOOL) + " key --delay 150 --window " + window;
  ASSERT_TRUE(run(key + " Home Right Right Right Left"));
  std::vector<std::string> steps;
  while (steps.size() < 5 && app.readLine()) {
    if (app.lines().back().rfind("search step=", 0) == 0) steps.push_back(app.lines().back());
  }
  ASSERT_EQ(steps.size(), 5u) << app.transcript();
  // The mouse over the expanded node shows it.
  int x = 0, y = 0;
  ASSERT_EQ(std::sscanf(steps[4].c_str() + steps[4].find(" px="), " px=%d,%d", &x, &y), 2);
  ASSERT_TRUE(run(std::string(NAVSCOPE_XDOTOOL) + " mousemove --window " + window + " " +
                  std::to_string(x) + " " + std::to_string(y)));
  app.finish();
  ASSERT_TRUE(app.exitedCleanly()) << app.transcript();
  const std::string hover = lastLine(app.lines(), "hover node ");
  ASSERT_FALSE(hover.empty()) << app.transcript();
  const std::string expanded = steps[4].substr(steps[4].find(" portal="));
  EXPECT_EQ(hover.substr(10, hover.find(" f=") - 10), expanded.substr(0, expanded.find(" f=")))
      << hover << " while " << steps[4];
  unsigned shown = 0, total = 0;
  ASSERT_EQ(std::sscanf(steps[0].c_str(), "search step=%u/%u", &shown, &total), 2);
  EXPECT_EQ(shown, 1u);
  EXPECT_NE(steps[0].find(" portal=start g=0.000 "), std::string::npos) << steps[0];
  EXPECT_GT(total, 10u);
  for (size_t i = 1; i < steps.size(); ++i) {
    ASSERT_EQ(std::sscanf(steps[i].c_str(), "search step=%u/", &shown), 1);
    EXPECT_EQ(shown, i < 4 ? i + 1 : 3u) << steps[i];
  }
  // Each step expands the node the step before said comes next, and back is the same state.
  for (size_t i = 1; i < 4; ++i) {
    std::istringstream rest(steps[i - 1].substr(steps[i - 1].find(" next=") + 6));
    std::string next;
    rest >> next;
    EXPECT_NE(steps[i].find(" portal=" + next + " "), std::string::npos)
        << steps[i - 1] << " then " << steps[i];
  }
  EXPECT_EQ(steps[4], steps[2]);

  // nav::colors::kExpandingNode, used for nothing else in the 3D view (x 290..990).
  constexpr int kExpanding[3] = {255, 255, 0};
  const Image image(searching.string());
  ASSERT_TRUE(image.loaded()) << searching;
  EXPECT_GE(image.countColorIn(kExpanding, 290, 0, 990, 720), 40) << "the expanded node";

  RunningApp end(shellQuote(level) + " --size 1280x720 --print-state --frames 400");
  ASSERT_TRUE(end.waitFor("funnel step=1/"));
  const std::string endWindow = RunningApp::findWindow();
  ASSERT_TRUE(
      run(std::string(NAVSCOPE_XDOTOOL) + " key --delay 150 --window " + endWindow + " Home End"));
  end.finish();
  const std::string funnel = lastLine(end.lines(), "funnel ");
  ASSERT_EQ(std::sscanf(funnel.c_str(), "funnel step=%u/%u", &shown, &total), 2) << funnel;
  EXPECT_EQ(shown, total);
  EXPECT_NE(lastLine(end.lines(), "search step=").rfind("search step=1/", 0), std::string::npos);
}

// Stepping the funnel dims the path but for the part already pulled (start to
// apex) and draws the apex, left and right over everything in their own colours.
TEST(WindowClickPath, SteppingTheFunnelDimsThePathAndShowsTheApexOnTop) {
  requireDisplay();
  namespace fs = std::filesystem;
  const fs::path output = prepareOutput("window_funnel_steps");
  const std::string level = std::string(NAVSCOPE_ASSETS_DIR) + "/showcase.obj";
  const auto shot = [&](const std::string& name, int rights) {
    const fs::path path = output / name;
    fs::remove(path);
    RunningApp app(shellQuote(level) + " --size 1280x720 --print-state --frames 400 --screenshot " +
                   shellQuote(path.string()));
    if (!app.waitFor("funnel step=1/")) return std::string();
    const std::string window = RunningApp::findWindow();
    std::string keys;
    for (int i = 0; i < rights; ++i)
      keys += " Right";
    if (rights > 0 &&
        !run(std::string(NAVSCOPE_XDOTOOL) + " key --delay 40 --window " + window + keys))
      return std::string();
    app.finish();
    return app.exitedCleanly() ? lastLine(app.lines(), "funnel ") : std::string();
  };
  ASSERT_NE(shot("still.png", 0), "");
  const std::string stepped = shot("stepped.png", 24);
  ASSERT_EQ(stepped.rfind("funnel step=25/", 0), 0u) << stepped;
  const Image still((output / "still.png").string()), moved((output / "stepped.png").string());
  ASSERT_TRUE(still.loaded() && moved.loaded());
  // In the 3D view (x 290..990): nav::colors::kApex, used for nothing else.
  constexpr int kApex[3] = {170, 255, 0};
  const int pathStill = still.countColorIn(kPathColor, 290, 0, 990, 720);
  const int pathMoved = moved.countColorIn(kPathColor, 290, 0, 990, 720);
  EXPECT_GT(pathStill, 1500);
  EXPECT_LT(pathMoved, pathStill * 7 / 10) << "the rest of the path is dimmed";
  EXPECT_GT(pathMoved, 300) << "the part pulled so far is drawn";
  EXPECT_GE(moved.countColorIn(kApex, 290, 0, 990, 720), 40) << "the apex";
}

// The inspector: the mouse over the plaza names its sector, surface, cost,
// island and area; over the path, the stretch under it.
TEST(WindowClickPath, TheMouseOverASectorOrThePathNamesIt) {
  requireDisplay();
  prepareOutput("window_inspector");
  const std::string level = std::string(NAVSCOPE_ASSETS_DIR) + "/showcase.obj";
  RunningApp app(shellQuote(level) +
                 " --size 1280x720 --print-state --frames 400 --probe 20,0,24 --start 14,0.05,24"
                 " --goal 26,0.05,24");
  const std::optional<std::string> probe = app.waitFor("probe ");
  ASSERT_TRUE(probe) << app.transcript();
  const std::optional<Pixel> plaza = parseProbe(*probe);
  ASSERT_TRUE(plaza);
  ASSERT_TRUE(app.waitForSinceLaunch("path status=found")) << app.transcript();
  const std::string window = RunningApp::findWindow();
  ASSERT_FALSE(window.empty());
  // Beside the path (which runs along x through the probe), then on it; each
  // "inspect" line says where the mouse was.
  const std::string move = std::string(NAVSCOPE_XDOTOOL) + " mousemove --window " + window + " ";
  const auto inspectAt = [&](int x, int y) {
    if (!run(move + std::to_string(x) + " " + std::to_string(y))) return std::string();
    const std::string at = "inspect px=" + std::to_string(x) + "," + std::to_string(y) + " ";
    const std::optional<std::string> line = app.waitFor(at);
    return line ? line->substr(at.size()) : std::string();
  };
  const std::string sector = inspectAt(plaza->x, plaza->y + 25);
  const std::string stretch = inspectAt(plaza->x, plaza->y);
  app.finish();
  ASSERT_TRUE(app.exitedCleanly()) << app.transcript();
  EXPECT_EQ(sector.rfind("sector ", 0), 0u) << sector;
  EXPECT_NE(sector.find("; surface default, cost 1.00 a metre; "), std::string::npos) << sector;
  EXPECT_NE(sector.find("; island 1 of 1, "), std::string::npos) << sector;
  EXPECT_EQ(stretch.rfind("stretch 1 of 1: 12.00 m", 0), 0u) << stretch;
}

// F1 opens the help over the view (its title bar's colour shows there) and
// closes it again.
TEST(WindowClickPath, F1OpensAndClosesTheHelp) {
  requireDisplay();
  namespace fs = std::filesystem;
  const fs::path shot = prepareOutput("window_help") / "help.png";
  fs::remove(shot);
  const std::string level = std::string(NAVSCOPE_ASSETS_DIR) + "/funnel.obj";
  RunningApp app(shellQuote(level) + " --size 1280x720 --print-state --frames 400 --screenshot " +
                 shellQuote(shot.string()));
  ASSERT_TRUE(app.waitFor("path status=")) << app.transcript();
  const std::string window = RunningApp::findWindow();
  ASSERT_FALSE(window.empty());
  const std::string key = std::string(NAVSCOPE_XDOTOOL) + " key --window " + window + " F1";
  ASSERT_TRUE(run(key));
  ASSERT_TRUE(app.waitFor("help shown")) << app.transcript();
  ASSERT_TRUE(run(key));
  ASSERT_TRUE(app.waitFor("help hidden")) << app.transcript();
  ASSERT_TRUE(run(key));
  ASSERT_TRUE(app.waitFor("help shown")) << app.transcript();
  app.finish();
  ASSERT_TRUE(app.exitedCleanly()) << app.transcript();
  // ImGui's focused title bar, centred over the 3D view (x 290..990).
  constexpr int kFocusedTitle[3] = {41, 74, 122};
  const Image image(shot.string());
  ASSERT_TRUE(image.loaded()) << shot;
  EXPECT_GE(image.countColorIn(kFocusedTitle, 290, 0, 990, 720), 2000) << "the help's title bar";
}

// --bench-frames: once the graph is shown, N unthrottled frames, then a last
// line with the percentiles and the rate; a bad count is refused by name.
// Closing the window (as a window manager does, WM_DELETE_WINDOW) ends the
// run at once, cleanly, with the last frame's screenshot: the window tests
// end each run so once it has nothing more to print (RunningApp::finish).
TEST(WindowClickPath, ClosingTheWindowEndsTheRunWithItsScreenshot) {
  requireDisplay();
  namespace fs = std::filesystem;
  const fs::path screenshot = prepareOutput("window_close") / "closed.png";
  fs::remove(screenshot);
  const auto launched = std::chrono::steady_clock::now();
  // Ten minutes of frames, unless the window closes.
  RunningApp app(shellQuote(std::string(NAVSCOPE_ASSETS_DIR) + "/funnel.obj") +
                 " --size 1280x720 --print-state --frames 36000 --screenshot " +
                 shellQuote(screenshot.string()));
  ASSERT_TRUE(app.waitFor("build unit=")) << app.transcript();
  app.finish();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - launched).count();
  ASSERT_TRUE(app.exitedCleanly()) << app.transcript();
  EXPECT_LT(seconds, 60.0);
  const Image image(screenshot.string());
  ASSERT_TRUE(image.loaded()) << screenshot;
  EXPECT_GE(image.countPath({0, 0}, -1), 100) << "the start-up path is drawn";
}

TEST(WindowClickPath, BenchFramesPrintsTheFrameRateLast) {
  requireDisplay();
  prepareOutput("window_bench_frames");
  const std::string level = shellQuote(std::string(NAVSCOPE_ASSETS_DIR) + "/funnel.obj");
  RunningApp app(level + " --size 640x480 --crowd 5 --bench-frames 40");
  app.finish();
  ASSERT_TRUE(app.exitedCleanly()) << app.transcript();
  ASSERT_FALSE(app.lines().empty());
  const std::string last = app.lines().back();
  unsigned frames = 0;
  double p50 = 0, p90 = 0, p99 = 0, max = 0, mean = 0, fps = 0;
  ASSERT_EQ(std::sscanf(last.c_str(),
                        "bench frames=%u p50=%lf p90=%lf p99=%lf max=%lf mean=%lf ms: %lf fps",
                        &frames, &p50, &p90, &p99, &max, &mean, &fps),
            7)
      << last;
  EXPECT_EQ(frames, 40u);
  EXPECT_LE(p50, p90);
  EXPECT_LE(p90, p99);
  EXPECT_LE(p99, max);
  // The mean is printed to 0.01 ms: 1 % covers its rounding at any rate.
  EXPECT_NEAR(fps, 1000.0 / mean, 0.01 * fps);

  RunningApp bad(level + " --bench-frames 0 2>&1");
  bad.finish();
  EXPECT_FALSE(bad.exitedCleanly());
  EXPECT_NE(bad.transcript().find("--bench-frames: expected a number of frames"), std::string::npos)
      << bad.transcript();
}

// --search picks the path tool's search: exact answers on the funnel level
// (one surface cost) with a path no longer than crossing points give, and says
// so on its path line; regions answer only with --regions; a bad value is refused
// with the option and the good values named.
TEST(WindowClickPath, SearchModeFromTheCommandLine) {
  requireDisplay();
  prepareOutput("window_search_mode");
  const std::string level = shellQuote(std::string(NAVSCOPE_ASSETS_DIR) + "/funnel.obj");
  std::map<std::string, std::string> pathLines;
  for (const char* mode : {"crossing", "exact"}) {
    RunningApp app(level + " --print-state --frames 30 --start 6,0,2 --goal 14,0,2 --search " +
                   mode);
    app.finish();
    EXPECT_TRUE(app.exitedCleanly()) << app.transcript();
    pathLines[mode] = lastLine(app.lines(), "path ");
    EXPECT_EQ(pathLines[mode].rfind("path status=found ", 0), 0u) << app.transcript();
    EXPECT_NE(pathLines[mode].find(std::string(" search=") + mode + " "), std::string::npos)
        << pathLines[mode];
  }
  const float crossing = printedPathLength(pathLines["crossing"]);
  const float exact = printedPathLength(pathLines["exact"]);
  EXPECT_GT(exact, 0.0f);
  EXPECT_LE(exact, crossing + 1e-3f);

  // The funnel level walks at one cost a metre: regions answer when asked to.
  EXPECT_NE(pathLines["crossing"].find(" regions=0 "), std::string::npos) << pathLines["crossing"];
  RunningApp regions(level + " --print-state --frames 30 --start 6,0,2 --goal 14,0,2 --regions");
  regions.finish();
  EXPECT_TRUE(regions.exitedCleanly()) << regions.transcript();
  const std::string regionsLine = lastLine(regions.lines(), "path ");
  EXPECT_EQ(regionsLine.rfind("path status=found ", 0), 0u) << regions.transcript();
  EXPECT_NE(regionsLine.find(" regions=1 "), std::string::npos) << regionsLine;

  RunningApp bad(level + " --frames 5 --search sideways 2>&1");
  bad.finish();
  EXPECT_FALSE(bad.exitedCleanly());
  EXPECT_NE(bad.transcript().find("--search: sideways not in {centroid,midpoint,crossing,exact}"),
            std::string::npos)
      << bad.transcript();
}

// The path's clearance, as the Path panel and the Draw panel show it. On the
// showcase built with cells of 0.7 m (its sidecar copied with that cell
// size), wider than the 0.6 m human, nothing is proven between cell centres:
// the path round the north face (z 24) of a wall and a building runs 0.1 m
// from it along the sector edge at z 24.1, and the human reaches 0.3 - 0.1 m
// in, less its 5 mm rim allowance, first where the wall begins (x 30.7): its
// footprint is drawn there in the clearance colour. A path across the open
// plaza keeps clear: none of that colour.
TEST(WindowClickPath, ThePathsClearanceIsPrintedAndDrawnWhereItTouches) {
  requireDisplay();
  namespace fs = std::filesystem;
  const fs::path directory = prepareOutput("window_clearance");
  const fs::path assets(NAVSCOPE_ASSETS_DIR);
  ASSERT_TRUE(fs::exists(assets / "showcase.obj")) << assets;
  const std::string level = (directory / "coarse.obj").string();
  fs::copy_file(assets / "showcase.obj", level, fs::copy_options::overwrite_existing);
  {
    std::ifstream in(assets / "showcase.json");
    std::stringstream sidecar;
    sidecar << in.rdbuf();
    std::string text = sidecar.str();
    const size_t cell = text.find("\"cellSize\": 0.3");
    ASSERT_NE(cell, std::string::npos);
    text.replace(cell, std::string("\"cellSize\": 0.3").size(), "\"cellSize\": 0.7");
    std::ofstream(directory / "coarse.json") << text;
  }
  const int kTouchColor[3] = {255, 100, 0};
  // The showcase with a path from `start` to `goal`, one probe and a screenshot (removed first).
  const auto runPath = [&](const std::string& start, const std::string& goal,
                           const std::string& probe, const fs::path& screenshot) {
    fs::remove(screenshot);
    return runSession(shellQuote(level) + " --size 1280x720 --print-state --frames 90 --start " +
                          start + " --goal " + goal + " --probe " + probe + " --screenshot " +
                          shellQuote(screenshot.string()),
                      1, [](const std::string&, const std::vector<Pixel>&) { return true; });
  };

  const fs::path grazing = directory / "grazing.png";
  const Session touching = runPath("29.5,0.05,22", "38.5,0.05,22", "30.43,0.15,24.2", grazing);
  ASSERT_TRUE(ranCleanly(touching, 1));
  const std::string line = lastLine(touching.lines, "clearance ");
  ASSERT_EQ(line.rfind("clearance stretches=3 touching=1 deepest=", 0), 0u) << touching.transcript;
  const float deepest = std::stof(line.substr(line.find("deepest=") + 8));
  EXPECT_NEAR(deepest, 0.3f - 0.1f - 0.005f, 2e-3f) << line;
  const size_t at = line.find(" at=");
  ASSERT_NE(at, std::string::npos) << line;
  float x = 0, y = 0, z = 0;
  ASSERT_EQ(std::sscanf(line.c_str() + at, " at=%f,%f,%f", &x, &y, &z), 3) << line;
  EXPECT_NEAR(z, 24.1f, 1e-3f) << line;
  EXPECT_GE(x, 30.35f);
  EXPECT_LE(x, 37.85f);
  const Image image(grazing.string());
  ASSERT_TRUE(image.loaded()) << grazing;
  const Pixel deepestTouch = touching.probes[0];
  EXPECT_GE(image.countColorNear(kTouchColor, deepestTouch, 40), 20)
      << "the footprint at the deepest touch, around " << deepestTouch.x << "," << deepestTouch.y;

  const fs::path clear = directory / "clear.png";
  const Session open = runPath("18,0.05,24", "22,0.05,27", "20,0,25", clear);
  ASSERT_TRUE(ranCleanly(open, 1));
  EXPECT_EQ(
      lastLine(open.lines, "clearance ").rfind("clearance stretches=1 touching=0 deepest=0.000", 0),
      0u)
      << open.transcript;
  const Image openImage(clear.string());
  ASSERT_TRUE(openImage.loaded()) << clear;
  EXPECT_EQ(openImage.countColor(kTouchColor), 0);
}

}  // namespace
