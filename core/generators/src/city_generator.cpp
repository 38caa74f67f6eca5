// Procedural city generator.
//
// Layout (x east, z south, y up; "north" is -z): blocksX x blocksZ square blocks
// of side B at a pitch of B plus a road, a road strip round every block, and a
// low wall round the whole city. A block is a building lot (one building with
// sidewalk all round it) or a plaza (sidewalk ring, grass, trees, a pond).
// Sidewalks and grass are 0.15 m curbs: below the unit's step, so it crosses
// anywhere.
//
// Buildings follow assets/make_levels.py: closed boxes, 0.3 m walls, floors 3 m
// apart with 0.2 m slabs (2.8 m clear), flights of 14 steps (rise 0.2, tread
// 0.35) whose arrival slab is the 15th riser. The slab above a flight has a
// hole over all of it (headroom), walled on both sides and railed at its far
// end. Flight k (floor k-1 to k) has its own band, side by side from the
// north-west, so no hole lies over the next flight; a unit walks round the
// stairwell from one flight's top to the next one's foot.
//
// The sidecar's devices and waypaths add no geometry: elevators are landing
// zones in the south-east corner of a tall building's interior (ground and top
// floor), the locked back door joins a zone on the sidewalk to one inside a
// side wall that has no door, and each street lane is a waypath through the
// crossings' centres. Their number grows with the streets only (at most 16
// elevators), so the sidecar stays small next to the mesh.
//
// Sizing: every block is planned from its own random stream (seed, i, j) before
// any geometry is written, so the area where the unit's centre can stand is
// known for a candidate city; the estimate is that area / cellSize^2. The block
// side and the grid are chosen to land the estimate on the target.
#include "nav/city_generator.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <span>
#include <string_view>

#include "seeded_random.h"

namespace nav {
namespace {

// Dimensions [metres]. The default human (0.6 x 1.8 m, step 0.45) fits
// everywhere with room to spare: doors 1.8 wide, corridors >= 1.5, 2.8 m clear.
constexpr double kRoadWidth = 8.0;
constexpr double kCurb = 0.15;
constexpr double kStorey = 3.0;
constexpr double kSlab = 0.2;
constexpr double kWall = 0.3;
constexpr double kDoorWidth = 1.8, kDoorHeight = 2.4;
constexpr double kRise = 0.2, kTread = 0.35;
constexpr int kSteps = 14;
constexpr double kFlightWidth = 1.6;
constexpr double kBandPitch = kFlightWidth + 2 * kWall;
// From the interior's west wall to the first flight, and from its north wall to the flights' tops.
constexpr double kStairsWest = 2.0, kStairsNorth = 3.0;
constexpr double kHoleBeyondFoot = 0.5;
// Free floor the stairwell leaves east and south of itself.
constexpr double kStairsEastRoom = 1.5, kStairsSouthRoom = 2.0;
constexpr double kRailHeight = 1.0, kRail = 0.15;
constexpr double kBridgeWidth = 2.4;
constexpr double kBridgeClear = kBridgeWidth - 2 * kRail;
constexpr double kBridgeOpeningHeight = 2.4;
constexpr double kBoundaryHeight = 1.2;
constexpr double kMinInset = 2.5;
constexpr double kPlazaSidewalk = 3.0;
constexpr double kTree = 0.5, kTreeHeight = 4.0;
constexpr double kSeedHeight = 0.05;
// Lanes run this far right of a road's centre line: a car built as a 4.57 m
// square (the diagonal of 1.8 x 4.2 m) keeps its centre within 1.71 m of the
// middle of the 8 m road, clear of the curbs.
constexpr double kLaneOffset = 1.5;
// Devices: elevator landings and back-door zones are squares of this side.
constexpr double kZone = 1.6;
constexpr uint32_t kMaxElevators = 16;
// Positions snap to this, so the OBJ holds short numbers.
constexpr double kSnap = 0.05;

constexpr int kMaxFloors = 4;
constexpr double kPlazaChance = 0.15, kBridgeChance = 0.4;
// Block sides tried when sizing; among estimates within kClose of the target the
// side nearest kPreferredBlock wins: room for stairs in most buildings, and
// enough blocks in a small city for bridges between them.
constexpr double kMinBlock = 16.0, kBlockStep = 0.5, kPreferredBlock = 24.0;
constexpr int kBlockSizes = 41;
constexpr double kClose = 0.02;
constexpr uint64_t kMaxBlocks = uint64_t(1) << 20;
constexpr uint64_t kMaxTargetCells = 10'000'000'000ull;

constexpr std::string_view kRoad = "road", kSidewalk = "sidewalk", kFloor = "floor",
                           kStairs = "stairs", kWallMaterial = "wall", kRoof = "roof",
                           kBridge = "bridge", kRailing = "railing", kGrass = "grass",
                           kWater = "water", kTreeMaterial = "tree";

const double kNone = std::numeric_limits<double>::quiet_NaN();

double square(double v) {
  return v * v;
}
double positive(double v) {
  return std::max(v, 0.0);
}

// ---------------------------------------------------------------------------
// Random numbers (seeded_random.h) in multiples of kSnap.
// ---------------------------------------------------------------------------

class Random : public SeededRandom {
 public:
  using SeededRandom::SeededRandom;
  /// A multiple of kSnap in [lo, hi]; NaN when there is none.
  double snapped(double lo, double hi) {
    const double first = std::ceil(lo / kSnap - 1e-9) * kSnap;
    const double steps = std::floor((hi - first) / kSnap + 1e-9);
    if (steps < 0) return kNone;
    return first + kSnap * range(0, int(steps));
  }
};

// ---------------------------------------------------------------------------
// Plan: what each block holds, before any geometry.
// ---------------------------------------------------------------------------

enum Side { kNorth, kSouth, kWest, kEast, kSideCount };

struct BuildingPlan {
  /// Outer footprint.
  double x0, z0, x1, z1;
  int floors;
  /// Centre along the wall of the ground-floor door on each side, NaN when none.
  std::array<double, kSideCount> door;
  /// Centre along the wall of a bridge's opening on floor 1, NaN when none.
  std::array<double, kSideCount> bridge;

