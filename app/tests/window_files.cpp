// Files in the real window: a level changed on disk is read again by itself,
// a broken one leaves the level before on screen with the error, the Files
// panel opens another level from the same folder, a file dropped on the
// window opens, Save writes a .nav the CLI reads, a path exported from a
// level on a turned grid is in the level file's coordinates, choosing a
// level's grid can be cancelled, and a level wound the other way is turned over.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include <nlohmann/json.hpp>

#include "window_test_support.h"

namespace {

using namespace window_test;
namespace fs = std::filesystem;

// A folder holding copies of the bundled funnel (as level.obj) and showcase.
fs::path levelFolder(const std::string& name) {
  const fs::path folder = prepareOutput(name) / "levels";
  fs::remove_all(folder);
  fs::create_directories(folder);
  const fs::path assets = NAVSCOPE_ASSETS_DIR;
  fs::copy_file(assets / "funnel.obj", folder / "level.obj");
  fs::copy_file(assets / "funnel.json", folder / "level.json");
  fs::copy_file(assets / "showcase.obj", folder / "showcase.obj");
  fs::copy_file(assets / "showcase.json", folder / "showcase.json");
  return folder;
}

void append(const fs::path& file, const std::string& line) {
  std::ofstream out(file, std::ios::app);
  out << line << "\n";
}

// Clicks the middle of the widget a printed "widget LABEL X0 Y0 X1 Y1" line names.
bool clickWidget(const std::string& window, const std::string& line, const std::string& label) {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  return std::sscanf(line.c_str(), ("widget " + label + " %d %d %d %d").c_str(), &x0, &y0, &x1,
                     &y1) == 4 &&
         click(window, {(x0 + x1) / 2, (y0 + y1) / 2}, 1);
}

// The Files panel starts folded: File > Open... unfolds it. `fileMenu` is the
// printed line of the File menu's place.
::testing::AssertionResult openFilesPanel(RunningApp& app, const std::string& window,
                                          const std::string& fileMenu) {
  if (!clickWidget(window, fileMenu, "menu:File"))
    return ::testing::AssertionFailure() << "cannot click File";
  const std::optional<std::string> openItem = app.waitFor("widget menu:Open... ");
  if (!openItem || !clickWidget(window, *openItem, "menu:Open..."))
    return ::testing::AssertionFailure() << "no File > Open...\n" << app.transcript();
  return ::testing::AssertionSuccess();
}

TEST(WindowFiles, ALevelChangedOnDiskIsReadAgainAndABrokenOneKeepsTheLast) {
  requireDisplay();
  const fs::path folder = levelFolder("window_files_reload");
  const fs::path level = folder / "level.obj";
  RunningApp app(shellQuote(level.string()) + " --size 1280x720 --print-state --frames 600");
  ASSERT_TRUE(app.waitFor("build unit=human")) << app.transcript();
  const fs::path saved = fs::path(level).replace_extension(".bak");
  fs::copy_file(level, saved);
  append(level, "# saved again by the modelling tool");
  ASSERT_TRUE(app.waitFor("level " + level.string() + " triangles=122")) << app.transcript();
  ASSERT_TRUE(app.waitFor("build unit=human")) << app.transcript();
  append(level, "v 1 2");
  const std::optional<std::string> error = app.waitFor("level error ");
  ASSERT_TRUE(error) << app.transcript();
  EXPECT_NE(error->find("level.obj:"), std::string::npos) << *error;
  EXPECT_NE(error->find("vertex has 2 coordinates"), std::string::npos) << *error;
  fs::copy_file(saved, level, fs::copy_options::overwrite_existing);
  ASSERT_TRUE(app.waitFor("level " + level.string() + " triangles=122")) << app.transcript();
  app.finish();
  EXPECT_TRUE(app.exitedCleanly()) << app.transcript();
  // The level stayed on screen while the file was broken: the path was never lost.
  for (const std::string& line : app.lines()) {
    if (line.rfind("path status=", 0) != 0) continue;
    EXPECT_EQ(line.rfind("path status=found", 0), 0u) << line;
  }
}

TEST(WindowFiles, TheFilesPanelOpensAnotherLevelAndSavesItsGraph) {
  requireDisplay();
  const fs::path folder = levelFolder("window_files_open");
  const fs::path opened = folder.parent_path() / "opened.png";
  RunningApp app(shellQuote((folder / "level.obj").string()) +
                 " --size 1280x720 --print-state --frames 600 --screenshot " +
                 shellQuote(opened.string()));
  const std::optional<std::string> fileMenu = app.waitFor("widget menu:File ");
  ASSERT_TRUE(fileMenu) << app.transcript();
  ASSERT_TRUE(app.waitForSinceLaunch("build unit=human")) << app.transcript();
  const std::string window = RunningApp::findWindow();
  ASSERT_FALSE(window.empty());
  ASSERT_TRUE(openFilesPanel(app, window, *fileMenu));
  const std::optional<std::string> listed = app.waitFor("widget file:showcase.obj ");
  ASSERT_TRUE(listed) << app.transcript();
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  ASSERT_EQ(
      std::sscanf(listed->c_str(), "widget file:showcase.obj %d %d %d %d", &x0, &y0, &x1, &y1), 4);
  ASSERT_TRUE(click(window, {(x0 + x1) / 2, (y0 + y1) / 2}, 1));
  ASSERT_TRUE(app.waitFor("level " + (folder / "showcase.obj").string() + " triangles=1000"))
      << app.transcript();
  ASSERT_TRUE(app.waitFor("build unit=human cells=")) << app.transcript();
  // Ctrl+S, as the panel's Save button: the level's folder, its name with .nav.
  ASSERT_TRUE(run(std::string(NAVSCOPE_XDOTOOL) + " key --window " + window + " ctrl+s"));
  const std::optional<std::string> saved = app.waitFor("saved ");
  ASSERT_TRUE(saved) << app.transcript();
  app.finish();
  EXPECT_TRUE(app.exitedCleanly()) << app.transcript();
  const fs::path nav = folder / "showcase.nav";
  EXPECT_NE(saved->find(nav.string()), std::string::npos) << *saved;
  const std::optional<std::string> answer =
      capture(shellQuote(NAVSCOPE_CLI_EXE) + " query " + shellQuote(nav.string()) +
              " --from 20,0.05,24 --to 32,3.05,6");
  ASSERT_TRUE(answer) << "the CLI reads the saved graph";
  EXPECT_NE(answer->find("\"status\":\"found\""), std::string::npos) << *answer;

  // The view shows the showcase's mesh, not the funnel's: the lower half of
  // the viewport (below the Files panel and the inspector's note) looks as it
  // does when the showcase is opened by itself.
  // A settings folder of its own: the layout the first run saved would fold the panels.
  const fs::path direct = prepareOutput("window_files_open_alone") / "direct.png";
  RunningApp alone(shellQuote((folder / "showcase.obj").string()) +
                   " --size 1280x720 --print-state --frames 150 --screenshot " +
                   shellQuote(direct.string()));
  ASSERT_TRUE(alone.waitFor("build unit=human cells=")) << alone.transcript();
  alone.finish();
  const Image afterOpening(opened.string()), byItself(direct.string());
  ASSERT_TRUE(afterOpening.loaded() && byItself.loaded());
  const int left = 300, top = 430, right = 980, bottom = 700;
  EXPECT_LT(afterOpening.countDifferentIn(byItself, left, top, right, bottom),
            (right - left) * (bottom - top) / 50);
}

// Ticking "open as navigation mesh" and opening the showcase from the panel
// reads its faces as the graph; a reload (Ctrl+R) keeps that graph.
TEST(WindowFiles, AFileOpenedAsANavigationMeshBuildsNoCells) {
  requireDisplay();
  const fs::path folder = levelFolder("window_files_navmesh");
  RunningApp app(shellQuote((folder / "level.obj").string()) +
                 " --size 1280x720 --print-state --frames 700");
  const std::optional<std::string> fileMenu = app.waitFor("widget menu:File ");
  ASSERT_TRUE(fileMenu) << app.transcript();
  const std::optional<std::string> firstBuild = app.waitForSinceLaunch("build unit=human");
  ASSERT_TRUE(firstBuild) << app.transcript();
  EXPECT_EQ(firstBuild->find("graph=navmesh"), std::string::npos) << *firstBuild;
  const std::string window = RunningApp::findWindow();
  ASSERT_FALSE(window.empty());
  ASSERT_TRUE(openFilesPanel(app, window, *fileMenu));
  const std::optional<std::string> checkbox = app.waitFor("widget check:navmesh ");
  ASSERT_TRUE(checkbox) << app.transcript();
  const std::optional<std::string> listed = app.waitFor("widget file:showcase.obj ");
  ASSERT_TRUE(listed) << app.transcript();
  ASSERT_TRUE(clickWidget(window, *checkbox, "check:navmesh"));
  ASSERT_TRUE(clickWidget(window, *listed, "file:showcase.obj"));
  ASSERT_TRUE(app.waitFor("level " + (folder / "showcase.obj").string() + " triangles=1000"))
      << app.transcript();
  const std::optional<std::string> navmesh = app.waitFor("build unit=human");
  ASSERT_TRUE(navmesh) << app.transcript();
  EXPECT_NE(navmesh->find(" cells=0 sectors=1000 "), std::string::npos) << *navmesh;
  EXPECT_NE(navmesh->find(" graph=navmesh"), std::string::npos) << *navmesh;
  ASSERT_TRUE(run(std::string(NAVSCOPE_XDOTOOL) + " key --window " + window + " ctrl+r"));
  ASSERT_TRUE(app.waitFor("level " + (folder / "showcase.obj").string() + " triangles=1000"))
      << app.transcript();
  const std::optional<std::string> reloaded = app.waitFor("build unit=human");
  ASSERT_TRUE(reloaded) << app.transcript();
  EXPECT_NE(reloaded->find(" graph=navmesh"), std::string::npos) << *reloaded;
  app.finish();
  EXPECT_TRUE(app.exitedCleanly()) << app.transcript();
}

// A file manager's drop (XDND, as navscope_xdnd_drop performs it) opens the
// level; a name with a space and a '#' comes through the URI's escaping.
TEST(WindowFiles, AFileDroppedOnTheWindowOpens) {
  requireDisplay();
  const fs::path folder = levelFolder("window_files_drop");
  const fs::path dropped = folder / "dropped level #2.obj";
  fs::copy_file(folder / "showcase.obj", dropped);
  RunningApp app(shellQuote((folder / "level.obj").string()) +
                 " --size 1280x720 --print-state --frames 600");
  ASSERT_TRUE(app.waitFor("build unit=human")) << app.transcript();
  const std::string window = RunningApp::findWindow();
  ASSERT_FALSE(window.empty());
  ASSERT_TRUE(run(shellQuote(NAVSCOPE_XDND_DROP) + " " + window + " 640 360 " +
                  shellQuote(dropped.string())));
  ASSERT_TRUE(app.waitFor("level " + dropped.string() + " triangles=1000")) << app.transcript();
  ASSERT_TRUE(app.waitFor("build unit=human cells=")) << app.transcript();
  app.finish();
  EXPECT_TRUE(app.exitedCleanly()) << app.transcript();
}

// Ctrl+E writes the path as JSON: the same answer navscope-cli query gives,
// with the search's trace, the funnel's steps and the smoothed curve.
// Exports the path from `from` to `to` on `level` (ctrl+e) and checks it
// against the CLI's answer for the same points; returns the exported document.
nlohmann::json exportMatchesCli(const fs::path& level, const std::string& from,
                                const std::string& to) {
  RunningApp app(shellQuote(level.string()) +
                 " --size 1280x720 --print-state --frames 400 --start " + from + " --goal " + to);
  EXPECT_TRUE(app.waitFor("path status=found")) << app.transcript();
  const std::string window = RunningApp::findWindow();
  EXPECT_FALSE(window.empty());
  EXPECT_TRUE(run(std::string(NAVSCOPE_XDOTOOL) + " key --window " + window + " ctrl+e"));
  const std::optional<std::string> exported = app.waitFor("exported ");
  EXPECT_TRUE(exported) << app.transcript();
  app.finish();
  EXPECT_TRUE(app.exitedCleanly()) << app.transcript();

  fs::path file = level;
  file.replace_filename(level.stem().string() + "-path.json");
  std::ifstream in(file);
  const nlohmann::json path = nlohmann::json::parse(in, nullptr, false);
  EXPECT_FALSE(path.is_discarded()) << file;
  const std::optional<std::string> answer =
      capture(shellQuote(NAVSCOPE_CLI_EXE) + " query " + shellQuote(level.string()) + " --from " +
              from + " --to " + to);
  EXPECT_TRUE(answer);
  const nlohmann::json cli =
      answer ? nlohmann::json::parse(*answer, nullptr, false) : nlohmann::json();
  EXPECT_FALSE(cli.is_discarded()) << answer.value_or("");
  if (path.is_discarded() || cli.is_discarded() || !cli.is_object()) return nlohmann::json();
  EXPECT_EQ(path["status"], cli["status"]);
  EXPECT_NEAR(path["length"].get<double>(), cli["length"].get<double>(), 1e-3);
  EXPECT_EQ(path["corners"].size(), cli["corners"].size());
  for (size_t i = 0; i < std::min(path["corners"].size(), cli["corners"].size()); ++i) {
    for (size_t axis = 0; axis < 3; ++axis) {
      EXPECT_NEAR(path["corners"][i][axis].get<double>(), cli["corners"][i][axis].get<double>(),
                  1e-3)
          << "corner " << i;
    }
  }
  return path;
}

TEST(WindowFiles, ExportWritesThePathTheCliAlsoFinds) {
  requireDisplay();
  const fs::path folder = levelFolder("window_files_export");
  const nlohmann::json path = exportMatchesCli(folder / "level.obj", "2,0,1.5", "18,0,10.5");
  ASSERT_TRUE(path.is_object());
  EXPECT_EQ(path["query"]["search"], "crossing");
  EXPECT_EQ(path["units"], "metres");
  // Every expansion is in the trace, and the funnel ends at the goal.
  size_t closes = 0;
  for (const nlohmann::json& event : path["trace"])
    closes += event["event"] == "close";
  EXPECT_EQ(closes, path["expansions"].get<size_t>());
  ASSERT_FALSE(path["funnel_steps"].empty());
  EXPECT_EQ(path["funnel_steps"].back()["event"], "goal");
  EXPECT_GT(path["smoothed"].size(), path["corners"].size());
}

// Writes `target`: the OBJ `source` turned `degrees` about (cx, cz) (+X towards -Z).
void writeTurned(const fs::path& source, const fs::path& target, double degrees, double cx,
                 double cz, double away = 0.0) {
  std::ifstream in(source);
  std::ofstream out(target);
  out.precision(12);
  const double c = std::cos(glm::radians(degrees)), s = std::sin(glm::radians(degrees));
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string tag;
    double x = 0.0, y = 0.0, z = 0.0;
    if (words >> tag && tag == "v" && words >> x >> y >> z) {
      const double dx = x - cx, dz = z - cz;
      out << "v " << away + cx + dx * c + dz * s << " " << y << " " << away + cz - dx * s + dz * c
          << "\n";
    } else {
      out << line << "\n";
    }
  }
}

