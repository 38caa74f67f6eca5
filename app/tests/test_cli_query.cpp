// navscope-cli query, run as a user runs it: the search it is asked for
// (--search), the one that answered (the "search" field), a bad value refused
// with the option and the good values named, and the help naming them; the
// search regions only with --regions; --repeat's best and median times; NaN
// and infinite values refused with the flag named; the path's clearance,
// hand-computed where it runs beside a wall; a level far from the origin
// answers as at the origin.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "cli_run.h"

namespace {

using nav::test::asset;
using nav::test::CliRun;
using nav::test::runCli;

// Printable ASCII and line breaks only.
bool isPlainText(const std::string& text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return c == '\n' || (c >= ' ' && c <= '~'); });
}

TEST(CliQuery, ExactIsNeverLongerThanCrossingAndSaysItAnswered) {
  const std::string query = "query " + asset("funnel.obj") + " --from 6,0,2 --to 14,0,2";
  const CliRun crossing = runCli(query);
  const CliRun exact = runCli(query + " --search exact");
  ASSERT_EQ(crossing.exitCode, 0) << crossing.output;
  ASSERT_EQ(exact.exitCode, 0) << exact.output;
  ASSERT_EQ(crossing.objects.size(), 1u) << crossing.output;
  ASSERT_EQ(exact.objects.size(), 1u) << exact.output;
  EXPECT_EQ(crossing.objects[0]["search"], "crossing");
  EXPECT_EQ(exact.objects[0]["search"], "exact");
  EXPECT_EQ(exact.objects[0]["status"], "found");
  EXPECT_LE(exact.objects[0]["length"].get<double>(),
            crossing.objects[0]["length"].get<double>() + 1e-3);
}

TEST(CliQuery, ExactRunsAsCrossingWhereSurfacesCostDifferently) {
  // The showcase's roads cost 1.3 a metre and its grass 1.2: exact cannot cost
  // that, and says the crossing search answered. With every walkable surface
  // at 1, exact answers.
  const std::string query =
      "query " + asset("showcase.obj") + " --from 37,0.05,31 --to 32,3.05,6 --search exact";
  const CliRun uneven = runCli(query);
  const CliRun even = runCli(query +
                             " --surface-cost road=1 --surface-cost grass=1 --surface-cost water=1 "
                             "--surface-cost lava=1");
  ASSERT_EQ(uneven.exitCode, 0) << uneven.output;
  ASSERT_EQ(even.exitCode, 0) << even.output;
  ASSERT_EQ(uneven.objects.size(), 1u) << uneven.output;
  ASSERT_EQ(even.objects.size(), 1u) << even.output;
  EXPECT_EQ(uneven.objects[0]["status"], "found");
  EXPECT_EQ(uneven.objects[0]["search"], "crossing");
  EXPECT_EQ(even.objects[0]["status"], "found");
  EXPECT_EQ(even.objects[0]["search"], "exact");
}

