// Writes every cell a fill finds, in index order, to a file, so that a change to
// the fill can be proven to give byte-identical cells (cmp the files), and
// prints the fill's time. One fill per unit profile of the level's sidecar.
//   navscope_fill_cells LEVEL.obj OUT.cells [--recast] [--round] [--threads N]
// --round: every unit round (an upright cylinder).
// --recast: the Recast demo's settings for dungeon.obj (cell 0.3, unit 1.2 wide,
// 2.0 tall, step 0.9, slope 45).
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include "nav/nav_build.h"

namespace {

template <class T>
void writeValue(std::ofstream& out, const T& value) {
  out.write(reinterpret_cast<const char*>(&value), sizeof(T));
}

// Per cell: column x, z, height bits, links, material; then per fall: from,
// to, direction, columns.
void writeCells(std::ofstream& out, const nav::CellGrid& cells) {
  writeValue(out, uint64_t(cells.size()));
  for (uint32_t i = 0; i < cells.size(); ++i) {
    const nav::Cell cell = cells[i];
    writeValue(out, cell.x);
    writeValue(out, cell.z);
    writeValue(out, cell.y);
    writeValue(out, cell.links);
    writeValue(out, cell.material);
  }
  writeValue(out, uint64_t(cells.falls().size()));
  for (const nav::FallLink& fall : cells.falls()) {
    writeValue(out, fall.from);
    writeValue(out, fall.to);
    writeValue(out, fall.direction);
    writeValue(out, fall.columns);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s LEVEL.obj OUT.cells [--recast] [--round] [--threads N]\n",
                 argv[0]);
    return 2;
  }
  bool recast = false;
  bool round = false;
  int threads = 1;
  for (int i = 3; i < argc; ++i) {
    if (std::strcmp(argv[i], "--recast") == 0) {
      recast = true;
    } else if (std::strcmp(argv[i], "--round") == 0) {
      round = true;
    } else if (std::strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
      threads = std::atoi(argv[++i]);
    } else {
      std::fprintf(stderr, "unknown argument: %s\n", argv[i]);
      return 2;
    }
  }
  nav::Result<nav::Level> loaded = nav::loadLevel(argv[1]);
  if (!loaded) {
    std::fprintf(stderr, "%s\n", loaded.error().c_str());
    return 1;
  }
  const nav::Level& level = loaded.value();
  const nav::CollisionWorld world(level);
  std::vector<nav::UnitProfile> units = level.settings.units;
  if (units.empty()) units.push_back(nav::defaultFillParams(level).unit);
  std::ofstream out(argv[2], std::ios::binary);
  for (const nav::UnitProfile& unit : units) {
    nav::FloodFillParams params = nav::fillParamsFor(level, unit);
    params.threads = threads;
    if (round) params.unit.shape = nav::UnitShape::Round;
    if (recast) {
      params.cellSize = 0.3f;
      params.unit.width = 1.2f;
      params.unit.height = 2.0f;
      params.unit.stepHeight = 0.9f;
      params.unit.maxSlopeDegrees = 45.0f;
    }
    const auto begin = std::chrono::steady_clock::now();
    const nav::Result<nav::CellGrid> cells = nav::floodFill(level, world, params);
    const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - begin;
    if (!cells) {
      std::fprintf(stderr, "%s: %s\n", unit.name.c_str(), cells.error().c_str());
      return 1;
    }
    writeCells(out, cells.value());
    std::printf("%s: %zu cells in %.3f s (%.2f M cells/s)\n", unit.name.c_str(),
                cells.value().size(), seconds.count(),
                double(cells.value().size()) / seconds.count() / 1e6);
  }
  return out ? 0 : 1;
}