// The funnel level turned 30 degrees about (10, 6), written as turned.obj (no
// sidecar) in the folder of levelFolder(name).
fs::path turnedFunnel(const std::string& name) {
  const fs::path folder = levelFolder(name);
  const fs::path level = folder / "turned.obj";
  writeTurned(folder / "level.obj", level, 30.0, 10.0, 6.0);
  return level;
}

// The funnel turned 30 degrees about (10, 6), written as a level of its own:
// the window builds it on a grid along its walls (as the CLI does), and the
// printed and exported points are the file's. (2, 1.5) and (18, 10.5) turn to
// (0.822, 6.103) and (19.178, 5.897).
TEST(WindowFiles, ATurnedLevelIsBuiltOnItsGridAndExportedInItsOwnCoordinates) {
  requireDisplay();
  const fs::path level = turnedFunnel("window_files_turned");
  const std::string from = "0.8218,0,6.1029", to = "19.1782,0,5.8971";
  RunningApp app(shellQuote(level.string()) + " --size 1280x720 --print-state --frames 200 " +
                 "--start " + from + " --goal " + to);
  EXPECT_TRUE(app.waitFor("grid angle=30.000")) << app.transcript();
  EXPECT_TRUE(app.waitFor("path status=found")) << app.transcript();
  app.finish();
  EXPECT_EQ(lastLine(app.lines(), "start "), "start 0.822 0.000 6.103\n") << app.transcript();
  EXPECT_EQ(lastLine(app.lines(), "goal "), "goal 19.178 0.000 5.897\n") << app.transcript();
  const std::string build = lastLine(app.lines(), "build unit=");
  EXPECT_NE(build.find(" sectors=13 "), std::string::npos) << "the funnel's 13, not a staircase's\n"
                                                           << app.transcript();

  // --grid-angle 0 keeps the file's axes: the funnel's corridors become staircases.
  RunningApp fileAxes(shellQuote(level.string()) +
                      " --size 1280x720 --print-state --frames 100 --grid-angle 0");
  EXPECT_TRUE(fileAxes.waitFor("build unit=")) << fileAxes.transcript();
  fileAxes.finish();
  EXPECT_EQ(lastLine(fileAxes.lines(), "grid "), "") << "no turned grid, nothing printed";
  EXPECT_NE(lastLine(fileAxes.lines(), "build unit=").find(" sectors=131 "), std::string::npos)
      << fileAxes.transcript();
  for (const char* bad : {"50", "north"}) {
    RunningApp refused(shellQuote(level.string()) + " --grid-angle " + bad + " 2>&1");
    refused.finish();
    EXPECT_FALSE(refused.exitedCleanly());
    EXPECT_NE(refused.transcript().find("--grid-angle " + std::string(bad) +
                                        ": expected degrees from -45 to 45"),
              std::string::npos)
        << refused.transcript();
  }

  const nlohmann::json path = exportMatchesCli(level, from, to);
  ASSERT_TRUE(path.is_object());
  const nlohmann::json& corners = path["corners"];
  ASSERT_GE(corners.size(), 2u);
  EXPECT_NEAR(corners.front()[0].get<double>(), 0.8218, 1e-3);
  EXPECT_NEAR(corners.front()[2].get<double>(), 6.1029, 1e-3);
  EXPECT_NEAR(corners.back()[0].get<double>(), 19.1782, 1e-3);
  EXPECT_NEAR(corners.back()[2].get<double>(), 5.8971, 1e-3);
}