  double innerX0() const { return x0 + kWall; }
  double innerX1() const { return x1 - kWall; }
  double innerZ0() const { return z0 + kWall; }
  double innerZ1() const { return z1 - kWall; }
  /// Where the flights arrive (north end) and start (south end).
  double topZ() const { return innerZ0() + kStairsNorth; }
  double footZ() const { return topZ() + kSteps * kTread; }
  double holeEndZ() const { return footZ() + kHoleBeyondFoot; }
  /// South end of the stairwell, railing included.
  double stairsEndZ() const { return holeEndZ() + kRail; }
  /// West edge of flight k's steps (k >= 1).
  double bandX(int flight) const { return innerX0() + kStairsWest + (flight - 1) * kBandPitch; }
};

struct PlazaPlan {
  double pondX0, pondZ0, pondX1, pondZ1;
  int trees;
  std::array<double, 8> treeX, treeZ;
};

struct BlockPlan {
  /// North-west corner (the sidewalk's outer edge).
  double x0, z0;
  bool plaza;
  BuildingPlan building;
  PlazaPlan park;
};

struct BridgePlan {
  /// Block indices; `to` lies east of `from` when alongX, else south of it.
  uint32_t from, to;
  bool alongX;
  /// Deck centre across its length (z when alongX, else x).
  double centre;
};

struct CityPlan {
  uint32_t blocksX = 0, blocksZ = 0;
  double blockSize = 0.0;
  /// Row-major: block (i, j) is blocks[j * blocksX + i].
  std::vector<BlockPlan> blocks;
  std::vector<BridgePlan> bridges;

