// The crowd in the real window: --crowd 21 on the showcase gives every agent a
// path through the shared PathManager, the agents walk (the distance walked
// grows between two reports), the solver's time per frame is reported against a
// positive budget, and the agents' colours show in the 3D view. Bad counts are
// refused or clamped, and a graph read from a .nav file gets its crowd too. No
// timing is asserted: the machine may be slow and loaded.
#include <algorithm>

#include "window_test_support.h"

namespace {

using namespace window_test;

// The agents' hues (crowd_draw.cpp's agentColor): the test checks pixels, so it states them itself.
constexpr int kAgentColors[8][3] = {
    {255, 120, 0}, {0, 100, 255}, {170, 50, 255}, {0, 180, 140},
    {170, 90, 30}, {120, 200, 0}, {255, 70, 120}, {0, 190, 255},
};

/// The 3D view between the side panels of the committed layout (imgui.ini).
constexpr int kViewLeft = 300, kViewRight = 980, kViewHeight = 720;

int agentPixelsInView(const Image& image) {
  int count = 0;
  for (int y = 0; y < kViewHeight; ++y) {
    for (int x = kViewLeft; x < kViewRight; ++x) {
      for (const auto& color : kAgentColors) {
        if (image.isColor(x, y, color, 4)) {
          ++count;
          break;
        }
      }
    }
  }
  return count;
}

/// The value after `key=` in the line (e.g. "walked=12.5"); NaN when missing.
double field(const std::string& line, const std::string& key) {
  const size_t at = line.find(" " + key + "=");
  if (at == std::string::npos) return std::nan("");
  return std::strtod(line.c_str() + at + key.size() + 2, nullptr);
}

std::vector<std::string> linesStartingWith(const std::vector<std::string>& lines,
                                           const std::string& prefix) {
  std::vector<std::string> found;
  for (const std::string& line : lines) {
    if (line.rfind(prefix, 0) == 0) found.push_back(line);
  }
  return found;
}

/// The highest K of the "crowd solved=K/N" lines.
unsigned mostSolved(const std::vector<std::string>& lines, unsigned agents) {
  unsigned most = 0;
  for (const std::string& line : linesStartingWith(lines, "crowd solved=")) {
    unsigned solved = 0, total = 0;
    if (std::sscanf(line.c_str(), "crowd solved=%u/%u", &solved, &total) == 2 && total == agents)
      most = std::max(most, solved);
  }
  return most;
}

TEST(WindowCrowd, TwentyOneAgentsGetPathsWalkAndAreDrawn) {
  requireDisplay();
  namespace fs = std::filesystem;
  const fs::path screenshot = prepareOutput("window_crowd") / "crowd.png";
  fs::remove(screenshot);
  const std::string level = std::string(NAVSCOPE_ASSETS_DIR) + "/showcase.obj";
  ASSERT_TRUE(fs::exists(level)) << level;
  RunningApp app(shellQuote(level) + " --size 1280x720 --print-state --crowd 21 --frames 240" +
                 " --screenshot " + shellQuote(screenshot.string()));
  app.finish();
  ASSERT_TRUE(app.exitedCleanly()) << app.transcript();
  const std::vector<std::string>& lines = app.lines();

  EXPECT_EQ(lastLine(lines, "crowd spawned ").rfind("crowd spawned agents=21 seed=", 0), 0u)
      << app.transcript();
  EXPECT_EQ(mostSolved(lines, 21), 21u) << "every agent got a path\n" << app.transcript();

  // Reports once a second of crowd frames: at least two in 240 frames, walking on.
  const std::vector<std::string> reports = linesStartingWith(lines, "crowd frame=");
  ASSERT_GE(reports.size(), 2u) << app.transcript();
  const double walkedFirst = field(reports.front(), "walked");
  const double walkedLast = field(reports.back(), "walked");
  EXPECT_GT(walkedFirst, 0.0) << app.transcript();
  EXPECT_GT(walkedLast, walkedFirst) << "the agents kept walking\n" << app.transcript();
  EXPECT_GT(field(reports.back(), "walking"), 0.0) << app.transcript();

  const std::vector<std::string> solver = linesStartingWith(lines, "crowd solver_us ");
  ASSERT_FALSE(solver.empty()) << app.transcript();
  EXPECT_GT(field(solver.front(), "budget"), 0.0) << app.transcript();
  // The first report's history holds the frames that solved all 21 paths.
  EXPECT_GT(field(solver.front(), "max"), 0.0) << app.transcript();
  for (const std::string& line : solver) {
    for (const char* key : {"last", "mean", "max"})
      EXPECT_GE(field(line, key), 0.0) << key << " in " << line;
  }

  const Image image(screenshot.string());
  ASSERT_TRUE(image.loaded()) << screenshot;
  // 21 boxes of about 10 x 20 pixels, their paths and goal crosses.
  EXPECT_GE(agentPixelsInView(image), 300) << screenshot;
}

TEST(WindowCrowd, BadCountsAreRefusedOrClamped) {
  requireDisplay();
  namespace fs = std::filesystem;
  const fs::path directory = prepareOutput("window_crowd_counts");
  const fs::path errors = directory / "stderr.txt";
  const std::string level = std::string(NAVSCOPE_ASSETS_DIR) + "/showcase.obj";
  for (const char* count : {"0", "-3"}) {
    RunningApp refused(shellQuote(level) + " --crowd " + count + " --frames 5 2> " +
                       shellQuote(errors.string()));
    const int status = refused.finish();
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 2) << "--crowd " << count;
    const std::optional<std::string> message = capture("cat " + shellQuote(errors.string()));
    ASSERT_TRUE(message);
    EXPECT_NE(message->find("--crowd"), std::string::npos) << *message;
  }

  RunningApp clamped(shellQuote(level) + " --size 640x480 --print-state --crowd 100000" +
                     " --frames 30 2> " + shellQuote(errors.string()));
  clamped.finish();
  EXPECT_TRUE(clamped.exitedCleanly()) << clamped.transcript();
  EXPECT_EQ(lastLine(clamped.lines(), "crowd spawned ").rfind("crowd spawned agents=1000 ", 0), 0u)
      << clamped.transcript();
  const std::optional<std::string> message = capture("cat " + shellQuote(errors.string()));
  ASSERT_TRUE(message);
  EXPECT_NE(message->find("at most 1000"), std::string::npos) << *message;
}

// A graph read from a file: nothing is built, the crowd spawns on it at once.
TEST(WindowCrowd, ANavFileGetsItsCrowd) {
  requireDisplay();
  namespace fs = std::filesystem;
  const fs::path directory = prepareOutput("window_crowd_nav");
  const fs::path nav = directory / "showcase.nav";
  fs::remove(nav);
  const std::string level = std::string(NAVSCOPE_ASSETS_DIR) + "/showcase.obj";
  ASSERT_TRUE(run(shellQuote(NAVSCOPE_CLI_EXE) + " build " + shellQuote(level) + " -o " +
                  shellQuote(nav.string()) + " > /dev/null"));
  RunningApp app(shellQuote(nav.string()) + " --size 640x480 --print-state --crowd 5 --frames 150");
  app.finish();
  ASSERT_TRUE(app.exitedCleanly()) << app.transcript();
  EXPECT_EQ(lastLine(app.lines(), "crowd spawned ").rfind("crowd spawned agents=5 ", 0), 0u)
      << app.transcript();
  EXPECT_EQ(mostSolved(app.lines(), 5), 5u) << app.transcript();
  const std::string report = lastLine(app.lines(), "crowd frame=");
  EXPECT_GT(field(report, "walked"), 0.0) << app.transcript();
}

}  // namespace
