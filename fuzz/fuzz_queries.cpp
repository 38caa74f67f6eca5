// libFuzzer target: the CLI's --queries file.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "nav/query_pairs.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  nav::parseQueryPairs(text, "fuzz.txt", 1'000'000);
  return 0;
}
