// navscope-cli query, run as a user runs it: the search it is asked for
// (--portal-point), the one that answered (the "search" field), and a bad value
// refused with the option named.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace {

struct CliRun {
  std::vector<nlohmann::json> objects;
  std::string output;
  int exitCode = -1;
};

CliRun runCli(const std::string& arguments) {
  CliRun run;
  const std::string command = std::string("'") + NAVSCOPE_CLI_EXE + "' " + arguments + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return run;
  char buffer[4096];
  std::string line;
  while (fgets(buffer, sizeof buffer, pipe) != nullptr) {
    line += buffer;
    if (line.back() != '\n') continue;
    run.output += line;
    const nlohmann::json parsed = nlohmann::json::parse(line, nullptr, false);
    if (parsed.is_object()) run.objects.push_back(parsed);
    line.clear();
  }
  const int status = pclose(pipe);
  run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

std::string asset(const std::string& name) {
  return std::string("'") + NAVSCOPE_ASSETS_DIR + "/" + name + "'";
}

TEST(CliQuery, ExactIsNeverLongerThanCrossingAndSaysItAnswered) {
  const std::string query = "query " + asset("funnel.obj") + " --from 6,0,2 --to 14,0,2";
  const CliRun crossing = runCli(query);
  const CliRun exact = runCli(query + " --portal-point exact");
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
      "query " + asset("showcase.obj") + " --from 37,0.05,31 --to 32,3.05,6 --portal-point exact";
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

TEST(CliQuery, ABadPortalPointIsRefusedWithTheOptionNamed) {
  const CliRun run =
      runCli("query " + asset("funnel.obj") + " --from 6,0,2 --to 14,0,2 --portal-point sideways");
  EXPECT_EQ(run.exitCode, 2);
  EXPECT_TRUE(run.objects.empty());
  EXPECT_NE(run.output.find("--portal-point"), std::string::npos) << run.output;
}

}  // namespace