// The funnel level written 100 km out along x and z (no sidecar): the window
// builds it moved near the origin (as the CLI does) and prints its points,
// clicked or given, in the file's coordinates.
TEST(WindowFiles, ALevelFarOutIsBuiltNearTheOriginInItsOwnCoordinates) {
  requireDisplay();
  const fs::path folder = levelFolder("window_files_far");
  const fs::path level = folder / "far.obj";
  writeTurned(folder / "level.obj", level, 0.0, 0.0, 0.0, 100000.0);
  RunningApp app(shellQuote(level.string()) + " --size 1280x720 --print-state --frames 200 " +
                 "--start 100002,0,100001.5 --goal 100018,0,100010.5");
  const std::optional<std::string> grid = app.waitFor("grid angle=");
  ASSERT_TRUE(grid) << app.transcript();
  EXPECT_EQ(*grid, "grid angle=0.000 offset=100010,1,100006\n") << app.transcript();
  EXPECT_TRUE(app.waitFor("path status=found")) << app.transcript();
  app.finish();
  ASSERT_TRUE(app.exitedCleanly()) << app.transcript();
  EXPECT_EQ(lastLine(app.lines(), "start "), "start 100002.000 0.000 100001.500\n")
      << app.transcript();
  EXPECT_NE(lastLine(app.lines(), "build unit=").find(" sectors=13 "), std::string::npos)
      << "the funnel's 13 sectors, as at the origin\n"
      << app.transcript();
  const std::vector<Point3> corners = lastCorners(app.lines());
  ASSERT_GE(corners.size(), 2u) << app.transcript();
  EXPECT_NEAR(corners.back().x, 100018.0f, 0.02f);
  EXPECT_NEAR(corners.back().z, 100010.5f, 0.02f);
}

