// Flood fill, compression and the whole build of generated cities of 1M and
// 10M target cells, with their peak memory, and queries on them. Each city is
// generated to a temp file once and loaded like any level. Peak RSS (VmHWM)
// is reset before each benchmark, so its counter covers that benchmark only
// (on top of the loaded level, rss_before_MB); for whole-process figures run
// one benchmark alone:
//   build/core/navscope_bench_scale --benchmark_filter='Build/target_cells:1000000/threads:2'
//   build/core/navscope_bench_scale --benchmark_filter='cells:10000000'   (minutes)
#include <benchmark/benchmark.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "nav/city_generator.h"
#include "nav/nav_build.h"
#include "nav/path_pipeline.h"

namespace {

// A field of /proc/self/status in bytes ("VmHWM", "VmRSS"); 0 when unreadable.
double statusBytes(const std::string& field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(field + ":", 0) == 0) return std::stod(line.substr(field.size() + 1)) * 1024.0;
  }
  return 0.0;
}

// Linux resets VmHWM to the current RSS when "5" is written to clear_refs.
// Memory an earlier benchmark freed goes back to the system first (glibc keeps
// it otherwise), so the next peak starts from what is really in use.
bool resetPeakRss() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
  clear.close();
  return bool(clear);
}

struct City {
  uint64_t targetCells = 0;
  std::string objPath, jsonPath;
  nav::Level level;
  std::unique_ptr<nav::CollisionWorld> world;
  nav::FloodFillParams params;

  ~City() {
    std::remove(objPath.c_str());
    std::remove(jsonPath.c_str());
  }
};

// The city for this target, generated and loaded on first use; only one is kept
// so that a previous city's memory does not count against the next.
const City* cityFor(uint64_t targetCells, std::string& error) {
  static std::unique_ptr<City> city;
  if (city && city->targetCells == targetCells) return city.get();
  city.reset();
  auto made = std::make_unique<City>();
  made->targetCells = targetCells;
  const std::string stem = (std::filesystem::temp_directory_path() /
                            ("navscope_bench_city_" + std::to_string(targetCells)))
                               .string();
  made->objPath = stem + ".obj";
  made->jsonPath = stem + ".json";
  nav::CityParams params;
  params.targetCells = targetCells;
  {
    std::ofstream obj(made->objPath, std::ios::binary);
    const nav::Result<nav::CityInfo> info = nav::generateCity(params, obj);
    if (!info) {
      error = info.error();
      return nullptr;
    }
    std::ofstream json(made->jsonPath, std::ios::binary);
    json << info.value().sidecarJson;
  }
  nav::Result<nav::Level> level = nav::loadLevel(made->objPath);
  if (!level) {
    error = level.error();
    return nullptr;
  }
  made->level = std::move(level).value();
  made->world = std::make_unique<nav::CollisionWorld>(made->level);
  made->params = nav::defaultFillParams(made->level);
  city = std::move(made);
  return city.get();
}

// Sets up the city and resets the peak; false (and the benchmark skipped) on failure.
const City* prepare(benchmark::State& state) {
  std::string error;
  const City* city = cityFor(uint64_t(state.range(0)), error);
  if (!city) {
    state.SkipWithError(error.c_str());
    return nullptr;
  }
  if (!resetPeakRss()) state.SetLabel("peak RSS not reset: includes earlier benchmarks");
  state.counters["rss_before_MB"] = statusBytes("VmRSS") / 1e6;
  state.counters["triangles"] = double(city->level.triangles.size());
  return city;
}

