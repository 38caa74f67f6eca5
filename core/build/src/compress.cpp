// Compression of cells into box sectors and portals.
//
// A sector is a rectangle of columns whose cells all share a surface and are
// mutually connected to their rectangle neighbours (each step works both
// ways), so the unit can go anywhere inside it. Its ground may undulate:
// heights are kept per cell where they leave the sector's plane (nav_graph.h).
// The joined cells are cut into the fewest rectangles their shape allows
// (rectangle_partition.h). Where the joins tangle, the pieces may not all be
// rectangles: rectangles are grown in them, and wherever growing without the
// cuts gives fewer, those are kept.
//
// Portals come from the cells on a sector's sides: consecutive side cells
// whose step leads into the same neighbour sector, and that agree on whether
// the neighbour steps back, form one directed portal. A two-way run therefore
// has an exact reverse portal and a one-way run has none.
#include "nav/compress.h"

#include "nav/locate.h"
#include "rectangle_partition.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <span>
#include <tuple>

namespace nav {
namespace {

// Cell heights this close to the sector's plane are not kept: the plane gives them. [metres]
constexpr float kPlanarTolerance = 0.005f;

// Cells a sector may join: each steps to the other and both are on one surface.
class CellJoins final : public JoinedSquares {
 public:
  CellJoins(const CellGrid& cells, const std::vector<uint16_t>& surfaceOfMaterial)
      : m_cells(cells) {
    // Each cell's surface is looked up once, unless every material is on surface 0.
    if (std::any_of(surfaceOfMaterial.begin(), surfaceOfMaterial.end(),
                    [](uint16_t s) { return s != 0; })) {
      m_surface.resize(cells.size());
      for (uint32_t c = 0; c < cells.size(); ++c) {
        const uint16_t material = cells[c].material;
        m_surface[c] = material < surfaceOfMaterial.size() ? surfaceOfMaterial[material] : 0;
      }
    }
  }

  uint16_t surface(uint32_t cell) const { return m_surface.empty() ? 0 : m_surface[cell]; }
  uint32_t squareCount() const override { return uint32_t(m_cells.size()); }
  uint32_t joined(uint32_t cell, Direction d) const override {
    const uint32_t next = m_cells.neighbor(cell, d);
    if (next == kNoCell || surface(next) != surface(cell)) return kNoCell;
    return m_cells.neighbor(next, opposite(d)) == cell ? next : kNoCell;
  }

  void joinedAhead(uint32_t first, uint32_t last, uint32_t* right, uint32_t* up) const override {
    if (!m_cells.numberedRowMajor()) {
      JoinedSquares::joinedAhead(first, last, right, up);
      return;
    }
    m_cells.mutualStepsAhead(first, last, right, up);
    if (m_surface.empty()) return;
    for (uint32_t c = first; c < last; ++c) {
      for (uint32_t* next : {&right[c - first], &up[c - first]}) {
        if (*next != kNoCell && surface(*next) != surface(c)) *next = kNoCell;
      }
    }
  }

 private:
  const CellGrid& m_cells;
  std::vector<uint16_t> m_surface;
};

// Sectors' cells: rectangle r holds cells[start[r] .. start[r + 1]), in rows
// along +X stacked along +Z.
struct Rectangles {
  /// Each cell's rectangle, kNoSector until it has one.
  std::vector<uint32_t> rectangleOf;
  std::vector<uint32_t> cells;
  std::vector<uint32_t> start{0};

