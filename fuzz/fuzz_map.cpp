// libFuzzer target: a Moving AI .map file, then the level built from it.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "nav/grid_map.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  nav::GridMapLimits limits;
  limits.maxSide = 256;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const nav::Result<nav::GridMap> map = nav::parseGridMap(text, "fuzz.map", limits);
  if (map) nav::gridMapLevel(map.value());
  return 0;
}
