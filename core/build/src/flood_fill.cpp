// Flood fill with a box-shaped or round unit.
//
// The unit is a box: a square footprint of side `width` and a height (or an
// upright cylinder: a disc of diameter `width`; what follows holds for both). Standing
// on column (x, z) it rests on the highest geometry inside its footprint within
// a height window around where it came from ([y - maxDrop, y + stepHeight]),
// like a crate set down on the level. That surface must be flat enough, the
// box from just above it up to its height must touch no triangle, and ground
// must support the footprint (footprint_support.h): no hanging over a ledge
// by more than the unit's ledge overhang.
//
// A step between neighbouring columns also sweeps the union of both
// footprints at the higher of the two heights, so the unit cannot pass through
// thin walls or under low ceilings between cell centres.
//
// Falling off a ledge: where the next column's footprint would hang over the
// ledge, the unit walks on at its height, column by column, until its
// footprint is clear of the ledge, and lands on the ground below if it can
// stand there (a FallLink, cells.h). Coming back, the ledge face is a wall
// higher than a step: one-way.
//
// Two cells of one column are at least a unit height apart (the upper ground
// would otherwise lie inside the lower unit's box), which makes "the cell of
// this column within half a unit height" a unique identity, and "the highest
// cell within the move's window" the unique target of a step.
#include "nav/flood_fill.h"
#include "nav/stand_test.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>

#include "candidate_blocks.h"
#include "column_memo.h"
#include "format_number.h"
#include "nav/footprint_support.h"
#include "worker_threads.h"

namespace nav {
namespace {

struct Mover {
  const CollisionWorld& world;
  const UnitProfile& unit;
  float minNormalY;
  /// Per triangle: may the unit stand on it (its surface allows the unit's kind). Empty: all.
  const std::vector<bool>* walkableTriangles = nullptr;
  /// When set, ground must support the footprint.
  const FootprintSupport* footprintSupport = nullptr;
  /// When set, whether the box between two neighbouring discs is blocked
  /// (roomToMove), remembered per axis by the lower centre's float bits and
  /// the height: the step back between the same cells asks the same.
  ColumnMemo<bool>* betweenMemo[2] = {nullptr, nullptr};

  // When set, queries test only these triangles: everything near the current
  // cell, gathered once instead of walking the tree a dozen times per cell.
  const std::vector<uint32_t>* candidates = nullptr;
  /// unit.footprint(), which a vehicle computes with a square root.
  float footprintSide = unit.footprint();

  bool round = unit.shape == UnitShape::Round;
  /// Half the square's side, or the disc's radius.
  float halfFootprint = footprintSide * 0.5f - kFootprintShrink;

  Aabb footprint(glm::vec2 center, float yMin, float yMax) const {
    return Aabb{{center.x - halfFootprint, yMin, center.y - halfFootprint},
                {center.x + halfFootprint, yMax, center.y + halfFootprint}};
  }

  // Highest geometry under the footprint at `center` between yMin and yMax.
  std::optional<SupportHit> highestPoint(glm::vec2 center, float yMin, float yMax) const {
    if (round) {
      const Stadium disc = Stadium::cylinder(center, halfFootprint, yMin, yMax);
      return candidates ? world.highestPointInCylinder(disc, *candidates)
                        : world.highestPointInCylinder(disc);
    }
    const Aabb box = footprint(center, yMin, yMax);
    return candidates ? world.highestPointInBox(box, *candidates) : world.highestPointInBox(box);
  }

  // Whether the footprint touches anything between yMin and yMax moving from
  // `from` to `to` (the same column: standing). The fill moves along the axes,
  // so a square sweeps the union of its two boxes; a disc sweeps a stadium.
  bool blocked(glm::vec2 from, glm::vec2 to, float yMin, float yMax) const {
    if (round) {
      const Stadium sweep{from, to, halfFootprint, yMin, yMax};
      return candidates ? world.overlapsStadium(sweep, *candidates) : world.overlapsStadium(sweep);
    }
    Aabb sweep = footprint(from, yMin, yMax);
    sweep.grow(footprint(to, yMin, yMax));
    return candidates ? world.overlapsBox(sweep, *candidates) : world.overlapsBox(sweep);
  }

  bool mayStandOn(uint32_t triangle) const {
    return !walkableTriangles || (*walkableTriangles)[triangle];
  }

  // The ground the unit would rest on, if it may (before clearance): the
  // highest under its footprint, on a surface it may use. It may be too steep
  // to stand on: then standOn says whether it is a step's edge.
  std::optional<SupportHit> ground(glm::vec2 center, float yMin, float yMax) const {
    const std::optional<SupportHit> support = highestPoint(center, yMin, yMax);
    if (!support || !mayStandOn(support->triangle)) return std::nullopt;
    return support;
  }

  // Where the unit resting on `support` (its body known clear) stands: on the
  // support itself when flat enough, else on the ground under its centre when
  // that is flat enough and at most a step lower (StandResult::feet).
  StandResult standOn(glm::vec2 center, const SupportHit& support) const {
    if (support.normalY >= minNormalY)
      return {true, support.height, support.triangle, support.height};
    const std::optional<RayHit> under =
        world.raycast(glm::vec3(center.x, support.height + kGroundClearance, center.y),
                      glm::vec3(0.0f, -1.0f, 0.0f), unit.stepHeight + kGroundClearance);
    if (!under || world.normalY(under->triangle) < minNormalY || !mayStandOn(under->triangle))
      return {};
    return {true, support.height, under->triangle, under->point.y};
  }

  // Where standOn stands, if ground supports the footprint there; else a hanging result.
  StandResult supported(glm::vec2 center, const StandResult& standing) const {
    if (!standing.ok || !footprintSupport || footprintSupport->supported(center, standing.y))
      return standing;
    StandResult hanging = standing;
    hanging.ok = false;
    hanging.hangs = true;
    return hanging;
  }

  // Where the body standing on ground found at height y in a window up to
  // windowTop must be tested from. The ground search saw nothing higher than y
  // in the same footprint up to windowTop, so only the part above that is
  // left (less a margin for the clips' rounding), which spares the test every
  // triangle of the ground around the unit.
  static float bodyFloor(float y, float windowTop) {
    constexpr float kWindowMargin = 1e-3f;
    return std::max(y + kGroundClearance, windowTop - kWindowMargin);
  }

