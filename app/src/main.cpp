// navscope: the visual debugger. See command_line.h for the arguments.
#include <cstdio>
#include <exception>
#include <variant>

#include "app.h"
#include "command_line.h"

int main(int argc, char** argv) {
  try {
    auto parsed = nav::app::parseCommandLine(argc, argv, NAVSCOPE_DEFAULT_LEVEL);
    if (const auto* exit = std::get_if<nav::app::ExitCode>(&parsed)) return exit->code;
    nav::app::App app(std::get<nav::app::AppOptions>(std::move(parsed)));
    return app.run();
  } catch (const std::exception& error) {
    // Only resource exhaustion or a driver failure gets here; say so instead of aborting.
    std::fprintf(stderr, "navscope: fatal: %s\n", error.what());
    return 1;
  }
}
