// navscope-cli on a navigation mesh (--navmesh, or the sidecar's "navmesh":
// true): every cost model answers through the same query, the exact path is
// the hand-computed one between the plaza's two holes, the graph survives a
// .nav round trip, and options that make no sense for it are refused by name.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "cli_run.h"

namespace {

using nav::test::asset;
using nav::test::CliRun;
using nav::test::outputFile;
using nav::test::quoted;
using nav::test::runCli;

const std::string kPlazaPath = " --from 1.5,0.11,1.5 --to 16.5,0.71,16.5";

// Start, the first hole's corner (6, 3), the second's (9, 12), goal, at the
// slope's heights (y = 0.04 x): between the holes, 22.99 m. Round the first
// hole's other side, by (3, 9), is 23.10 m.
double handComputedLength() {
  const auto leg = [](double x0, double z0, double x1, double z1) {
    const double dx = x1 - x0, dz = z1 - z0, dy = 0.04 * dx;
    return std::sqrt(dx * dx + dy * dy + dz * dz);
  };
  return leg(1.5, 1.5, 6.0, 3.0) + leg(6.0, 3.0, 9.0, 12.0) + leg(9.0, 12.0, 16.5, 16.5);
}

// Grass at 1 a metre, as the floor: exact costs only uniform ground.
TEST(CliNavMesh, EveryCostModelAnswersAndExactIsTheShortest) {
  double exact = 0.0;
  for (const char* model : {"exact", "crossing", "midpoint", "centroid"}) {
    SCOPED_TRACE(model);
    const CliRun run = runCli("query " + asset("navmesh_plaza.obj") + kPlazaPath +
                              " --surface-cost grass=1 --search " + model);
    ASSERT_EQ(run.exitCode, 0) << run.output;
    ASSERT_EQ(run.objects.size(), 1u) << run.output;
    const nlohmann::json& path = run.objects[0];
    EXPECT_EQ(path["status"], "found");
    EXPECT_EQ(path["search"], std::string(model));
    const double length = path["length"].get<double>();
    if (std::string(model) == "exact") {
      exact = length;
      EXPECT_NEAR(length, handComputedLength(), 2e-3);
      ASSERT_EQ(path["corners"].size(), 4u) << path;
      EXPECT_NEAR(path["corners"][1][0].get<double>(), 6.0, 1e-3);
      EXPECT_NEAR(path["corners"][1][2].get<double>(), 3.0, 1e-3);
      EXPECT_NEAR(path["corners"][2][0].get<double>(), 9.0, 1e-3);
      EXPECT_NEAR(path["corners"][2][2].get<double>(), 12.0, 1e-3);
    } else {
      EXPECT_GE(length, exact - 1e-3);
    }
  }
}

TEST(CliNavMesh, TheFlagReadsAnyLevelsFacesAndTheNavFileKeepsThePolygons) {
  const std::string nav = outputFile("plaza_navmesh.nav");
  std::filesystem::remove(nav);
  const CliRun build = runCli("build " + asset("navmesh_plaza.obj") + " --navmesh -o " + quoted(nav));
  ASSERT_EQ(build.exitCode, 0) << build.output;
  ASSERT_EQ(build.objects.size(), 1u) << build.output;
  EXPECT_EQ(build.objects[0]["navmesh"], true);
  EXPECT_EQ(build.objects[0]["cells"], 0);
  // 34 faces, the L-shaped hexagon cut into two convex pieces.
  EXPECT_EQ(build.objects[0]["sectors"], 35);
  const CliRun fromLevel = runCli("query " + asset("navmesh_plaza.obj") + kPlazaPath);
  const CliRun fromNav = runCli("query " + quoted(nav) + kPlazaPath);
  ASSERT_EQ(fromLevel.exitCode, 0) << fromLevel.output;
  ASSERT_EQ(fromNav.exitCode, 0) << fromNav.output;
  ASSERT_EQ(fromNav.objects.size(), 1u) << fromNav.output;
  EXPECT_EQ(fromNav.objects[0]["corners"], fromLevel.objects[0]["corners"]);
  EXPECT_EQ(fromNav.objects[0]["sectors"], fromLevel.objects[0]["sectors"]);
}

TEST(CliNavMesh, OptionsWithoutMeaningForANavMeshAreRefusedByName) {
  const std::string plaza = asset("navmesh_plaza.obj");
  for (const auto& [options, named] :
       {std::pair{" --cell 0.2", "--cell"}, std::pair{" --max-cells 1000", "--max-cells"},
        std::pair{" --threads 2", "--threads"}}) {
    const CliRun run = runCli("query " + plaza + kPlazaPath + options);
    EXPECT_EQ(run.exitCode, 2) << run.output;
    EXPECT_NE(run.output.find(std::string(named) + ": a navigation mesh"), std::string::npos)
        << run.output;
  }
  const CliRun cells = runCli("build " + plaza + " --cells-out " + quoted(outputFile("x.txt")));
  EXPECT_EQ(cells.exitCode, 2) << cells.output;
  EXPECT_NE(cells.output.find("--cells-out"), std::string::npos) << cells.output;
  // --weld shapes a navigation mesh only: on a level that is flood filled it is refused.
  const CliRun weld =
      runCli("query " + asset("funnel.obj") + " --from 6,0,2 --to 14,0,2 --weld 0.01");
  EXPECT_EQ(weld.exitCode, 2) << weld.output;
  EXPECT_NE(weld.output.find("--weld needs --navmesh"), std::string::npos) << weld.output;
}

TEST(CliNavMesh, ALevelWithNoWalkableFaceIsRefusedNamingIt) {
  const std::string path = outputFile("vertical_only.obj");
  {
    std::ofstream out(path);
    out << "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
  }
  const CliRun run = runCli("query " + quoted(path) + " --navmesh --max-slope 45 --exclude-steep"
                            " --from 0.2,0.2,0 --to 0.3,0.1,0");
  EXPECT_EQ(run.exitCode, 2) << run.output;
  EXPECT_NE(run.output.find("vertical_only.obj: no walkable face"), std::string::npos)
      << run.output;
}

}  // namespace