  StandResult stand(glm::vec2 center, float yMin, float yMax) const {
    return standIf(center, yMin, yMax, [](float) { return true; });
  }

  // stand, where only ground at a height `accepts` will do: over other ground
  // neither the body nor the footprint's support is tested.
  template <class Accepts>
  StandResult standIf(glm::vec2 center, float yMin, float yMax, Accepts accepts) const {
    const std::optional<SupportHit> ground = this->ground(center, yMin, yMax);
    if (!ground || !accepts(ground->height)) return {};
    const float y = ground->height;
    if (blocked(center, center, bodyFloor(y, yMax), y + unit.height)) return {};
    return supported(center, standOn(center, *ground));
  }

  bool footprintsOverlap(float cellSize) const {
    return cellSize <= footprintSide - 2.0f * kFootprintShrink;
  }

  // One step from a standing position `from` (resting at fromY, feet at
  // fromFeet) to the neighbouring column `to`, for cells wider than the
  // footprint (overlappingLanding and roomToMove take the others): where it
  // lands, if the unit can stand there and get there. Footprints that do not
  // overlap leave a strip between them: the general sweep.
  StandResult stepApart(glm::vec2 from, float fromY, float fromFeet, glm::vec2 to) const {
    const StandResult landing = stand(to, fromY - unit.maxDrop, fromFeet + unit.stepHeight);
    return landing.ok && canMove(from, fromY, to, landing.y) ? landing : StandResult{};
  }

  // What working out a landing in one window proved about the target column,
  // so that steps from other heights can reuse it: the highest ground in the
  // window, that nothing lies above it up to emptyTo, and whether the body
  // above it was clear up to bodyTop (or blocked below it).
  struct KnownLanding {
    StandResult result;
    float ground = 0.0f;
    float emptyTo = 0.0f;
    float bodyTop = 0.0f;
    bool blocked = false;
  };

  // Overlapping footprints make the sweep (nearly, for a disc) the union of
  // both footprints at the higher ground; the source's is known clear, so what
  // is left to test is the target's column from its ground up to a unit height
  // above the higher one (which covers a drop's fall too), then roomToMove.
  // This is the first part: it depends on `to`, fromY and fromFeet only.
  StandResult overlappingLanding(glm::vec2 to, float fromY, float fromFeet,
                                 KnownLanding* known = nullptr) const {
    const float windowTop = fromFeet + unit.stepHeight;
    const std::optional<SupportHit> highest = highestPoint(to, fromY - unit.maxDrop, windowTop);
    if (known) known->result = {};
    if (!highest || !mayStandOn(highest->triangle)) return {};
    const float y = highest->height;
    const float top = std::max(y, fromY) + unit.height;
    // Clear up to a step above the ground and more answers the steps from
    // every neighbour up to a step higher too; only when that fails does the
    // body test stop where this step needs it.
    const float roomy = std::max(y + unit.stepHeight, fromY) + unit.height;
    const float floor = bodyFloor(y, windowTop);
    float bodyTop = top;
    bool blocked = false;
    if (known && roomy > top && !this->blocked(to, to, floor, roomy)) {
      bodyTop = roomy;
    } else {
      blocked = floor < top && this->blocked(to, to, floor, top);
    }
    const StandResult landing = blocked ? StandResult{} : supported(to, standOn(to, *highest));
    if (known) {
      *known = {landing, y, windowTop, bodyTop, blocked};
      // The ground search saw nothing above the ground up to windowTop, and
      // the body test nothing from there (2 cm over the ground at least) up.
      if (!blocked && windowTop >= y + kGroundClearance)
        known->emptyTo = std::max(windowTop, bodyTop);
    }
    return landing;
  }

  // The landing of a step from fromY (feet at fromFeet) that `known` answers
  // (the same highest ground, a body test it settles), if it does.
  std::optional<StandResult> reuse(const KnownLanding& known, float fromY, float fromFeet) const {
    const float bottom = fromY - unit.maxDrop, windowTop = fromFeet + unit.stepHeight;
    if (known.ground < bottom || known.ground > windowTop || windowTop > known.emptyTo)
      return std::nullopt;
    const float top = std::max(known.ground, fromY) + unit.height;
    if (known.blocked) return top >= known.bodyTop ? std::optional(StandResult{}) : std::nullopt;
    return top <= known.bodyTop ? std::optional(known.result) : std::nullopt;
  }

  // Where the unit lands walking off a ledge from `from` (standing at fromY),
  // column by column (centerOf(j): the centre of the j-th column on), when
  // the first step's footprint would hang over it: it moves on at its height
  // until its footprint is clear of the ledge, then falls onto the highest
  // ground below, if it can stand there. Returns the landing and how many
  // columns away it is (0: no fall). A walk back onto ground it could stand on
  // at its own height is no fall but a gap it cannot cross.
  template <class CenterOf>
  std::pair<StandResult, int> fall(glm::vec2 from, float fromY, CenterOf centerOf,
                                   int maxStrides) const {
    for (int j = 2; j <= maxStrides; ++j) {
      const glm::vec2 to = centerOf(j);
      if (blocked(from, to, fromY + kGroundClearance, fromY + unit.height)) return {};
      const float windowTop = fromY + unit.stepHeight;
      const std::optional<SupportHit> top = highestPoint(to, fromY - unit.maxDrop, windowTop);
      if (!top) return {};  // deeper than the unit may drop
      // Nothing lies between that ground and the sweep above: the column it falls down is clear.
      const StandResult landing = stand(to, fromY - unit.maxDrop, windowTop);
      if (top->height < fromY - unit.stepHeight) {
        if (!landing.ok) return {};
        return {landing, j};
      }
      if (landing.ok) return {};
    }
    return {};
  }

  // What the steps up from one cell learn of the column above its body.
  struct Overhead {
    /// Clear from the body's top up to here. [metres]
    float clearTo;
    /// Whether the tallest test, up to a body above the highest step, was tried.
    bool tried = false;
  };

