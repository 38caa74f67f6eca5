// Golden outputs: for each bundled level, dungeon.obj (when ../shared has it)
// and two generated terrains, a hash of the built graph's .nav bytes and of
// the answers to a fixed set of queries, compared with the hashes committed in
// core/tests/golden/hashes.txt. The determinism tests compare two runs of one
// build; these catch a change of output across commits, compilers and build
// types (CI runs them in Release and under the sanitizers). A change that
// alters outputs updates the file in the same commit and says why: run with
// NAVSCOPE_GOLDEN_UPDATE=1 to rewrite it.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "nav/collision.h"
#include "nav/level.h"
#include "nav/level_settings.h"
#include "nav/nav_build.h"
#include "nav/nav_file.h"
#include "nav/navmesh_graph.h"
#include "nav/path_pipeline.h"
#include "nav/terrain_generator.h"

namespace nav {
namespace {

const std::string kHashFile = std::string(NAVSCOPE_SOURCE_DIR) + "/core/tests/golden/hashes.txt";

// FNV-1a, 64 bits: the same value on every platform for the same bytes.
class Hash {
 public:
  void bytes(const void* data, size_t size) {
    const auto* p = static_cast<const uint8_t*>(data);
    for (size_t i = 0; i < size; ++i) {
      m_value ^= p[i];
      m_value *= 0x100000001b3ull;
    }
  }
  void u32(uint32_t v) { bytes(&v, sizeof v); }
  void f32(float v) { u32(std::bit_cast<uint32_t>(v)); }
  void point(const glm::vec3& p) {
    f32(p.x);
    f32(p.y);
    f32(p.z);
  }
  std::string hex() const {
    std::ostringstream out;
    out << std::hex << std::setw(16) << std::setfill('0') << m_value;
    return out.str();
  }

