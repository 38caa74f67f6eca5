// Build and query timings on the bundled levels and, when present, the Recast
// demo's dungeon.obj. Run: build/core/navscope_bench [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <numeric>
#include <optional>
#include <random>
#include <string>

#include "bench_levels.h"
#include "nav/funnel.h"
#include "nav/locate.h"
#include "nav/nav_build.h"
#include "nav/navmesh_graph.h"
#include "nav/path_manager.h"
#include "nav/path_pipeline.h"

namespace {

struct LoadedLevel {
  nav::Level level;
  std::unique_ptr<nav::CollisionWorld> world;
  nav::FloodFillParams params;
};

// The level file at `path`, or the generated terrain of `terrainSeed` turned
// `degrees` about the vertical axis; nullptr when the file is absent
// (../shared is optional).
const LoadedLevel* loadOnce(const std::string& path, bool recastSettings,
                            uint32_t terrainSeed = 0, float degrees = 0.0f) {
  static std::map<std::string, std::unique_ptr<LoadedLevel>> cache;
  const std::string key =
      terrainSeed != 0 ? "terrain " + std::to_string(terrainSeed) + " " + std::to_string(degrees)
                       : path;
  auto found = cache.find(key);
  if (found != cache.end()) return found->second.get();
  std::unique_ptr<LoadedLevel> loaded;
  if (terrainSeed != 0 || std::filesystem::exists(path)) {
    nav::Result<nav::Level> level = nav::bench::benchLevel(key, path, terrainSeed, degrees);
    if (level) {
      loaded = std::make_unique<LoadedLevel>();
      loaded->level = std::move(level).value();
      loaded->world = std::make_unique<nav::CollisionWorld>(loaded->level);
      loaded->params = nav::defaultFillParams(loaded->level);
      if (recastSettings) {
        loaded->params.cellSize = 0.3f;
        loaded->params.unit.width = 1.2f;
        loaded->params.unit.height = 2.0f;
        loaded->params.unit.stepHeight = 0.9f;
        loaded->params.unit.maxSlopeDegrees = 45.0f;
      }
    }
  }
  return (cache[key] = std::move(loaded)).get();
}

const LoadedLevel* levelFor(int index) {
  switch (index) {
    case 0:
      return loadOnce(NAVSCOPE_ASSETS_DIR "/showcase.obj", false);
    case 1:
      return loadOnce(NAVSCOPE_ASSETS_DIR "/funnel.obj", false);
    case 4:
      return loadOnce("", true, 1);
    case 5:
      return loadOnce("", true, 1, 17.0f);
    default:
      return loadOnce(NAVSCOPE_SHARED_DIR "/meshes/dungeon.obj", true);
  }
}

// Times `stage` (which returns the cells it found) on the level the argument
// names, and reports the cells found per second.
template <class Stage>
void cellsPerSecond(benchmark::State& state, Stage&& stage) {
  const LoadedLevel* level = levelFor(int(state.range(0)));
  if (!level) {
    state.SkipWithError("level file absent");
    return;
  }
  size_t cells = 0;
  for (auto _ : state)
    cells = stage(*level);
  state.counters["cells"] = double(cells);
  state.counters["cells_per_s"] =
      benchmark::Counter(double(cells), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_Build(benchmark::State& state) {
  cellsPerSecond(state, [](const LoadedLevel& level) {
    nav::Result<nav::NavBuild> build =
        nav::buildNavigation(level.level, *level.world, level.params);
    benchmark::DoNotOptimize(build);
    return build.value().stats.cells;
  });
}
BENCHMARK(BM_Build)->Arg(0)->Arg(1)->Arg(2)->ArgNames({"level"})->Unit(benchmark::kMillisecond);

// The flood fill alone, one thread: the cells it finds per second.
void BM_Fill(benchmark::State& state) {
  cellsPerSecond(state, [](const LoadedLevel& level) {
    nav::Result<nav::CellGrid> grid = nav::floodFill(level.level, *level.world, level.params);
    benchmark::DoNotOptimize(grid);
    return grid.value().size();
  });
}
BENCHMARK(BM_Fill)->Arg(0)->Arg(1)->Arg(2)->ArgNames({"level"})->Unit(benchmark::kMillisecond);

// A level's build and `count` seeded random pairs of its cell centres.
struct QueryWork {
  nav::NavBuild build;
  std::vector<std::pair<glm::vec3, glm::vec3>> pairs;
};

QueryWork queryWork(const LoadedLevel& level, size_t count) {
  nav::BuildOptions options;
  options.keepCells = true;
  QueryWork work{nav::buildNavigation(level.level, *level.world, level.params, options).value(),
                 {}};
  const nav::CellGrid& cells = *work.build.cells;
  std::mt19937 random(42);
  std::uniform_int_distribution<uint32_t> pick(0, uint32_t(cells.size() - 1));
  work.pairs.resize(count);
  for (auto& [from, to] : work.pairs) {
    from = cells.center(pick(random)) + glm::vec3(0, 0.05f, 0);
    to = cells.center(pick(random)) + glm::vec3(0, 0.05f, 0);
  }
  return work;
}

// Locate + A* + funnel between random cell centres.
void BM_Query(benchmark::State& state) {
  const LoadedLevel* level = levelFor(int(state.range(0)));
  if (!level) {
    state.SkipWithError("level file absent");
    return;
  }
  const QueryWork work = queryWork(*level, 256);
  const nav::NavBuild& build = work.build;
  const auto& pairs = work.pairs;
  size_t i = 0, found = 0;
  nav::PathAnswer answer;
  for (auto _ : state) {
    const auto& [from, to] = pairs[i++ % pairs.size()];
    nav::planPath(build.graph, from, to, {}, {}, answer);
    if (answer.search.status == nav::PathStatus::Found) ++found;
    benchmark::DoNotOptimize(answer.funnel.length);
  }
  state.counters["found_fraction"] = double(found) / double(std::max<size_t>(i, 1));
}
BENCHMARK(BM_Query)->Arg(0)->Arg(2)->ArgNames({"level"})->Unit(benchmark::kMicrosecond);

// A navigation mesh whose faces crowd one corner: 80,000 triangles of 5 cm
// in a 10 m square beside one quad of a square kilometre. A uniform grid over
// the faces' boxes puts thousands of them in each of its cells there.
const nav::NavGraph& crowdedCornerMesh() {
  static const nav::NavGraph graph = [] {
    std::string obj;
    constexpr int kSide = 200;
    constexpr float kStep = 10.0f / float(kSide);
    for (int j = 0; j <= kSide; ++j) {
      for (int i = 0; i <= kSide; ++i)
        obj += "v " + std::to_string(-10.0f + float(i) * kStep) + " 0 " +
               std::to_string(-10.0f + float(j) * kStep) + "\n";
    }
    const auto vertex = [](int i, int j) { return std::to_string(j * (kSide + 1) + i + 1); };
    for (int j = 0; j < kSide; ++j) {
      for (int i = 0; i < kSide; ++i) {
        obj += "f " + vertex(i, j) + " " + vertex(i, j + 1) + " " + vertex(i + 1, j + 1) + "\n";
        obj += "f " + vertex(i, j) + " " + vertex(i + 1, j + 1) + " " + vertex(i + 1, j) + "\n";
      }
    }
    const int first = (kSide + 1) * (kSide + 1) + 1;
    obj += "v 0 0 -10\nv 0 0 990\nv 1000 0 990\nv 1000 0 -10\n";
    obj += "f " + std::to_string(first) + " " + std::to_string(first + 1) + " " +
           std::to_string(first + 2) + " " + std::to_string(first + 3) + "\n";
    const nav::Level level = nav::parseObj(obj, "crowded corner").value();
    return nav::buildNavMeshGraph(level, nav::navMeshParamsFor(level)).value().graph;
  }();
  return graph;
}

// locateSector at seeded random points over a graph's sectors: the flood
// filled graphs of the showcase (0), dungeon.obj (2) and generated terrain
// (4; 5 turned 17 degrees), and a navigation mesh crowded into one corner
// (3), located where its faces crowd.
void BM_Locate(benchmark::State& state) {
  const int index = int(state.range(0));
  std::optional<nav::NavBuild> built;
  if (index != 3) {
    const LoadedLevel* level = levelFor(index);
    if (!level) {
      state.SkipWithError("level file absent");
      return;
    }
    built = nav::buildNavigation(level->level, *level->world, level->params).value();
  }
  const nav::NavGraph& graph = built ? built->graph : crowdedCornerMesh();
  std::mt19937 random(7);
  std::vector<glm::vec3> points(1024);
  for (glm::vec3& point : points) {
    const nav::Sector* sector = nullptr;
    do {
      sector = &graph.sectors[random() % graph.sectors.size()];
    } while (sector->kind != nav::SectorKind::Ground ||
             (index == 3 && sector->bounds.max.x > 0.0f));
    const glm::vec3 centre = sector->bounds.center();
    point = {centre.x, graph.heightAt(*sector, centre.x, centre.z) + 0.05f, centre.z};
  }
  size_t i = 0, found = 0;
  for (auto _ : state) {
    const nav::Location at = nav::locateSector(graph, points[i++ % points.size()]);
    found += at.sector != nav::kNoSector ? 1 : 0;
    benchmark::DoNotOptimize(at);
  }
  state.counters["found_fraction"] = double(found) / double(std::max<size_t>(i, 1));
}
BENCHMARK(BM_Locate)->Arg(0)->Arg(2)->Arg(4)->Arg(5)->Arg(3)->ArgNames({"level"})->Unit(benchmark::kNanosecond);

// A crowd: `agents` requests between random cell centres, solved through a
// PathManager spending `budget` iterations per frame (results taken as they
// come). Time is for the whole crowd.
void BM_ManagedAgents(benchmark::State& state) {
  const LoadedLevel* level = levelFor(int(state.range(0)));
  if (!level) {
    state.SkipWithError("level file absent");
    return;
  }
  const QueryWork work = queryWork(*level, size_t(state.range(1)));
  const nav::NavBuild& build = work.build;
  const auto& agents = work.pairs;
  const uint32_t budget = uint32_t(state.range(2));
  size_t frames = 0;
  std::vector<double> frameUs;
  // One manager for every run, as a game keeps one: its solvers' arrays are reused.
  nav::PathManager manager(build.graph);
  for (auto _ : state) {
    for (const auto& [from, to] : agents) {
      manager.request(from, to);
    }
    for (frames = 0; manager.pending() > 0; ++frames) {
      const auto begin = std::chrono::steady_clock::now();
      for (nav::PathTicket ticket : manager.update(budget)) {
        benchmark::DoNotOptimize(manager.takeResult(ticket));
      }
      const std::chrono::duration<double, std::micro> spent =
          std::chrono::steady_clock::now() - begin;
      frameUs.push_back(spent.count());
    }
  }
  state.counters["frames"] = double(frames);
  const double totalUs = std::accumulate(frameUs.begin(), frameUs.end(), 0.0);
  state.counters["us_per_frame"] = totalUs / double(std::max<size_t>(frameUs.size(), 1));
  // The slow tail a frame budget must allow for (a busy machine's preemptions
  // make the maximum meaningless).
  const auto p99 = frameUs.begin() + ptrdiff_t(frameUs.size() * 99 / 100);
  std::nth_element(frameUs.begin(), p99, frameUs.end());
  state.counters["p99_frame_us"] = frameUs.empty() ? 0.0 : *p99;
}
BENCHMARK(BM_ManagedAgents)
    ->Args({0, 200, 256})
    ->Args({2, 200, 256})
    ->Args({2, 1000, 1024})
    ->ArgNames({"level", "agents", "budget"})
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