  // Whether the source's column is clear from the top of its body (resting at
  // fromY, feet at fromFeet) up to a body's height above y. With `overhead`,
  // the first step up tests up to a body above the highest any step up can
  // land (fromFeet + stepHeight): on open ground one test answers them all.
  bool overheadClear(glm::vec2 from, float fromY, float fromFeet, float y,
                     Overhead* overhead) const {
    const float bodyTop = fromY + unit.height, needed = y + unit.height;
    if (!overhead) return !blocked(from, from, bodyTop, needed);
    if (needed <= overhead->clearTo) return true;
    const float tallest = fromFeet + unit.stepHeight + unit.height;
    if (!overhead->tried && needed <= tallest) {
      overhead->tried = true;
      if (!blocked(from, from, bodyTop, tallest)) {
        overhead->clearTo = tallest;
        return true;
      }
    }
    return !blocked(from, from, bodyTop, needed);
  }

  // The second part, for a landing at height y: a square needs only the
  // source's column above its own box on a step up; a disc also sweeps the
  // slivers between the two discs, on every step.
  bool needsRoomToMove(float fromY, float y) const { return round || y > fromY; }
  bool roomToMove(glm::vec2 from, float fromY, glm::vec2 to, float y, float fromFeet = 0.0f,
                  Overhead* overhead = nullptr) const {
    if (!needsRoomToMove(fromY, y)) return true;
    if (round) {
      // The stadium swept between the discs is both discs and the rectangle
      // between their centres, as wide as a disc. Both discs are clear at
      // their own heights; what is left is the rectangle at the higher one,
      // and on a step up the source's disc above its own body.
      const float top = std::max(fromY, y);
      // Along the step from centre to centre, across it a disc's width.
      const glm::vec2 across = glm::abs(to - from).x > 0.0f ? glm::vec2(0.0f, halfFootprint)
                                                            : glm::vec2(halfFootprint, 0.0f);
      const glm::vec2 lower = glm::min(from, to);
      const glm::vec2 low = lower - across, high = glm::max(from, to) + across;
      const Aabb between{{low.x, top + kGroundClearance, low.y},
                         {high.x, top + unit.height, high.y}};
      const auto betweenBlocked = [&] {
        return candidates ? world.overlapsBox(between, *candidates) : world.overlapsBox(between);
      };
      ColumnMemo<bool>* memo = betweenMemo[across.x > 0.0f ? 1 : 0];
      const int32_t x = std::bit_cast<int32_t>(lower.x), z = std::bit_cast<int32_t>(lower.y);
      const bool* known = memo ? memo->find(x, z, top) : nullptr;
      const bool rectangleBlocked = known ? *known : betweenBlocked();
      if (memo && !known) memo->insert(x, z, top, rectangleBlocked);
      return !rectangleBlocked && (y <= fromY || overheadClear(from, fromY, fromFeet, y, overhead));
    }
    return overheadClear(from, fromY, fromFeet, y, overhead);
  }

  // Whether the unit stays on ground between two neighbouring standing
  // positions (from at fromY, to at y): FootprintSupport::supportedBetween,
  // resting no higher than 2 cm above the higher (its footprint there lies
  // within both footprints and the sweep between, clear above that).
  // `beforeExactTest` gathers the triangles near before the footprint's
  // column is tested.
  template <class BeforeExactTest>
  bool supportedBetween(glm::vec2 from, float fromY, glm::vec2 to, float y,
                        BeforeExactTest&& beforeExactTest) const {
    if (!footprintSupport) return true;
    const float top = std::max(fromY, y) + kGroundClearance;
    return footprintSupport->supportedBetween(from, to, top,
                                              [&](glm::vec2 p, float low, float high) {
                                                beforeExactTest();
                                                return !blocked(p, p, low, high);
                                              });
  }

  // The sweep between two standing positions (each already known to be clear).
  bool canMove(glm::vec2 from, float fromY, glm::vec2 to, float toY) const {
    const float top = std::max(fromY, toY);
    if (blocked(from, to, top + kGroundClearance, top + unit.height)) return false;
    // A drop deeper than the unit is tall leaves a gap between the sweep and
    // the landing box: the column the unit falls through.
    if (fromY - toY > unit.height - kGroundClearance &&
        blocked(to, to, toY + unit.height, fromY + kGroundClearance))
      return false;
    return true;
  }
};

glm::vec2 columnCenter2(const CellGrid& grid, int32_t x, int32_t z) {
  const glm::vec3 c = grid.columnCenter(x, z, 0.0f);
  return {c.x, c.z};
}

// A cell waiting to be explored, with the column the grid does not store per cell.
struct OpenCell {
  int32_t x, z;
  uint32_t index;
  float y;
  /// StandResult::feet.
  float feet;
};

// One direction of a device: a unit fully inside `entry` comes out at the
// centre of `exit`.
// Teleports are found through tiles of 16 x 16 columns.
constexpr int kTeleportTileBits = 4;

struct Teleport {
  Aabb entry;
  Aabb exit;
  const DeviceSpec* device;
  /// Going from the device's exit zone back to its entry zone.
  bool reverse;
};

// A column to seed from: the unit stands on the highest ground in [yMin,
// yMax], unless a cell of the column lies within half a unit height of y.
struct SeedColumn {
  int32_t x, z;
  float y, yMin, yMax;
};

// Breadth-first, one level at a time: the steps of a whole level are tested
// (shared among the threads), then merged into the grid in level order. Merging
// in order makes the cells, their indices and links identical whatever the
// thread count, and identical to a plain first-in-first-out fill.
class Filler {
 public:
  Filler(const Level& level, const Mover& mover, CellGrid& grid, const FloodFillParams& params,
         BuildControl* control)
      : m_level(level),
        m_mover(mover),
        m_grid(grid),
        m_maxCells(params.maxCells),
        m_workers(std::clamp(params.threads, 1, kMaxFillThreads)),
        m_estimatedCells(estimateCells(level, params)),
        m_maxFallColumns(int(std::ceil(2.0f * mover.footprintSide / grid.cellSize())) + 2),
        m_control(control) {
    if (m_control) m_control->estimatedCells = m_estimatedCells;
    m_scratches.resize(size_t(m_workers.threads()));
    for (const DeviceSpec& device : params.devices) {
      m_teleports.push_back({device.entry, device.exit, &device, false});
      if (device.twoWay) m_teleports.push_back({device.exit, device.entry, &device, true});
    }
    m_teleportUsed.assign(m_teleports.size(), false);
    // Each teleport listed under every tile of columns its entry zone covers.
    for (uint32_t t = 0; t < m_teleports.size(); ++t) {
      const glm::ivec2 lo = m_grid.columnOf(m_teleports[t].entry.min) >> kTeleportTileBits;
      const glm::ivec2 hi = m_grid.columnOf(m_teleports[t].entry.max) >> kTeleportTileBits;
      for (int32_t z = lo.y; z <= hi.y; ++z) {
        for (int32_t x = lo.x; x <= hi.x; ++x)
          m_teleportsByTile[tileKey(x, z)].push_back(t);
      }
    }
  }