 private:
  uint64_t m_value = 0xcbf29ce484222325ull;
};

struct Built {
  std::string name;
  NavGraph graph;
};

std::optional<Built> floodFilled(const std::string& name, Result<Level> level) {
  EXPECT_TRUE(level) << name << ": " << level.error();
  if (!level) return std::nullopt;
  const CollisionWorld world(level.value());
  Result<NavBuild> build = buildNavigation(level.value(), world, defaultFillParams(level.value()));
  EXPECT_TRUE(build) << name << ": " << build.error();
  if (!build) return std::nullopt;
  return Built{name, std::move(build).value().graph};
}

Result<Level> terrain(uint32_t seed) {
  TerrainParams params;
  params.seed = seed;
  std::ostringstream obj;
  const Result<TerrainInfo> info = generateTerrain(params, obj);
  if (!info) return Result<Level>::failure(info.error());
  Result<Level> level = parseObj(obj.str(), "terrain " + std::to_string(seed));
  if (!level) return level;
  Level made = std::move(level).value();
  made.settings = parseLevelSettings(info.value().sidecarJson, "terrain").value();
  return Result<Level>::success(std::move(made));
}

// Every level the hashes cover that this machine has.
std::vector<Built> levels() {
  std::vector<Built> built;
  const auto add = [&](std::optional<Built> level) {
    if (level) built.push_back(std::move(*level));
  };
  const std::string assets = NAVSCOPE_ASSETS_DIR;
  add(floodFilled("showcase", loadLevel(assets + "/showcase.obj")));
  add(floodFilled("funnel", loadLevel(assets + "/funnel.obj")));
  Result<Level> plaza = loadLevel(assets + "/navmesh_plaza.obj");
  EXPECT_TRUE(plaza) << plaza.error();
  if (plaza) {
    Result<NavMeshBuild> mesh = buildNavMeshGraph(plaza.value(), navMeshParamsFor(plaza.value()));
    EXPECT_TRUE(mesh) << mesh.error();
    if (mesh) built.push_back({"navmesh_plaza", std::move(mesh).value().graph});
  }
  const std::string dungeon = std::string(NAVSCOPE_SHARED_DIR) + "/meshes/dungeon.obj";
  if (std::filesystem::exists(dungeon)) add(floodFilled("dungeon", loadLevel(dungeon)));
  add(floodFilled("terrain1", terrain(1)));
  add(floodFilled("terrain2", terrain(2)));
  return built;
}

// The answers to queries between ground sectors' centroids picked by fixed
// strides, with each search method: status, cost, expansions, corners and
// the smoothed curve, bit for bit.
std::string answersHash(const NavGraph& graph) {
  std::vector<uint32_t> ground;
  for (uint32_t s = 0; s < graph.sectors.size(); ++s) {
    if (graph.sectors[s].kind == SectorKind::Ground) ground.push_back(s);
  }
  Hash hash;
  if (ground.empty()) return hash.hex();
  PathStages stages;
  stages.smoothed = true;
  PathAnswer answer;
  for (const PortalPoint method : kPortalPoints) {
    SearchOptions options;
    options.portalPoint = method;
    for (uint32_t i = 0; i < 16; ++i) {
      const Sector& from = graph.sectors[ground[(i * 7919u) % ground.size()]];
      const Sector& to = graph.sectors[ground[(i * 104729u + 13u) % ground.size()]];
      planPath(graph, graph.centroid(from), graph.centroid(to), options, stages, answer);
      hash.u32(uint32_t(answer.search.status));
      hash.f32(answer.search.cost);
      hash.u32(answer.search.expansions);
      hash.u32(uint32_t(answer.funnel.corners.size()));
      for (const glm::vec3& corner : answer.funnel.corners)
        hash.point(corner);
      hash.u32(uint32_t(answer.smoothed.size()));
      for (const glm::vec3& sample : answer.smoothed)
        hash.point(sample);
    }
  }
  return hash.hex();
}

std::map<std::string, std::string> readHashes() {
  std::map<std::string, std::string> hashes;
  std::ifstream in(kHashFile);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string key, value;
    if (words >> key >> value) hashes[key] = value;
  }
  return hashes;
}

TEST(GoldenOutputs, GraphsAndAnswersHashAsCommitted) {
  std::map<std::string, std::string> actual;
  for (const Built& level : levels()) {
    Hash nav;
    const std::vector<uint8_t> bytes = serializeNavGraph(level.graph);
    nav.bytes(bytes.data(), bytes.size());
    actual[level.name + ".nav"] = nav.hex();
    actual[level.name + ".answers"] = answersHash(level.graph);
  }
  if (std::getenv("NAVSCOPE_GOLDEN_UPDATE") != nullptr) {
    std::map<std::string, std::string> hashes = readHashes();
    for (const auto& [key, value] : actual)
      hashes[key] = value;
    std::ofstream out(kHashFile);
    out << "# Golden outputs (core/tests/test_golden_outputs.cpp): FNV-1a 64 of each level's\n"
           "# .nav bytes and of its answers to the fixed queries. Rewritten with\n"
           "# NAVSCOPE_GOLDEN_UPDATE=1; a change that alters them says why in its commit.\n";
    for (const auto& [key, value] : hashes)
      out << key << " " << value << "\n";
    GTEST_SKIP() << "rewrote " << kHashFile;
  }
  const std::map<std::string, std::string> expected = readHashes();
  ASSERT_FALSE(expected.empty()) << kHashFile << " is missing or empty";
  std::string changed;
  for (const auto& [key, value] : actual) {
    const auto found = expected.find(key);
    if (found == expected.end() || found->second != value) changed += "  " + key + " " + value + "\n";
  }
  EXPECT_TRUE(changed.empty())
      << "outputs differ from " << kHashFile << " (rerun with NAVSCOPE_GOLDEN_UPDATE=1 if the "
      << "change is meant, and say why in the commit):\n"
      << changed;
}

}  // namespace
}  // namespace nav