  double pitch() const { return blockSize + kRoadWidth; }
  double sizeX() const { return kRoadWidth + blocksX * pitch(); }
  double sizeZ() const { return kRoadWidth + blocksZ * pitch(); }
};

// Floors whose stairwell fits with free floor east and south of it.
int floorsThatFit(const BuildingPlan& b) {
  if (b.stairsEndZ() > b.innerZ1() - kStairsSouthRoom) return 1;
  int floors = 1;
  while (floors < kMaxFloors &&
         b.bandX(floors) + kFlightWidth + kWall <= b.innerX1() - kStairsEastRoom) {
    ++floors;
  }
  return floors;
}

BuildingPlan planBuilding(Random& random, double x0, double z0, double size) {
  const double maxInset = kMinInset + 0.12 * size;
  BuildingPlan b;
  b.z0 = z0 + random.snapped(kMinInset, maxInset);
  b.z1 = z0 + size - random.snapped(kMinInset, maxInset);
  b.x0 = x0 + random.snapped(kMinInset, maxInset);
  b.x1 = x0 + size - random.snapped(kMinInset, maxInset);
  b.floors = std::min(random.range(1, kMaxFloors), floorsThatFit(b));
  b.bridge.fill(kNone);
  // North and south doors anywhere along the wall; west and east ones (half of
  // the buildings) south of the stairwell, clear of the corridor beside it.
  const double margin = 1.0 + kDoorWidth / 2;
  b.door[kNorth] = random.snapped(b.innerX0() + margin, b.innerX1() - margin);
  b.door[kSouth] = random.snapped(b.innerX0() + margin, b.innerX1() - margin);
  const double sideFrom = b.floors > 1 ? b.stairsEndZ() + 0.5 : b.innerZ0();
  for (Side side : {kWest, kEast}) {
    b.door[side] =
        random.chance(0.5) ? random.snapped(sideFrom + margin, b.innerZ1() - margin) : kNone;
  }
  return b;
}

PlazaPlan planPlaza(Random& random, double x0, double z0, double size) {
  PlazaPlan p;
  const double inner = size - 2 * kPlazaSidewalk;
  const double pond = std::round(inner * random.uniform(0.3, 0.5) / kSnap) * kSnap;
  const double centreX = x0 + size / 2, centreZ = z0 + size / 2;
  p.pondX0 = centreX - pond / 2;
  p.pondX1 = centreX + pond / 2;
  p.pondZ0 = centreZ - pond / 2;
  p.pondZ1 = centreZ + pond / 2;
  // Trees along the middle of the grass ring: its corners and mid-sides.
  p.trees = 0;
  const double ring = (inner - pond) / 2;
  if (ring < 2.0) return p;
  const double near = kPlazaSidewalk + ring / 2;
  const double offsets[3] = {near, size / 2, size - near};
  for (int a = 0; a < 3; ++a) {
    for (int c = 0; c < 3; ++c) {
      if ((a == 1 && c == 1) || !random.chance(0.75)) continue;
      p.treeX[p.trees] = x0 + std::round(offsets[a] / kSnap) * kSnap;
      p.treeZ[p.trees] = z0 + std::round(offsets[c] / kSnap) * kSnap;
      ++p.trees;
    }
  }
  return p;
}

void planBridges(uint32_t seed, CityPlan& plan) {
  const auto tall = [&](uint32_t index) {
    const BlockPlan& block = plan.blocks[index];
    return !block.plaza && block.building.floors >= 2;
  };
  // Deck centres keep half a deck plus 0.5 m from any wall and from the stairwell.
  // The first pair that can have a bridge gets one, so every city shows one.
  const double margin = kBridgeWidth / 2 + 0.5;
  const auto wanted = [&](Random& random) {
    return plan.bridges.empty() || random.chance(kBridgeChance);
  };
  for (uint32_t j = 0; j < plan.blocksZ; ++j) {
    for (uint32_t i = 0; i < plan.blocksX; ++i) {
      const uint32_t from = j * plan.blocksX + i;
      if (!tall(from)) continue;
      BuildingPlan& a = plan.blocks[from].building;
      if (i + 1 < plan.blocksX && tall(from + 1)) {
        Random random(seed, 1, i, j);
        BuildingPlan& b = plan.blocks[from + 1].building;
        const double centre =
            wanted(random) ? random.snapped(std::max(a.stairsEndZ(), b.stairsEndZ()) + margin,
                                            std::min(a.innerZ1(), b.innerZ1()) - margin)
                           : kNone;
        if (!std::isnan(centre)) {
          a.bridge[kEast] = b.bridge[kWest] = centre;
          plan.bridges.push_back({from, from + 1, true, centre});
        }
      }
      if (j + 1 < plan.blocksZ && tall(from + plan.blocksX)) {
        Random random(seed, 2, i, j);
        BuildingPlan& b = plan.blocks[from + plan.blocksX].building;
        const double centre = wanted(random)
                                  ? random.snapped(std::max(a.innerX0(), b.innerX0()) + margin,
                                                   std::min(a.innerX1(), b.innerX1()) - margin)
                                  : kNone;
        if (!std::isnan(centre)) {
          a.bridge[kSouth] = b.bridge[kNorth] = centre;
          plan.bridges.push_back({from, from + plan.blocksX, false, centre});
        }
      }
    }
  }
}

CityPlan planCity(uint32_t seed, uint32_t blocksX, uint32_t blocksZ, double blockSize) {
  CityPlan plan;
  plan.blocksX = blocksX;
  plan.blocksZ = blocksZ;
  plan.blockSize = blockSize;
  plan.blocks.reserve(size_t(blocksX) * blocksZ);
  for (uint32_t j = 0; j < blocksZ; ++j) {
    for (uint32_t i = 0; i < blocksX; ++i) {
      Random random(seed, 0, i, j);
      BlockPlan block{};
      block.x0 = kRoadWidth + i * plan.pitch();
      block.z0 = kRoadWidth + j * plan.pitch();
      // Plazas never touch each other, so even a small city is mostly buildings.
      const bool plazaWest = i > 0 && plan.blocks.back().plaza;
      const bool plazaNorth = j > 0 && plan.blocks[(j - 1) * blocksX + i].plaza;
      block.plaza = random.chance(kPlazaChance) && !plazaWest && !plazaNorth;
      if (block.plaza) {
        block.park = planPlaza(random, block.x0, block.z0, blockSize);
      } else {
        block.building = planBuilding(random, block.x0, block.z0, blockSize);
      }
      plan.blocks.push_back(block);
    }
  }
  planBridges(seed, plan);
  return plan;
}

// ---------------------------------------------------------------------------
// Estimate: the area where the unit's centre can stand, floor by floor. The
// unit keeps half its width (h) from walls; curbs, stairs and drops do not stop
// it. Stair columns count once, on the floor the flight starts from.
// ---------------------------------------------------------------------------

// Stairwell area at floor k closed to a unit on that floor: the hole it came up
// through (flight k) and the walls of the flight leaving it (k + 1).
double stairwellArea(const BuildingPlan& b, int k, double h) {
  const int lowest = k >= 1 ? k : k + 1;
  const int highest = k + 1 <= b.floors - 1 ? k + 1 : k;
  if (lowest > highest) return 0.0;
  const double width =
      (b.bandX(highest) + kFlightWidth + kWall) - (b.bandX(lowest) - kWall) + 2 * h;
  return width * (b.stairsEndZ() - b.topZ() + 2 * h);
}

double flightArea(const BuildingPlan& b, double h) {
  return positive(kFlightWidth - 2 * h) * (b.stairsEndZ() - b.topZ() + 2 * h);
}

double walkableArea(const CityPlan& plan, double h) {
  double area = positive(plan.sizeX() - 2 * h) * positive(plan.sizeZ() - 2 * h);
  for (const BlockPlan& block : plan.blocks) {
    if (block.plaza) {
      area -= block.park.trees * square(kTree + 2 * h);
      continue;
    }
    const BuildingPlan& b = block.building;
    area -= (b.x1 - b.x0 + 2 * h) * (b.z1 - b.z0 + 2 * h);
    for (double door : b.door) {
      if (!std::isnan(door)) area += positive(kDoorWidth - 2 * h) * (kWall + 2 * h);
    }
    const double floorArea =
        positive(b.innerX1() - b.innerX0() - 2 * h) * positive(b.innerZ1() - b.innerZ0() - 2 * h);
    for (int k = 0; k < b.floors; ++k) {
      area += floorArea - stairwellArea(b, k, h);
      if (k + 1 < b.floors) area += flightArea(b, h);
    }
  }
  for (const BridgePlan& bridge : plan.bridges) {
    const BuildingPlan& a = plan.blocks[bridge.from].building;
    const BuildingPlan& b = plan.blocks[bridge.to].building;
    const double gap = bridge.alongX ? b.x0 - a.x1 : b.z0 - a.z1;
    area += positive(kBridgeClear - 2 * h) * (gap + 2 * kWall + 2 * h);
  }
  return area;
}

struct SizedPlan {
  CityPlan plan;
  uint64_t estimatedCells = 0;
};

// Tries every block side with square-ish grids around the size the target asks
// for and keeps the estimate closest to the target (within kClose, the side
// nearest kPreferredBlock). Fails when even the smallest grid needs too many blocks.
Result<SizedPlan> sizeCity(const CityParams& params) {
  const double h = std::max(0.0, double(params.unit.width) / 2);
  const double cellArea = square(params.cellSize);
  const double target = double(params.targetCells);
  SizedPlan best;
  std::array<double, 3> bestKey{std::numeric_limits<double>::max(), 0.0, 0.0};
  // Plans and estimates a grid, keeping it when it is the best so far.
  const auto consider = [&](uint64_t blocksX, uint64_t blocksZ, double size) {
    CityPlan plan = planCity(params.seed, uint32_t(blocksX), uint32_t(blocksZ), size);
    const double estimate = walkableArea(plan, h) / cellArea;
    const double error = std::abs(estimate - target) / target;
    const std::array<double, 3> key{std::max(error, kClose), std::abs(size - kPreferredBlock),
                                    error};
    if (key < bestKey) {
      bestKey = key;
      best.plan = std::move(plan);
      best.estimatedCells = uint64_t(std::llround(estimate));
    }
    return estimate;
  };
  for (int s = 0; s < kBlockSizes; ++s) {
    const double size = kMinBlock + s * kBlockStep;
    // A rough cells-per-block figure gives a first grid; its real estimate per
    // block gives the side the target needs.
    const double nominal = (square(size + kRoadWidth) + 1.5 * square(0.7 * size)) / cellArea;
    uint64_t side = std::max<uint64_t>(1, uint64_t(std::sqrt(target / nominal)));
    if (side * side > kMaxBlocks) continue;
    const double perBlock = consider(side, side, size) / double(side * side);
    side = std::max<uint64_t>(1, uint64_t(std::sqrt(target / perBlock)));
    const uint64_t grids[3][2] = {{side, side}, {side + 1, side}, {side + 1, side + 1}};
    for (const auto& grid : grids) {
      if (grid[0] * grid[1] <= kMaxBlocks) consider(grid[0], grid[1], size);
    }
  }
  if (best.plan.blocks.empty()) {
    return Result<SizedPlan>::failure(
        "city generator: targetCells = " + std::to_string(params.targetCells) +
        " needs more than " + std::to_string(kMaxBlocks) + " blocks at cellSize = " +
        std::to_string(params.cellSize) + "; lower it or raise the cell size");
  }
  return Result<SizedPlan>::success(std::move(best));
}

// ---------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------

/// Fixed-point text with trailing zeros dropped ("3.15", "12", "0").
void appendNumber(std::string& out, double value, int decimals) {
  char text[64];
  const auto [end, error] =
      std::to_chars(text, text + sizeof text, value, std::chars_format::fixed, decimals);
  if (error != std::errc()) {
    out += "0";
    return;
  }
  const char* last = end;
  while (last > text && last[-1] == '0')
    --last;
  if (last > text && last[-1] == '.') --last;
  const std::string_view number(text, size_t(last - text));
  out += number == "-0" ? "0" : number;
}

/// Streams OBJ text through a buffer of about a megabyte.
class ObjWriter {
 public:
  explicit ObjWriter(std::ostream& out) : m_out(out) { m_buffer.reserve(kFlushBytes + 4096); }

