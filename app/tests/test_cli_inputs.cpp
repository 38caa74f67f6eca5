// navscope-cli's input files, run as a user runs it: a --queries file must be
// a regular file (a device, a directory or a FIFO is refused at once, exit
// code 2, the file named: opening a FIFO would block and /dev/zero never ends)
// of at most 64 MiB and 1,000,000 queries; scen's .scen and .map and query's
// level likewise. Every run here is bounded by `timeout`, so a regression
// fails instead of hanging.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <sys/stat.h>
#include <sys/wait.h>

#include "cli_run.h"

namespace {

using nav::test::asset;
using nav::test::CliRun;
using nav::test::outputFile;
using nav::test::quoted;

// How long a refusal may take; `timeout` kills the CLI after twice as long.
constexpr int kQuickSeconds = 10;

struct TimedRun {
  CliRun run;
  double seconds = 0.0;
};

// Like runCli, under `timeout` (exit code 124 when the CLI had to be killed).
TimedRun runCliWithin(const std::string& arguments) {
  TimedRun timed;
  const std::string command = "timeout -k 2 " + std::to_string(2 * kQuickSeconds) + " '" +
                              NAVSCOPE_CLI_EXE + "' " + arguments + " 2>&1";
  const auto start = std::chrono::steady_clock::now();
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return timed;
  char buffer[4096];
  size_t read = 0;
  while ((read = fread(buffer, 1, sizeof buffer, pipe)) > 0)
    timed.run.output.append(buffer, read);
  const int status = pclose(pipe);
  timed.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  timed.run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return timed;
}

// A FIFO at `name` in the tests' output folder, made afresh.
std::string makeFifo(const std::string& name) {
  const std::string path = outputFile(name);
  std::filesystem::remove(path);
  EXPECT_EQ(mkfifo(path.c_str(), 0600), 0) << path;
  return path;
}

// A folder in the tests' output folder.
std::string makeFolder(const std::string& name) {
  const std::string path = outputFile(name);
  std::filesystem::create_directories(path);
  return path;
}

void expectRefusedQuickly(const TimedRun& timed, const std::string& arguments,
                          const std::string& named, const std::string& says) {
  const CliRun& run = timed.run;
  EXPECT_EQ(run.exitCode, 2) << arguments << "\n" << run.output;
  EXPECT_LT(timed.seconds, kQuickSeconds) << arguments;
  EXPECT_NE(run.output.find(named), std::string::npos) << arguments << "\n" << run.output;
  EXPECT_NE(run.output.find(says), std::string::npos) << arguments << "\n" << run.output;
}

TEST(CliInputs, QueriesMustBeARegularFile) {
  const std::string fifo = makeFifo("cli_inputs_queries.fifo");
  const std::string folder = makeFolder("cli_inputs_queries_folder");
  struct Case {
    std::string path, says;
  };
  const Case cases[] = {{"/dev/zero", "is a character device, not a regular file"},
                        {folder, "is a directory, not a regular file"},
                        {fifo, "is a FIFO (named pipe), not a regular file"},
                        {outputFile("cli_inputs_no_such_file.txt"), "file not found"}};
  for (const Case& c : cases) {
    const std::string arguments = "query " + asset("funnel.obj") + " --queries " + quoted(c.path);
    expectRefusedQuickly(runCliWithin(arguments), arguments, "--queries " + c.path, c.says);
  }
  std::filesystem::remove(fifo);
}

TEST(CliInputs, QueriesFilesAreBoundedInSize) {
  // Sparse: 64 MiB and one byte without writing them.
  const std::string large = outputFile("cli_inputs_large_queries.txt");
  { std::ofstream(large, std::ios::binary | std::ios::trunc) << "# large\n"; }
  std::filesystem::resize_file(large, (64ull << 20) + 1);
  const std::string arguments = "query " + asset("funnel.obj") + " --queries " + quoted(large);
  expectRefusedQuickly(runCliWithin(arguments), arguments, "--queries " + large,
                       "is 67108865 bytes, over the limit of 67108864 bytes (64 MiB)");
  std::filesystem::remove(large);
}

TEST(CliInputs, QueriesFilesAreBoundedInCount) {
  // A comment first: the message counts file lines. One query past the limit is
  // refused at its line; exactly the limit is read (the level then fails, not the file).
  const std::string many = outputFile("cli_inputs_many_queries.txt");
  {
    std::ofstream out(many, std::ios::binary | std::ios::trunc);
    out << "# a million and one\n";
    for (int i = 0; i < 1'000'001; ++i)
      out << "1 0 1 2 0 2\n";
  }
  const std::string arguments = "query " + asset("funnel.obj") + " --queries " + quoted(many);
  expectRefusedQuickly(runCliWithin(arguments), arguments,
                       "--queries " + many + ":1000002:", "more than 1000000 queries");

  std::filesystem::resize_file(many, std::filesystem::file_size(many) - 12);
  const std::string missing = outputFile("cli_inputs_missing_level.obj");
  const std::string limit = "query " + quoted(missing) + " --queries " + quoted(many);
  const TimedRun read = runCliWithin(limit);
  EXPECT_EQ(read.run.exitCode, 2) << read.run.output;
  EXPECT_EQ(read.run.output.find("--queries"), std::string::npos) << read.run.output;
  EXPECT_NE(read.run.output.find(missing), std::string::npos) << read.run.output;
  std::filesystem::remove(many);
}

// scen's .scen and .map, and query's level (.obj, .map), are refused the same way.
TEST(CliInputs, ScenAndLevelsMustBeRegularFiles) {
  const std::string scenFifo = makeFifo("cli_inputs.scen");
  const std::string mapFifo = makeFifo("cli_inputs_fifo.map");
  const std::string objFifo = makeFifo("cli_inputs_fifo.obj");
  const std::string folder = makeFolder("cli_inputs_folder.scen");
  // A good .scen whose map is given by --map.
  const std::string scen = outputFile("cli_inputs_good.scen");
  {
    std::ofstream(scen, std::ios::binary | std::ios::trunc)
        << "version 1\n0\tgood.map\t4\t4\t0\t0\t1\t1\t1.41421356\n";
  }
  // One whose map is a directory, and one with no scenario.
  const std::string mapFolder = makeFolder("cli_inputs_folder.map");
  const std::string toFolder = outputFile("cli_inputs_to_folder.scen");
  {
    std::ofstream(toFolder, std::ios::binary | std::ios::trunc)
        << "version 1\n0\t" << mapFolder << "\t4\t4\t0\t0\t1\t1\t1.41421356\n";
  }
  const std::string empty = outputFile("cli_inputs_empty.scen");
  { std::ofstream(empty, std::ios::binary | std::ios::trunc) << "version 1\n"; }
  struct Case {
    std::string arguments, named, says;
  };
  const Case cases[] = {
      {"scen /dev/zero", "/dev/zero", "not a regular file"},
      {"scen " + quoted(scenFifo), scenFifo, "not a regular file"},
      {"scen " + quoted(folder), folder, "not a regular file"},
      {"scen " + quoted(scen) + " --map /dev/zero", "/dev/zero", "not a regular file"},
      {"scen " + quoted(scen) + " --map " + quoted(mapFifo), mapFifo, "not a regular file"},
      {"query " + quoted(mapFifo) + " --from 1,0,1 --to 2,0,2", mapFifo, "not a regular file"},
      {"query " + quoted(objFifo) + " --from 1,0,1 --to 2,0,2", objFifo, "not a regular file"},
      {"query /dev/zero --from 1,0,1 --to 2,0,2", "/dev/zero", "not a regular file"},
      {"scen " + quoted(toFolder), mapFolder, "is a directory, not a regular file"},
      {"scen " + quoted(empty), empty, "no scenarios after its version line"},
      // Outputs: a FIFO nobody reads would hold the write for ever.
      {"build " + asset("funnel.obj") + " -o " + quoted(objFifo), objFifo, "no process reads"},
      {"build " + asset("funnel.obj") + " --cells-out " + quoted(objFifo), objFifo,
       "no process reads"},
      {"generate terrain --seed 1 -o " + quoted(objFifo), objFifo, "no process reads"}};
  for (const Case& c : cases)
    expectRefusedQuickly(runCliWithin(c.arguments), c.arguments, c.named, c.says);
  for (const std::string& fifo : {scenFifo, mapFifo, objFifo})
    std::filesystem::remove(fifo);
}

}  // namespace