// Choosing a turned level's grid takes trial builds on the build thread: Esc
// cancels them (the level stays on its file's axes, no grid is printed), and
// the next build (here a reload, Ctrl+R) chooses again. A 200 m terrain
// turned 21 degrees, so that the trials outlast the key press; the app quits
// ten frames after the first graph it shows.
TEST(WindowFiles, ChoosingTheGridCanBeCancelledAndComesBack) {
  requireDisplay();
  const fs::path folder = prepareOutput("window_files_grid_cancel");
  const fs::path generated = folder / "terrain.obj", level = folder / "turned.obj";
  ASSERT_TRUE(capture(shellQuote(NAVSCOPE_CLI_EXE) + " generate terrain --seed 5 --size 200 -o " +
                      shellQuote(generated.string())));
  writeTurned(generated, level, 21.0, 100.0, 100.0);
  RunningApp app(shellQuote(level.string()) + " --size 1280x720 --print-state --bench-frames 10");
  ASSERT_TRUE(app.waitFor("build start ")) << app.transcript();
  const std::string window = RunningApp::findWindow();
  ASSERT_FALSE(window.empty());
  ASSERT_TRUE(run(std::string(NAVSCOPE_XDOTOOL) + " key --window " + window + " Escape"));
  ASSERT_TRUE(app.waitFor("build cancelled ")) << app.transcript();
  EXPECT_EQ(lastLine(app.lines(), "grid "), "") << "cancelled while choosing\n" << app.transcript();
  ASSERT_TRUE(run(std::string(NAVSCOPE_XDOTOOL) + " key --window " + window + " ctrl+r"));
  const std::optional<std::string> grid = app.waitFor("grid angle=");
  ASSERT_TRUE(grid) << app.transcript();
  EXPECT_NEAR(std::stof(grid->substr(11)), 21.0f, 0.1f) << *grid;
  ASSERT_TRUE(app.waitFor("build unit=")) << app.transcript();
  app.finish();
  EXPECT_TRUE(app.exitedCleanly()) << app.transcript();
}

