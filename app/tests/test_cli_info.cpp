// navscope-cli info --navmesh, run as a user runs it: an OBJ written as a
// tool exports a navigation mesh is read back as polygons, neighbours and
// issues (counts worked out by hand), and bad values are refused by flag
// name with exit code 2.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "cli_run.h"

namespace {

using nav::test::asset;
using nav::test::CliRun;
using nav::test::outputFile;
using nav::test::quoted;
using nav::test::runCli;

// A 2 x 2 m square and, along its +x side, two 1 x 1 m squares meeting at
// (2, 0, 1): a T-junction, one edge shared by the small squares.
std::string tJunctionMesh() {
  const std::string path = outputFile("cli_info_navmesh.obj");
  std::ofstream(path) << "v 0 0 0\nv 2 0 0\nv 2 0 2\nv 0 0 2\nf 1 4 3 2\n"
                         "v 2 0 0\nv 3 0 0\nv 3 0 1\nv 2 0 1\nf 5 8 7 6\n"
                         "v 2 0 1\nv 3 0 1\nv 3 0 2\nv 2 0 2\nf 9 12 11 10\n";
  return path;
}

TEST(CliInfo, NavmeshReportsPolygonsNeighboursAndIssues) {
  const CliRun run = runCli("info " + quoted(tJunctionMesh()) + " --navmesh");
  ASSERT_EQ(run.exitCode, 0) << run.output;
  ASSERT_EQ(run.objects.size(), 1u) << run.output;
  const nlohmann::json& navmesh = run.objects[0].at("navmesh");
  EXPECT_EQ(navmesh.at("polygons"), 3);
  EXPECT_EQ(navmesh.at("corners"), 8);
  EXPECT_EQ(navmesh.at("largest_polygon"), 4);
  EXPECT_EQ(navmesh.at("shared_edges"), 1);
  EXPECT_EQ(navmesh.at("wall_edges"), 10);
  EXPECT_EQ(navmesh.at("issues").at("t-junction"), 1);
  EXPECT_EQ(navmesh.at("issues").at("non-manifold edge"), 0);
  ASSERT_EQ(navmesh.at("issue_list").size(), 1u);
  EXPECT_EQ(navmesh.at("issue_list")[0].at("at"), nlohmann::json::array({2.0, 0.0, 1.0}));

  // Without --navmesh, info says nothing of it.
  const CliRun plain = runCli("info " + quoted(tJunctionMesh()));
  ASSERT_EQ(plain.exitCode, 0) << plain.output;
  EXPECT_FALSE(plain.objects.at(0).contains("navmesh"));
}

TEST(CliInfo, NavmeshValuesAreCheckedByFlag) {
  const std::string mesh = quoted(tJunctionMesh());
  const struct {
    std::string arguments, named;
  } refused[] = {
      {"--navmesh --weld nan", "--weld"},
      {"--navmesh --weld 2", "--weld"},
      {"--navmesh --max-slope 100", "--max-slope"},
      {"--navmesh --max-slope inf", "--max-slope"},
      {"--weld 0.01", "--weld needs --navmesh"},
      {"--exclude-steep", "--exclude-steep needs --navmesh"},
  };
  for (const auto& bad : refused) {
    const CliRun run = runCli("info " + mesh + " " + bad.arguments);
    EXPECT_EQ(run.exitCode, 2) << bad.arguments << "\n" << run.output;
    EXPECT_NE(run.output.find(bad.named), std::string::npos) << bad.arguments << "\n" << run.output;
  }
  // A .nav file holds a graph, not faces.
  const std::string nav = outputFile("cli_info_navmesh.nav");
  ASSERT_EQ(runCli("build " + asset("funnel.obj") + " -o " + quoted(nav)).exitCode, 0);
  const CliRun graph = runCli("info " + quoted(nav) + " --navmesh");
  EXPECT_EQ(graph.exitCode, 2) << graph.output;
  EXPECT_NE(graph.output.find(".nav graph"), std::string::npos) << graph.output;
}

// A floor written Z up in centimetres, with the sidecar saying so: info gives
// the level in navscope's axes and metres, and how it was read.
TEST(CliInfo, AZUpFileInCentimetresIsReadInMetresYUp) {
  const std::string path = outputFile("cli_info_z_up.obj");
  std::ofstream(path) << "v 0 0 0\nv 400 0 0\nv 400 300 0\nv 0 300 0\nf 1 2 3 4\n";
  std::ofstream(outputFile("cli_info_z_up.json")) << R"({"upAxis": "z", "unitScale": 0.01})";
  const CliRun run = runCli("info " + quoted(path));
  ASSERT_EQ(run.exitCode, 0) << run.output;
  const nlohmann::json& info = run.objects.at(0);
  EXPECT_EQ(info.at("up_axis"), "z");
  EXPECT_NEAR(info.at("unit_scale").get<double>(), 0.01, 1e-9);
  EXPECT_NEAR(info.at("bounds").at("max")[0].get<double>(), 4.0, 1e-6);
  EXPECT_NEAR(info.at("bounds").at("min")[2].get<double>(), -3.0, 1e-6);
  EXPECT_EQ(info.at("faces").at("up"), 2);
}

}  // namespace