void reportCells(benchmark::State& state, size_t cells) {
  state.counters["cells"] = double(cells);
  state.counters["cells_per_s"] =
      benchmark::Counter(double(cells), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["peak_rss_MB"] = statusBytes("VmHWM") / 1e6;
}

void BM_CityFill(benchmark::State& state) {
  const City* city = prepare(state);
  if (!city) return;
  size_t cells = 0;
  for (auto _ : state) {
    nav::Result<nav::CellGrid> grid = nav::floodFill(city->level, *city->world, city->params);
    if (!grid) {
      state.SkipWithError(grid.error().c_str());
      return;
    }
    cells = grid.value().size();
  }
  reportCells(state, cells);
}

// The fill runs once before timing; the peak covers it too.
void BM_CityCompress(benchmark::State& state) {
  const City* city = prepare(state);
  if (!city) return;
  nav::Result<nav::CellGrid> grid = nav::floodFill(city->level, *city->world, city->params);
  if (!grid) {
    state.SkipWithError(grid.error().c_str());
    return;
  }
  // The machine's noise is tens of per cent from run to run: the best
  // iteration is what the 10M / 1M ratio compares.
  double best = std::numeric_limits<double>::infinity();
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(
        nav::compressCells(grid.value(), nav::compressParamsFor(city->level, city->params)));
    best = std::min(
        best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  reportCells(state, grid.value().size());
  state.counters["best_s"] = best;
}

// The second argument is the fill's thread count.
void BM_CityBuild(benchmark::State& state) {
  const City* city = prepare(state);
  if (!city) return;
  nav::FloodFillParams params = city->params;
  params.threads = int(state.range(1));
  nav::BuildStats stats;
  for (auto _ : state) {
    nav::Result<nav::NavBuild> build = nav::buildNavigation(city->level, *city->world, params);
    if (!build) {
      state.SkipWithError(build.error().c_str());
      return;
    }
    stats = build.value().stats;
  }
  reportCells(state, stats.cells);
  state.counters["fill_ms"] = stats.floodFillMs;
  state.counters["compress_ms"] = stats.compressMs;
  state.counters["sectors"] = double(stats.sectors);
}

// Locate + A* + funnel (planPath, the default search) between 1,000 seeded
// random pairs of cell centres of the city built on two threads: each
// query's best of 3 runs, their median and 90th percentile in microseconds.
void BM_CityQuery(benchmark::State& state) {
  constexpr size_t kPairs = 1000;
  constexpr int kRuns = 3;
  const City* city = prepare(state);
  if (!city) return;
  nav::FloodFillParams params = city->params;
  params.threads = 2;
  nav::BuildOptions options;
  options.keepCells = true;
  nav::Result<nav::NavBuild> build =
      nav::buildNavigation(city->level, *city->world, params, options);
  if (!build) {
    state.SkipWithError(build.error().c_str());
    return;
  }
  const nav::NavGraph& graph = build.value().graph;
  const nav::CellGrid& cells = *build.value().cells;
  std::mt19937 random(42);
  std::uniform_int_distribution<uint32_t> pick(0, uint32_t(cells.size() - 1));
  std::vector<std::pair<glm::vec3, glm::vec3>> pairs(kPairs);
  for (auto& [from, to] : pairs) {
    from = cells.center(pick(random)) + glm::vec3(0, 0.05f, 0);
    to = cells.center(pick(random)) + glm::vec3(0, 0.05f, 0);
  }
  std::vector<double> best(kPairs);
  double expansions = 0.0;
  size_t found = 0;
  nav::PathAnswer answer;
  for (auto _ : state) {
    expansions = 0.0;
    found = 0;
    for (size_t i = 0; i < kPairs; ++i) {
      best[i] = std::numeric_limits<double>::infinity();
      for (int run = 0; run < kRuns; ++run) {
        const auto start = std::chrono::steady_clock::now();
        nav::planPath(graph, pairs[i].first, pairs[i].second, {}, {}, answer);
        best[i] = std::min(best[i], std::chrono::duration<double, std::micro>(
                                        std::chrono::steady_clock::now() - start)
                                        .count());
      }
      expansions += answer.search.expansions;
      if (answer.search.status == nav::PathStatus::Found) ++found;
    }
  }
  std::sort(best.begin(), best.end());
  state.counters["median_us"] = best[kPairs / 2];
  state.counters["p90_us"] = best[kPairs * 9 / 10];
  state.counters["expansions"] = expansions / double(kPairs);
  state.counters["found_fraction"] = double(found) / double(kPairs);
  state.counters["sectors"] = double(graph.sectors.size());
}

// Iterations are fixed: a 10M build takes tens of seconds. Compression runs
// seven times at both sizes (the first on fresh pages, the others on pages
// freed before), so that the 10M / 1M ratio compares like with like.
void cityArgs(benchmark::internal::Benchmark* b) {
  b->ArgName("target_cells")->Unit(benchmark::kSecond)->UseRealTime();
}
void cityThreadArgs(benchmark::internal::Benchmark* b) {
  b->ArgNames({"target_cells", "threads"})->Unit(benchmark::kSecond)->UseRealTime();
}
BENCHMARK(BM_CityFill)->Apply(cityArgs)->Arg(1'000'000)->Iterations(3);
BENCHMARK(BM_CityCompress)->Apply(cityArgs)->Arg(1'000'000)->Iterations(7);
BENCHMARK(BM_CityBuild)->Apply(cityThreadArgs)->Args({1'000'000, 1})->Iterations(3);
BENCHMARK(BM_CityBuild)->Apply(cityThreadArgs)->Args({1'000'000, 2})->Iterations(3);
BENCHMARK(BM_CityFill)->Apply(cityArgs)->Arg(10'000'000)->Iterations(1);
BENCHMARK(BM_CityCompress)->Apply(cityArgs)->Arg(10'000'000)->Iterations(7);
BENCHMARK(BM_CityBuild)->Apply(cityThreadArgs)->Args({10'000'000, 1})->Iterations(1);
BENCHMARK(BM_CityBuild)->Apply(cityThreadArgs)->Args({10'000'000, 2})->Iterations(1);
BENCHMARK(BM_CityQuery)->Apply(cityArgs)->Arg(1'000'000)->Iterations(1);
BENCHMARK(BM_CityQuery)->Apply(cityArgs)->Arg(10'000'000)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