// The Build panel's grid: unticking auto and clicking the left end of the
// angle slider (-45 degrees) puts the turned funnel on a grid 75 degrees from
// its walls, where its corridors are staircases; the path's ends stay where
// they were.
TEST(WindowFiles, TheGridAngleSliderPutsTheLevelOnAnotherGrid) {
  requireDisplay();
  const fs::path level = turnedFunnel("window_files_grid_slider");
  RunningApp app(shellQuote(level.string()) +
                 " --size 1280x720 --print-state --frames 600 --start 0.8218,0,6.1029"
                 " --goal 19.1782,0,5.8971");
  ASSERT_TRUE(app.waitFor("path status=found")) << app.transcript();
  const std::string window = RunningApp::findWindow();
  ASSERT_FALSE(window.empty());
  const std::string check = lastLine(app.lines(), "widget check:auto grid");
  ASSERT_TRUE(clickWidget(window, check, "check:auto grid")) << app.transcript();
  // The slider comes alive once auto is off; its place settles with the panel's scroll bar.
  ASSERT_TRUE(app.waitFor("build unit=")) << app.transcript();
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  ASSERT_EQ(std::sscanf(lastLine(app.lines(), "widget slider:grid angle").c_str(),
                        "widget slider:grid angle %d %d %d %d", &x0, &y0, &x1, &y1),
            4)
      << app.transcript();
  ASSERT_TRUE(click(window, {x0 + 2, (y0 + y1) / 2}, 1));
  const std::optional<std::string> regridded = app.waitFor("grid angle=");
  ASSERT_TRUE(regridded) << app.transcript();
  EXPECT_LT(std::stof(regridded->substr(11)), -40.0f) << *regridded;
  ASSERT_TRUE(app.waitFor("path status=found")) << app.transcript();
  app.finish();
  EXPECT_TRUE(app.exitedCleanly()) << app.transcript();
  int sectors = 0;
  std::sscanf(lastLine(app.lines(), "build unit=").c_str(), "build unit=%*s cells=%*d sectors=%d",
              &sectors);
  EXPECT_GT(sectors, 50) << "staircases on the file's axes\n" << app.transcript();
  EXPECT_EQ(lastLine(app.lines(), "start "), "start 0.822 0.000 6.103\n") << app.transcript();
  EXPECT_EQ(lastLine(app.lines(), "goal "), "goal 19.178 0.000 5.897\n") << app.transcript();
}