  // Adds a cell at the column if the unit can stand there and no cell of the
  // column is already at that ground, then explores everything reachable.
  // `stood`, when given, receives the stand test's answer.
  bool seed(int32_t x, int32_t z, float yMin, float yMax, StandResult* stood = nullptr) {
    const StandResult standing = standAt(scratchFor(0), x, z, yMin, yMax);
    if (stood) *stood = standing;
    return seedOn(x, z, standing);
  }

  /// Seeds at each column of `seeds` in turn that holds no cell near its
  /// height by then, as seed() does. With several threads the stand tests of
  /// the whole batch run first, in parallel: they read only the level.
  bool seedBatch(const std::vector<SeedColumn>& seeds) {
    if (m_workers.threads() == 1) {
      for (const SeedColumn& s : seeds) {
        if (existing(s.x, s.z, s.y) == kNoCell && !seed(s.x, s.z, s.yMin, s.yMax)) return false;
      }
      return true;
    }
    m_seedStands.resize(seeds.size());
    m_workers.forChunks(seeds.size(), 4, [&](size_t first, size_t last, size_t slot) {
      Scratch& scratch = scratchFor(slot);
      for (size_t i = first; i < last; ++i) {
        const SeedColumn& s = seeds[i];
        m_seedStands[i] = standAt(scratch, s.x, s.z, s.yMin, s.yMax);
      }
    });
    for (size_t i = 0; i < seeds.size(); ++i) {
      const SeedColumn& s = seeds[i];
      if (existing(s.x, s.z, s.y) == kNoCell && !seedOn(s.x, s.z, m_seedStands[i])) return false;
    }
    return true;
  }

  const std::string& error() const { return m_error; }
  const std::vector<std::string>& warnings() const { return m_warnings; }

  // True (with the error set) when the build was asked to stop.
  bool cancelled() {
    if (!m_control || !m_control->cancelRequested.load(std::memory_order_relaxed)) return false;
    m_error = "flood fill: cancelled";
    return true;
  }

  uint32_t existing(int32_t x, int32_t z, float y) const {
    const float tolerance = m_mover.unit.height * 0.5f;
    return m_grid.findInColumn(x, z, y - tolerance, y + tolerance);
  }

 private:
  bool seedOn(int32_t x, int32_t z, const StandResult& standing) {
    if (!standing.ok) return true;
    if (existing(x, z, standing.y) != kNoCell) return true;
    if (!addCell(x, z, standing) || !teleport()) return false;
    return explore();
  }

  bool addCell(int32_t x, int32_t z, const StandResult& standing) {
    const float y = standing.y;
    if (m_grid.size() >= m_maxCells) {
      m_error = "flood fill: stopped at maxCells = " + std::to_string(m_maxCells) +
                " cells; the level's walkable surfaces suggest about " +
                std::to_string(m_estimatedCells) +
                " at this cell size: raise the limit (--max-cells) or the cell size";
      return false;
    }
    const uint32_t index = m_grid.add(x, z, y, m_level.triangles[standing.triangle].material);
    m_next.push_back({x, z, index, y, standing.feet});
    noteTeleports(x, z, y);
    return true;
  }

  static uint64_t tileKey(int32_t x, int32_t z) {
    return (uint64_t(uint32_t(x)) << 32) | uint32_t(z);
  }

  // Queues each unused teleport whose entry zone holds the whole cell.
  void noteTeleports(int32_t x, int32_t z, float y) {
    if (m_teleports.empty()) return;
    const auto listed =
        m_teleportsByTile.find(tileKey(x >> kTeleportTileBits, z >> kTeleportTileBits));
    if (listed == m_teleportsByTile.end()) return;
    const float half = m_grid.cellSize() * 0.5f;
    const glm::vec3 c = m_grid.columnCenter(x, z, y);
    for (uint32_t t : listed->second) {
      const Teleport& teleport = m_teleports[t];
      const Aabb& zone = teleport.entry;
      const std::optional<ZoneCorners>& corners =
          teleport.reverse ? teleport.device->exitCorners : teleport.device->entryCorners;
      const bool inside =
          zoneHoldsSquare(zone, corners, {c.x - half, c.z - half}, {c.x + half, c.z + half}) &&
          y >= zone.min.y && y <= zone.max.y;
      if (inside && !m_teleportUsed[t]) {
        m_teleportUsed[t] = true;
        m_pendingTeleports.push_back(t);
      }
    }
  }

  // Spawns a cell at the exit of every queued teleport (in queue order); the
  // fill goes on from there with the next level.
  bool teleport() {
    for (size_t i = 0; i < m_pendingTeleports.size(); ++i) {
      const Teleport& t = m_teleports[m_pendingTeleports[i]];
      const glm::vec3 target = t.exit.center();
      const glm::ivec2 column = m_grid.columnOf(target);
      const StandResult standing =
          m_mover.stand(columnCenter2(m_grid, column.x, column.y), t.exit.min.y, t.exit.max.y);
      if (!standing.ok) {
        m_warnings.push_back("device '" + t.device->id +
                             "': the unit has no room to stand at the centre of its " +
                             (t.reverse ? "entry" : "exit") + " zone");
        continue;
      }
      if (existing(column.x, column.y, standing.y) == kNoCell &&
          !addCell(column.x, column.y, standing))
        return false;
    }
    m_pendingTeleports.clear();
    return true;
  }

  // What one thread needs to test steps.
  struct Scratch {
    CandidateBlocks blocks;
    std::vector<uint32_t> candidates;
    ColumnMemo<Mover::KnownLanding> landings;
    /// Mover::betweenMemo, along x and along z.
    ColumnMemo<bool> between[2];

    /// The fill's front moved on a level.
    void nextLevel() {
      landings.nextLevel();
      between[0].nextLevel();
      between[1].nextLevel();
    }
  };

