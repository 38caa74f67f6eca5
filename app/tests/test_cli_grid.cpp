// Moving AI grid maps through navscope-cli, run as a user runs it: `query`
// reads a .map as `scen` does (tile (x, y) is the square (x..x+1, 0, y..y+1),
// the point-sized grid unit, --cell the only build option), with lengths
// hand-computed on small maps written here and equal to scen's on the same
// tiles; `scen` takes the search options and the filter query takes, and
// refuses the same bad values. The shared Moving AI maps are used only when
// present.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "cli_run.h"

namespace {

using nav::test::CliRun;
using nav::test::outputFile;
using nav::test::quoted;
using nav::test::runCli;

// Writes `text` to a file of the tests' output folder; returns its path.
std::string writeFile(const std::string& name, const std::string& text) {
  const std::string path = outputFile(name);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  return path;
}

// 5 x 5 tiles, one blocked in the middle: tile (2, 2) covers x 2..3, z 2..3.
const char* const kBlockMap =
    "type octile\nheight 5\nwidth 5\nmap\n.....\n.....\n..@..\n.....\n.....\n";
// A corridor one tile wide along row 1 (z 1..2), walls either side.
const char* const kCorridorMap = "type octile\nheight 3\nwidth 7\nmap\n@@@@@@@\n.......\n@@@@@@@\n";

// A shared Moving AI file, or "" when ../shared is absent.
std::string sharedFile(const std::string& relative) {
  const std::filesystem::path path = std::filesystem::path(NAVSCOPE_SHARED_DIR) / relative;
  return std::filesystem::exists(path) ? path.string() : std::string();
}

TEST(CliGridQuery, AMapIsALevelInTileCoordinates) {
  // Tile (0, 1)'s centre is (0.5, 0, 1.5) and tile (6, 1)'s (6.5, 0, 1.5): the
  // corridor is straight, 6 m.
  const std::string corridor = writeFile("cli_grid_corridor.map", kCorridorMap);
  const CliRun straight = runCli("query " + quoted(corridor) + " --from 0.5,0,1.5 --to 6.5,0,1.5");
  ASSERT_EQ(straight.exitCode, 0) << straight.output;
  ASSERT_EQ(straight.objects.size(), 1u) << straight.output;
  EXPECT_EQ(straight.objects[0]["status"], "found");
  EXPECT_NEAR(straight.objects[0]["length"].get<double>(), 6.0, 1e-3) << straight.output;
  EXPECT_EQ(straight.objects[0]["corners"].size(), 2u) << straight.output;
  // A grid map is a level: the unit's clearance is measured.
  EXPECT_TRUE(straight.objects[0]["clearance"].is_object()) << straight.output;

  // Across the block map's middle row the block is in the way. The path goes
  // round it, no shorter than the Euclidean path round its corners
  // (2 sqrt(1.5^2 + 0.5^2) + 1 = 4.1623) and no longer than the 8-connected
  // grid path (2 sqrt(2) + 2 = 4.8284); no corner inside the block.
  const std::string block = writeFile("cli_grid_block.map", kBlockMap);
  for (const char* search : {"crossing", "exact", "midpoint"}) {
    const CliRun run =
        runCli("query " + quoted(block) + " --from 0.5,0,2.5 --to 4.5,0,2.5 --search " + search);
    ASSERT_EQ(run.exitCode, 0) << run.output;
    ASSERT_EQ(run.objects.size(), 1u) << run.output;
    const nlohmann::json& path = run.objects[0];
    EXPECT_EQ(path["status"], "found") << run.output;
    EXPECT_EQ(path["search"], search) << run.output;
    const double length = path["length"].get<double>();
    EXPECT_GE(length, 2 * std::hypot(1.5, 0.5) + 1 - 1e-3) << run.output;
    EXPECT_LE(length, 2 * std::sqrt(2.0) + 2 + 1e-3) << run.output;
    ASSERT_GE(path["corners"].size(), 3u) << run.output;
    for (const nlohmann::json& corner : path["corners"]) {
      const double x = corner[0].get<double>(), z = corner[2].get<double>();
      EXPECT_FALSE(x > 2.001 && x < 2.999 && z > 2.001 && z < 2.999) << run.output;
      EXPECT_NEAR(corner[1].get<double>(), 0.0, 1e-3) << run.output;
    }
  }
}

TEST(CliGridQuery, OnlyTheCellSizeAppliesToAMap) {
  const std::string block = writeFile("cli_grid_block.map", kBlockMap);
  const std::string query = "query " + quoted(block) + " --from 0.5,0,2.5 --to 4.5,0,2.5";
  const CliRun third = runCli(query);
  const CliRun fifth = runCli(query + " --cell 0.2");
  ASSERT_EQ(third.exitCode, 0) << third.output;
  ASSERT_EQ(fifth.exitCode, 0) << fifth.output;
  // Finer cells put the portals' ends nearer the block's corners.
  EXPECT_LE(fifth.objects.at(0)["length"].get<double>(),
            third.objects.at(0)["length"].get<double>() + 1e-3);

  const CliRun badCell = runCli(query + " --cell 0.3");
  EXPECT_EQ(badCell.exitCode, 2) << badCell.output;
  EXPECT_NE(badCell.output.find("--cell 0.3"), std::string::npos) << badCell.output;
  EXPECT_NE(badCell.output.find("odd whole number"), std::string::npos) << badCell.output;
  for (const char* flag : {"--unit-width 1", "--step 0.5", "--rotate-y 90", "--unit car"}) {
    const CliRun run = runCli(query + " " + flag);
    EXPECT_EQ(run.exitCode, 2) << flag << "\n" << run.output;
    EXPECT_TRUE(run.objects.empty()) << run.output;
    const std::string name = std::string(flag).substr(0, std::string(flag).find(' '));
    EXPECT_NE(run.output.find(name + ": a grid map (.map)"), std::string::npos) << run.output;
  }
  // build and info take levels; they say where a map goes.
  for (const char* command : {"build ", "info "}) {
    const CliRun run = runCli(command + quoted(block));
    EXPECT_EQ(run.exitCode, 2) << run.output;
    EXPECT_NE(run.output.find("query and scen read it"), std::string::npos) << run.output;
  }
}

// The same tiles through query and scen: one build, one length.
TEST(CliGridQuery, AnswersAsScenDoesOnTheSameMap) {
  writeFile("cli_grid_block.map", kBlockMap);
  // Optimal 8-connected lengths: 2 sqrt(2) + 2 and 2 sqrt(2) + 4.
  const std::string scen = writeFile("cli_grid_block.map.scen",
                                     "version 1\n"
                                     "0\tcli_grid_block.map\t5\t5\t0\t2\t4\t2\t4.82842712\n"
                                     "0\tcli_grid_block.map\t5\t5\t0\t0\t4\t4\t6.82842712\n");
  const CliRun run = runCli("scen " + quoted(scen));
  ASSERT_EQ(run.exitCode, 0) << run.output;
  ASSERT_EQ(run.objects.size(), 3u) << run.output;
  EXPECT_EQ(run.objects[2]["found"], 2);
  EXPECT_EQ(run.objects[2]["longer"], 0);
  const char* const points[][2] = {{"0.5,0,2.5", "4.5,0,2.5"}, {"0.5,0,0.5", "4.5,0,4.5"}};
  for (int i = 0; i < 2; ++i) {
    const CliRun query = runCli("query " + quoted(outputFile("cli_grid_block.map")) + " --from " +
                                points[i][0] + " --to " + points[i][1]);
    ASSERT_EQ(query.exitCode, 0) << query.output;
    EXPECT_EQ(query.objects.at(0)["status"], "found");
    EXPECT_NEAR(query.objects.at(0)["length"].get<double>(), run.objects[i]["length"].get<double>(),
                1e-3)
        << query.output << "\n"
        << run.output;
  }
}

TEST(CliGridScen, TakesTheSearchModesAndTheFilter) {
  writeFile("cli_grid_block.map", kBlockMap);
  const std::string scen = writeFile("cli_grid_filter.map.scen",
                                     "version 1\n"
                                     "0\tcli_grid_block.map\t5\t5\t0\t2\t4\t2\t4.82842712\n"
                                     "0\tcli_grid_block.map\t5\t5\t0\t0\t4\t4\t6.82842712\n");
  for (const char* search : {"exact", "midpoint", "crossing"}) {
    const CliRun run = runCli("scen " + quoted(scen) + " --search " + search);
    ASSERT_EQ(run.exitCode, 0) << run.output;
    ASSERT_EQ(run.objects.size(), 3u) << run.output;
    for (int i = 0; i < 2; ++i) {
      EXPECT_EQ(run.objects[i]["search"], search) << run.output;
      EXPECT_EQ(run.objects[i]["regions"], false) << run.output;
      EXPECT_EQ(run.objects[i]["status"], "found") << run.output;
    }
    EXPECT_EQ(run.objects[2]["found"], 2) << run.output;
  }
  // A count below 1 is refused, "-1" too (read into a size_t, it wrapped).
  for (const char* limit : {"0", "-1"}) {
    const CliRun refused = runCli("scen " + quoted(scen) + " --limit " + limit);
    EXPECT_EQ(refused.exitCode, 2) << refused.output;
    EXPECT_NE(refused.output.find("--limit"), std::string::npos) << refused.output;
  }
  // The filter reaches the search: the floor's surface kept off, no path is found.
  const CliRun excluded = runCli("scen " + quoted(scen) + " --exclude default");
  ASSERT_EQ(excluded.exitCode, 0) << excluded.output;
  ASSERT_EQ(excluded.objects.size(), 3u) << excluded.output;
  EXPECT_EQ(excluded.objects[2]["found"], 0) << excluded.output;
  const CliRun keyed = runCli("scen " + quoted(scen) +
                              " --key red --surface-cost default=2 --waypath-bias 0.5 "
                              "--heuristic-scale 1 --turning-radius 0 --regions");
  ASSERT_EQ(keyed.exitCode, 0) << keyed.output;
  EXPECT_EQ(keyed.objects.at(2)["found"], 2) << keyed.output;

  struct Case {
    std::string flags, named;
  };
  const Case bad[] = {{"--search sideways", "--search"},
                      {"--heuristic-scale nan", "--heuristic-scale"},
                      {"--waypath-bias inf", "--waypath-bias"},
                      {"--turning-radius nan", "--turning-radius"},
                      {"--surface-cost default=nan", "--surface-cost 'default=nan'"},
                      {"--surface-cost floor=2", "no surface 'floor'"},
                      {"--exclude floor", "--exclude 'floor'"},
                      {"--cell nan", "--cell"},
                      {"--cell 0.3", "--cell 0.3"}};
  for (const Case& c : bad) {
    const CliRun run = runCli("scen " + quoted(scen) + " " + c.flags);
    EXPECT_EQ(run.exitCode, 2) << c.flags << "\n" << run.output;
    EXPECT_TRUE(run.objects.empty()) << c.flags << "\n" << run.output;
    EXPECT_NE(run.output.find(c.named), std::string::npos) << c.flags << "\n" << run.output;
  }

  const CliRun help = runCli("scen --help");
  EXPECT_EQ(help.exitCode, 0);
  for (const char* option :
       {"--search MODE:{centroid,midpoint,crossing,exact}", "--regions", "--key", "--surface-cost",
        "--exclude", "--waypath-bias", "--heuristic-scale", "--turning-radius"}) {
    EXPECT_NE(help.output.find(option), std::string::npos) << option << "\n" << help.output;
  }
}

// arena.map (../shared/movingai): every search finds all 160 paths, none longer
// than the 8-connected optimum; --regions lets the search over regions answer.
TEST(CliGridScen, SharedArenaWithEverySearch) {
  const std::string scen = sharedFile("movingai/arena.map.scen");
  const std::string map = sharedFile("movingai/arena.map");
  if (scen.empty() || map.empty()) GTEST_SKIP() << "../shared/movingai is absent";
  for (const char* search : {"exact", "crossing"}) {
    const CliRun run = runCli("scen " + quoted(scen) + " --search " + search);
    ASSERT_EQ(run.exitCode, 0) << run.output;
    ASSERT_EQ(run.objects.size(), 161u) << run.output;
    const nlohmann::json& summary = run.objects.back();
    EXPECT_EQ(summary["found"], 160) << search;
    EXPECT_EQ(summary["longer"], 0) << search;
    for (size_t i = 0; i + 1 < run.objects.size(); ++i)
      EXPECT_EQ(run.objects[i]["search"], search) << run.objects[i];
  }
  const CliRun regions = runCli("scen " + quoted(scen) + " --regions");
  ASSERT_EQ(regions.exitCode, 0) << regions.output;
  size_t overRegions = 0;
  for (const nlohmann::json& line : regions.objects)
    overRegions += line.value("regions", false) ? 1 : 0;
  EXPECT_GT(overRegions, 0u);

  // Scenario 2: tile (1, 13) to tile (4, 12), a straight sqrt(10) m in the open.
  const CliRun query = runCli("query " + quoted(map) + " --from 1.5,0,13.5 --to 4.5,0,12.5");
  ASSERT_EQ(query.exitCode, 0) << query.output;
  EXPECT_NEAR(query.objects.at(0)["length"].get<double>(), std::sqrt(10.0), 1e-3) << query.output;
}

}  // namespace