// The funnel level with every face wound the other way: no face is ground,
// the build finds no cell and says why; the Build panel's "flip faces" box
// turns the faces over and the build finds the funnel's cells, a reload too.
TEST(WindowFiles, FlipFacesTurnsOverALevelWoundTheOtherWay) {
  requireDisplay();
  const fs::path folder = prepareOutput("window_files_flip_faces");
  const fs::path level = folder / "backwards.obj";
  {
    std::ifstream in(fs::path(NAVSCOPE_ASSETS_DIR) / "funnel.obj");
    std::ofstream out(level);
    std::string line;
    while (std::getline(in, line)) {
      if (line.rfind("f ", 0) != 0) {
        out << line << "\n";
        continue;
      }
      std::istringstream corners(line.substr(2));
      std::vector<std::string> face{std::istream_iterator<std::string>(corners), {}};
      out << "f";
      for (auto corner = face.rbegin(); corner != face.rend(); ++corner)
        out << " " << *corner;
      out << "\n";
    }
  }
  // The warning over the view, in its amber, before the faces are turned over and not after.
  const int amber[3] = {255, 200, 90};
  const fs::path before = folder / "before.png", after = folder / "after.png";
  fs::remove(before);
  fs::remove(after);
  {
    RunningApp shot(shellQuote(level.string()) + " --size 1280x720 --print-state --frames 60 " +
                    "--screenshot " + shellQuote(before.string()));
    ASSERT_TRUE(shot.waitFor("screenshot ")) << shot.transcript();
    shot.finish();
  }
  const Image warned(before.string());
  ASSERT_TRUE(warned.loaded());
  EXPECT_GT(warned.countColor(amber, 12), 300) << "the warning's text over the view";

  RunningApp app(shellQuote(level.string()) + " --size 1280x720 --print-state --frames 600 " +
                 "--screenshot " + shellQuote(after.string()));
  const std::optional<std::string> empty = app.waitFor("build unit=");
  ASSERT_TRUE(empty) << app.transcript();
  EXPECT_EQ(empty->find("build unit=human cells=0 "), 0u) << *empty;
  const std::optional<std::string> why = app.waitFor("build warning ");
  ASSERT_TRUE(why) << app.transcript();
  EXPECT_NE(why->find("face down"), std::string::npos) << *why;
  EXPECT_NE(why->find("flipFaces"), std::string::npos) << *why;

  const std::string window = RunningApp::findWindow();
  ASSERT_FALSE(window.empty());
  ASSERT_TRUE(app.waitForSinceLaunch("widget check:flip faces")) << app.transcript();
  const std::string check = lastLine(app.lines(), "widget check:flip faces");
  ASSERT_TRUE(clickWidget(window, check, "check:flip faces")) << app.transcript();
  const std::optional<std::string> built = app.waitFor("build unit=");
  ASSERT_TRUE(built) << app.transcript();
  int cells = 0;
  ASSERT_EQ(std::sscanf(built->c_str(), "build unit=%*s cells=%d", &cells), 1) << *built;
  // The funnel's own sidecar seeds one corridor; unseeded, the fill starts on every face.
  EXPECT_GT(cells, 1000) << *built;
  // A reload keeps the faces as the box set them.
  ASSERT_TRUE(run(std::string(NAVSCOPE_XDOTOOL) + " key --window " + window + " ctrl+r"));
  ASSERT_TRUE(app.waitFor("level ")) << app.transcript();
  const std::optional<std::string> reloaded = app.waitFor("build unit=");
  ASSERT_TRUE(reloaded) << app.transcript();
  EXPECT_EQ(reloaded->find("build unit=human cells=" + std::to_string(cells) + " "), 0u)
      << *reloaded;
  app.finish();
  EXPECT_TRUE(app.exitedCleanly()) << app.transcript();
  const std::vector<std::string> lines = app.lines();
  EXPECT_EQ(std::count_if(lines.begin(), lines.end(),
                          [](const std::string& l) { return l.rfind("build warning ", 0) == 0; }),
            1)
      << "only the first build's\n"
      << app.transcript();
  const Image cleared(after.string());
  ASSERT_TRUE(cleared.loaded());
  EXPECT_LT(cleared.countColor(amber, 12), 20) << "no warning once the faces are turned over";
}

