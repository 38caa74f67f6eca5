#pragma once
// Runs navscope-cli as a user does (through the shell) and keeps what it printed.
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include <sys/wait.h>

namespace nav::test {

struct CliRun {
  /// Each output line that parses as a JSON object.
  std::vector<nlohmann::json> objects;
  /// stdout and stderr together, as bytes.
  std::string output;
  int exitCode = -1;
};

inline CliRun runCli(const std::string& arguments) {
  CliRun run;
  const std::string command = std::string("'") + NAVSCOPE_CLI_EXE + "' " + arguments + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return run;
  // Read as bytes: the output must be checked for stray control characters too.
  char buffer[4096];
  size_t read = 0;
  while ((read = fread(buffer, 1, sizeof buffer, pipe)) > 0)
    run.output.append(buffer, read);
  const int status = pclose(pipe);
  run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::istringstream lines(run.output);
  for (std::string line; std::getline(lines, line);) {
    const nlohmann::json parsed = nlohmann::json::parse(line, nullptr, false);
    if (parsed.is_object()) run.objects.push_back(parsed);
  }
  return run;
}

/// A file in the tests' output folder (NAVSCOPE_TEST_OUTPUT_DIR).
inline std::string outputFile(const std::string& name) {
  return std::string(NAVSCOPE_TEST_OUTPUT_DIR) + "/" + name;
}

/// A path quoted for the shell (built by appending: GCC 12 warns, wrongly, on "'" + string).
inline std::string quoted(const std::string& path) {
  std::string text = "'";
  text += path;
  text += '\'';
  return text;
}

/// A whole file's bytes ("" when it cannot be read).
inline std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// A bundled level's path, quoted for the shell.
inline std::string asset(const std::string& name) {
  return std::string("'") + NAVSCOPE_ASSETS_DIR + "/" + name + "'";
}

}  // namespace nav::test
