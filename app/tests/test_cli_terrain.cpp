// navscope-cli generate terrain and --rotate-y, run as a user runs them: the
// level and its sidecar written and summed up, the same bytes for the same
// seed; a quarter-turned funnel answering as the funnel does, with the points
// turned by hand; bad flags refused with the flag named and exit code 2.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

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
// grid lines (2,117 cells against 2,120; 38.0605 m against 38.0547).
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
  EXPECT_NEAR(turnedPath.objects.at(0)["length"].get<double>(),
              path.objects.at(0)["length"].get<double>(), 0.04);
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

}  // namespace