  std::unique_ptr<Scratch> makeScratch() const {
    const UnitProfile& unit = m_mover.unit;
    const float reach = m_grid.cellSize() + m_mover.footprintSide * 0.5f;
    // Blocks of 8 x 8 columns and a unit height: each is walked in the tree once
    // and serves the cells of a few levels of the fill's front.
    constexpr float kBlockColumns = 8.0f;
    const glm::vec3 blockSize(kBlockColumns * m_grid.cellSize(), unit.height,
                              kBlockColumns * m_grid.cellSize());
    const glm::vec3 reachSize(2.0f * reach, unit.maxDrop + unit.stepHeight + unit.height + 0.01f,
                              2.0f * reach);
    return std::make_unique<Scratch>(
        Scratch{CandidateBlocks(m_mover.world, m_mover.world.bounds().min, blockSize, reachSize),
                {},
                {},
                {}});
  }

  // The thread's scratch, made the first time it is needed.
  Scratch& scratchFor(size_t slot) {
    std::unique_ptr<Scratch>& scratch = m_scratches[slot];
    if (!scratch) {
      scratch = makeScratch();
      scratch->nextLevel();
    }
    return *scratch;
  }

  // Mover::stand at column (x, z), over the triangles the scratch's blocks
  // gather round it: the tree's own list, as the steps test with.
  StandResult standAt(Scratch& scratch, int32_t x, int32_t z, float yMin, float yMax) const {
    const glm::vec2 center = columnCenter2(m_grid, x, z);
    const float reach = m_grid.cellSize() + m_mover.footprintSide * 0.5f;
    scratch.blocks.candidatesInBox(
        Aabb{{center.x - reach, yMin, center.y - reach},
             {center.x + reach, yMax + m_mover.unit.height + 0.01f, center.y + reach}},
        scratch.candidates);
    Mover near = m_mover;
    near.candidates = &scratch.candidates;
    // Whatever ground stand() finds in the window, its body test covers the
    // body above the whole window: blocked there, the unit cannot stand. Most
    // seeds lie under something (floors running under walls): this one test
    // refuses them before the ground is looked for.
    const float above = yMax + kGroundClearance, top = yMin + m_mover.unit.height;
    if (above < top && near.blocked(center, center, above, top)) return {};
    return near.stand(center, yMin, yMax);
  }

  // Tests the four steps of open[first, last) into results.
  void testSteps(size_t first, size_t last, Scratch& scratch) {
    const UnitProfile& unit = m_mover.unit;
    Mover near = m_mover;
    near.candidates = &scratch.candidates;
    near.betweenMemo[0] = &scratch.between[0];
    near.betweenMemo[1] = &scratch.between[1];
    const float reach = m_grid.cellSize() + m_mover.footprintSide * 0.5f;
    const bool overlapping = m_mover.footprintsOverlap(m_grid.cellSize());
    for (size_t i = first; i < last; ++i) {
      const OpenCell& cell = m_open[i];
      const glm::vec2 here = columnCenter2(m_grid, cell.x, cell.z);
      // Everything any of the four steps can touch: both footprints of each
      // step, from the deepest drop up to a unit height above the highest step.
      // Gathered only once a step needs it: a landing not remembered, or a step up.
      bool gathered = false;
      Mover::Overhead overhead{cell.y + unit.height};
      auto gather = [&] {
        if (gathered) return;
        scratch.blocks.candidatesInBox(
            Aabb{{here.x - reach, cell.y - unit.maxDrop, here.y - reach},
                 {here.x + reach, cell.y + unit.stepHeight + unit.height + 0.01f, here.y + reach}},
            scratch.candidates);
        gathered = true;
      };
      for (int d = 0; d < kDirectionCount; ++d) {
        const int32_t nx = cell.x + kDirectionDx[d], nz = cell.z + kDirectionDz[d];
        const glm::vec2 there = columnCenter2(m_grid, nx, nz);
        StandResult landing;
        if (!overlapping) {
          gather();
          landing = near.stepApart(here, cell.y, cell.feet, there);
        } else {
          // The last landing worked out for this column (one per column: key
          // height 0) often answers this step too.
          const Mover::KnownLanding* known = scratch.landings.find(nx, nz, 0.0f);
          std::optional<StandResult> reused =
              known ? near.reuse(*known, cell.y, cell.feet) : std::nullopt;
          if (reused) {
            landing = *reused;
          } else {
            gather();
            Mover::KnownLanding worked;
            landing = near.overlappingLanding(there, cell.y, cell.feet, &worked);
            scratch.landings.assign(nx, nz, 0.0f, worked);
          }
          if (landing.ok && near.needsRoomToMove(cell.y, landing.y)) {
            gather();
            landing.ok = near.roomToMove(here, cell.y, there, landing.y, cell.feet, &overhead);
          }
        }
        if (landing.ok) landing.ok = near.supportedBetween(here, cell.y, there, landing.y, gather);
        uint8_t fallColumns = 0;
        if (landing.hangs) {
          // Rare: the whole tree, not the candidates near this cell.
          // Each column's centre as the grid gives it, as a step's is.
          const auto centerOf = [&](int j) {
            return columnCenter2(m_grid, cell.x + j * kDirectionDx[d],
                                 cell.z + j * kDirectionDz[d]);
          };
          const auto [fallen, strides] = m_mover.fall(here, cell.y, centerOf, m_maxFallColumns);
          landing = fallen;
          fallColumns = uint8_t(strides);
        }
        const size_t step = i * kDirectionCount + size_t(d);
        m_results[step] = landing;
        m_fallColumns[step] = fallColumns;
        const int32_t columns = std::max<int32_t>(1, fallColumns);
        m_knownTargets[step] = landing.ok ? existing(cell.x + columns * kDirectionDx[d],
                                                     cell.z + columns * kDirectionDz[d], landing.y)
                                          : kNoCell;
      }
    }
  }

