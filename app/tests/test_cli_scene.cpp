// glTF levels through navscope-cli, run as a user runs it: generate terrain
// and city write a .glb that builds the very .nav the .obj of the same seed
// builds; a broken .glb and an unknown -o extension exit 2 naming the file.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "cli_run.h"

namespace {

using nav::test::CliRun;
using nav::test::outputFile;
using nav::test::quoted;
using nav::test::readAll;
using nav::test::runCli;

// Generates the level as .obj and as .glb (same seed, same sidecar name),
// builds each to a .nav and expects the same bytes.
void expectSameNavFromBothFormats(const std::string& generate, const std::string& stem) {
  std::string nav[2];
  const char* formats[2] = {"obj", "glb"};
  for (int i = 0; i < 2; ++i) {
    const std::string level = outputFile(stem + "." + formats[i]);
    const CliRun written = runCli(generate + " -o " + quoted(level));
    ASSERT_EQ(written.exitCode, 0) << written.output;
    ASSERT_EQ(written.objects.size(), 1u) << written.output;
    EXPECT_EQ(written.objects[0][formats[i]], level);
    EXPECT_EQ(written.objects[0]["sidecar"], outputFile(stem + ".json"));
    const std::string navPath = outputFile(stem + "_" + formats[i] + ".nav");
    const CliRun built = runCli("build " + quoted(level) + " -o " + quoted(navPath));
    ASSERT_EQ(built.exitCode, 0) << built.output;
    nav[i] = readAll(navPath);
  }
  EXPECT_FALSE(nav[0].empty());
  EXPECT_TRUE(nav[0] == nav[1]) << "the .glb built another graph than the .obj";
}

TEST(CliScene, GeneratedGlbBuildsWhatTheObjBuilds) {
  expectSameNavFromBothFormats("generate terrain --seed 4", "cli_scene_terrain");
  expectSameNavFromBothFormats("generate city --target-cells 20000 --seed 2", "cli_scene_city");
}

TEST(CliScene, BrokenGlbExitsTwoNamingTheFile) {
  const std::string path = outputFile("cli_scene_broken.glb");
  // A GLB header that promises more bytes than there are.
  std::ofstream(path, std::ios::binary) << std::string("glTF\x02\0\0\0\xff\xff\0\0", 12);
  const CliRun run = runCli("build " + quoted(path));
  EXPECT_EQ(run.exitCode, 2) << run.output;
  EXPECT_NE(run.output.find(path + ": "), std::string::npos) << run.output;
}

TEST(CliScene, GenerateRefusesOtherExtensions) {
  const std::string path = outputFile("level.gltf");
  const CliRun run = runCli("generate terrain --seed 1 -o " + quoted(path));
  EXPECT_EQ(run.exitCode, 2) << run.output;
  EXPECT_NE(run.output.find("-o " + path + ": the level's name must end in .obj or .glb"),
            std::string::npos)
      << run.output;
}

}  // namespace