TEST(CliQuery, ABadSearchModeIsRefusedWithTheOptionNamed) {
  const CliRun run =
      runCli("query " + asset("funnel.obj") + " --from 6,0,2 --to 14,0,2 --search sideways");
  EXPECT_EQ(run.exitCode, 2);
  EXPECT_TRUE(run.objects.empty());
  EXPECT_NE(run.output.find("--search"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("sideways not in {centroid,midpoint,crossing,exact}"),
            std::string::npos)
      << run.output;
  EXPECT_TRUE(isPlainText(run.output)) << run.output;
}

// The funnel level walks at one cost a metre: the search over regions answers
// when --regions asks for it, in fewer expansions; without it the sectors
// answer; both find a path. The old flags are gone.
TEST(CliQuery, RegionsAnswerOnlyWhenAskedFor) {
  const std::string query = "query " + asset("funnel.obj") + " --from 6,0,2 --to 14,0,2";
  const CliRun sectors = runCli(query);
  const CliRun regions = runCli(query + " --regions");
  ASSERT_EQ(regions.exitCode, 0) << regions.output;
  ASSERT_EQ(sectors.exitCode, 0) << sectors.output;
  ASSERT_EQ(regions.objects.size(), 1u) << regions.output;
  ASSERT_EQ(sectors.objects.size(), 1u) << sectors.output;
  EXPECT_EQ(regions.objects[0]["regions"], true);
  EXPECT_EQ(sectors.objects[0]["regions"], false);
  EXPECT_EQ(regions.objects[0]["search"], "crossing");
  EXPECT_EQ(sectors.objects[0]["search"], "crossing");
  EXPECT_EQ(regions.objects[0]["status"], "found");
  EXPECT_EQ(sectors.objects[0]["status"], "found");
  EXPECT_LT(regions.objects[0]["expansions"].get<int>(),
            sectors.objects[0]["expansions"].get<int>());
  for (const char* gone : {" --sectors", " --portal-point exact"}) {
    const CliRun run = runCli(query + gone);
    EXPECT_EQ(run.exitCode, 2) << gone << "\n" << run.output;
    EXPECT_TRUE(run.objects.empty()) << run.output;
  }
}

TEST(CliQuery, HelpNamesEverySearchModeInPlainText) {
  const CliRun run = runCli("query --help");
  EXPECT_EQ(run.exitCode, 0);
  EXPECT_NE(run.output.find("--search MODE:{centroid,midpoint,crossing,exact}"), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("--regions"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("not the default"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("--repeat N"), std::string::npos) << run.output;
  EXPECT_TRUE(isPlainText(run.output)) << run.output;
}

TEST(CliQuery, SearchModeNamesIgnoreCase) {
  const CliRun run =
      runCli("query " + asset("funnel.obj") + " --from 6,0,2 --to 14,0,2 --search Exact");
  ASSERT_EQ(run.exitCode, 0) << run.output;
  ASSERT_EQ(run.objects.size(), 1u) << run.output;
  EXPECT_EQ(run.objects[0]["search"], "exact");
}

// Each query runs N times: "us" is its best time, "median_us" the median, and
// the answer is the one a single run gives. N below 1 is refused.
TEST(CliQuery, RepeatReportsTheBestAndTheMedianTime) {
  const std::string query = "query " + asset("funnel.obj") + " --from 6,0,2 --to 14,0,2";
  const CliRun once = runCli(query);
  const CliRun five = runCli(query + " --repeat 5");
  ASSERT_EQ(once.exitCode, 0) << once.output;
  ASSERT_EQ(five.exitCode, 0) << five.output;
  ASSERT_EQ(once.objects.size(), 1u) << once.output;
  ASSERT_EQ(five.objects.size(), 1u) << five.output;
  const nlohmann::json& path = five.objects[0];
  ASSERT_TRUE(path.contains("median_us")) << five.output;
  EXPECT_GT(path["us"].get<double>(), 0.0);
  EXPECT_LE(path["us"].get<double>(), path["median_us"].get<double>());
  EXPECT_EQ(path["length"], once.objects[0]["length"]);
  EXPECT_EQ(path["corners"], once.objects[0]["corners"]);
  EXPECT_EQ(path["expansions"], once.objects[0]["expansions"]);
  // One run: the best is the median.
  EXPECT_EQ(once.objects[0]["us"], once.objects[0]["median_us"]);

  for (const char* bad : {"0", "-3", "many", "2000000"}) {
    const CliRun run = runCli(query + " --repeat " + bad);
    EXPECT_EQ(run.exitCode, 2) << bad << "\n" << run.output;
    EXPECT_TRUE(run.objects.empty()) << run.output;
    EXPECT_NE(run.output.find("--repeat"), std::string::npos) << run.output;
  }
}

// A room with a wall to walk round, written at `x0, z0`: its points are whole
// or half metres, so the level is the same wherever it is written.
std::string roomWithAWall(float x0, float z0) {
  std::string obj;
  const auto vertex = [&](float x, float y, float z) {
    obj += "v " + std::to_string(x0 + x) + " " + std::to_string(y) + " " + std::to_string(z0 + z) +
           "\n";
  };
  // The floor, 12 x 12 m.
  vertex(0, 0, 0), vertex(12, 0, 0), vertex(12, 0, 12), vertex(0, 0, 12);
  obj += "f 1 3 2\nf 1 4 3\n";
  // A wall 1 m thick and 2.5 m high from z = 0 to z = 8.5 at x = 5.5 .. 6.5.
  vertex(5.5f, 0, 0), vertex(6.5f, 0, 0), vertex(6.5f, 0, 8.5f), vertex(5.5f, 0, 8.5f);
  vertex(5.5f, 2.5f, 0), vertex(6.5f, 2.5f, 0), vertex(6.5f, 2.5f, 8.5f), vertex(5.5f, 2.5f, 8.5f);
  obj +=
      "f 5 9 10\nf 5 10 6\nf 6 10 11\nf 6 11 7\nf 7 11 12\nf 7 12 8\n"
      "f 8 12 9\nf 8 9 5\nf 9 12 11\nf 9 11 10\n";
  return obj;
}

// A level 100 km out is built near the origin (grid_offset) and answers as
// the same level at the origin, its points in and out in the file's coordinates.
TEST(CliQuery, ALevelFarOutAnswersAsAtTheOrigin) {
  const std::string near = nav::test::outputFile("room_at_origin.obj");
  const std::string far = nav::test::outputFile("room_100_km_out.obj");
  std::ofstream(near) << roomWithAWall(0.0f, 0.0f);
  std::ofstream(far) << roomWithAWall(100000.0f, -100000.0f);
  const CliRun built = runCli("build " + nav::test::quoted(far));
  ASSERT_EQ(built.exitCode, 0) << built.output;
  ASSERT_EQ(built.objects.size(), 1u) << built.output;
  EXPECT_EQ(built.objects[0]["grid_offset"], nlohmann::json::array({100006.0, 1.0, -99994.0}));

  const CliRun atOrigin = runCli("query " + nav::test::quoted(near) + " --from 3,0,3 --to 9,0,3");
  const CliRun farOut =
      runCli("query " + nav::test::quoted(far) + " --from 100003,0,-99997 --to 100009,0,-99997");
  ASSERT_EQ(atOrigin.exitCode, 0) << atOrigin.output;
  ASSERT_EQ(farOut.exitCode, 0) << farOut.output;
  const nlohmann::json& path = atOrigin.objects.at(0);
  const nlohmann::json& farPath = farOut.objects.at(0);
  ASSERT_EQ(path["status"], "found") << atOrigin.output;
  ASSERT_EQ(farPath["status"], "found") << farOut.output;
  // Round the wall's end: longer than the 6 m straight line.
  EXPECT_GT(path["length"].get<double>(), 10.0);
  EXPECT_NEAR(farPath["length"].get<double>(), path["length"].get<double>(), 1e-3);
  ASSERT_EQ(farPath["corners"].size(), path["corners"].size()) << farOut.output;
  for (size_t i = 0; i < path["corners"].size(); ++i) {
    const nlohmann::json& c = path["corners"][i];
    const nlohmann::json& f = farPath["corners"][i];
    // Printed out there to the floats' step, 1/128 m.
    EXPECT_NEAR(f[0].get<double>(), c[0].get<double>() + 100000.0, 0.01) << i;
    EXPECT_NEAR(f[1].get<double>(), c[1].get<double>(), 0.01) << i;
    EXPECT_NEAR(f[2].get<double>(), c[2].get<double>() - 100000.0, 0.01) << i;
  }
}

// CLI11's range checks let NaN through: every float flag refuses NaN and
// infinities (1e39 is past float's range) with the flag named, exit code 2,
// before any build.
TEST(CliQuery, NanAndInfiniteValuesAreRefusedWithTheFlagNamed) {
  const std::string query = "query " + asset("funnel.obj") + " --from 6,0,2 --to 14,0,2 ";
  const char* flags[] = {
      "--heuristic-scale", "--waypath-bias", "--turning-radius", "--cell", "--unit-width",
      "--unit-length",     "--unit-height",  "--step",           "--drop", "--slope",
      "--ledge-overhang",  "--rotate-y"};
  for (const char* flag : flags) {
    for (const char* value : {"nan", "NaN", "inf", "-inf", "1e39"}) {
      const std::string arguments = query + flag + " " + value;
      const CliRun run = runCli(arguments);
      EXPECT_EQ(run.exitCode, 2) << arguments << "\n" << run.output;
      EXPECT_TRUE(run.objects.empty()) << arguments << "\n" << run.output;
      EXPECT_NE(run.output.find(flag), std::string::npos) << arguments << "\n" << run.output;
      EXPECT_TRUE(isPlainText(run.output)) << run.output;
    }
  }
  for (const char* value :
       {"lava=nan", "lava=inf", "lava=1e39", "lava=-1", "lava=0", "lava=5x", "lava", "=2"}) {
    const CliRun run = runCli(query + "--surface-cost " + value);
    EXPECT_EQ(run.exitCode, 2) << value << "\n" << run.output;
    EXPECT_NE(run.output.find(std::string("--surface-cost '") + value + "'"), std::string::npos)
        << run.output;
  }
  // The build command's flags too.
  for (const char* flag : {"--cell", "--unit-width", "--step", "--slope"}) {
    const CliRun run = runCli("build " + asset("funnel.obj") + " " + flag + " nan");
    EXPECT_EQ(run.exitCode, 2) << flag << "\n" << run.output;
    EXPECT_NE(run.output.find(flag), std::string::npos) << run.output;
  }
  // Finite values in range still pass.
  const CliRun fine = runCli(query +
                             "--heuristic-scale 1 --waypath-bias 0.5 --turning-radius 0 "
                             "--surface-cost lava=2.5");
  ASSERT_EQ(fine.exitCode, 0) << fine.output;
  EXPECT_EQ(fine.objects.at(0)["status"], "found");
}

// A misspelt surface would change nothing: it is refused, with the flag and
// the level's own surfaces named, before any answer is printed.
TEST(CliQuery, AnUnknownSurfaceIsRefusedWithTheLevelsSurfacesNamed) {
  const std::string query = "query " + asset("showcase.obj") + " --from 20,0.05,24 --to 20,0.05,3 ";
  struct Case {
    std::string flags, named;
  };
  const Case bad[] = {{"--surface-cost Lava=2", "--surface-cost 'Lava=2': no surface 'Lava'"},
                      {"--surface-cost lava=2 --surface-cost mud=3", "no surface 'mud'"},
                      {"--exclude roads", "--exclude 'roads': no surface 'roads'"}};
  for (const Case& c : bad) {
    const CliRun run = runCli(query + c.flags);
    EXPECT_EQ(run.exitCode, 2) << c.flags << "\n" << run.output;
    EXPECT_TRUE(run.objects.empty()) << c.flags << "\n" << run.output;
    EXPECT_NE(run.output.find(c.named), std::string::npos) << c.flags << "\n" << run.output;
    EXPECT_NE(run.output.find("'road'"), std::string::npos) << run.output;
  }
  const CliRun known = runCli(query + "--surface-cost lava=2 --exclude water");
  ASSERT_EQ(known.exitCode, 0) << known.output;
  EXPECT_EQ(known.objects.at(0)["status"], "found") << known.output;
}

TEST(CliBuild, UnitShapeIsBuiltReportedAndCheckedByName) {
  const CliRun box = runCli("build " + asset("funnel.obj"));
  const CliRun round = runCli("build " + asset("funnel.obj") + " --unit-shape round");
  ASSERT_EQ(box.exitCode, 0) << box.output;
  ASSERT_EQ(round.exitCode, 0) << round.output;
  ASSERT_EQ(box.objects.size(), 1u) << box.output;
  ASSERT_EQ(round.objects.size(), 1u) << round.output;
  EXPECT_EQ(box.objects[0]["unit"]["shape"], "box");
  EXPECT_EQ(round.objects[0]["unit"]["shape"], "round");
  // A disc fits wherever a square as wide does, and into the corners besides.
  EXPECT_GE(round.objects[0]["cells"].get<int>(), box.objects[0]["cells"].get<int>());

  const CliRun query =
      runCli("query " + asset("funnel.obj") + " --unit-shape round --from 6,0,2 --to 14,0,2");
  ASSERT_EQ(query.exitCode, 0) << query.output;
  ASSERT_EQ(query.objects.size(), 1u) << query.output;
  EXPECT_EQ(query.objects[0]["status"], "found");

  const CliRun bad = runCli("build " + asset("funnel.obj") + " --unit-shape capsule");
  EXPECT_NE(bad.exitCode, 0);
  EXPECT_NE(bad.output.find("--unit-shape 'capsule': expected box or round"), std::string::npos)
      << bad.output;
}

// On the showcase the path from west of the wall at x 30.7 to east of the
// building beside it runs round their north face (z 24). With the level's
// cells (0.3 m) it keeps clear. With cells of 0.7 m, wider than the human's
// 0.6 m footprint, nothing is proven between cell centres (portals are no
// gates then): the path runs along the sector edge at z 24.1, and the
// footprint reaches 0.3 - 0.1 m into the wall, less the 5 mm its rim is
// allowed. The other two stretches keep clear.
TEST(CliQuery, ClearanceSaysHowDeepThePathGrazesTheLevel) {
  const std::string pair = " --from=29.5,0.05,22 --to=38.5,0.05,22";
  const CliRun clear = runCli("query " + asset("showcase.obj") + pair);
  ASSERT_EQ(clear.exitCode, 0) << clear.output;
  ASSERT_EQ(clear.objects.size(), 1u) << clear.output;
  ASSERT_EQ(clear.objects[0]["status"], "found") << clear.output;
  EXPECT_EQ(clear.objects[0]["clearance"]["stretches"], 3) << clear.output;
  EXPECT_EQ(clear.objects[0]["clearance"]["touching"], 0) << clear.output;

  const CliRun run = runCli("query " + asset("showcase.obj") + " --cell 0.7" + pair);
  ASSERT_EQ(run.exitCode, 0) << run.output;
  ASSERT_EQ(run.objects.size(), 1u) << run.output;
  const nlohmann::json& path = run.objects[0];
  ASSERT_EQ(path["status"], "found") << run.output;
  ASSERT_EQ(path["corners"].size(), 4u) << run.output;
  EXPECT_NEAR(path["corners"][1][2].get<double>(), 24.1, 1e-3) << run.output;
  const nlohmann::json& clearance = path["clearance"];
  ASSERT_TRUE(clearance.is_object()) << run.output;
  EXPECT_EQ(clearance["stretches"], 3);
  EXPECT_EQ(clearance["touching"], 1);
  EXPECT_NEAR(clearance["deepest"].get<double>(), 0.3 - 0.1 - 0.005, 2e-3);

  // A graph read from a .nav file has no level to touch: no clearance.
  const std::string nav =
      (std::filesystem::path(NAVSCOPE_TEST_OUTPUT_DIR) / "clearance_showcase.nav").string();
  const CliRun build = runCli("build " + asset("showcase.obj") + " -o '" + nav + "'");
  ASSERT_EQ(build.exitCode, 0) << build.output;
  const CliRun fromNav = runCli("query '" + nav + "' --from=29.5,0.05,22 --to=38.5,0.05,22");
  ASSERT_EQ(fromNav.objects.size(), 1u) << fromNav.output;
  EXPECT_EQ(fromNav.objects[0]["status"], "found");
  EXPECT_TRUE(fromNav.objects[0]["clearance"].is_null()) << fromNav.output;
}

}  // namespace
