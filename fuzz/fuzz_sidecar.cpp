// libFuzzer target: a level's sidecar JSON.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "nav/level_settings.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  nav::parseLevelSettings(text, "fuzz.json");
  return 0;
}