  explicit Rectangles(size_t cellCount) : rectangleOf(cellCount, kNoSector) {
    cells.reserve(cellCount);
  }
  size_t count() const { return start.size() - 1; }
  std::span<const uint32_t> cellsOf(size_t r) const {
    return std::span<const uint32_t>(cells).subspan(start[r], start[r + 1] - start[r]);
  }
  // The cells leave any rectangle they were in before (which is then never read).
  void add(std::span<const uint32_t> rectangle) {
    const uint32_t r = uint32_t(count());
    for (uint32_t c : rectangle) {
      cells.push_back(c);
      rectangleOf[c] = r;
    }
    start.push_back(uint32_t(cells.size()));
  }
};

// Grows a rectangle from `first` over the joins step(cell, d) gives, among
// the cells isFree accepts: a row along +X, then rows stacked along +Z while
// each is as long and joined along +X. Returns the row length.
template <class Step, class IsFree>
size_t growRectangle(uint32_t first, Step step, IsFree isFree, std::vector<uint32_t>& rectangle) {
  auto mergeable = [&](uint32_t cell, Direction d) {
    const uint32_t next = step(cell, d);
    return next != kNoCell && isFree(next) ? next : kNoCell;
  };
  rectangle.assign(1, first);
  for (uint32_t next = mergeable(first, Direction::PlusX); next != kNoCell;
       next = mergeable(rectangle.back(), Direction::PlusX))
    rectangle.push_back(next);
  const size_t length = rectangle.size();
  for (size_t row = 0;; row += length) {
    const size_t nextRow = rectangle.size();
    for (size_t i = 0; i < length; ++i) {
      const uint32_t next = mergeable(rectangle[row + i], Direction::PlusZ);
      // Within the new row each cell must be joined to the previous one.
      if (next == kNoCell || (i > 0 && step(rectangle.back(), Direction::PlusX) != next)) break;
      rectangle.push_back(next);
    }
    if (rectangle.size() - nextRow != length) {
      rectangle.resize(nextRow);
      return length;
    }
  }
}

// Rectangles grown from each lowest free cell over the partition's uncut joins
// (or over all joins). False when cancelled.
bool growAll(const RectanglePartition& partition, bool followCuts, const SquareOrder& order,
             Rectangles& out, BuildControl* control, float firstFraction, float lastFraction) {
  auto step = [&](uint32_t cell, Direction d) {
    return followCuts ? partition.neighbor(cell, d) : partition.joined(cell, d);
  };
  auto isFree = [&](uint32_t cell) { return out.rectangleOf[cell] == kNoSector; };
  std::vector<uint32_t> rectangle;
  size_t visited = 0;
  for (uint32_t i = 0; i < order.size(); ++i) {
    const uint32_t c = order[i];
    if (control && (++visited & 65535u) == 0) {
      const float done = float(visited) / float(order.size());
      control->stageFraction.store(firstFraction + (lastFraction - firstFraction) * done,
                                   std::memory_order_relaxed);
      if (control->cancelRequested.load(std::memory_order_relaxed)) return false;
    }
    if (!isFree(c)) continue;
    growRectangle(c, step, isFree, rectangle);
    out.add(rectangle);
  }
  return true;
}

// The rectangles pick(cell) names ({partition, rectangle}), each taken once,
// numbered in the row-major order of their first cells.
template <class Pick>
Rectangles renumbered(const SquareOrder& order, Pick pick) {
  Rectangles result(order.size());
  for (uint32_t i = 0; i < order.size(); ++i) {
    const uint32_t c = order[i];
    const auto [from, r] = pick(c);
    if (from->cells[from->start[r]] == c) result.add(from->cellsOf(r));
  }
  return result;
}

// Merges two partitions of the same cells, taking, for each smallest group of
// cells that both cover with whole rectangles, the one with fewer rectangles
// there (ties keep `a`).
Rectangles fewerPerGroup(const Rectangles& a, const Rectangles& b, const SquareOrder& order) {
  // Union-find over a's rectangles then b's: a cell joins its two rectangles.
  std::vector<uint32_t> parent(a.count() + b.count());
  std::iota(parent.begin(), parent.end(), 0u);
  auto find = [&](uint32_t x) {
    while (parent[x] != x)
      x = parent[x] = parent[parent[x]];
    return x;
  };
  for (uint32_t c = 0; c < a.rectangleOf.size(); ++c) {
    const uint32_t x = find(a.rectangleOf[c]), y = find(uint32_t(a.count()) + b.rectangleOf[c]);
    if (x != y) parent[std::max(x, y)] = std::min(x, y);
  }
  // a's rectangles minus b's, per group; a's rectangles left without cells are alone in theirs.
  std::vector<int64_t> surplusOfA(parent.size(), 0);
  for (uint32_t r = 0; r < a.count(); ++r)
    ++surplusOfA[find(r)];
  for (uint32_t r = 0; r < b.count(); ++r)
    --surplusOfA[find(uint32_t(a.count()) + r)];
  return renumbered(order, [&](uint32_t c) {
    const bool useB = surplusOfA[find(a.rectangleOf[c])] > 0;
    return useB ? std::pair(&b, b.rectangleOf[c]) : std::pair(&a, a.rectangleOf[c]);
  });
}

// The cells covered with rectangles: the fewest the joins allow; none when cancelled.
std::optional<Rectangles> coverWithRectangles(const CellGrid& cells, const CellJoins& joins,
                                              const SquareOrder& order, int threads,
                                              BuildControl* control) {
  const RectanglePartition partition(joins, order, threads);
  if (control && control->cancelRequested.load(std::memory_order_relaxed)) return std::nullopt;
  Rectangles rectangles(cells.size());
  if (!growAll(partition, true, order, rectangles, control, 0.0f, 0.5f)) return std::nullopt;
  if (!partition.tangled()) return rectangles;
  // Tangled joins may leave pieces that cost more rectangles than growing
  // without the cuts: wherever they do, that is kept instead.
  Rectangles greedy(cells.size());
  if (!growAll(partition, false, order, greedy, control, 0.5f, 1.0f)) return std::nullopt;
  return fewerPerGroup(rectangles, greedy, order);
}

// Cuts the rectangles so that no side is longer than maxSide cells, into
// pieces as even as the cells allow, each rectangle's pieces numbered in rows
// along +X stacked along +Z. A sector's portals lie along its sides: bounded
// sides bound the portals a sector has, and the work of widening them (each
// end against every other), however big the level. In place: a rectangle's
// pieces hold its cells, so they take its place in `cells`, and nothing the
// size of the level is allocated again (on a 10 M-cell level, 80 MB of fresh
// pages cost more than the cutting).
void cutSidesUpTo(Rectangles& rectangles, const CellGrid& cells, int32_t maxSide) {
  const auto sizeOf = [&](size_t r) {
    const std::span<const uint32_t> rect = rectangles.cellsOf(r);
    const Cell first = cells[rect.front()], last = cells[rect.back()];
    return glm::ivec2(last.x - first.x + 1, last.z - first.z + 1);
  };
  const auto fits = [&](glm::ivec2 size) { return size.x <= maxSide && size.y <= maxSide; };
  size_t firstCut = 0;
  while (firstCut < rectangles.count() && fits(sizeOf(firstCut)))
    ++firstCut;
  if (firstCut == rectangles.count()) return;
  std::vector<uint32_t> start(rectangles.start.begin(),
                              rectangles.start.begin() + ptrdiff_t(firstCut) + 1);
  std::vector<uint32_t> rect;
  for (size_t r = firstCut; r < rectangles.count(); ++r) {
    const glm::ivec2 size = sizeOf(r);
    const uint32_t begin = rectangles.start[r], end = rectangles.start[r + 1];
    if (fits(size)) {
      const uint32_t piece = uint32_t(start.size() - 1);
      for (uint32_t i = begin; i < end; ++i)
        rectangles.rectangleOf[rectangles.cells[i]] = piece;
      start.push_back(end);
      continue;
    }
    rect.assign(rectangles.cells.begin() + begin, rectangles.cells.begin() + end);
    const int32_t width = size.x, depth = size.y;
    const int32_t across = (width + maxSide - 1) / maxSide, down = (depth + maxSide - 1) / maxSide;
    uint32_t next = begin;
    for (int32_t j = 0; j < down; ++j) {
      for (int32_t i = 0; i < across; ++i) {
        const uint32_t piece = uint32_t(start.size() - 1);
        for (int32_t row = j * depth / down; row < (j + 1) * depth / down; ++row) {
          for (int32_t column = i * width / across; column < (i + 1) * width / across; ++column) {
            const uint32_t cell = rect[size_t(row) * size_t(width) + size_t(column)];
            rectangles.cells[next++] = cell;
            rectangles.rectangleOf[cell] = piece;
          }
        }
        start.push_back(next);
      }
    }
  }
  rectangles.start = std::move(start);
}

// The least-squares plane y = a*x + b*z + c through the heights of a w x d
// rectangle of cells (row by row, x fastest) whose first cell's centre is at
// `first`, and how far the farthest height lies from it.
std::pair<glm::vec3, float> fitPlane(std::span<const float> heights, size_t width, glm::vec2 first,
                                     float cellSize) {
  const size_t depth = heights.size() / width;
  // Over the places (i, r) of a full rectangle i and r are uncorrelated: the
  // two slopes fit independently.
  const double meanI = double(width - 1) / 2.0, meanR = double(depth - 1) / 2.0;
  double sum = 0, sumI = 0, sumR = 0;
  for (size_t k = 0; k < heights.size(); ++k) {
    const double h = heights[k];
    sum += h;
    sumI += (double(k % width) - meanI) * h;
    sumR += (double(k / width) - meanR) * h;
  }
  const double n = double(heights.size());
  const double spreadI = n * double(width * width - 1) / 12.0;
  const double spreadR = n * double(depth * depth - 1) / 12.0;
  const double slopeI = spreadI > 0 ? sumI / spreadI : 0.0;
  const double slopeR = spreadR > 0 ? sumR / spreadR : 0.0;
  const double mean = sum / n;
  double farthest = 0.0;
  for (size_t k = 0; k < heights.size(); ++k) {
    const double fit =
        mean + slopeI * (double(k % width) - meanI) + slopeR * (double(k / width) - meanR);
    farthest = std::max(farthest, std::abs(double(heights[k]) - fit));
  }
  const double a = slopeI / cellSize, b = slopeR / cellSize;
  const double centerX = first.x + cellSize * meanI, centerZ = first.y + cellSize * meanR;
  return {glm::vec3(float(a), float(b), float(mean - a * centerX - b * centerZ)), float(farthest)};
}

// A ground sector over a rectangle of cells (row by row, x fastest), its
// heights kept in graph.cellHeights where they leave its plane.
Sector makeSector(const CellGrid& grid, std::span<const uint32_t> cells, uint16_t surface,
                  NavGraph& graph) {
  Sector sector{};
  const Cell first = grid[cells.front()];
  const Cell last = grid[cells.back()];
  sector.firstColumn = {first.x, first.z};
  sector.lastColumn = {last.x, last.z};
  std::vector<float> heights(cells.size());
  for (size_t i = 0; i < cells.size(); ++i)
    heights[i] = grid.height(cells[i]);
  const auto [yMin, yMax] = std::minmax_element(heights.begin(), heights.end());
  const float size = grid.cellSize();
  const glm::vec2 origin = grid.origin();
  sector.bounds.min = {origin.x + float(first.x) * size, *yMin, origin.y + float(first.z) * size};
  sector.bounds.max = {origin.x + float(last.x + 1) * size, *yMax,
                       origin.y + float(last.z + 1) * size};
  const size_t width = size_t(last.x - first.x + 1);
  const glm::vec3 center = grid.columnCenter(first.x, first.z, 0.0f);
  const auto [plane, farthest] = fitPlane(heights, width, {center.x, center.z}, size);
  sector.heightPlane = plane;
  sector.firstHeight = kNoHeights;
  if (farthest > kPlanarTolerance) {
    sector.firstHeight = uint32_t(graph.cellHeights.size());
    sector.heightBase = *yMin;
    sector.heightStep = std::max(kMinHeightStep, (*yMax - *yMin) / 65535.0f);
    for (const float h : heights) {
      graph.cellHeights.push_back(
          uint16_t(std::lround(std::min(65535.0f, (h - *yMin) / sector.heightStep))));
    }
  }
  sector.surface = surface;
  sector.kind = SectorKind::Ground;
  sector.waypath = kNoWaypath;
  return sector;
}

// One side cell's crossing: which sector it leads to and whether the step
// back works; for a fall, how many columns away it lands (else 0).
struct Crossing {
  uint32_t toSector;
  bool twoWay;
  uint8_t fallColumns = 0;
  bool operator==(const Crossing&) const = default;
};

// Side cells of a sector falling the same way into the same sector.
struct FallRun {
  uint32_t fromSector;
  Direction direction;
  /// The side cells at the run's two ends.
  uint32_t firstCell, lastCell;
  Crossing crossing;
};

// Each run of falls becomes a fall sector: the columns the unit crosses at its
// height with its footprint over the ledge, entered by a portal along the
// side it walks off and left by one down into the sector it lands in. Both
// one-way.
void addFallSectors(NavGraph& graph, const CellGrid& cells, const std::vector<FallRun>& runs) {
  const float size = cells.cellSize();
  for (const FallRun& run : runs) {
    const int d = int(run.direction);
    const glm::vec3 walk(float(kDirectionDx[d]), 0.0f, float(kDirectionDz[d]));
    const Cell first = cells[run.firstCell], last = cells[run.lastCell];
    const float top = std::max(first.y, last.y);
    // The portal off the side spans the side cells' centres, on their shared edge.
    glm::vec3 a = cells.center(run.firstCell) + walk * (0.5f * size);
    glm::vec3 b = cells.center(run.lastCell) + walk * (0.5f * size);
    if (cross2(groundOf(walk), groundOf(a) - groundOf(b)) > 0.0f) std::swap(a, b);
    const float across = float(run.crossing.fallColumns - 1) * size;
    glm::vec3 landingA = a + walk * across, landingB = b + walk * across;
    landingA.y = landingB.y = top;

    Sector fall{};
    const glm::ivec2 step(kDirectionDx[d], kDirectionDz[d]);
    const glm::ivec2 cornerA = glm::ivec2(first.x, first.z) + step;
    const glm::ivec2 cornerB =
        glm::ivec2(last.x, last.z) + step * int(run.crossing.fallColumns - 1);
    fall.firstColumn = glm::min(cornerA, cornerB);
    fall.lastColumn = glm::max(cornerA, cornerB);
    const glm::vec2 origin = cells.origin();
    const float landing = graph.sectors[run.crossing.toSector].bounds.min.y;
    fall.bounds.min = {origin.x + float(fall.firstColumn.x) * size, std::min(landing, top),
                       origin.y + float(fall.firstColumn.y) * size};
    fall.bounds.max = {origin.x + float(fall.lastColumn.x + 1) * size, top,
                       origin.y + float(fall.lastColumn.y + 1) * size};
    fall.heightPlane = {0.0f, 0.0f, top};
    fall.surface = graph.sectors[run.fromSector].surface;
    fall.kind = SectorKind::Fall;
    fall.waypath = kNoWaypath;
    const uint32_t index = uint32_t(graph.sectors.size());
    graph.sectors.push_back(fall);
    graph.bounds.grow(fall.bounds);
    graph.portals.push_back(
        {run.fromSector, index, a, b, run.direction, PortalKind::Walk, 0, kNoPortal});
    graph.portals.push_back({index, run.crossing.toSector, landingA, landingB, run.direction,
                             PortalKind::Walk, 0, kNoPortal});
  }
}

// A zone turned on the grid covers only part of its box: narrows [lo, hi] (the
// sector's part of the box) to the sector's cells the zone holds whole; false
// when it holds none.
bool cellsInTurnedZone(const NavGraph& graph, const Sector& sector, const Aabb& zone,
                       const ZoneCorners& corners, glm::vec3& lo, glm::vec3& hi) {
  const float size = graph.cellSize;
  Aabb held;
  for (int32_t z = sector.firstColumn.y; z <= sector.lastColumn.y; ++z) {
    for (int32_t x = sector.firstColumn.x; x <= sector.lastColumn.x; ++x) {
      const glm::vec2 min = graph.origin + glm::vec2(float(x), float(z)) * size;
      if (!zoneHoldsSquare(zone, corners, min, min + glm::vec2(size))) continue;
      held.grow(glm::vec3(min.x, lo.y, min.y));
      held.grow(glm::vec3(min.x + size, hi.y, min.y + size));
    }
  }
  if (held.empty()) return false;
  lo = held.min;
  hi = held.max;
  return true;
}

// One direction of a device: from the sectors its going-in zone covers to the
// sector of the cell the fill spawned at the centre of its coming-out zone.
void addDeviceDirection(NavGraph& graph, const CellGrid& cells,
                        const std::vector<uint32_t>& sectorOf, uint32_t device, bool reverse) {
  const DeviceSpec& spec = graph.devices[device];
  const Aabb& in = reverse ? spec.exit : spec.entry;
  const Aabb& out = reverse ? spec.entry : spec.exit;
  const glm::ivec2 column = cells.columnOf(out.center());
  const uint32_t exitCell = cells.findInColumn(column.x, column.y, out.min.y, out.max.y);
  if (exitCell == kNoCell) return;  // the fill never got there (or had no room: a build warning)
  const uint32_t target = sectorOf[exitCell];
  const size_t groundSectors = graph.sectors.size();
  const std::optional<ZoneCorners>& corners = reverse ? spec.exitCorners : spec.entryCorners;
  for (uint32_t s = 0; s < groundSectors; ++s) {
    const Sector& sector = graph.sectors[s];
    glm::vec3 lo = glm::max(sector.bounds.min, in.min);
    glm::vec3 hi = glm::min(sector.bounds.max, in.max);
    // Room for at least one whole cell of the sector inside the zone.
    if (hi.x - lo.x < graph.cellSize || hi.z - lo.z < graph.cellSize || lo.y > hi.y) continue;
    if (corners && !cellsInTurnedZone(graph, sector, in, *corners, lo, hi)) continue;
    const glm::vec2 middle = (glm::vec2(lo.x, lo.z) + glm::vec2(hi.x, hi.z)) * 0.5f;
    const glm::vec3 entry(middle.x, graph.heightAt(sector, middle.x, middle.y), middle.y);
    graph.deviceLinks.push_back({device, Aabb{lo, hi}, entry, cells.center(exitCell), reverse});
    graph.portals.push_back({s, target, entry, entry, Direction::PlusX, PortalKind::Device,
                             uint32_t(graph.deviceLinks.size() - 1), kNoPortal});
  }
}

void addDevicePortals(NavGraph& graph, const CellGrid& cells,
                      const std::vector<uint32_t>& sectorOf) {
  const size_t firstDevicePortal = graph.portals.size();
  for (uint32_t d = 0; d < graph.devices.size(); ++d) {
    addDeviceDirection(graph, cells, sectorOf, d, false);
    if (graph.devices[d].twoWay) addDeviceDirection(graph, cells, sectorOf, d, true);
  }
  // A two-way device's portals pair up where one leads back to where the other started.
  for (size_t p = firstDevicePortal; p < graph.portals.size(); ++p) {
    Portal& portal = graph.portals[p];
    if (portal.reverse != kNoPortal) continue;
    const DeviceLink& link = graph.deviceLinks[portal.link];
    for (size_t q = p + 1; q < graph.portals.size(); ++q) {
      Portal& other = graph.portals[q];
      const DeviceLink& otherLink = graph.deviceLinks[other.link];
      if (other.reverse == kNoPortal && otherLink.device == link.device &&
          otherLink.reverse != link.reverse && other.fromSector == portal.toSector &&
          other.toSector == portal.fromSector) {
        portal.reverse = uint32_t(q);
        other.reverse = uint32_t(p);
        break;
      }
    }
  }
}

// Each waypath becomes a sector of its own, joined both ways to the ground
// sector under each of its points.
void addWaypaths(NavGraph& graph, std::vector<std::string>* warnings) {
  for (uint32_t w = 0; w < graph.waypaths.size(); ++w) {
    const WaypathSpec& waypath = graph.waypaths[w];
    std::vector<Location> located;
    for (const glm::vec3& point : waypath.points)
      located.push_back(locateSector(graph, point));
    Sector sector{};
    for (const glm::vec3& point : waypath.points)
      sector.bounds.grow(point);
    sector.heightPlane = {0.0f, 0.0f, sector.bounds.center().y};
    sector.kind = SectorKind::Waypath;
    sector.waypath = w;
    const uint32_t index = uint32_t(graph.sectors.size());
    graph.sectors.push_back(sector);
    graph.bounds.grow(sector.bounds);
    for (uint32_t i = 0; i < located.size(); ++i) {
      if (located[i].sector == kNoSector) {
        if (warnings) {
          warnings->push_back("waypath '" + waypath.id + "': point " + std::to_string(i) +
                              " is on no sector the unit can reach");
        }
        continue;
      }
      const glm::vec3 at = located[i].point;
      const uint32_t on = uint32_t(graph.portals.size());
      graph.portals.push_back(
          {located[i].sector, index, at, at, Direction::PlusX, PortalKind::Waypath, i, on + 1});
      graph.portals.push_back(
          {index, located[i].sector, at, at, Direction::PlusX, PortalKind::Waypath, i, on});
    }
  }
}

}  // namespace

NavGraph compressCells(const CellGrid& cells, const CompressParams& params,
                       CellSectors* cellSectors, std::vector<std::string>* warnings,
                       BuildControl* control) {
  const UnitProfile& unit = params.unit;
  NavGraph graph;
  graph.unit = unit;
  graph.cellSize = cells.cellSize();
  graph.origin = cells.origin();
  graph.surfaces = params.surfaces.empty() ? defaultSurfaces() : params.surfaces;
  graph.devices = params.devices;
  graph.waypaths = params.waypaths;

  // Lowest row first, then column, then height: deterministic and independent of fill order.
  const SquareOrder order = cells.numberedRowMajor() ? SquareOrder(uint32_t(cells.size()))
                                                     : SquareOrder(cells.rowMajorOrder());

  const CellJoins joins(cells, params.surfaceOfMaterial);
  std::optional<Rectangles> covered =
      coverWithRectangles(cells, joins, order, params.threads, control);
  if (!covered) return graph;
  Rectangles& rectangles = *covered;
  cutSidesUpTo(rectangles, cells, std::max(1, params.maxSectorSide));
  for (size_t r = 0; r < rectangles.count(); ++r) {
    const std::span<const uint32_t> rect = rectangles.cellsOf(r);
    graph.sectors.push_back(makeSector(cells, rect, joins.surface(rect.front()), graph));
    graph.bounds.grow(graph.sectors.back().bounds);
  }
  const std::vector<uint32_t>& sectorOf = rectangles.rectangleOf;

  // Portals, sector by sector, side by side.
  const float size = cells.cellSize();
  std::map<std::tuple<uint32_t, uint32_t, int, int32_t>, uint32_t> portalByKey;
  std::vector<FallRun> falls;
  for (uint32_t s = 0; s < graph.sectors.size(); ++s) {
    Sector& sector = graph.sectors[s];
    sector.firstPortal = uint32_t(graph.portals.size());
    const int32_t width = sector.lastColumn.x - sector.firstColumn.x + 1;
    const int32_t depth = sector.lastColumn.y - sector.firstColumn.y + 1;
    const std::span<const uint32_t> rect = rectangles.cellsOf(s);
    for (int d = 0; d < kDirectionCount; ++d) {
      const Direction direction = Direction(d);
      const bool alongX = kDirectionDz[d] != 0;  // side runs along X when stepping in Z
      const int32_t sideLength = alongX ? width : depth;
      auto sideCell = [&](int32_t i) {
        const int32_t col = alongX ? i : (kDirectionDx[d] > 0 ? width - 1 : 0);
        const int32_t row = alongX ? (kDirectionDz[d] > 0 ? depth - 1 : 0) : i;
        return rect[size_t(row) * size_t(width) + size_t(col)];
      };
      auto crossingOf = [&](uint32_t cell) -> std::optional<Crossing> {
        const uint32_t next = cells.neighbor(cell, direction);
        if (next == kNoCell) {
          const FallLink* fall = cells.fallFrom(cell, direction);
          if (!fall) return std::nullopt;
          return Crossing{sectorOf[fall->to], false, fall->columns};
        }
        const bool back = cells.neighbor(next, opposite(direction)) == cell;
        return Crossing{sectorOf[next], back};
      };
      int32_t i = 0;
      while (i < sideLength) {
        const std::optional<Crossing> crossing = crossingOf(sideCell(i));
        if (!crossing) {
          ++i;
          continue;
        }
        int32_t end = i + 1;
        while (end < sideLength && crossingOf(sideCell(end)) == crossing)
          ++end;
        if (crossing->fallColumns > 0) {
          falls.push_back({s, direction, sideCell(i), sideCell(end - 1), *crossing});
          i = end;
          continue;
        }
        const glm::vec3 first = cells.center(sideCell(i));
        const glm::vec3 last = cells.center(sideCell(end - 1));
        // The crossing line is the shared edge; laterally the portal spans cell centres.
        const glm::vec3 offset(kDirectionDx[d] * size * 0.5f, 0.0f, kDirectionDz[d] * size * 0.5f);
        glm::vec3 a = first + offset, b = last + offset;
        const glm::vec2 walk{float(kDirectionDx[d]), float(kDirectionDz[d])};
        if (cross2(walk, groundOf(a) - groundOf(b)) > 0.0f) std::swap(a, b);
        Portal portal{s, crossing->toSector, a, b, direction, PortalKind::Walk, 0, kNoPortal};
        const int32_t lateralStart = alongX ? cells[sideCell(i)].x : cells[sideCell(i)].z;
        portalByKey[{s, crossing->toSector, d, lateralStart}] = uint32_t(graph.portals.size());
        if (crossing->twoWay) {
          // The reverse side was (or will be) grouped identically; link once both exist.
          const auto reverse =
              portalByKey.find({crossing->toSector, s, int(opposite(direction)), lateralStart});
          if (reverse != portalByKey.end()) {
            portal.reverse = reverse->second;
            graph.portals[reverse->second].reverse = uint32_t(graph.portals.size());
          }
        }
        graph.portals.push_back(portal);
        i = end;
      }
    }
    sector.portalCount = uint32_t(graph.portals.size()) - sector.firstPortal;
  }

  addDevicePortals(graph, cells, sectorOf);
  addFallSectors(graph, cells, falls);
  // Waypath sectors come after the ground sectors the index holds: it stays valid.
  graph.index = SectorIndex(graph);
  addWaypaths(graph, warnings);
  sortPortalsBySource(graph);
  if (cellSectors) *cellSectors = sectorOf;
  return graph;
}

}  // namespace nav
