// The 3D view's own tools in the real window: Compare draws Recast's polygons
// and Detour's path beside navscope's and prints both answers.
#include "window_test_support.h"

namespace {

using namespace window_test;

// compare_tool.h's colours; the test checks pixels, so it states them itself.
constexpr int kDetourPathColor[3] = {0, 255, 140};
constexpr int kDetourMeshColor[3] = {0, 140, 90};

/// One side of a "compare navscope found=F length=L corners=C us=T detour ..." line.
struct Side {
  int found = -1;
  float length = 0.0f;
  unsigned corners = 0;
  double microseconds = 0.0;
};

bool parseSide(const std::string& line, const std::string& name, Side& side) {
  const size_t at = line.find(" " + name + " found=");
  return at != std::string::npos &&
         std::sscanf(line.c_str() + at + name.size() + 2, "found=%d length=%f corners=%u us=%lf",
                     &side.found, &side.length, &side.corners, &side.microseconds) == 4;
}

// C shows Detour beside navscope: the two answers printed, navscope's equal to
// the Path panel's, Detour's found and drawn in its own colour over Recast's
// polygon edges; C again hides both. Skipped when built without librecast.
TEST(WindowView, CompareShowsDetourBesideNavscope) {
  requireDisplay();
  namespace fs = std::filesystem;
  const fs::path output = prepareOutput("window_compare");
  for (const char* name : {"navscope-1.png", "navscope-2.png", "end.png"})
    fs::remove(output / name);
  // F12 writes into the working folder.
  fs::current_path(output);
  const std::string level = std::string(NAVSCOPE_ASSETS_DIR) + "/showcase.obj";
  RunningApp app(shellQuote(level) + " --size 1280x720 --print-state --frames 600 --screenshot " +
                 shellQuote((output / "end.png").string()));
  ASSERT_TRUE(app.waitFor("path status=")) << app.transcript();
  const std::string path = lastLine(app.lines(), "path status=");
  const std::string window = RunningApp::findWindow();
  ASSERT_FALSE(window.empty());
  const std::string key = std::string(NAVSCOPE_XDOTOOL) + " key --window " + window + " ";
  ASSERT_TRUE(run(key + "F12"));
  ASSERT_TRUE(app.waitFor("screenshot ")) << app.transcript();
  ASSERT_TRUE(run(key + "c"));
  std::string compared;
  while (app.readLine()) {
    const std::string& line = app.lines().back();
    if (line.rfind("compare unavailable ", 0) == 0) {
      app.finish();
      GTEST_SKIP() << "built without librecast: " << line;
    }
    if (line.rfind("compare navscope ", 0) == 0) {
      compared = line;
      break;
    }
  }
  ASSERT_FALSE(compared.empty()) << app.transcript();
  ASSERT_TRUE(run("sleep 0.5") && run(key + "F12"));
  ASSERT_TRUE(app.waitFor("screenshot ")) << app.transcript();
  ASSERT_TRUE(run(key + "c"));
  ASSERT_TRUE(app.waitFor("compare off")) << app.transcript();
  app.finish();
  ASSERT_TRUE(app.exitedCleanly()) << app.transcript();

  Side navscope, detour;
  ASSERT_TRUE(parseSide(compared, "navscope", navscope) && parseSide(compared, "detour", detour))
      << compared;
  unsigned polygons = 0;
  ASSERT_EQ(std::sscanf(compared.c_str() + compared.find(" polygons="), " polygons=%u", &polygons),
            1);
  EXPECT_GT(polygons, 10u);
  // navscope's side runs the Path panel's query again, untraced: the same path.
  EXPECT_EQ(navscope.found, 1);
  EXPECT_NEAR(navscope.length, printedPathLength(path), 0.001f) << path;
  EXPECT_EQ(navscope.corners, lastCorners(app.lines()).size());
  // Detour goes the same way round (its polygons are eroded as navscope's cells
  // are), so its length lies near navscope's; both take a measurable time.
  EXPECT_EQ(detour.found, 1);
  EXPECT_GE(detour.corners, 2u);
  EXPECT_NEAR(detour.length, navscope.length, 0.15f * navscope.length) << compared;
  EXPECT_GT(navscope.microseconds, 0.0);
  EXPECT_GT(detour.microseconds, 0.0);

  const Image before((output / "navscope-1.png").string());
  const Image during((output / "navscope-2.png").string());
  const Image after((output / "end.png").string());
  ASSERT_TRUE(before.loaded() && during.loaded() && after.loaded());
  EXPECT_EQ(before.countColor(kDetourPathColor, 2), 0);
  EXPECT_EQ(before.countColor(kDetourMeshColor, 2), 0);
  EXPECT_GE(during.countColor(kDetourPathColor, 2), 300) << "Detour's path";
  EXPECT_GE(during.countColor(kDetourMeshColor, 2), 1000) << "Recast's polygon edges";
  EXPECT_EQ(after.countColor(kDetourPathColor, 2), 0);
}

}  // namespace
