// The view and its layout in the real window: Compare draws Recast's polygons
// and Detour's path beside navscope's and prints both answers; a layout saved
// at another window size comes back adapted; Window > Reset layout; Ctrl+click
// selects a sector and F frames it; W and S fly the camera; B shows the
// level's back faces.
#include <fstream>
#include <iterator>
#include <map>

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
  const std::string unavailable = lastLine(app.lines(), "compare unavailable ");
  if (!unavailable.empty()) {
    app.finish();
    GTEST_SKIP() << "built without librecast: " << unavailable;
  }
  const std::string window = RunningApp::findWindow();
  ASSERT_FALSE(window.empty());
  const std::string key = std::string(NAVSCOPE_XDOTOOL) + " key --window " + window + " ";
  ASSERT_TRUE(run(key + "F12"));
  ASSERT_TRUE(app.waitFor("screenshot ")) << app.transcript();
  ASSERT_TRUE(run(key + "c"));
  const std::optional<std::string> compared = app.waitFor("compare navscope ");
  ASSERT_TRUE(compared) << app.transcript();
  ASSERT_TRUE(run("sleep 0.5") && run(key + "F12"));
  ASSERT_TRUE(app.waitFor("screenshot ")) << app.transcript();
  ASSERT_TRUE(run(key + "c"));
  ASSERT_TRUE(app.waitFor("compare off")) << app.transcript();
  app.finish();
  ASSERT_TRUE(app.exitedCleanly()) << app.transcript();

  Side navscope, detour;
  ASSERT_TRUE(parseSide(*compared, "navscope", navscope) && parseSide(*compared, "detour", detour))
      << *compared;
  unsigned polygons = 0;
  ASSERT_EQ(
      std::sscanf(compared->c_str() + compared->find(" polygons="), " polygons=%u", &polygons), 1);
  EXPECT_GT(polygons, 10u);
  // navscope's side runs the Path panel's query again, untraced (no jumps are
  // placed): the same path.
  EXPECT_EQ(navscope.found, 1);
  EXPECT_NEAR(navscope.length, printedPathLength(path), 0.001f) << path;
  EXPECT_EQ(navscope.corners, lastCorners(app.lines()).size());
  // Detour goes the same way round (its polygons are eroded as navscope's cells
  // are), so its length lies near navscope's; both take a measurable time.
  EXPECT_EQ(detour.found, 1);
  EXPECT_GE(detour.corners, 2u);
  EXPECT_NEAR(detour.length, navscope.length, 0.15f * navscope.length) << *compared;
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
  EXPECT_EQ(after.countColor(kDetourMeshColor, 2), 0);
}

/// A "panel NAME X0 Y0 X1 Y1" line's box.
struct PanelBox {
  int x0, y0, x1, y1;
};

/// The panels' last printed places, by name.
std::map<std::string, PanelBox> lastPanels(const std::vector<std::string>& lines) {
  std::map<std::string, PanelBox> panels;
  for (const std::string& line : lines) {
    char name[64];
    PanelBox box{};
    if (std::sscanf(line.c_str(), "panel %63s %d %d %d %d", name, &box.x0, &box.y0, &box.x1,
                    &box.y1) == 5)
      panels[name] = box;
  }
  return panels;
}

/// The committed layout (imgui.ini) at 1280x720, below the 19-pixel menu bar;
/// Files is folded to its title bar.
const std::map<std::string, PanelBox> kDefaultPanels = {
    {"Build", {0, 19, 290, 350}},     {"Draw", {0, 350, 290, 540}},
    {"Crowd", {0, 540, 290, 675}},    {"Jumps", {0, 675, 290, 720}},
    {"Path", {990, 19, 1280, 190}},   {"Query", {990, 190, 1280, 420}},
    {"Steps", {990, 420, 1280, 720}}, {"Files", {290, 19, 670, 38}},
};

