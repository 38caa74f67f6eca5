// libFuzzer target: a Moving AI .scen file, each scenario checked against a
// small map as the CLI checks it against its own.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "nav/grid_map.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const nav::GridMap map =
      nav::parseGridMap("type octile\nheight 2\nwidth 3\nmap\n..@\n...\n", "small.map").value();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const nav::Result<std::vector<nav::GridScenario>> scenarios =
      nav::parseGridScenarios(text, "fuzz.scen");
  if (!scenarios) return 0;
  for (const nav::GridScenario& scenario : scenarios.value())
    nav::checkGridScenario(map, scenario, "fuzz.scen");
  return 0;
}