  void comment(std::string_view text) {
    m_buffer += "# ";
    m_buffer += text;
    m_buffer += '\n';
  }

  /// Closed axis-aligned box with outward faces; empty boxes are skipped.
  void box(std::string_view material, double x0, double y0, double z0, double x1, double y1,
           double z1) {
    constexpr double kEmpty = 1e-6;
    if (x1 - x0 < kEmpty || y1 - y0 < kEmpty || z1 - z0 < kEmpty) return;
    useMaterial(material);
    const uint64_t base = m_vertices;
    // Corner c has x1 if bit 0, y1 if bit 1, z1 if bit 2.
    for (int c = 0; c < 8; ++c)
      vertex(c & 1 ? x1 : x0, c & 2 ? y1 : y0, c & 4 ? z1 : z0);
    static constexpr int kQuads[6][4] = {{2, 6, 7, 3}, {0, 1, 5, 4}, {1, 3, 7, 5},
                                         {0, 4, 6, 2}, {4, 5, 7, 6}, {0, 2, 3, 1}};
    for (const auto& q : kQuads)
      quad(base + q[0], base + q[1], base + q[2], base + q[3]);
    maybeFlush();
  }

  /// Upward-facing rectangle at height y.
  void floor(std::string_view material, double x0, double z0, double x1, double z1, double y) {
    useMaterial(material);
    const uint64_t base = m_vertices;
    vertex(x0, y, z0);
    vertex(x0, y, z1);
    vertex(x1, y, z1);
    vertex(x1, y, z0);
    quad(base, base + 1, base + 2, base + 3);
    maybeFlush();
  }

  /// Writes what is buffered; false when the stream failed.
  bool finish() {
    flush();
    m_out.flush();
    return bool(m_out);
  }

  uint64_t vertices() const { return m_vertices; }
  uint64_t triangles() const { return m_triangles; }

 private:
  static constexpr size_t kFlushBytes = 1 << 20;

  void useMaterial(std::string_view material) {
    if (material == m_material) return;
    m_material = material;
    m_buffer += "usemtl ";
    m_buffer += material;
    m_buffer += '\n';
  }

  void vertex(double x, double y, double z) {
    m_buffer += 'v';
    for (double v : {x, y, z}) {
      m_buffer += ' ';
      appendNumber(m_buffer, v, 3);
    }
    m_buffer += '\n';
    ++m_vertices;
  }

  // Two triangles (a, b, c) and (a, c, d); indices count from 0.
  void quad(uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
    face(a, b, c);
    face(a, c, d);
  }

  void face(uint64_t a, uint64_t b, uint64_t c) {
    m_buffer += 'f';
    for (uint64_t index : {a, b, c}) {
      char text[24];
      const auto result = std::to_chars(text, text + sizeof text, index + 1);
      m_buffer += ' ';
      m_buffer.append(text, result.ptr);
    }
    m_buffer += '\n';
    ++m_triangles;
  }

  void maybeFlush() {
    if (m_buffer.size() >= kFlushBytes) flush();
  }
  void flush() {
    m_out.write(m_buffer.data(), std::streamsize(m_buffer.size()));
    m_buffer.clear();
  }