::testing::AssertionResult sameLayout(const std::map<std::string, PanelBox>& panels,
                                      const std::map<std::string, PanelBox>& expected, int slack) {
  for (const auto& [name, want] : expected) {
    const auto found = panels.find(name);
    if (found == panels.end()) return ::testing::AssertionFailure() << "no panel " << name;
    const PanelBox& got = found->second;
    if (std::abs(got.x0 - want.x0) > slack || std::abs(got.y0 - want.y0) > slack ||
        std::abs(got.x1 - want.x1) > slack || std::abs(got.y1 - want.y1) > slack) {
      return ::testing::AssertionFailure()
             << name << " at " << got.x0 << "," << got.y0 << " " << got.x1 << "," << got.y1
             << ", expected " << want.x0 << "," << want.y0 << " " << want.x1 << "," << want.y1;
    }
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult allInside(const std::map<std::string, PanelBox>& panels, int width,
                                     int height) {
  for (const auto& [name, box] : panels) {
    if (box.x0 < 0 || box.y0 < 19 || box.x1 > width || box.y1 > height)
      return ::testing::AssertionFailure()
             << name << " reaches outside the window or under the menu";
  }
  return ::testing::AssertionSuccess();
}

// A run at 1024x600 saves its layout; the next run at 1280x720 adapts it back
// to the committed layout's places (within rounding), and both keep every
// panel whole inside the window.
TEST(WindowView, LayoutSavedAtAnotherSizeIsAdapted) {
  requireDisplay();
  const std::filesystem::path output = prepareOutput("window_layout_sizes");
  const std::string level = shellQuote(std::string(NAVSCOPE_ASSETS_DIR) + "/funnel.obj");
  RunningApp small(level + " --size 1024x600 --print-state --frames 60");
  small.finish();
  ASSERT_TRUE(small.exitedCleanly()) << small.transcript();
  const std::map<std::string, PanelBox> smallPanels = lastPanels(small.lines());
  EXPECT_EQ(smallPanels.size(), kDefaultPanels.size()) << small.transcript();
  EXPECT_TRUE(allInside(smallPanels, 1024, 600));
  // Stacked panels stay stacked: the left column still meets edge to edge.
  EXPECT_EQ(smallPanels.at("Build").y1, smallPanels.at("Draw").y0);
  EXPECT_EQ(smallPanels.at("Crowd").y1, smallPanels.at("Jumps").y0);
  EXPECT_EQ(smallPanels.at("Jumps").y1, 600);
  EXPECT_EQ(smallPanels.at("Steps").x1, 1024);

  const std::filesystem::path saved = output / "config" / "navscope" / "imgui.ini";
  std::ifstream in(saved);
  const std::string ini((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_NE(ini.find("DisplaySize=1024,600"), std::string::npos) << saved << "\n" << ini;

  RunningApp large(level + " --size 1280x720 --print-state --frames 60");
  large.finish();
  ASSERT_TRUE(large.exitedCleanly()) << large.transcript();
  const std::map<std::string, PanelBox> largePanels = lastPanels(large.lines());
  EXPECT_TRUE(allInside(largePanels, 1280, 720));
  EXPECT_TRUE(sameLayout(largePanels, kDefaultPanels, 2)) << large.transcript();
}

// Window > Reset layout puts panels a saved layout had scattered (one half out
// of the window) back where the committed layout has them.
TEST(WindowView, ResetLayoutPutsThePanelsBack) {
  requireDisplay();
  const std::filesystem::path output = prepareOutput("window_layout_reset");
  std::filesystem::create_directories(output / "config" / "navscope");
  std::ofstream(output / "config" / "navscope" / "imgui.ini")
      << "[Window][Build]\nPos=600,300\nSize=290,380\nCollapsed=0\n\n"
         "[Window][Path]\nPos=1200,650\nSize=290,190\nCollapsed=0\n\n"
         "[Window][Steps]\nPos=300,0\nSize=290,300\nCollapsed=0\n\n"
         "[Navscope][Layout]\nDisplaySize=1280,720\n";
  const std::string level = shellQuote(std::string(NAVSCOPE_ASSETS_DIR) + "/funnel.obj");
  RunningApp app(level + " --size 1280x720 --print-state --frames 600");
  std::optional<std::string> menu = app.waitFor("widget menu:Window ");
  ASSERT_TRUE(menu) << app.transcript();
  ASSERT_TRUE(app.waitForSinceLaunch("path status=")) << app.transcript();
  // The saved layout was read: Build starts where it says.
  EXPECT_FALSE(sameLayout(lastPanels(app.lines()), kDefaultPanels, 2));
  int x0, y0, x1, y1;
  ASSERT_EQ(std::sscanf(menu->c_str(), "widget menu:Window %d %d %d %d", &x0, &y0, &x1, &y1), 4);
  const std::string window = RunningApp::findWindow();
  ASSERT_FALSE(window.empty());
  ASSERT_TRUE(click(window, {(x0 + x1) / 2, (y0 + y1) / 2}, 1));
  std::optional<std::string> item = app.waitFor("widget menu:Reset layout ");
  ASSERT_TRUE(item) << app.transcript();
  ASSERT_EQ(std::sscanf(item->c_str(), "widget menu:Reset layout %d %d %d %d", &x0, &y0, &x1, &y1),
            4);
  ASSERT_TRUE(click(window, {(x0 + x1) / 2, (y0 + y1) / 2}, 1));
  ASSERT_TRUE(run("sleep 0.5"));
  app.finish();
  ASSERT_TRUE(app.exitedCleanly()) << app.transcript();
  EXPECT_TRUE(sameLayout(lastPanels(app.lines()), kDefaultPanels, 0)) << app.transcript();
}

// Ctrl+click on a sector selects it (printed, drawn in its own colour); F then
// frames it, so its outline grows on screen; Ctrl+click on it again clears it.
TEST(WindowView, CtrlClickSelectsASectorAndFFramesIt) {
  requireDisplay();
  namespace fs = std::filesystem;
  const fs::path output = prepareOutput("window_select");
  for (const char* name : {"navscope-1.png", "navscope-2.png"})
    fs::remove(output / name);
  fs::current_path(output);
  constexpr int kSelectionColor[3] = {0, 255, 0};
  const std::string level = shellQuote(std::string(NAVSCOPE_ASSETS_DIR) + "/showcase.obj");
  // A floor point of the showcase, and a point far off the level.
  RunningApp app(level + " --size 1280x720 --print-state --frames 900 --probe 20,0,20");
  std::optional<std::string> probe = app.waitFor("probe ");
  ASSERT_TRUE(probe) << app.transcript();
  const std::optional<Pixel> at = parseProbe(*probe);
  ASSERT_TRUE(at);
  ASSERT_TRUE(app.waitForSinceLaunch("path status=")) << app.transcript();
  const std::string window = RunningApp::findWindow();
  ASSERT_FALSE(window.empty());
  const std::string xdotool = NAVSCOPE_XDOTOOL;
  const auto ctrlClick = [&](Pixel p) {
    return run(xdotool + " mousemove --window " + window + " " + std::to_string(p.x) + " " +
               std::to_string(p.y)) &&
           run("sleep 0.2") && run(xdotool + " keydown ctrl") && run("sleep 0.2") &&
           run(xdotool + " mousedown 1") && run("sleep 0.2") && run(xdotool + " mouseup 1") &&
           run("sleep 0.2") && run(xdotool + " keyup ctrl") && run("sleep 0.3");
  };
  ASSERT_TRUE(ctrlClick(*at));
  std::optional<std::string> selected = app.waitFor("select ");
  ASSERT_TRUE(selected) << app.transcript();
  EXPECT_NE(selected->find("select sector "), std::string::npos) << *selected;
  EXPECT_NE(selected->find("island 1 of "), std::string::npos) << *selected;
  ASSERT_TRUE(run(xdotool + " key --window " + window + " F12"));
  ASSERT_TRUE(app.waitFor("screenshot ")) << app.transcript();
  ASSERT_TRUE(run(xdotool + " key --window " + window + " f") && run("sleep 0.5"));
  ASSERT_TRUE(run(xdotool + " key --window " + window + " F12"));
  ASSERT_TRUE(app.waitFor("screenshot ")) << app.transcript();
  // Framed, the sector lies at the view's centre.
  ASSERT_TRUE(ctrlClick({640, 370}));
  ASSERT_TRUE(app.waitFor("select none")) << app.transcript();
  app.finish();
  ASSERT_TRUE(app.exitedCleanly()) << app.transcript();

  const Image before((output / "navscope-1.png").string());
  const Image framed((output / "navscope-2.png").string());
  ASSERT_TRUE(before.loaded() && framed.loaded());
  const int outlineBefore = before.countColorIn(kSelectionColor, 290, 19, 990, 720);
  const int outlineFramed = framed.countColorIn(kSelectionColor, 290, 19, 990, 720);
  EXPECT_GE(outlineBefore, 40) << "the selected sector's outline";
  EXPECT_GT(outlineFramed, 3 * outlineBefore / 2) << "framed, the outline runs longer on screen";
}

// Holding W flies the focus forward along the ground, S back; the height stays.
TEST(WindowView, WAndSFlyTheCamera) {
  requireDisplay();
  prepareOutput("window_fly");
  const std::string level = shellQuote(std::string(NAVSCOPE_ASSETS_DIR) + "/funnel.obj");
  RunningApp app(level + " --size 1280x720 --print-state --frames 600");
  ASSERT_TRUE(app.waitFor("path status=")) << app.transcript();
  const std::string window = RunningApp::findWindow();
  ASSERT_FALSE(window.empty());
  const std::string xdotool = NAVSCOPE_XDOTOOL;
  const auto hold = [&](const char* key) {
    return run(xdotool + " mousemove --window " + window + " 640 400") &&
           run(xdotool + " keydown --window " + window + " " + key) && run("sleep 0.6") &&
           run(xdotool + " keyup --window " + window + " " + key) && run("sleep 0.3");
  };
  const auto focus = [](const std::string& line) {
    Point3 p{};
    const size_t at = line.find("focus=");
    std::sscanf(line.c_str() + at, "focus=%f,%f,%f", &p.x, &p.y, &p.z);
    return p;
  };
  ASSERT_TRUE(hold("w"));
  std::optional<std::string> start = app.waitFor("fly start ");
  std::optional<std::string> stop = app.waitFor("fly stop ");
  ASSERT_TRUE(start && stop) << app.transcript();
  const Point3 a = focus(*start), b = focus(*stop);
  EXPECT_GT(groundDistance(a, b), 1.0f) << *start << *stop;
  EXPECT_NEAR(a.y, b.y, 1e-3f);
  ASSERT_TRUE(hold("s"));
  start = app.waitFor("fly start ");
  stop = app.waitFor("fly stop ");
  ASSERT_TRUE(start && stop) << app.transcript();
  const Point3 c = focus(*stop);
  // Back towards where it began: S undoes W's direction.
  EXPECT_LT(groundDistance(a, c), groundDistance(a, b));
  app.finish();
  ASSERT_TRUE(app.exitedCleanly()) << app.transcript();
}

// A closed room whose faces turn in, seen from above: its ceiling and the
// near walls show their backs, so the floor's sector shows through them; B
// draws the back faces too, and the ceiling hides the floor. A click picks
// what is drawn.
TEST(WindowView, BackFacesHideARoomOnlyWhenAsked) {
  requireDisplay();
  namespace fs = std::filesystem;
  const fs::path folder = prepareOutput("window_back_faces");
  const fs::path level = folder / "room.obj";
  std::ofstream(level) << "v 0 0 0\nv 10 0 0\nv 10 0 10\nv 0 0 10\n"
                          "v 0 3 0\nv 10 3 0\nv 10 3 10\nv 0 3 10\n"
                          "f 1 4 3 2\nf 5 6 7 8\n"
                          "f 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n";
  const fs::path fronts = folder / "fronts.png", both = folder / "both.png";
  {
    // A click lands on what is drawn: the floor, not the ceiling's back.
    RunningApp app(shellQuote(level.string()) + " --size 1280x720 --print-state --frames 400 " +
                   "--screenshot " + shellQuote(fronts.string()));
    ASSERT_TRUE(app.waitFor("build unit=")) << app.transcript();
    const std::string window = RunningApp::findWindow();
    ASSERT_FALSE(window.empty());
    ASSERT_TRUE(click(window, {700, 350}, 1));
    const std::optional<std::string> start = app.waitFor("start ");
    ASSERT_TRUE(start) << app.transcript();
    float x = 0, y = -1, z = 0;
    ASSERT_EQ(std::sscanf(start->c_str(), "start %f %f %f", &x, &y, &z), 3) << *start;
    EXPECT_LT(y, 0.5f) << *start;
    ASSERT_TRUE(app.waitFor("screenshot ")) << app.transcript();
    app.finish();
  }
  {
    RunningApp app(shellQuote(level.string()) + " --size 1280x720 --print-state --frames 400 " +
                   "--screenshot " + shellQuote(both.string()));
    ASSERT_TRUE(app.waitFor("build unit=")) << app.transcript();
    const std::string window = RunningApp::findWindow();
    ASSERT_FALSE(window.empty());
    ASSERT_TRUE(run(std::string(NAVSCOPE_XDOTOOL) + " mousemove --window " + window + " 640 400"));
    ASSERT_TRUE(run(std::string(NAVSCOPE_XDOTOOL) + " key --window " + window + " b"));
    ASSERT_TRUE(app.waitFor("screenshot ")) << app.transcript();
    app.finish();
  }
  const Image front(fronts.string()), back(both.string());
  ASSERT_TRUE(front.loaded() && back.loaded());
  // The room fills the view's middle: what shows there is the floor's sector.
  int floor[3] = {};
  front.colorAt(560, 480, floor);
  const int seen = front.countColor(floor, 4);
  EXPECT_GT(seen, 50'000) << "the floor through the ceiling's back";
  EXPECT_LT(back.countColor(floor, 4), seen / 20) << "the ceiling over the floor";
}

}  // namespace