// The funnel level written Z up in decimetres: its walls lie flat and the
// build says the file may be Z up; the Build panel's "unit scale" of 0.1
// brings it to metres (still on its side, still warned of), and its "Z up"
// box stands it up, where it builds the cells the CLI builds from the funnel
// written Y up in metres.
TEST(WindowFiles, ZUpAndUnitScaleReadALevelWrittenAnotherWay) {
  requireDisplay();
  const fs::path folder = prepareOutput("window_files_z_up");
  const fs::path metres = folder / "metres.obj", sideways = folder / "sideways.obj";
  fs::copy_file(fs::path(NAVSCOPE_ASSETS_DIR) / "funnel.obj", metres,
                fs::copy_options::overwrite_existing);
  {
    std::ifstream in(metres);
    std::ofstream out(sideways);
    std::string line;
    while (std::getline(in, line)) {
      float x = 0, y = 0, z = 0;
      if (std::sscanf(line.c_str(), "v %f %f %f", &x, &y, &z) == 3) {
        out << "v " << x * 10 << " " << -z * 10 << " " << y * 10 << "\n";
      } else {
        out << line << "\n";
      }
    }
  }
  const std::optional<std::string> expected =
      capture(shellQuote(NAVSCOPE_CLI_EXE) + " build " + shellQuote(metres.string()));
  ASSERT_TRUE(expected);
  const size_t cellsAt = expected->find("\"cells\":");
  ASSERT_NE(cellsAt, std::string::npos) << *expected;
  const int expectedCells = std::stoi(expected->substr(cellsAt + 8));
  ASSERT_GT(expectedCells, 1000);
  const auto cellsOf = [](const std::string& line) {
    int cells = -1;
    std::sscanf(line.c_str(), "build unit=%*s cells=%d", &cells);
    return cells;
  };

  RunningApp app(shellQuote(sideways.string()) + " --size 1280x720 --print-state --frames 900");
  const std::optional<std::string> inDecimetres = app.waitFor("build unit=");
  ASSERT_TRUE(inDecimetres) << app.transcript();
  const std::optional<std::string> why = app.waitFor("build warning ");
  ASSERT_TRUE(why) << app.transcript();
  EXPECT_NE(why->find("may have been written Z up"), std::string::npos) << *why;

  const std::string window = RunningApp::findWindow();
  ASSERT_FALSE(window.empty());
  // ImGui 1.86 polls keys once a frame: each is held over several.
  const std::string xdotool = std::string(NAVSCOPE_XDOTOOL);
  const auto press = [&](const std::string& key) {
    return run(xdotool + " keydown --window " + window + " " + key) && run("sleep 0.3") &&
           run(xdotool + " keyup --window " + window + " " + key) && run("sleep 0.3");
  };
  ASSERT_TRUE(app.waitForSinceLaunch("widget input:unit scale")) << app.transcript();
  ASSERT_TRUE(
      clickWidget(window, lastLine(app.lines(), "widget input:unit scale"), "input:unit scale"))
      << app.transcript();
  ASSERT_TRUE(press("ctrl+a"));
  ASSERT_TRUE(run(xdotool + " type --window " + window + " 0.1"));
  ASSERT_TRUE(press("Return"));
  const std::optional<std::string> inMetres = app.waitFor("build unit=");
  ASSERT_TRUE(inMetres) << app.transcript();
  EXPECT_LT(cellsOf(*inMetres) * 50, cellsOf(*inDecimetres))
      << "a hundredth of the area: " << *inMetres << *inDecimetres;
  ASSERT_TRUE(app.waitFor("build warning ")) << "still on its side\n" << app.transcript();

  ASSERT_TRUE(clickWidget(window, lastLine(app.lines(), "widget check:Z up"), "check:Z up"))
      << app.transcript();
  const std::optional<std::string> upright = app.waitFor("build unit=");
  ASSERT_TRUE(upright) << app.transcript();
  EXPECT_EQ(cellsOf(*upright), expectedCells) << *upright;
  app.finish();
  EXPECT_TRUE(app.exitedCleanly()) << app.transcript();
  const std::vector<std::string> lines = app.lines();
  EXPECT_EQ(std::count_if(lines.begin(), lines.end(),
                          [](const std::string& l) { return l.rfind("build warning ", 0) == 0; }),
            2)
      << "only the sideways builds'\n"
      << app.transcript();
}

// A level smaller than the unit (the funnel read as centimetres): no cells,
// the warning names the unit scale, and the comparison's Recast build, which
// crashed on a heightfield of no columns, reports why it has no mesh.
TEST(WindowFiles, ALevelSmallerThanTheUnitSaysSo) {
  requireDisplay();
  const fs::path folder = prepareOutput("window_files_tiny");
  const fs::path level = folder / "tiny.obj";
  fs::copy_file(fs::path(NAVSCOPE_ASSETS_DIR) / "funnel.obj", level,
                fs::copy_options::overwrite_existing);
  std::ofstream(folder / "tiny.json") << R"({"unitScale": 0.01})";
  RunningApp app(shellQuote(level.string()) + " --size 1280x720 --print-state --frames 120");
  const std::optional<std::string> built = app.waitFor("build unit=");
  ASSERT_TRUE(built) << app.transcript();
  EXPECT_EQ(built->find("build unit=human cells=0 "), 0u) << *built;
  const std::optional<std::string> why = app.waitFor("build warning ");
  ASSERT_TRUE(why) << app.transcript();
  EXPECT_NE(why->find("less than the unit"), std::string::npos) << *why;
  app.finish();
  EXPECT_TRUE(app.exitedCleanly()) << app.transcript();
}