  std::ostream& m_out;
  std::string m_buffer;
  std::string_view m_material;
  uint64_t m_vertices = 0;
  uint64_t m_triangles = 0;
};

struct Opening {
  /// Extent along the wall and in height. [metres]
  double from, to, bottom, top;
};

// A wall from the ground to `top`, minus its openings: cut along the wall at
// every opening edge, then each piece is stacked between the openings over it.
void wallWithOpenings(ObjWriter& out, bool alongX, double from, double to, double across0,
                      double across1, double top, std::span<const Opening> openings) {
  std::vector<double> cuts{from, to};
  for (const Opening& o : openings) {
    cuts.push_back(std::clamp(o.from, from, to));
    cuts.push_back(std::clamp(o.to, from, to));
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  for (size_t c = 0; c + 1 < cuts.size(); ++c) {
    const double a = cuts[c], b = cuts[c + 1], middle = (a + b) / 2;
    std::vector<std::pair<double, double>> gaps;
    for (const Opening& o : openings) {
      if (o.from < middle && middle < o.to) gaps.emplace_back(o.bottom, o.top);
    }
    std::sort(gaps.begin(), gaps.end());
    double y = 0.0;
    const auto piece = [&](double y0, double y1) {
      if (alongX) {
        out.box(kWallMaterial, a, y0, across0, b, y1, across1);
      } else {
        out.box(kWallMaterial, across0, y0, a, across1, y1, b);
      }
    };
    for (const auto& [bottom, gapTop] : gaps) {
      if (bottom > y) piece(y, std::min(bottom, top));
      y = std::max(y, gapTop);
    }
    if (y < top) piece(y, top);
  }
}

class CityWriter {
 public:
  CityWriter(const CityPlan& plan, std::ostream& obj, CityInfo& info)
      : m_plan(plan), m_out(obj), m_info(info) {}

  bool write(const std::string& title) {
    m_out.comment(title);
    m_out.comment("Generated by navscope's city generator; Y up, metres.");
    for (const BlockPlan& block : m_plan.blocks) {
      if (block.plaza) {
        writePlaza(block);
      } else {
        writeSidewalk(block);
        writeBuilding(block.building);
      }
    }
    writeRoads();
    for (const BridgePlan& bridge : m_plan.bridges)
      writeBridge(bridge);
    writeBoundary();
    return m_out.finish();
  }

  uint64_t vertices() const { return m_out.vertices(); }
  uint64_t triangles() const { return m_out.triangles(); }

 private:
  void writeSidewalk(const BlockPlan& block) {
    const BuildingPlan& b = block.building;
    const double x1 = block.x0 + m_plan.blockSize, z1 = block.z0 + m_plan.blockSize;
    m_out.box(kSidewalk, block.x0, 0, block.z0, x1, kCurb, b.z0);
    m_out.box(kSidewalk, block.x0, 0, b.z1, x1, kCurb, z1);
    m_out.box(kSidewalk, block.x0, 0, b.z0, b.x0, kCurb, b.z1);
    m_out.box(kSidewalk, b.x1, 0, b.z0, x1, kCurb, b.z1);
  }

  void writeBuilding(const BuildingPlan& b) {
    const double wallTop = b.floors * kStorey - kSlab;
    // The ground floor runs under the walls, so door sills have a floor.
    m_out.floor(kFloor, b.x0, b.z0, b.x1, b.z1, 0.0);

    const glm::vec3 outward[kSideCount] = {{0, 0, -1}, {0, 0, 1}, {-1, 0, 0}, {1, 0, 0}};
    for (int side = 0; side < kSideCount; ++side) {
      std::vector<Opening> openings;
      const double door = b.door[side], bridge = b.bridge[side];
      if (!std::isnan(door)) {
        openings.push_back({door - kDoorWidth / 2, door + kDoorWidth / 2, 0.0, kDoorHeight});
        addDoor(b, Side(side), door, 0.0, kDoorWidth, kDoorHeight, outward[side]);
      }
      if (!std::isnan(bridge)) {
        openings.push_back({bridge - kBridgeClear / 2, bridge + kBridgeClear / 2, kStorey,
                            kStorey + kBridgeOpeningHeight});
        addDoor(b, Side(side), bridge, kStorey, kBridgeClear, kBridgeOpeningHeight, outward[side]);
      }
      switch (Side(side)) {
        case kNorth:
          wallWithOpenings(m_out, true, b.x0, b.x1, b.z0, b.innerZ0(), wallTop, openings);
          break;
        case kSouth:
          wallWithOpenings(m_out, true, b.x0, b.x1, b.innerZ1(), b.z1, wallTop, openings);
          break;
        case kWest:
          wallWithOpenings(m_out, false, b.innerZ0(), b.innerZ1(), b.x0, b.innerX0(), wallTop,
                           openings);
          break;
        case kEast:
          wallWithOpenings(m_out, false, b.innerZ0(), b.innerZ1(), b.innerX1(), b.x1, wallTop,
                           openings);
          break;
        case kSideCount:
          break;
      }
    }
    for (int k = 1; k < b.floors; ++k) {
      writeSlab(b, k);
      writeFlight(b, k);
    }
    m_out.box(kRoof, b.x0, wallTop, b.z0, b.x1, wallTop + kSlab, b.z1);
    m_info.buildings.push_back(
        {Aabb{{float(b.x0), 0.0f, float(b.z0)}, {float(b.x1), float(wallTop + kSlab), float(b.z1)}},
         uint32_t(b.floors)});
  }

  void addDoor(const BuildingPlan& b, Side side, double along, double sill, double width,
               double height, const glm::vec3& outward) {
    glm::dvec3 centre;
    switch (side) {
      case kNorth:
        centre = {along, sill, b.z0 + kWall / 2};
        break;
      case kSouth:
        centre = {along, sill, b.z1 - kWall / 2};
        break;
      case kWest:
        centre = {b.x0 + kWall / 2, sill, along};
        break;
      default:
        centre = {b.x1 - kWall / 2, sill, along};
        break;
    }
    m_info.doors.push_back({glm::vec3(centre), outward, float(width), float(height)});
  }

  // Slab under floor k, open over flight k.
  void writeSlab(const BuildingPlan& b, int k) {
    const double top = k * kStorey, bottom = top - kSlab;
    const double holeX0 = b.bandX(k), holeX1 = holeX0 + kFlightWidth;
    const double holeZ0 = b.topZ(), holeZ1 = b.holeEndZ();
    m_out.box(kFloor, b.innerX0(), bottom, b.innerZ0(), b.innerX1(), top, holeZ0);
    m_out.box(kFloor, b.innerX0(), bottom, holeZ1, b.innerX1(), top, b.innerZ1());
    m_out.box(kFloor, b.innerX0(), bottom, holeZ0, holeX0, top, holeZ1);
    m_out.box(kFloor, holeX1, bottom, holeZ0, b.innerX1(), top, holeZ1);
  }

  // Flight k climbs north from floor k-1 to floor k: walls on both sides up to a
  // railing's height above floor k, a railing across the hole's south end.
  void writeFlight(const BuildingPlan& b, int k) {
    const double base = (k - 1) * kStorey, arrival = k * kStorey;
    const double x0 = b.bandX(k), x1 = x0 + kFlightWidth;
    const double foot = b.footZ();
    for (int s = 1; s <= kSteps; ++s) {
      m_out.box(kStairs, x0, base, foot - s * kTread, x1, base + s * kRise,
                foot - (s - 1) * kTread);
    }
    const double railTop = arrival + kRailHeight;
    m_out.box(kWallMaterial, x0 - kWall, base, b.topZ(), x0, railTop, b.holeEndZ());
    m_out.box(kWallMaterial, x1, base, b.topZ(), x1 + kWall, railTop, b.holeEndZ());
    m_out.box(kRailing, x0 - kWall, arrival, b.holeEndZ(), x1 + kWall, railTop, b.stairsEndZ());
  }

  void writePlaza(const BlockPlan& block) {
    const double size = m_plan.blockSize, w = kPlazaSidewalk;
    const double x0 = block.x0, z0 = block.z0, x1 = x0 + size, z1 = z0 + size;
    m_out.box(kSidewalk, x0, 0, z0, x1, kCurb, z0 + w);
    m_out.box(kSidewalk, x0, 0, z1 - w, x1, kCurb, z1);
    m_out.box(kSidewalk, x0, 0, z0 + w, x0 + w, kCurb, z1 - w);
    m_out.box(kSidewalk, x1 - w, 0, z0 + w, x1, kCurb, z1 - w);
    const PlazaPlan& p = block.park;
    m_out.box(kGrass, x0 + w, 0, z0 + w, x1 - w, kCurb, p.pondZ0);
    m_out.box(kGrass, x0 + w, 0, p.pondZ1, x1 - w, kCurb, z1 - w);
    m_out.box(kGrass, x0 + w, 0, p.pondZ0, p.pondX0, kCurb, p.pondZ1);
    m_out.box(kGrass, p.pondX1, 0, p.pondZ0, x1 - w, kCurb, p.pondZ1);
    m_out.floor(kWater, p.pondX0, p.pondZ0, p.pondX1, p.pondZ1, 0.0);
    for (int t = 0; t < p.trees; ++t) {
      m_out.box(kTreeMaterial, p.treeX[t] - kTree / 2, 0, p.treeZ[t] - kTree / 2,
                p.treeX[t] + kTree / 2, kTreeHeight, p.treeZ[t] + kTree / 2);
    }
  }

  // One quad per crossing and per segment between crossings, so every triangle
  // stays small for the collision tree; two lanes per segment.
  void writeRoads() {
    const double pitch = m_plan.pitch(), r = kRoadWidth;
    for (uint32_t j = 0; j <= m_plan.blocksZ; ++j) {
      for (uint32_t i = 0; i <= m_plan.blocksX; ++i) {
        const double x = i * pitch, z = j * pitch;
        m_out.floor(kRoad, x, z, x + r, z + r, 0.0);
        if (i < m_plan.blocksX) {
          m_out.floor(kRoad, x + r, z, x + pitch, z + r, 0.0);
          // Right-hand traffic: eastbound on the south half (+z is right of +x).
          const float middle = float(z + r / 2), offset = float(kLaneOffset);
          m_info.lanes.push_back(
              {{float(x + r), 0, middle + offset}, {float(x + pitch), 0, middle + offset}});
          m_info.lanes.push_back(
              {{float(x + pitch), 0, middle - offset}, {float(x + r), 0, middle - offset}});
        }
        if (j < m_plan.blocksZ) {
          m_out.floor(kRoad, x, z + r, x + r, z + pitch, 0.0);
          const float middle = float(x + r / 2), offset = float(kLaneOffset);
          m_info.lanes.push_back(
              {{middle - offset, 0, float(z + r)}, {middle - offset, 0, float(z + pitch)}});
          m_info.lanes.push_back(
              {{middle + offset, 0, float(z + pitch)}, {middle + offset, 0, float(z + r)}});
        }
      }
    }
  }

  void writeBridge(const BridgePlan& plan) {
    const BuildingPlan& a = m_plan.blocks[plan.from].building;
    const BuildingPlan& b = m_plan.blocks[plan.to].building;
    const double top = kStorey, bottom = top - kSlab, railTop = top + kRailHeight;
    const double c0 = plan.centre - kBridgeWidth / 2, c1 = plan.centre + kBridgeWidth / 2;
    Aabb deck;
    if (plan.alongX) {
      m_out.box(kBridge, a.x1, bottom, c0, b.x0, top, c1);
      m_out.box(kRailing, a.x1, top, c0, b.x0, railTop, c0 + kRail);
      m_out.box(kRailing, a.x1, top, c1 - kRail, b.x0, railTop, c1);
      deck = {{float(a.x1), float(top), float(c0 + kRail)},
              {float(b.x0), float(top), float(c1 - kRail)}};
    } else {
      m_out.box(kBridge, c0, bottom, a.z1, c1, top, b.z0);
      m_out.box(kRailing, c0, top, a.z1, c0 + kRail, railTop, b.z0);
      m_out.box(kRailing, c1 - kRail, top, a.z1, c1, railTop, b.z0);
      deck = {{float(c0 + kRail), float(top), float(a.z1)},
              {float(c1 - kRail), float(top), float(b.z0)}};
    }
    m_info.bridges.push_back({deck});
  }

  void writeBoundary() {
    const double x = m_plan.sizeX(), z = m_plan.sizeZ(), t = kWall, h = kBoundaryHeight;
    m_out.box(kWallMaterial, -t, 0, -t, x + t, h, 0);
    m_out.box(kWallMaterial, -t, 0, z, x + t, h, z + t);
    m_out.box(kWallMaterial, -t, 0, 0, 0, h, z);
    m_out.box(kWallMaterial, x, 0, 0, x + t, h, z);
  }

  const CityPlan& m_plan;
  ObjWriter m_out;
  CityInfo& m_info;
};

void appendPoint(std::string& out, const glm::vec3& p) {
  out += '[';
  appendNumber(out, p.x, 4);
  out += ", ";
  appendNumber(out, p.y, 4);
  out += ", ";
  appendNumber(out, p.z, 4);
  out += ']';
}

// ---------------------------------------------------------------------------
// Devices and waypaths: zones and lanes on the planned geometry (none of it
// adds triangles, so the estimate stays what it was).
// ---------------------------------------------------------------------------

Aabb zoneBox(double x0, double y0, double z0, double x1, double y1, double z1) {
  return Aabb{{float(x0), float(y0), float(z0)}, {float(x1), float(y1), float(z1)}};
}

/// The car of the sidecar's second unit profile, as in the showcase.
UnitProfile carProfile() {
  UnitProfile car;
  car.name = "car";
  car.kind = UnitKind::Vehicle;
  car.width = 1.8f;
  car.length = 4.2f;
  car.height = 1.5f;
  car.stepHeight = 0.2f;
  car.maxDrop = 0.3f;
  car.maxSlopeDegrees = 15.0f;
  car.turningRadius = 5.0f;
  return car;
}

// An express elevator from the ground floor to the top floor, its landings in
// the south-east corner of the interior (free on every floor: the stairwell is
// in the north-west).
DeviceSpec elevatorDevice(const BuildingPlan& b, uint32_t i, uint32_t j) {
  DeviceSpec device;
  device.id = "elevator_" + std::to_string(i) + "_" + std::to_string(j);
  device.kind = DeviceKind::Elevator;
  const double x1 = b.innerX1() - 0.4, x0 = x1 - kZone;
  const double z1 = b.innerZ1() - 0.4, z0 = z1 - kZone;
  const double top = (b.floors - 1) * kStorey;
  device.entry = zoneBox(x0, -0.2, z0, x1, 0.5, z1);
  device.exit = zoneBox(x0, top - 0.2, z0, x1, top + 0.5, z1);
  device.action = "call";
  device.waitTime = 4.0f;
  device.travelTime = 2.0f * float(b.floors - 1);
  return device;
}

// A locked back door through a west or east wall that has no door, south of
// the stairwell (where a side door would be): from the sidewalk to the floor inside.
std::optional<DeviceSpec> backDoorDevice(const BuildingPlan& b, uint32_t i, uint32_t j) {
  const double margin = 1.0 + kDoorWidth / 2;
  const double from = (b.floors > 1 ? b.stairsEndZ() + 0.5 : b.innerZ0()) + margin;
  const double to = b.innerZ1() - margin;
  if (from > to) return std::nullopt;
  const double z = std::round((from + to) / 2 / kSnap) * kSnap;
  for (Side side : {kWest, kEast}) {
    if (!std::isnan(b.door[side])) continue;
    DeviceSpec device;
    device.id = "back_door_" + std::to_string(i) + "_" + std::to_string(j);
    device.kind = DeviceKind::Door;
    const double z0 = z - kZone / 2, z1 = z + kZone / 2;
    if (side == kWest) {
      device.entry = zoneBox(b.x0 - 0.2 - kZone, -0.2, z0, b.x0 - 0.2, 0.5, z1);
      device.exit = zoneBox(b.innerX0() + 0.2, -0.2, z0, b.innerX0() + 0.2 + kZone, 0.5, z1);
    } else {
      device.entry = zoneBox(b.x1 + 0.2, -0.2, z0, b.x1 + 0.2 + kZone, 0.5, z1);
      device.exit = zoneBox(b.innerX1() - 0.2 - kZone, -0.2, z0, b.innerX1() - 0.2, 0.5, z1);
    }
    device.locked = true;
    device.key = "red";
    device.action = "open";
    device.waitTime = 1.0f;
    device.travelTime = 1.0f;
    return device;
  }
  return std::nullopt;
}

std::vector<DeviceSpec> planDevices(const CityPlan& plan) {
  std::vector<uint32_t> tall;
  for (uint32_t index = 0; index < plan.blocks.size(); ++index) {
    const BlockPlan& block = plan.blocks[index];
    if (!block.plaza && block.building.floors >= 3) tall.push_back(index);
  }
  std::vector<DeviceSpec> devices;
  // Spread over the city: the k-th of n picks is the (k * count / n)-th tall building.
  const uint64_t count = tall.size(), picks = std::min<uint64_t>(count, kMaxElevators);
  for (uint64_t k = 0; k < picks; ++k) {
    const uint32_t index = tall[size_t(k * count / picks)];
    devices.push_back(
        elevatorDevice(plan.blocks[index].building, index % plan.blocksX, index / plan.blocksX));
  }
  for (uint32_t index = 0; index < plan.blocks.size(); ++index) {
    const BlockPlan& block = plan.blocks[index];
    if (block.plaza) continue;
    if (std::optional<DeviceSpec> door =
            backDoorDevice(block.building, index % plan.blocksX, index / plan.blocksX)) {
      devices.push_back(std::move(*door));
      break;
    }
  }
  return devices;
}

// Per street and direction, one one-way waypath along the right-hand lane
// (right-hand traffic), with a point at the centre of every crossing so that
// vehicles get on and off at each of them.
std::vector<WaypathSpec> planWaypaths(const CityPlan& plan) {
  const double pitch = plan.pitch(), middle = kRoadWidth / 2;
  std::vector<WaypathSpec> waypaths;
  const auto lane = [&](std::string id, uint32_t crossings, auto point) {
    WaypathSpec waypath;
    waypath.id = std::move(id);
    waypath.oneWay = true;
    waypath.unitKind = UnitKind::Vehicle;
    for (uint32_t k = 0; k < crossings; ++k)
      waypath.points.push_back(point(k));
    waypaths.push_back(std::move(waypath));
  };
  const uint32_t alongX = plan.blocksX + 1, alongZ = plan.blocksZ + 1;
  for (uint32_t j = 0; j < alongZ; ++j) {
    const double z = j * pitch + middle;
    // Going east (+x), the right-hand side is south (+z).
    lane("street_z" + std::to_string(j) + "_east", alongX, [&](uint32_t k) {
      return glm::vec3(float(k * pitch + middle), 0.0f, float(z + kLaneOffset));
    });
    lane("street_z" + std::to_string(j) + "_west", alongX, [&](uint32_t k) {
      return glm::vec3(float((alongX - 1 - k) * pitch + middle), 0.0f, float(z - kLaneOffset));
    });
  }
  for (uint32_t i = 0; i < alongX; ++i) {
    const double x = i * pitch + middle;
    lane("street_x" + std::to_string(i) + "_south", alongZ, [&](uint32_t k) {
      return glm::vec3(float(x - kLaneOffset), 0.0f, float(k * pitch + middle));
    });
    lane("street_x" + std::to_string(i) + "_north", alongZ, [&](uint32_t k) {
      return glm::vec3(float(x + kLaneOffset), 0.0f, float((alongZ - 1 - k) * pitch + middle));
    });
  }
  return waypaths;
}

void appendUnit(std::string& out, const UnitProfile& unit) {
  out += "{\"name\": " + nlohmann::json(unit.name).dump() + ", \"kind\": \"";
  out += toString(unit.kind);
  if (unit.shape != UnitShape::Box) {
    out += "\", \"shape\": \"";
    out += toString(unit.shape);
  }
  out += "\", \"width\": ";
  appendNumber(out, unit.width, 4);
  if (unit.length > 0.0f) {
    out += ", \"length\": ";
    appendNumber(out, unit.length, 4);
  }
  out += ", \"height\": ";
  appendNumber(out, unit.height, 4);
  out += ", \"stepHeight\": ";
  appendNumber(out, unit.stepHeight, 4);
  out += ", \"maxDrop\": ";
  appendNumber(out, unit.maxDrop, 4);
  out += ", \"maxSlopeDegrees\": ";
  appendNumber(out, unit.maxSlopeDegrees, 4);
  if (unit.turningRadius > 0.0f) {
    out += ", \"turningRadius\": ";
    appendNumber(out, unit.turningRadius, 4);
  }
  out += '}';
}

void appendZone(std::string& out, const Aabb& zone) {
  out += "{\"min\": ";
  appendPoint(out, zone.min);
  out += ", \"max\": ";
  appendPoint(out, zone.max);
  out += '}';
}

void appendDevice(std::string& out, const DeviceSpec& device) {
  out += "{\"id\": " + nlohmann::json(device.id).dump() + ", \"kind\": \"";
  out += toString(device.kind);
  out += "\", \"entry\": ";
  appendZone(out, device.entry);
  out += ", \"exit\": ";
  appendZone(out, device.exit);
  out += device.twoWay ? ", \"twoWay\": true" : ", \"twoWay\": false";
  if (device.locked) out += ", \"locked\": true, \"key\": " + nlohmann::json(device.key).dump();
  out += ", \"action\": " + nlohmann::json(device.action).dump() + ", \"waitTime\": ";
  appendNumber(out, device.waitTime, 4);
  out += ", \"travelTime\": ";
  appendNumber(out, device.travelTime, 4);
  out += '}';
}

void appendWaypath(std::string& out, const WaypathSpec& waypath) {
  out += "{\"id\": " + nlohmann::json(waypath.id).dump() + ", \"points\": [";
  for (size_t k = 0; k < waypath.points.size(); ++k) {
    if (k > 0) out += ", ";
    appendPoint(out, waypath.points[k]);
  }
  out += waypath.oneWay ? "], \"oneWay\": true" : "], \"oneWay\": false";
  if (waypath.unitKind) {
    out += ", \"unit\": \"";
    out += toString(*waypath.unitKind);
    out += '"';
  }
  out += '}';
}

/// A key whose value is a list of objects, one per line.
template <class Item, class Append>
void appendList(std::string& out, std::string_view key, const std::vector<Item>& items,
                Append&& append) {
  out += ",\n  \"";
  out += key;
  out += "\": [";
  for (size_t k = 0; k < items.size(); ++k) {
    out += k > 0 ? ",\n    " : "\n    ";
    append(out, items[k]);
  }
  out += items.empty() ? "]" : "\n  ]";
}

// The sidecar, one key per line like the bundled levels' (one line per unit,
// device and waypath).
std::string sidecarJson(const CityInfo& info, const CityParams& params) {
  std::string out = "{\n  \"seeds\": [";
  for (size_t i = 0; i < info.seeds.size(); ++i) {
    if (i > 0) out += ", ";
    appendPoint(out, info.seeds[i]);
  }
  out += "],\n  \"start\": ";
  appendPoint(out, info.start);
  out += ",\n  \"goal\": ";
  appendPoint(out, info.goal);
  out += ",\n  \"cellSize\": ";
  appendNumber(out, params.cellSize, 4);
  // The car joins a walking unit (names must differ: the loader refuses twins).
  std::vector<UnitProfile> units{params.unit};
  if (params.unit.kind != UnitKind::Vehicle) {
    units.push_back(carProfile());
    if (units.back().name == params.unit.name) units.back().name += "_2";
  }
  appendList(out, "units", units, appendUnit);
  appendList(out, "devices", info.devices, appendDevice);
  appendList(out, "waypaths", info.waypaths, appendWaypath);
  out += "\n}\n";
  return out;
}

}  // namespace

Result<CityInfo> generateCity(const CityParams& params, std::ostream& obj) {
  using R = Result<CityInfo>;
  if (params.targetCells < 1 || params.targetCells > kMaxTargetCells) {
    return R::failure("city generator: targetCells = " + std::to_string(params.targetCells) +
                      " is out of range (1 to " + std::to_string(kMaxTargetCells) + ")");
  }
  if (!(params.cellSize >= 0.05f && params.cellSize <= 2.0f)) {
    return R::failure("city generator: cellSize = " + std::to_string(params.cellSize) +
                      " is out of range (0.05 to 2 metres)");
  }
  const Result<UnitProfile> unit = validateUnitProfile(params.unit);
  if (!unit) return R::failure("city generator: " + unit.error());

  Result<SizedPlan> sized = sizeCity(params);
  if (!sized) return R::failure(sized.error());
  const CityPlan& plan = sized.value().plan;

  CityInfo info;
  info.estimatedCells = sized.value().estimatedCells;
  info.blocksX = plan.blocksX;
  info.blocksZ = plan.blocksZ;
  info.blockSize = float(plan.blockSize);
  std::string title = "navscope city: seed " + std::to_string(params.seed) + ", " +
                      std::to_string(plan.blocksX) + " x " + std::to_string(plan.blocksZ) +
                      " blocks of ";
  appendNumber(title, plan.blockSize, 2);
  title += " m, about " + std::to_string(info.estimatedCells) + " cells of ";
  appendNumber(title, params.cellSize, 4);
  title += " m";

  CityWriter writer(plan, obj, info);
  if (!writer.write(title)) return R::failure("city generator: writing the OBJ failed");
  info.vertices = writer.vertices();
  info.triangles = writer.triangles();

  const float road = float(kRoadWidth / 2);
  for (const BlockPlan& block : plan.blocks) {
    info.seeds.push_back(
        {float(block.x0 + plan.blockSize / 2), float(kSeedHeight), float(block.z0) - road});
  }
  info.start = info.seeds.front();
  info.goal = info.seeds.back();
  uint32_t tallest = 1;
  for (const BlockPlan& block : plan.blocks) {
    const BuildingPlan& b = block.building;
    if (block.plaza || uint32_t(b.floors) <= tallest) continue;
    tallest = uint32_t(b.floors);
    // The south-east corner of the top floor, south of the stairwell.
    info.goal = {float(b.innerX1() - 1.5), float((b.floors - 1) * kStorey + kSeedHeight),
                 float(b.innerZ1() - 1.5)};
  }
  info.devices = planDevices(plan);
  info.waypaths = planWaypaths(plan);
  info.sidecarJson = sidecarJson(info, params);
  return R::success(std::move(info));
}

}  // namespace nav
