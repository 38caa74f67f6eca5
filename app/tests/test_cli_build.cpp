// navscope-cli build run as a user runs it: flags out of range are refused
// with the flag named and exit code 2; levels too big for --max-cells are
// refused before any work, runaway inputs included; --cells-out writes every
// cell where the unit stands on ground.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <thread>

#include "cli_run.h"

namespace {

using nav::test::asset;
using nav::test::CliRun;
using nav::test::outputFile;
using nav::test::quoted;
using nav::test::runCli;

void expectRefused(const std::string& arguments, const std::string& named) {
  SCOPED_TRACE(arguments);
  const CliRun run = runCli("build " + asset("funnel.obj") + " " + arguments);
  EXPECT_EQ(run.exitCode, 2) << run.output;
  EXPECT_NE(run.output.find(named), std::string::npos) << run.output;
  EXPECT_TRUE(run.objects.empty()) << run.output;
}

TEST(CliBuild, OutOfRangeFlagsAreNamed) {
  expectRefused("--cell 0", "--cell 0");
  expectRefused("--cell nan", "--cell nan");
  expectRefused("--cell 200", "--cell 200");
  expectRefused("--max-cells 0", "--max-cells");
  // Read into a size_t, "-1" wrapped to 2^64 - 1 and turned the limit off.
  expectRefused("--max-cells -1", "--max-cells: '-1' is below 1");
  // A script's unset variable: the default would be used unseen.
  expectRefused("--cell ''", "--cell: an empty value");
  expectRefused("--unit-width ''", "--unit-width: an empty value");
  expectRefused("--unit-width -1", "--unit-width -1");
  expectRefused("--unit-height 0", "--unit-height 0");
  expectRefused("--step 5", "--step 5");
  expectRefused("--drop nan", "--drop nan");
  expectRefused("--slope 95", "--slope 95");
  expectRefused("--ledge-overhang 0.5", "--ledge-overhang 0.5");
  expectRefused("--ledge-overhang -0.1", "--ledge-overhang -0.1");
  expectRefused("--threads 0", "--threads");
  expectRefused("--cells-out /nonexistent/dir/cells.txt", "--cells-out");
}

// The funnel level's walkable surfaces make about 3,011 cells of 0.3 m.
TEST(CliBuild, ALevelPastMaxCellsIsRefusedWithItsEstimate) {
  const CliRun run = runCli("build " + asset("funnel.obj") + " --max-cells 1000");
  EXPECT_EQ(run.exitCode, 2) << run.output;
  EXPECT_NE(run.output.find("3011 cells"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("--max-cells"), std::string::npos) << run.output;
  // Its size, for a file in centimetres or inches (the funnel's bounds run 20.6 x 12.6 m).
  EXPECT_NE(run.output.find("the level spans 20.6 x 12.6 m across: navscope reads metres"),
            std::string::npos)
      << run.output;
}

// Runaway inputs found by fuzzing: each refused within seconds, exit code 2.
TEST(CliBuild, RunawayLevelsAreRefusedQuickly) {
  // One face of 1,487 vertices scattered over 2 km: its ear clipping gives
  // triangles over the whole square (about 2.6 G cells' worth).
  {
    const std::string path = outputFile("one_huge_face.obj");
    std::ofstream obj(path);
    uint64_t state = 7;
    const auto next = [&] {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      return double(state >> 11) / double(1ull << 53);
    };
    for (int i = 0; i < 1487; ++i)
      obj << "v " << next() * 2000 - 1000 << " " << next() << " " << next() * 2000 - 1000 << "\n";
    obj << "f";
    for (int i = 1; i <= 1487; ++i)
      obj << " " << i;
    obj << "\n";
  }
  // A 10 km square plane at cells of 5 cm: 40 G cells' worth.
  {
    std::ofstream obj(outputFile("ten_km_plane.obj"));
    obj << "v 0 0 0\nv 0 0 10000\nv 10000 0 10000\nv 10000 0 0\nf 1 2 3 4\n";
  }
  for (const auto& [file, flags] : {std::pair<std::string, std::string>{"one_huge_face.obj", ""},
                                    {"ten_km_plane.obj", "--cell 0.05"}}) {
    SCOPED_TRACE(file);
    const auto start = std::chrono::steady_clock::now();
    const CliRun run = runCli("build " + quoted(outputFile(file)) + " " + flags);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(run.exitCode, 2) << run.output;
    EXPECT_NE(run.output.find("--max-cells"), std::string::npos) << run.output;
    EXPECT_LT(seconds, 5.0);
  }
}

// A floor spanning the float range (it was once estimated at no cells, and
// the build wrote an empty graph without a word): refused where it is read.
TEST(CliBuild, AFloorPastTheLevelLimitIsRefused) {
  {
    std::ofstream obj(outputFile("float_range_floor.obj"));
    obj << "v -3e38 0 -3e38\nv 0 0 3e38\nv 3e38 0 -3e38\nf 1 2 3\nf 1 3 2\n";
  }
  const CliRun run = runCli("build " + quoted(outputFile("float_range_floor.obj")));
  EXPECT_EQ(run.exitCode, 2) << run.output;
  EXPECT_NE(run.output.find("float_range_floor.obj:1: "), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("1e8 m"), std::string::npos) << run.output;
}

// A sliver 14 km long and 2 cm wide along the diagonal, beside a floor: a
// level like any other, built in well under a second (seeding once walked
// every column of the sliver's 10 x 10 km bounding box: 4.7 s here).
TEST(CliBuild, ALongSliverIsQuick) {
  {
    std::ofstream obj(outputFile("sliver.obj"));
    obj << "v 0 0 0\nv 0 0 3\nv 3 0 3\nv 3 0 0\n"
        << "v 10 0 10\nv 10000 0 10000\nv 10000 0 10000.03\n"
        << "f 1 2 3 4\nf 5 7 6\n";
  }
  const auto start = std::chrono::steady_clock::now();
  const CliRun run = runCli("build " + quoted(outputFile("sliver.obj")));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(run.exitCode, 0) << run.output;
  EXPECT_LT(seconds, 2.0);
}

// Every cell written, at a height where the funnel level (floors at y = 0,
// walls and blocks above) has ground, and as many as the build counted.
TEST(CliBuild, CellsOutWritesEveryCellOnTheGround) {
  const std::string path = outputFile("funnel_cells.txt");
  const CliRun run = runCli("build " + asset("funnel.obj") + " --cells-out " + quoted(path));
  ASSERT_EQ(run.exitCode, 0) << run.output;
  ASSERT_EQ(run.objects.size(), 1u) << run.output;
  EXPECT_EQ(run.objects[0]["cells_output"], path);
  std::ifstream in(path);
  size_t lines = 0;
  for (std::string line; std::getline(in, line); ++lines) {
    std::istringstream fields(line);
    double x = NAN, y = NAN, z = NAN;
    fields >> x >> y >> z;
    ASSERT_TRUE(std::isfinite(x) && std::isfinite(y) && std::isfinite(z)) << line;
    EXPECT_NEAR(y, 0.0, 1e-3) << line;
    EXPECT_TRUE(x > 0 && x < 20 && z > 0 && z < 12) << line;
  }
  EXPECT_EQ(lines, run.objects[0]["cells"].get<size_t>());
}

// Without --threads a build takes every core of the machine, and writes the
// same graph as on one thread.
TEST(CliBuild, ThreadsDefaultToTheMachinesCoresWithTheSameGraph) {
  const std::string onAll = outputFile("showcase_all_threads.nav");
  const std::string onOne = outputFile("showcase_one_thread.nav");
  const CliRun all = runCli("build " + asset("showcase.obj") + " -o " + quoted(onAll));
  const CliRun one = runCli("build " + asset("showcase.obj") + " --threads 1 -o " + quoted(onOne));
  ASSERT_EQ(all.exitCode, 0) << all.output;
  ASSERT_EQ(one.exitCode, 0) << one.output;
  ASSERT_EQ(all.objects.size(), 1u) << all.output;
  ASSERT_EQ(one.objects.size(), 1u) << one.output;
  const int cores = std::clamp(int(std::thread::hardware_concurrency()), 1, 64);
  EXPECT_EQ(all.objects[0]["threads"].get<int>(), cores);
  EXPECT_EQ(one.objects[0]["threads"].get<int>(), 1);
  const auto bytes = [](const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  EXPECT_FALSE(bytes(onOne).empty());
  EXPECT_EQ(bytes(onAll), bytes(onOne));
}

// A file wound the other way (its floor faces down) builds no cell and says
// why; --flip-faces turns it over and builds what the file wound the usual
// way builds, and is refused with a .nav file.
TEST(CliBuild, FlipFacesTurnsOverAFileWoundTheOtherWay) {
  const std::string upright = outputFile("cli_wound_up.obj");
  const std::string backwards = outputFile("cli_wound_down.obj");
  std::ofstream(upright) << "v 0 0 0\nv 6 0 0\nv 6 0 6\nv 0 0 6\nf 1 4 3 2\n";
  std::ofstream(backwards) << "v 0 0 0\nv 6 0 0\nv 6 0 6\nv 0 0 6\nf 1 2 3 4\n";

  const CliRun info = runCli("info " + quoted(backwards));
  ASSERT_EQ(info.exitCode, 0) << info.output;
  EXPECT_EQ(info.objects.at(0).at("faces").at("up"), 0);
  EXPECT_EQ(info.objects.at(0).at("faces").at("down"), 2);
  EXPECT_FALSE(info.objects.at(0).contains("flip_faces"));

  const CliRun none = runCli("build " + quoted(backwards));
  ASSERT_EQ(none.exitCode, 0) << none.output;
  EXPECT_EQ(none.objects.at(0).at("cells"), 0);
  ASSERT_EQ(none.objects.at(0).at("warnings").size(), 1u) << none.output;
  EXPECT_NE(none.objects.at(0).at("warnings")[0].get<std::string>().find("--flip-faces"),
            std::string::npos)
      << none.output;

  const CliRun expected = runCli("build " + quoted(upright));
  const CliRun flipped = runCli("build " + quoted(backwards) + " --flip-faces");
  ASSERT_EQ(expected.exitCode, 0) << expected.output;
  ASSERT_EQ(flipped.exitCode, 0) << flipped.output;
  EXPECT_GT(expected.objects.at(0).at("cells").get<int>(), 0);
  EXPECT_EQ(flipped.objects.at(0).at("cells"), expected.objects.at(0).at("cells"));
  EXPECT_EQ(flipped.objects.at(0).at("sectors"), expected.objects.at(0).at("sectors"));
  EXPECT_EQ(flipped.objects.at(0).at("flip_faces"), true);
  EXPECT_TRUE(flipped.objects.at(0).at("warnings").empty()) << flipped.output;

  const CliRun turnedInfo = runCli("info " + quoted(backwards) + " --flip-faces");
  ASSERT_EQ(turnedInfo.exitCode, 0) << turnedInfo.output;
  EXPECT_EQ(turnedInfo.objects.at(0).at("faces").at("up"), 2);
  EXPECT_EQ(turnedInfo.objects.at(0).at("flip_faces"), true);

  const CliRun path =
      runCli("query " + quoted(backwards) + " --flip-faces --from 1,0,1 --to 5,0,5");
  ASSERT_EQ(path.exitCode, 0) << path.output;
  EXPECT_EQ(path.objects.at(0).at("status"), "found") << path.output;

  const std::string nav = quoted(outputFile("cli_wound_up.nav"));
  ASSERT_EQ(runCli("build " + quoted(upright) + " -o " + nav).exitCode, 0);
  for (const std::string& command :
       {std::string("info ") + nav, "query " + nav + " --from 1,0,1 --to 5,0,5"}) {
    const CliRun run = runCli(command + " --flip-faces");
    EXPECT_EQ(run.exitCode, 2) << command << "\n" << run.output;
    EXPECT_NE(run.output.find("--flip-faces"), std::string::npos) << run.output;
  }
}

// --up-axis and --unit-scale read a Z-up file in centimetres as its sidecar's
// upAxis and unitScale do: the same cells as the floor written in metres,
// Y up; bad values and a .nav file are refused naming the flag.
TEST(CliBuild, UpAxisAndUnitScaleReadAZUpFileInCentimetres) {
  const std::string metres = outputFile("cli_floor_metres.obj");
  const std::string zUpCm = outputFile("cli_floor_z_up_cm.obj");
  std::ofstream(metres) << "v 0 0 0\nv 0 0 -3\nv 4 0 -3\nv 4 0 0\nf 1 4 3 2\n";
  std::ofstream(zUpCm) << "v 0 0 0\nv 400 0 0\nv 400 300 0\nv 0 300 0\nf 1 2 3 4\n";

  const CliRun expected = runCli("build " + quoted(metres) + " --cell 0.25");
  const CliRun read =
      runCli("build " + quoted(zUpCm) + " --cell 0.25 --up-axis z --unit-scale 0.01");
  ASSERT_EQ(expected.exitCode, 0) << expected.output;
  ASSERT_EQ(read.exitCode, 0) << read.output;
  EXPECT_GT(expected.objects.at(0).at("cells").get<int>(), 0);
  EXPECT_EQ(read.objects.at(0).at("cells"), expected.objects.at(0).at("cells"));
  EXPECT_EQ(read.objects.at(0).at("sectors"), expected.objects.at(0).at("sectors"));

  const CliRun sideways = runCli("info " + quoted(zUpCm));
  ASSERT_EQ(sideways.exitCode, 0) << sideways.output;
  ASSERT_EQ(sideways.objects.at(0).at("warnings").size(), 1u) << sideways.output;
  EXPECT_NE(sideways.objects.at(0).at("warnings")[0].get<std::string>().find("--up-axis z"),
            std::string::npos)
      << sideways.output;
  const CliRun upright = runCli("info " + quoted(zUpCm) + " --up-axis z --unit-scale 0.01");
  ASSERT_EQ(upright.exitCode, 0) << upright.output;
  EXPECT_TRUE(upright.objects.at(0).at("warnings").empty()) << upright.output;

  const CliRun path =
      runCli("query " + quoted(zUpCm) +
             " --cell 0.25 --up-axis z --unit-scale 0.01 --from 1,0,-1 --to 3,0,-2");
  ASSERT_EQ(path.exitCode, 0) << path.output;
  EXPECT_EQ(path.objects.at(0).at("status"), "found") << path.output;

  for (const std::string& bad :
       {std::string("--up-axis x"), std::string("--unit-scale 0"), std::string("--unit-scale -2"),
        std::string("--unit-scale nan"), std::string("--unit-scale 1e30 --up-axis z")}) {
    const CliRun run = runCli("build " + quoted(zUpCm) + " " + bad);
    EXPECT_EQ(run.exitCode, 2) << bad << "\n" << run.output;
    EXPECT_NE(run.output.find(bad.substr(0, bad.find(' '))), std::string::npos) << run.output;
  }

  const std::string nav = quoted(outputFile("cli_floor_metres.nav"));
  ASSERT_EQ(runCli("build " + quoted(metres) + " -o " + nav).exitCode, 0);
  for (const std::string flag : {"--up-axis z", "--unit-scale 0.01"}) {
    const CliRun run = runCli("info " + nav + " " + flag);
    EXPECT_EQ(run.exitCode, 2) << flag << "\n" << run.output;
    EXPECT_NE(run.output.find(flag.substr(0, flag.find(' '))), std::string::npos) << run.output;
  }
}

// Out of memory is an error, exit code 2, never an abort: a 3 km plane
// allowed 200 M cells under a 250 MB address-space limit.
TEST(CliBuild, OutOfMemoryIsAnError) {
  {
    std::ofstream obj(outputFile("plane_3km.obj"));
    obj << "v 0 0 0\nv 0 0 3000\nv 3000 0 3000\nv 3000 0 0\nf 1 2 3 4\n";
  }
  const std::string command = "sh -c 'ulimit -v 250000; exec \"" + std::string(NAVSCOPE_CLI_EXE) +
                              "\" build \"" + outputFile("plane_3km.obj") +
                              "\" --max-cells 200000000' 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string output;
  char buffer[4096];
  for (size_t read; (read = fread(buffer, 1, sizeof buffer, pipe)) > 0;)
    output.append(buffer, read);
  const int status = pclose(pipe);
  ASSERT_TRUE(WIFEXITED(status)) << output;
  EXPECT_EQ(WEXITSTATUS(status), 2) << output;
  EXPECT_NE(output.find("out of memory"), std::string::npos) << output;
  EXPECT_NE(output.find("--max-cells"), std::string::npos) << output;
}

}  // namespace