  bool explore() {
    // Cells handed to a thread at a time: tens of microseconds of steps.
    constexpr size_t kCellsPerChunk = 4;
    while (!m_next.empty()) {
      m_open.swap(m_next);
      m_next.clear();
      m_results.resize(m_open.size() * kDirectionCount);
      m_fallColumns.resize(m_open.size() * kDirectionCount);
      m_knownTargets.resize(m_open.size() * kDirectionCount);
      for (std::unique_ptr<Scratch>& scratch : m_scratches) {
        if (scratch) scratch->nextLevel();
      }
      m_workers.forChunks(m_open.size(), kCellsPerChunk,
                          [&](size_t first, size_t last, size_t slot) {
                            testSteps(first, last, scratchFor(slot));
                          });
      for (size_t i = 0; i < m_open.size(); ++i) {
        const OpenCell& cell = m_open[i];
        uint8_t links = 0;
        for (int d = 0; d < kDirectionCount; ++d) {
          const StandResult& step = m_results[i * kDirectionCount + size_t(d)];
          if (!step.ok) continue;
          const int columns = std::max<int>(1, m_fallColumns[i * kDirectionCount + size_t(d)]);
          const int32_t nx = cell.x + columns * kDirectionDx[d];
          const int32_t nz = cell.z + columns * kDirectionDz[d];
          // A cell found while testing is the step's target still: no other
          // cell of its column can come within half a unit height of it.
          uint32_t target = m_knownTargets[i * kDirectionCount + size_t(d)];
          if (target == kNoCell) target = existing(nx, nz, step.y);
          if (target == kNoCell) {
            if (!addCell(nx, nz, step)) return false;
            target = uint32_t(m_grid.size() - 1);
          }
          if (columns > 1) {
            m_grid.addFall({cell.index, target, Direction(d), uint8_t(columns)});
            continue;
          }
          // A link names its cell by the move's height window (CellGrid::stepTarget).
          // A cell matched within half a unit height can lie just outside it;
          // then the link would name another cell of the column, or none: no
          // link. Inside it, no cell of the column is higher (the step landed
          // on the highest ground there), so the link names this one.
          if (m_grid.inStepWindow(cell.y, m_grid.height(target))) links |= uint8_t(1u << d);
        }
        m_grid.setLinks(cell.index, links);
      }
      if (!teleport()) return false;
      if (m_control) {
        m_control->cellsFound.store(m_grid.size(), std::memory_order_relaxed);
        m_control->stageFraction.store(
            std::min(0.99f, float(m_grid.size()) / float(std::max<uint64_t>(m_estimatedCells, 1))),
            std::memory_order_relaxed);
        if (m_control->cancelRequested.load(std::memory_order_relaxed)) {
          m_error = "flood fill: cancelled";
          return false;
        }
      }
    }
    return true;
  }

