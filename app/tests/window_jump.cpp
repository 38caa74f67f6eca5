// The jump placer in the real window: J arms it, a left click sets the takeoff
// on the plaza and a right click the landing on the East upper floor; the path
// from the plaza up there, which climbed the stairs, then takes the jump. Also
// --jump from the command line, and bad --jump values.
#include "window_test_support.h"

namespace {

using namespace window_test;

// nav::colors::kJumpTaken: the arc of a jump the path takes.
constexpr int kJumpTakenColor[3] = {255, 120, 255};

// "path " lines in order, so the path before the jump can be told from the one after.
std::vector<std::string> pathLines(const std::vector<std::string>& lines) {
  std::vector<std::string> paths;
  for (const std::string& line : lines) {
    if (line.rfind("path status=", 0) == 0) paths.push_back(line);
  }
  return paths;
}

bool near(Point3 a, Point3 b, float tolerance) {
  return groundDistance(a, b) < tolerance;
}

TEST(WindowJump, ClickedJumpShortensThePathAndTheFunnelBreaksAtIt) {
  requireDisplay();
  namespace fs = std::filesystem;
  const fs::path screenshot = prepareOutput("window_jump") / "after_jump.png";
  fs::remove(screenshot);
  const std::string level = std::string(NAVSCOPE_ASSETS_DIR) + "/showcase.obj";
  ASSERT_TRUE(fs::exists(level)) << level;
  const Point3 takeoff{30.0f, 0.0f, 22.0f};  // plaza, open sky
  const Point3 landing{30.0f, 3.0f, 17.0f};  // East upper floor
  const Session session = runSession(
      shellQuote(level) +
          " --size 1280x720 --print-state --frames 420 --start 20,0.05,24 --goal 32,3.05,6"
          " --probe 30,0,22 --probe 30,3,17 --screenshot " +
          shellQuote(screenshot.string()),
      2, [](const std::string& window, const std::vector<Pixel>& probes) {
        const std::string xdotool = NAVSCOPE_XDOTOOL;
        return run(xdotool + " key --window " + window + " j") && run("sleep 0.3") &&
               click(window, probes[0], 1) && click(window, probes[1], 3) && run("sleep 0.5");
      });
  ASSERT_TRUE(ranCleanly(session, 2));

  const std::string added = lastLine(session.lines, "jump added ");
  ASSERT_FALSE(added.empty()) << session.transcript;
  EXPECT_NE(added.find("id=1 "), std::string::npos) << added;
  // The clicks set no start or goal while the placer was armed.
  const std::optional<Point3> start = lastPoint(session.lines, "start");
  ASSERT_TRUE(start);
  EXPECT_TRUE(near(*start, {20.0f, 0.05f, 24.0f}, 0.01f));

  const std::vector<std::string> paths = pathLines(session.lines);
  ASSERT_GE(paths.size(), 2u) << session.transcript;
  const float before = printedPathLength(paths.front()), after = printedPathLength(paths.back());
  EXPECT_EQ(paths.back().rfind("path status=found ", 0), 0u) << paths.back();
  EXPECT_LT(after, before - 5.0f) << "the jump saves the climb round by the stairs";

  // The funnel ends at the takeoff and starts again at the landing.
  const std::vector<Point3> corners = lastCorners(session.lines);
  bool reachesTakeoff = false, leavesLanding = false;
  for (const Point3& c : corners) {
    reachesTakeoff = reachesTakeoff || (near(c, takeoff, 1.0f) && std::abs(c.y) < 0.3f);
    leavesLanding = leavesLanding || (near(c, landing, 1.0f) && std::abs(c.y - 3.0f) < 0.3f);
  }
  EXPECT_TRUE(reachesTakeoff && leavesLanding) << lastLine(session.lines, "corners ");

  const Image image(screenshot.string());
  ASSERT_TRUE(image.loaded()) << screenshot;
  EXPECT_GE(image.countColor(kJumpTakenColor, 10), 40) << "the taken jump's arc is drawn";
}

TEST(WindowJump, CommandLineJumpsAndBadOnes) {
  requireDisplay();
  prepareOutput("window_jump_flags");
  const std::string level = shellQuote(std::string(NAVSCOPE_ASSETS_DIR) + "/showcase.obj");
  {
    RunningApp app(level +
                   " --print-state --frames 90 --start 20,0.05,24 --goal 32,3.05,6"
                   " --jump 30,0.05,22:30,3.05,17 --jump 30,0.05,22:30,80,17");
    app.finish();
    EXPECT_TRUE(app.exitedCleanly()) << app.transcript();
    EXPECT_FALSE(lastLine(app.lines(), "jump added id=1 ").empty()) << app.transcript();
    // The second lands in the sky: refused with the reason, nothing else lost.
    EXPECT_NE(lastLine(app.lines(), "jump notice ").find("landing"), std::string::npos)
        << app.transcript();
    EXPECT_EQ(lastLine(app.lines(), "path ").rfind("path status=found ", 0), 0u);
  }
  for (const char* bad : {"--jump 1,2,3", "--jump 1,2,3:4,5", "--jump 1,2,3:nan,5,6"}) {
    RunningApp app(level + " --frames 5 " + bad + " 2>&1");
    app.finish();
    EXPECT_FALSE(app.exitedCleanly()) << bad;
    EXPECT_NE(app.transcript().find("--jump"), std::string::npos) << app.transcript();
  }
}

}  // namespace