// A level whose error quotes a 20,000-digit token: the window shows the
// error, cut, and goes on (it aborted in ImGui, too many vertices in one
// draw list).
TEST(WindowFiles, ALevelWithAHugeTokenShowsItsErrorCut) {
  requireDisplay();
  const fs::path folder = prepareOutput("window_files_huge_token");
  const fs::path level = folder / "huge_token.obj";
  std::string text = "v ";
  text.append(20'000, '1');
  text += " 0 0\n";
  std::ofstream(level, std::ios::binary) << text;
  RunningApp app(shellQuote(level.string()) + " --size 1280x720 --print-state --frames 60");
  const std::optional<std::string> error = app.waitFor("level error ");
  ASSERT_TRUE(error) << app.transcript();
  EXPECT_NE(error->find("(20000 characters)"), std::string::npos) << *error;
  app.finish();
  EXPECT_TRUE(app.exitedCleanly()) << app.transcript();
}

// A Moving AI grid map opens as the CLI's scen builds it: the point-sized
// grid unit, nine cells (cell 1/3) on each of the 11 passable tiles.
TEST(WindowFiles, AGridMapOpensAsScenBuildsIt) {
  requireDisplay();
  const fs::path folder = prepareOutput("window_files_grid_map");
  const fs::path map = folder / "block.map";
  std::ofstream(map) << "type octile\nheight 3\nwidth 4\nmap\n....\n.@..\n....\n";
  RunningApp app(shellQuote(map.string()) + " --size 1280x720 --print-state --frames 60");
  const std::optional<std::string> built = app.waitFor("build unit=");
  ASSERT_TRUE(built) << app.transcript();
  EXPECT_EQ(built->find("build unit=grid point cells=99 "), 0u) << *built;
  app.finish();
  EXPECT_TRUE(app.exitedCleanly()) << app.transcript();
}

// A file that takes seconds to read (80 star-shaped faces of 4,096 corners,
// cut into triangles one by one) is read while frames go on: Esc gives it
// up and the level before stays. Before, the window froze until it was read.
// A level that takes seconds to read: 80 star-shaped faces of 4,096 corners,
// which the reader cuts into triangles one ear at a time.
void writeSlowLevel(const fs::path& path) {
  std::ofstream out(path);
  constexpr int kCorners = 4096, kFaces = 80;
  for (int f = 0, first = 1; f < kFaces; ++f, first += kCorners) {
    for (int k = 0; k < kCorners; ++k) {
      const double angle = 2.0 * 3.14159265358979 * k / kCorners, r = k % 2 ? 3.0 : 4.0;
      out << "v " << 10.0 * f + r * std::cos(angle) << " 0 " << r * std::sin(angle) << "\n";
    }
    out << "f";
    for (int k = kCorners - 1; k >= 0; --k)
      out << " " << first + k;
    out << "\n";
  }
}

// Presses Esc in the app's window.
void pressEscape() {
  const std::string window = RunningApp::findWindow();
  ASSERT_FALSE(window.empty());
  const std::string xdotool = std::string(NAVSCOPE_XDOTOOL);
  ASSERT_TRUE(run(xdotool + " keydown --window " + window + " Escape") && run("sleep 0.2") &&
              run(xdotool + " keyup --window " + window + " Escape"));
}

// Once the app says it is reading `level`, Esc gives the read up; the app
// then closes cleanly, never having printed a line starting `shown`.
void givesUpTheRead(RunningApp& app, const fs::path& level, const std::string& shown) {
  ASSERT_TRUE(app.waitFor("level opening " + level.string())) << app.transcript();
  pressEscape();
  ASSERT_TRUE(app.waitFor("level given up " + level.string())) << app.transcript();
  app.finish();
  EXPECT_TRUE(app.exitedCleanly()) << app.transcript();
  for (const std::string& line : app.lines())
    EXPECT_NE(line.rfind(shown, 0), 0u) << line;
}

TEST(WindowFiles, EscGivesUpASlowReadAndTheLevelStays) {
  requireDisplay();
  const fs::path folder = levelFolder("window_files_give_up");
  const fs::path level = folder / "level.obj";
  RunningApp app(shellQuote(level.string()) + " --size 1280x720 --print-state --frames 1800");
  ASSERT_TRUE(app.waitFor("build unit=human")) << app.transcript();
  const fs::path slow = folder / "slow.tmp";
  writeSlowLevel(slow);
  // Moved in at once: the change on disk makes the window read it again.
  fs::rename(slow, level);
  givesUpTheRead(app, level, "level " + level.string() + " triangles=327");
}

// Run by a person (no --frames), the window takes input while the level
// named on the command line is read: Esc gives the read up, and the window
// says so in place of a level.
TEST(WindowFiles, TheWindowAnswersWhileTheFirstLevelIsRead) {
  requireDisplay();
  const fs::path folder = levelFolder("window_files_first_read");
  const fs::path level = folder / "slow.obj";
  writeSlowLevel(level);
  RunningApp app(shellQuote(level.string()) + " --size 1280x720 --print-state");
  givesUpTheRead(app, level, "level " + level.string() + " triangles=");
}

}  // namespace