  const Level& m_level;
  const Mover& m_mover;
  CellGrid& m_grid;
  size_t m_maxCells;
  WorkerThreads m_workers;
  uint64_t m_estimatedCells;
  /// Far enough for a footprint that hung over a ledge to have cleared it, even
  /// walking off a ledge at 45 degrees to the grid (twice the footprint).
  int m_maxFallColumns;
  BuildControl* m_control;
  std::vector<OpenCell> m_open, m_next;
  /// What each step from the open cells finds: the pure geometric part of the
  /// fill, which threads compute independently.
  std::vector<StandResult> m_results;
  /// Per step: the columns to a fall's landing (FallLink::columns), or 0.
  std::vector<uint8_t> m_fallColumns;
  /// Per step that lands: the cell already at its landing when the level was
  /// tested (looked up on the threads), or kNoCell.
  std::vector<uint32_t> m_knownTargets;
  /// seedBatch's stand tests.
  std::vector<StandResult> m_seedStands;
  /// One per thread slot (WorkerThreads), made when the slot first works.
  std::vector<std::unique_ptr<Scratch>> m_scratches;
  std::vector<Teleport> m_teleports;
  std::vector<bool> m_teleportUsed;
  std::vector<uint32_t> m_pendingTeleports;
  std::unordered_map<uint64_t, std::vector<uint32_t>> m_teleportsByTile;
  std::vector<std::string> m_warnings;
  std::string m_error;
};

// Seeds on every upward-facing walkable triangle: each column whose centre lies
// inside the triangle's ground projection, at the triangle's height there.
bool seedEverywhere(const Level& level, const CellGrid& grid, float minNormalY, float stepHeight,
                    Filler& filler) {
  const float size = grid.cellSize();
  const glm::vec2 origin = grid.origin();
  // Columns seeded together. A seed's fill may reach the batch's later
  // columns, whose stand tests were then run for nothing: a batch is small.
  constexpr size_t kBatch = 64;
  std::vector<SeedColumn> batch;
  const auto seedNow = [&] {
    const bool ok = filler.seedBatch(batch);
    batch.clear();
    return ok;
  };
  for (uint32_t t = 0; t < level.triangles.size(); ++t) {
    if ((t & 1023u) == 0 && filler.cancelled()) return false;
    const glm::vec3 a = level.corner(t, 0), b = level.corner(t, 1), c = level.corner(t, 2);
    const glm::vec3 normal = glm::cross(b - a, c - a);
    const float length = glm::length(normal);
    if (!(length > 0.0f) || normal.y / length < minNormalY) continue;
    const glm::ivec2 lo = grid.columnOf(glm::min(a, glm::min(b, c)));
    const glm::ivec2 hi = grid.columnOf(glm::max(a, glm::max(b, c)));
    for (int32_t z = lo.y; z <= hi.y; ++z) {
      // Only the columns whose centres the row's centre line crosses inside
      // the triangle (and one either side for rounding): a long thin triangle
      // costs its length, not its bounding box.
      const float rowZ = origin.y + (float(z) + 0.5f) * size;
      float xLow = INFINITY, xHigh = -INFINITY;
      for (const auto& [u, v] : {std::pair(a, b), std::pair(b, c), std::pair(c, a)}) {
        if ((u.z < rowZ) == (v.z < rowZ) && u.z != rowZ) continue;
        const float x = u.z == v.z ? u.x : u.x + (v.x - u.x) * (rowZ - u.z) / (v.z - u.z);
        xLow = std::min({xLow, x, u.z == v.z ? v.x : x});
        xHigh = std::max({xHigh, x, u.z == v.z ? v.x : x});
      }
      if (!(xLow <= xHigh)) continue;
      const int32_t first = std::max(lo.x, int32_t(std::floor((xLow - origin.x) / size)) - 1);
      const int32_t last = std::min(hi.x, int32_t(std::floor((xHigh - origin.x) / size)) + 1);
      for (int32_t x = first; x <= last; ++x) {
        const glm::vec3 p = grid.columnCenter(x, z, 0.0f);
        // Inside test in the ground plane; the triangle faces up, so its
        // ground-plane winding is fixed.
        const float e0 = triArea2(a, b, p), e1 = triArea2(b, c, p), e2 = triArea2(c, a, p);
        const bool inside = (e0 <= 0 && e1 <= 0 && e2 <= 0) || (e0 >= 0 && e1 >= 0 && e2 >= 0);
        if (!inside) continue;
        // Height of the triangle's plane at p.
        const float y = a.y - (normal.x * (p.x - a.x) + normal.z * (p.z - a.z)) / normal.y;
        if (filler.existing(x, z, y) != kNoCell) continue;
        // Up to a step above: on a slope the footprint rests higher than its centre.
        batch.push_back({x, z, y, y - 0.05f, y + stepHeight});
        if (batch.size() == kBatch && !seedNow()) return false;
      }
    }
  }
  return seedNow();
}

}  // namespace

uint64_t estimateCells(const Level& level, const FloodFillParams& params) {
  const float minNormalY = std::cos(glm::radians(params.unit.maxSlopeDegrees));
  double area = 0.0;
  for (uint32_t t = 0; t < level.triangles.size(); ++t) {
    const uint16_t material = level.triangles[t].material;
    if (!params.walkableMaterials.empty() &&
        (material >= params.walkableMaterials.size() || !params.walkableMaterials[material]))
      continue;
    // In doubles: a triangle near the float range's end would overflow a float's cross product.
    const glm::dvec3 a = level.corner(t, 0), b = level.corner(t, 1), c = level.corner(t, 2);
    const glm::dvec3 normal = glm::cross(b - a, c - a);
    const double length = glm::length(normal);
    if (!(length > 0.0) || normal.y / length < double(minNormalY)) continue;
    area += 0.5 * normal.y;  // the ground-plane projection's area
  }
  const double cell = double(effectiveCellSize(params));
  if (!(cell > 0.0)) return 0;
  const double cells = area / (cell * cell);
  // Saturated: converting a double past the range is undefined.
  constexpr double kMost = double(std::numeric_limits<uint64_t>::max());
  return cells >= kMost ? std::numeric_limits<uint64_t>::max() : uint64_t(cells);
}

int machineFillThreads() {
  return std::clamp(int(std::thread::hardware_concurrency()), 1, kMaxFillThreads);
}

float effectiveCellSize(const FloodFillParams& params) {
  return params.cellSize == 0.0f ? params.unit.footprint() * 0.5f : params.cellSize;
}

namespace {

template <class Accepts>
StandResult standIf(const CollisionWorld& world, const UnitProfile& unit, glm::vec2 footprintCenter,
                    float yMin, float yMax, const std::vector<bool>& walkableTriangles,
                    const FootprintSupport* support, CandidateBlocks* near, Accepts accepts) {
  Mover mover{world, unit, std::cos(glm::radians(unit.maxSlopeDegrees))};
  if (!walkableTriangles.empty()) mover.walkableTriangles = &walkableTriangles;
  mover.footprintSupport = support;
  if (near) {
    // Everything Mover::stand tests: the footprint's column from the lowest
    // ground it looks for up to a body's height above the highest.
    thread_local std::vector<uint32_t> candidates;
    const float half = mover.halfFootprint;
    near->candidatesInBox(
        Aabb{{footprintCenter.x - half, yMin, footprintCenter.y - half},
             {footprintCenter.x + half, yMax + unit.height, footprintCenter.y + half}},
        candidates);
    mover.candidates = &candidates;
  }
  return mover.standIf(footprintCenter, yMin, yMax, accepts);
}

}  // namespace

StandResult tryStand(const CollisionWorld& world, const UnitProfile& unit,
                     glm::vec2 footprintCenter, float yMin, float yMax,
                     const std::vector<bool>& walkableTriangles, const FootprintSupport* support,
                     CandidateBlocks* near) {
  return standIf(world, unit, footprintCenter, yMin, yMax, walkableTriangles, support, near,
                 [](float) { return true; });
}

StandResult tryStandNear(const CollisionWorld& world, const UnitProfile& unit,
                         glm::vec2 footprintCenter, float height, float tolerance,
                         const std::vector<bool>& walkableTriangles,
                         const FootprintSupport* support, CandidateBlocks* near) {
  return standIf(world, unit, footprintCenter, height - unit.stepHeight, height + unit.stepHeight,
                 walkableTriangles, support, near,
                 [&](float y) { return !(std::abs(y - height) > tolerance); });
}

std::optional<std::string> fillParamsError(const Level& level, const FloodFillParams& params) {
  const Result<UnitProfile> unit = validateUnitProfile(params.unit);
  if (!unit) return "flood fill: unit " + unit.error();
  const float cellSize = effectiveCellSize(params);
  if (!std::isfinite(cellSize) || cellSize < params.unit.footprint() / 64.0f || cellSize > 100.0f) {
    return "flood fill: cellSize = " + formatFloat(cellSize) + " is out of range: from " +
           formatFloat(params.unit.footprint() / 64.0f) +
           " m (the unit's footprint / 64) to 100 m (the cell size comes from --cell, the "
           "sidecar's \"cellSize\" or the unit's size)";
  }
  if (params.maxCells < 1) return std::string("flood fill: maxCells = 0; at least 1 cell");
  if (!params.walkableMaterials.empty() &&
      params.walkableMaterials.size() != level.materials.size()) {
    return "flood fill: walkableMaterials has " + std::to_string(params.walkableMaterials.size()) +
           " entries for " + std::to_string(level.materials.size()) + " materials";
  }
  for (size_t i = 0; i < params.seeds.size(); ++i) {
    if (!isFinite(params.seeds[i]))
      return "flood fill: seed " + std::to_string(i) + " has a non-finite coordinate";
  }
  if (level.triangles.empty()) return std::string("flood fill: the level is empty");
  // Refused before any work: past the limit the fill would stop anyway, after
  // minutes on a huge level.
  const uint64_t estimate = estimateCells(level, params);
  if (estimate > params.maxCells) {
    // A file in centimetres or inches is a hundred or forty times too wide.
    const glm::vec3 extent = level.bounds.max - level.bounds.min;
    char spans[96];
    std::snprintf(spans, sizeof spans, "%.1f x %.1f m", double(extent.x), double(extent.z));
    return "flood fill: the level's walkable surfaces suggest about " + std::to_string(estimate) +
           " cells at a cell size of " + formatFloat(cellSize) +
           " m, more than maxCells = " + std::to_string(params.maxCells) +
           " (--max-cells): raise the limit or the cell size (the level spans " + spans +
           " across: navscope reads metres unless the sidecar's \"unitScale\" or --unit-scale says "
           "otherwise)";
  }
  return std::nullopt;
}

Result<GroundRaster> buildGroundRaster(const Level& level, const FloodFillParams& params,
                                       BuildControl* control) {
  if (std::optional<std::string> error = fillParamsError(level, params))
    return Result<GroundRaster>::failure(*error);
  const float cellSize = effectiveCellSize(params);
  GroundRasterParams raster;
  raster.squareSize = cellSize;
  raster.origin = glm::vec2(level.bounds.min.x, level.bounds.min.z);
  raster.reach = std::min(raster.reach, 0.25f * cellSize);
  // A square holds a few triangles' entries where the fill may find a cell.
  raster.maxEntries = std::min<uint64_t>(8 * uint64_t(params.maxCells) + 1'000'000, 1ull << 31);
  raster.threads = params.threads;
  Result<GroundRaster> built = GroundRaster::build(level, raster, control);
  if (built) return built;
  const bool cancelled = control && control->cancelRequested.load(std::memory_order_relaxed);
  return Result<GroundRaster>::failure(
      "flood fill: " + built.error() +
      (cancelled ? "" : "; raise the cell size (--cell) or lower maxCells (--max-cells)"));
}

std::vector<bool> walkableTrianglesFor(const Level& level, const FloodFillParams& params) {
  std::vector<bool> walkable;
  if (params.walkableMaterials.size() != level.materials.size()) return walkable;
  walkable.resize(level.triangles.size());
  for (size_t t = 0; t < level.triangles.size(); ++t)
    walkable[t] = params.walkableMaterials[level.triangles[t].material];
  return walkable;
}

namespace {
// The fill itself; floodFill turns running out of memory into an error.
Result<CellGrid> fill(const Level& level, const CollisionWorld& world,
                      const FloodFillParams& params, BuildControl* control,
                      std::vector<std::string>* warnings, const GroundRaster* ground);
}  // namespace

Result<CellGrid> floodFill(const Level& level, const CollisionWorld& world,
                           const FloodFillParams& params, BuildControl* control,
                           std::vector<std::string>* warnings, const GroundRaster* ground) {
  // Running out of memory is an error like any other, never an abort.
  try {
    return fill(level, world, params, control, warnings, ground);
  } catch (const std::bad_alloc&) {
    return Result<CellGrid>::failure(
        "flood fill: out of memory; raise the cell size (--cell) or lower maxCells (--max-cells)");
  }
}

namespace {

// Why seed i (at `at`, in the level file's coordinates; `onLevel`: within
// the level's bounds on the ground) added no cell: a seed placed by hand that
// stands nowhere would otherwise leave an empty graph and no word why.
std::string seedWarning(size_t i, const glm::vec3& at, const StandResult& stood,
                        const UnitProfile& unit, bool onLevel) {
  const glm::vec3 shown = glm::round(at * 1000.0f) / 1000.0f;
  const std::string where = "seed " + std::to_string(i + 1) + " at " + formatPoint(shown) + ": ";
  if (!onLevel) return where + "outside the level's bounds on the ground; the seed adds no cells";
  if (stood.hangs) {
    return where + "the unit's footprint would hang over a ledge there (ledge overhang " +
           formatFloat(unit.ledgeOverhang) + " m); the seed adds no cells";
  }
  return where + "the unit finds no ground it may stand on, with room for its body, from " +
         formatFloat(unit.height) + " m below the seed to " + formatFloat(unit.stepHeight) +
         " m above it; the seed adds no cells";
}

Result<CellGrid> fill(const Level& level, const CollisionWorld& world,
                      const FloodFillParams& params, BuildControl* control,
                      std::vector<std::string>* warnings, const GroundRaster* ground) {
  if (std::optional<std::string> error = fillParamsError(level, params))
    return Result<CellGrid>::failure(*error);
  const float cellSize = effectiveCellSize(params);
  if (control) control->stage = BuildStage::FloodFill;
  std::optional<Result<GroundRaster>> ownGround;
  if (!ground) {
    ownGround.emplace(buildGroundRaster(level, params, control));
    if (!*ownGround) return Result<CellGrid>::failure(ownGround->error());
    ground = &ownGround->value();
  }
  const FootprintSupport support(*ground, params.unit);

  CellGrid grid(cellSize, {level.bounds.min.x, level.bounds.min.z}, params.unit.stepHeight,
                params.unit.maxDrop);
  const std::vector<bool> walkableTriangles = walkableTrianglesFor(level, params);
  Mover mover{world, params.unit, std::cos(glm::radians(params.unit.maxSlopeDegrees))};
  if (!walkableTriangles.empty()) mover.walkableTriangles = &walkableTriangles;
  mover.footprintSupport = &support;
  Filler filler(level, mover, grid, params, control);

  bool ok = true;
  if (params.seeds.empty()) {
    ok = seedEverywhere(level, grid, mover.minNormalY, params.unit.stepHeight, filler);
  } else {
    for (size_t i = 0; i < params.seeds.size() && ok; ++i) {
      const glm::vec3& seed = params.seeds[i];
      // Off the level nothing stands, and its column might not fit the grid's numbers.
      if (!(seed.x >= level.bounds.min.x && seed.x <= level.bounds.max.x &&
            seed.z >= level.bounds.min.z && seed.z <= level.bounds.max.z)) {
        if (warnings)
          warnings->push_back(seedWarning(i, level.gridFrame.toFile(seed), {}, params.unit, false));
        continue;
      }
      const glm::ivec2 column = grid.columnOf(seed);
      // A seed is a point a little above the ground: look down about a unit height.
      StandResult stood;
      ok = filler.seed(column.x, column.y, seed.y - params.unit.height,
                       seed.y + params.unit.stepHeight, &stood);
      if (ok && !stood.ok && warnings)
        warnings->push_back(seedWarning(i, level.gridFrame.toFile(seed), stood, params.unit, true));
    }
  }
  if (!ok) return Result<CellGrid>::failure(filler.error());
  if (warnings)
    warnings->insert(warnings->end(), filler.warnings().begin(), filler.warnings().end());
  if (control) control->cellsFound.store(grid.size());
  grid.numberRowMajor();
  return Result<CellGrid>::success(std::move(grid));
}

}  // namespace
}  // namespace nav
