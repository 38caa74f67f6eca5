// navscope-cli generate terrain, --rotate-y and --grid-angle, run as a user
// runs them: the level and its sidecar written and summed up, the same bytes
// for the same seed; a quarter-turned funnel answering as the funnel does,
// with the points turned by hand; a funnel turned 30 degrees answering as the
// funnel on the grid chosen for it, in the file's coordinates; bad flags
// refused with the flag named and exit code 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "cli_run.h"

namespace {

using nav::test::asset;
using nav::test::CliRun;
using nav::test::outputFile;
using nav::test::quoted;
using nav::test::readAll;
using nav::test::runCli;

TEST(CliGenerateTerrain, WritesTheLevelAndItsSidecar) {
  const std::string obj = outputFile("cli_terrain.obj");
  const CliRun first = runCli("generate terrain --seed 4 -o " + quoted(obj));
  ASSERT_EQ(first.exitCode, 0) << first.output;
  ASSERT_EQ(first.objects.size(), 1u) << first.output;
  const nlohmann::json& summary = first.objects[0];
  EXPECT_EQ(summary["obj"], obj);
  EXPECT_EQ(summary["sidecar"], outputFile("cli_terrain.json"));
  EXPECT_EQ(summary["seed"], 4);
  EXPECT_EQ(summary["size"], 64.0);
  EXPECT_GT(summary["triangles"].get<int>(), 5000);
  for (const char* feature :
       {"slopes", "stairs", "bridge", "cave", "holes", "walls", "arc", "railings"}) {
    EXPECT_GE(summary["features"][feature].get<int>(), 1) << feature;
  }
  const nlohmann::json sidecar = nlohmann::json::parse(readAll(outputFile("cli_terrain.json")));
  EXPECT_EQ(sidecar["cellSize"], 0.3);
  EXPECT_FALSE(sidecar.contains("seeds"));
  EXPECT_EQ(sidecar["units"][0]["width"], 1.2);

  const std::string text = readAll(obj);
  ASSERT_EQ(runCli("generate terrain --seed 4 -o " + quoted(obj)).exitCode, 0);
  EXPECT_EQ(readAll(obj), text) << "the same seed writes the same bytes";
  const CliRun larger = runCli("generate terrain --seed 4 --size 100 -o " + quoted(obj));
  ASSERT_EQ(larger.exitCode, 0) << larger.output;
  EXPECT_EQ(larger.objects.at(0)["size"], 100.0);
  EXPECT_GT(larger.objects[0]["triangles"].get<int>(), summary["triangles"].get<int>());
}

TEST(CliGenerateTerrain, BadFlagsNameTheFlag) {
  struct Case {
    std::string flags, output, named;
  };
  const std::string obj = outputFile("cli_terrain_bad.obj");
  const Case cases[] = {{"--seed 1 --size 20", obj, "--size"},
                        {"--seed 1 --size 5000", obj, "--size"},
                        {"--seed 1 --size nan", obj, "--size"},
                        {"--seed 1", "/nonexistent/folder/level.obj", "-o"},
                        {"--seed 1", outputFile("cli_terrain.txt"), "-o"},
                        {"--seed -1", obj, "--seed"},
                        {"", obj, "--seed"}};
  for (const Case& c : cases) {
    const std::string arguments = c.flags + " -o " + quoted(c.output);
    const CliRun run = runCli("generate terrain " + arguments);
    EXPECT_EQ(run.exitCode, 2) << arguments << "\n" << run.output;
    EXPECT_NE(run.output.find(c.named), std::string::npos) << arguments << "\n" << run.output;
  }
  EXPECT_FALSE(std::filesystem::exists(obj));
}

// The funnel's bounds are x -0.3..20.3, z -0.3..12.3: a quarter turn about
// (10, 6) takes (x, z) to (10 + (z - 6), 6 - (x - 10)), so its start (1.9, 1.5)
// goes to (5.5, 14.1) and its goal (18.1, 10.5) to (14.5, -2.1). Its walls lie
// along the axes before and after, but the grid starts at the bounds' least
// corner, which the turn takes to the other side: walls fall elsewhere between
// grid lines (2,117 cells against 2,120), and so do the cells and portal ends
// the path turns at (38.7745 m against 38.6465 m: within half a percent, well
// inside the 2 % a turned level must agree to).
TEST(CliRotateY, AQuarterTurnedLevelAnswersAsTheLevel) {
  const CliRun info = runCli("info " + asset("funnel.obj") + " --rotate-y 90");
  ASSERT_EQ(info.exitCode, 0) << info.output;
  EXPECT_EQ(info.objects.at(0)["start"], nlohmann::json::parse("[5.5, 0.05, 14.1]"));
  EXPECT_EQ(info.objects.at(0)["goal"], nlohmann::json::parse("[14.5, 0.05, -2.1]"));
  EXPECT_EQ(info.objects.at(0)["rotate_y"], 90.0);

  const CliRun build = runCli("build " + asset("funnel.obj"));
  const CliRun turnedBuild = runCli("build " + asset("funnel.obj") + " --rotate-y 90");
  ASSERT_EQ(turnedBuild.exitCode, 0) << turnedBuild.output;
  EXPECT_NEAR(turnedBuild.objects.at(0)["cells"].get<double>(),
              build.objects.at(0)["cells"].get<double>(), 20.0);
  EXPECT_EQ(turnedBuild.objects.at(0)["rotate_y"], 90.0);

  const CliRun path =
      runCli("query " + asset("funnel.obj") + " --from 1.9,0.05,1.5 --to 18.1,0.05,10.5");
  const CliRun turnedPath = runCli("query " + asset("funnel.obj") +
                                   " --rotate-y 90 --from 5.5,0.05,14.1 --to 14.5,0.05,-2.1");
  ASSERT_EQ(turnedPath.exitCode, 0) << turnedPath.output;
  EXPECT_EQ(turnedPath.objects.at(0)["status"], "found");
  const double length = path.objects.at(0)["length"].get<double>();
  EXPECT_NEAR(turnedPath.objects.at(0)["length"].get<double>(), length, 0.005 * length);
}

TEST(CliRotateY, BadAnglesAndNavFilesAreRefused) {
  for (const char* angle : {"nan", "inf", "1e9", "-40000", "north"}) {
    const CliRun run = runCli("build " + asset("funnel.obj") + " --rotate-y " + angle);
    EXPECT_EQ(run.exitCode, 2) << angle << "\n" << run.output;
    EXPECT_NE(run.output.find("--rotate-y"), std::string::npos) << run.output;
  }
  const std::string nav = quoted(outputFile("cli_rotate_funnel.nav"));
  ASSERT_EQ(runCli("build " + asset("funnel.obj") + " -o " + nav).exitCode, 0);
  for (const std::string& command :
       {std::string("info ") + nav, "build " + nav, "query " + nav + " --from 1,0,1 --to 2,0,2"}) {
    const CliRun run = runCli(command + " --rotate-y 30");
    EXPECT_EQ(run.exitCode, 2) << command << "\n" << run.output;
    EXPECT_NE(run.output.find("--rotate-y"), std::string::npos) << run.output;
    EXPECT_NE(run.output.find(".nav"), std::string::npos) << run.output;
  }
  // The help says in which coordinates a query's points are.
  const CliRun help = runCli("query --help");
  EXPECT_NE(help.output.find("turned level's coordinates"), std::string::npos) << help.output;
}

// The start and goal of the funnel turned `degrees`, as "X,Y,Z" texts.
std::pair<std::string, std::string> turnedFunnelEnds(const std::string& degrees) {
  const CliRun info = runCli("info " + asset("funnel.obj") + " --rotate-y " + degrees);
  const auto text = [](const nlohmann::json& p) {
    std::ostringstream out;
    out << p[0].get<double>() << "," << p[1].get<double>() << "," << p[2].get<double>();
    return out.str();
  };
  return {text(info.objects.at(0)["start"]), text(info.objects.at(0)["goal"])};
}

std::vector<glm::vec3> readCells(const std::string& path) {
  std::ifstream in(path);
  std::vector<glm::vec3> cells;
  for (glm::vec3 c; in >> c.x >> c.y >> c.z;)
    cells.push_back(c);
  return cells;
}

// The funnel turned 30 degrees: on the file's axes its box unit stands
// further from every (now diagonal) wall and its corridors are staircases
// (131 sectors, 39.88 m); the grid chosen for it runs along the walls again
// (13 sectors, 38.78 m, as the funnel unturned). Points in and out are the
// file's.
TEST(CliGridAngle, ATurnedLevelOnItsGridAnswersAsTheLevel) {
  const auto [from, to] = turnedFunnelEnds("30");
  const std::string level = asset("funnel.obj") + " --rotate-y 30";
  const CliRun unturned =
      runCli("query " + asset("funnel.obj") + " --from 1.9,0.05,1.5 --to 18.1,0.05,10.5");
  const CliRun chosen = runCli("query " + level + " --from " + from + " --to " + to);
  const CliRun fileAxes =
      runCli("query " + level + " --grid-angle 0 --from " + from + " --to " + to);
  ASSERT_EQ(chosen.exitCode, 0) << chosen.output;
  ASSERT_EQ(fileAxes.exitCode, 0) << fileAxes.output;
  const nlohmann::json& path = chosen.objects.at(0);
  EXPECT_EQ(path["status"], "found");
  const double length = unturned.objects.at(0)["length"].get<double>();
  EXPECT_NEAR(path["length"].get<double>(), length, 0.01 * length);
  EXPECT_GT(fileAxes.objects.at(0)["length"].get<double>(), 1.02 * length);
  // The first corner is the start, the last the goal, in the file's coordinates
  // (at the ground's height).
  for (const auto& [corner, end] : {std::pair{path["corners"].front(), path["from"]},
                                    std::pair{path["corners"].back(), path["to"]}}) {
    EXPECT_NEAR(corner[0].get<double>(), end[0].get<double>(), 1e-3) << corner << end;
    EXPECT_NEAR(corner[2].get<double>(), end[2].get<double>(), 1e-3) << corner << end;
  }

  const std::string cellsOut = outputFile("cli_grid_cells.txt");
  const std::string straightOut = outputFile("cli_grid_cells_straight.txt");
  const std::string nav = outputFile("cli_grid_funnel.nav");
  const CliRun build =
      runCli("build " + level + " --cells-out " + quoted(cellsOut) + " -o " + quoted(nav));
  const CliRun straight =
      runCli("build " + level + " --grid-angle 0 --cells-out " + quoted(straightOut));
  ASSERT_EQ(build.exitCode, 0) << build.output;
  ASSERT_EQ(straight.exitCode, 0) << straight.output;
  EXPECT_EQ(build.objects.at(0)["grid_angle"], 30.0);
  EXPECT_EQ(straight.objects.at(0)["grid_angle"], 0.0);
  EXPECT_LT(build.objects.at(0)["sectors"].get<int>(),
            straight.objects.at(0)["sectors"].get<int>() / 4);

  // Both builds' cells lie on the same floors of the file: each cell of the
  // turned grid has one of the straight grid within a cell's diagonal.
  const std::vector<glm::vec3> cells = readCells(cellsOut), straightCells = readCells(straightOut);
  ASSERT_EQ(cells.size(), build.objects.at(0)["cells"].get<size_t>());
  ASSERT_FALSE(straightCells.empty());
  size_t far = 0;
  for (size_t i = 0; i < cells.size(); i += 7) {
    float nearest = std::numeric_limits<float>::max();
    for (const glm::vec3& s : straightCells)
      nearest = std::min(nearest, glm::distance(cells[i], s));
    if (nearest > 0.3f * 1.5f) ++far;
  }
  EXPECT_LT(far, cells.size() / 7 / 20) << "cells written in the grid's coordinates?";

  // The .nav keeps its grid: the same points give the same path.
  const CliRun info = runCli("info " + quoted(nav));
  ASSERT_EQ(info.exitCode, 0) << info.output;
  EXPECT_EQ(info.objects.at(0)["grid"]["angle"], 30.0);
  const CliRun fromNav = runCli("query " + quoted(nav) + " --from " + from + " --to " + to);
  ASSERT_EQ(fromNav.exitCode, 0) << fromNav.output;
  EXPECT_EQ(fromNav.objects.at(0)["corners"], path["corners"]);
}

TEST(CliGridAngle, BadAnglesAreRefused) {
  for (const char* angle : {"50", "-45.5", "nan", "inf", "north", ""}) {
    const CliRun run = runCli("build " + asset("funnel.obj") + " --grid-angle '" + angle + "'");
    EXPECT_EQ(run.exitCode, 2) << angle << "\n" << run.output;
    EXPECT_NE(run.output.find("--grid-angle"), std::string::npos) << run.output;
  }
  const CliRun navmesh = runCli("build " + asset("navmesh_plaza.obj") + " --grid-angle 10");
  EXPECT_EQ(navmesh.exitCode, 2) << navmesh.output;
  EXPECT_NE(navmesh.output.find("--grid-angle"), std::string::npos) << navmesh.output;
}

}  // namespace
