// The real navscope window with unit profiles, cancelled builds and .nav files:
// --unit picks the profile built first and U switches to the next one (a
// profile built before comes back from its kept build); Escape cancels a long
// build; a graph written by navscope-cli opens without its mesh and clicks on
// its sectors find a path; a broken .nav file is reported, not a crash.
#include "window_test_support.h"

namespace {

using namespace window_test;

/// "build unit=NAME ..." -> NAME.
std::string builtUnit(const std::string& line) {
  const std::string prefix = "build unit=";
  if (line.rfind(prefix, 0) != 0) return "";
  const size_t end = line.find(' ', prefix.size());
  return line.substr(prefix.size(), end == std::string::npos ? end : end - prefix.size());
}

bool endsWithWord(std::string line, const std::string& word) {
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r'))
    line.pop_back();
  return line.size() > word.size() &&
         line.compare(line.size() - word.size(), word.size(), word) == 0 &&
         line[line.size() - word.size() - 1] == ' ';
}

size_t countLines(const std::vector<std::string>& lines, const std::string& prefix) {
  size_t count = 0;
  for (const std::string& line : lines)
    count += line.rfind(prefix, 0) == 0 ? 1 : 0;
  return count;
}

// The showcase has a human and a car. Start with the car, press U until the
// car comes round again: every other profile is built once, and the car is then
// shown from its kept build without building it again.
TEST(WindowUnits, UnitOptionBuildsThatUnitAndUComesBackToItsKeptBuild) {
  requireDisplay();
  prepareOutput("window_units");
  const std::string level = std::string(NAVSCOPE_ASSETS_DIR) + "/showcase.obj";
  ASSERT_TRUE(std::filesystem::exists(level)) << level;
  RunningApp app(shellQuote(level) + " --size 1280x720 --print-state --unit car --frames 480");

  const std::optional<std::string> start = app.waitFor("build start ");
  ASSERT_TRUE(start) << app.transcript();
  EXPECT_EQ(start->rfind("build start unit=car ", 0), 0u) << app.transcript();
  const std::optional<std::string> first = app.waitFor("build unit=");
  ASSERT_TRUE(first) << app.transcript();
  ASSERT_EQ(builtUnit(*first), "car") << app.transcript();
  EXPECT_FALSE(endsWithWord(*first, "cached")) << app.transcript();

  const std::string window = RunningApp::findWindow("navscope - showcase.obj");
  ASSERT_FALSE(window.empty()) << "xdotool found no window";
  std::vector<std::string> shown;
  std::optional<std::string> back;
  for (int press = 0; press < 8 && !back; ++press) {
    ASSERT_TRUE(run(std::string(NAVSCOPE_XDOTOOL) + " key --window " + window + " u"));
    const std::optional<std::string> line = app.waitFor("build unit=");
    ASSERT_TRUE(line) << "no build after pressing U\n" << app.transcript();
    if (builtUnit(*line) == "car") {
      back = line;
    } else {
      shown.push_back(builtUnit(*line));
      EXPECT_FALSE(endsWithWord(*line, "cached")) << "first time for " << shown.back();
    }
  }
  app.finish();
  ASSERT_TRUE(back) << app.transcript();
  EXPECT_TRUE(endsWithWord(*back, "cached")) << app.transcript();
  EXPECT_FALSE(shown.empty()) << "U showed no other profile\n" << app.transcript();
  // One build each: the car's first build and one per other profile, no rebuild of the car.
  EXPECT_EQ(countLines(app.lines(), "build start unit=car "), 1u) << app.transcript();
  EXPECT_EQ(countLines(app.lines(), "build start "), 1u + shown.size()) << app.transcript();
  EXPECT_TRUE(app.exitedCleanly()) << app.transcript();
}

// A city of a million cells takes seconds to fill: Escape stops it, the state
// says so and no build of it is ever shown.
TEST(WindowUnits, EscapeCancelsARunningBuild) {
  requireDisplay();
  namespace fs = std::filesystem;
  const fs::path directory = prepareOutput("window_cancel");
  const fs::path city = directory / "city.obj";
  ASSERT_TRUE(run(shellQuote(NAVSCOPE_CLI_EXE) + " generate city --target-cells 1000000 -o " +
                  shellQuote(city.string()) + " > /dev/null"));
  RunningApp app(shellQuote(city.string()) + " --size 1280x720 --print-state --frames 300");
  ASSERT_TRUE(app.waitFor("build start unit=")) << app.transcript();
  const std::string window = RunningApp::findWindow("navscope - city.obj");
  ASSERT_FALSE(window.empty()) << "xdotool found no window";
  ASSERT_TRUE(run(std::string(NAVSCOPE_XDOTOOL) + " key --window " + window + " Escape"));
  const std::optional<std::string> cancelled = app.waitFor("build ");
  app.finish();
  ASSERT_TRUE(cancelled) << app.transcript();
  EXPECT_EQ(cancelled->rfind("build cancelled unit=human", 0), 0u) << app.transcript();
  EXPECT_EQ(countLines(app.lines(), "build unit="), 0u) << app.transcript();
  EXPECT_TRUE(app.exitedCleanly()) << app.transcript();
}

// The funnel level's graph saved by the CLI: no mesh to pick, so the clicks land
// on the sectors' height planes; the path between two lanes is found and drawn.
TEST(WindowNavFile, ClicksOnALoadedGraphSetStartAndGoalAndFindAPath) {
  requireDisplay();
  namespace fs = std::filesystem;
  const fs::path directory = prepareOutput("window_nav_file");
  const fs::path nav = directory / "funnel.nav";
  const fs::path screenshot = directory / "after_clicks.png";
  fs::remove(nav);
  fs::remove(screenshot);
  const std::string level = std::string(NAVSCOPE_ASSETS_DIR) + "/funnel.obj";
  ASSERT_TRUE(run(shellQuote(NAVSCOPE_CLI_EXE) + " build " + shellQuote(level) + " -o " +
                  shellQuote(nav.string()) + " > /dev/null"));
  ASSERT_TRUE(fs::exists(nav));

  const Point3 start{6.0f, 0.0f, 2.0f};
  const Point3 goal{14.0f, 0.0f, 2.0f};
  const Session session =
      runSession(shellQuote(nav.string()) +
                     " --size 1280x720 --print-state --frames 420 --start 18,0,1.5 --goal 18,0,3"
                     " --probe 6,0,2 --probe 14,0,2 --screenshot " +
                     shellQuote(screenshot.string()),
                 2, clickStartAndGoal);
  ASSERT_TRUE(ranCleanly(session, 2));

  // Loaded, not built: the graph's own unit, and no build was started.
  EXPECT_NE(lastLine(session.lines, "level ").find(" nav unit=human "), std::string::npos)
      << session.transcript;
  const std::string build = lastLine(session.lines, "build ");
  EXPECT_EQ(builtUnit(build), "human") << session.transcript;
  EXPECT_TRUE(endsWithWord(build, "loaded")) << session.transcript;
  EXPECT_EQ(countLines(session.lines, "build start "), 0u) << session.transcript;

  const auto printed = clickedAt(session, start, goal);
  ASSERT_TRUE(printed);
  EXPECT_NEAR(printed->first.y, 0.0f, 0.1f) << "picked on the sector's ground";
  EXPECT_EQ(lastLine(session.lines, "path ").rfind("path status=found ", 0), 0u)
      << session.transcript;
  // Around the baffles: more than a straight line.
  EXPECT_GE(lastCorners(session.lines).size(), 3u) << session.transcript;

  const Image image(screenshot.string());
  ASSERT_TRUE(image.loaded()) << screenshot;
  EXPECT_GE(image.countPath(session.probes[0], 30), 40);
  EXPECT_GE(image.countPath(session.probes[1], 30), 40);
}

TEST(WindowNavFile, ABrokenFileIsReportedInTheWindowAndOnStderr) {
  requireDisplay();
  namespace fs = std::filesystem;
  const fs::path directory = prepareOutput("window_nav_broken");
  const fs::path nav = directory / "broken.nav";
  const fs::path errors = directory / "stderr.txt";
  const fs::path screenshot = directory / "error.png";
  fs::remove(screenshot);
  {
    std::FILE* file = std::fopen(nav.c_str(), "wb");
    ASSERT_NE(file, nullptr);
    std::fputs("NAVSCOPE but not really a graph", file);
    std::fclose(file);
  }
  RunningApp app(shellQuote(nav.string()) +
                 " --size 640x480 --print-state --frames 10 --screenshot " +
                 shellQuote(screenshot.string()) + " 2> " + shellQuote(errors.string()));
  const std::optional<std::string> level = app.waitFor("level ");
  app.finish();
  ASSERT_TRUE(level) << app.transcript();
  EXPECT_EQ(level->rfind("level error " + nav.string() + ":", 0), 0u) << app.transcript();
  EXPECT_TRUE(app.exitedCleanly()) << app.transcript();
  const std::optional<std::string> stderrText = capture("cat " + shellQuote(errors.string()));
  ASSERT_TRUE(stderrText);
  EXPECT_NE(stderrText->find(nav.string() + ":"), std::string::npos) << *stderrText;
  // The message is drawn over the empty view in the error colour (app.cpp).
  const Image image(screenshot.string());
  ASSERT_TRUE(image.loaded()) << screenshot;
  constexpr int kErrorText[3] = {255, 120, 110};
  EXPECT_GE(image.countColor(kErrorText, 40), 100) << screenshot;
}

}  // namespace
