// libFuzzer target: a .nav file. Each input is read twice: as it is, and with
// its CRC-32 trailer made right, so that mutations reach the sections behind
// the checksum. A graph the reader accepts must also answer queries without
// fault: the reader's checks are what the search relies on.
#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "nav/nav_file.h"
#include "nav/path_pipeline.h"

namespace {

void queryAcross(const nav::NavGraph& graph) {
  if (graph.sectors.empty()) return;
  nav::SearchOptions options;
  options.maxExpansions = 10'000;
  nav::PathStages stages;
  stages.groundPath = true;
  stages.smoothed = true;
  stages.vehicleCurve = true;
  nav::PathAnswer answer;
  const glm::vec3 from = graph.centroid(graph.sectors.front());
  const glm::vec3 to = graph.centroid(graph.sectors.back());
  for (const nav::PortalPoint model : nav::kPortalPoints) {
    options.portalPoint = model;
    nav::planPath(graph, from, to, options, stages, answer);
  }
}

void readAndQuery(std::span<const uint8_t> bytes) {
  const nav::Result<nav::NavGraph> graph = nav::deserializeNavGraph(bytes, "fuzz.nav");
  if (graph) queryAcross(graph.value());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  readAndQuery({data, size});
  constexpr size_t kTrailer = 4;
  if (size < kTrailer) return 0;
  std::vector<uint8_t> fixed(data, data + size);
  const size_t body = size - kTrailer;
  const uint32_t crc = uint32_t(crc32(0, fixed.data(), uInt(body)));
  for (size_t i = 0; i < kTrailer; ++i)
    fixed[body + i] = uint8_t(crc >> (8 * i));
  readAndQuery(fixed);
  return 0;
}
