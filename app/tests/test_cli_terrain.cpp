// navscope-cli generate terrain, run as a user runs it: the level and its
// sidecar written and summed up, the same bytes for the same seed, and bad
// flags refused with the flag named and exit code 2.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "cli_run.h"

namespace {

using nav::test::CliRun;
using nav::test::runCli;

std::string outputFile(const std::string& name) {
  return (std::filesystem::path(NAVSCOPE_TEST_OUTPUT_DIR) / name).string();
}

std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(CliGenerateTerrain, WritesTheLevelAndItsSidecar) {
  const std::string obj = outputFile("cli_terrain.obj");
  const CliRun first = runCli("generate terrain --seed 4 -o '" + obj + "'");
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
  ASSERT_EQ(runCli("generate terrain --seed 4 -o '" + obj + "'").exitCode, 0);
  EXPECT_EQ(readAll(obj), text) << "the same seed writes the same bytes";
  const CliRun larger = runCli("generate terrain --seed 4 --size 100 -o '" + obj + "'");
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
    const std::string arguments = c.flags + " -o '" + c.output + "'";
    const CliRun run = runCli("generate terrain " + arguments);
    EXPECT_EQ(run.exitCode, 2) << arguments << "\n" << run.output;
    EXPECT_NE(run.output.find(c.named), std::string::npos) << arguments << "\n" << run.output;
  }
  EXPECT_FALSE(std::filesystem::exists(obj));
}

}  // namespace
