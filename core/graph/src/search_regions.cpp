#include "nav/search_regions.h"

#include <algorithm>
#include <deque>
#include <numeric>

#include "nav/nav_graph.h"
#include "nav/sector_groups.h"

namespace nav {

namespace {

// How far, on average along its convex hull, a region may fall short of the
// hull, in cells: the straight line through a region strays from its sectors
// by about that much. Chosen on the dungeon against a quarter and a whole
// cell: the query time falls with the region count, path lengths barely move.
constexpr double kMeanGapCells = 0.5;
// Walk portals whose ends are this close (cells, on the ground) are steps of one staircase.
constexpr float kStepGapCells = 1.5f;
constexpr uint32_t kNone = 0xffffffffu;

using Point = glm::dvec2;

double turn(const Point& o, const Point& a, const Point& b) {
  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

// Andrew's monotone chain: the hull's corners, counter-clockwise, none collinear.
std::vector<Point> convexHull(std::vector<Point> points) {
  std::sort(points.begin(), points.end(),
            [](const Point& a, const Point& b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  points.erase(std::unique(points.begin(), points.end()), points.end());
  if (points.size() < 3) return points;
  std::vector<Point> hull(2 * points.size());
  size_t k = 0;
  for (const Point& p : points) {
    while (k >= 2 && turn(hull[k - 2], hull[k - 1], p) <= 0.0)
      --k;
    hull[k++] = p;
  }
  for (size_t i = points.size() - 1, lower = k + 1; i > 0; --i) {
    while (k >= lower && turn(hull[k - 2], hull[k - 1], points[i - 1]) <= 0.0)
      --k;
    hull[k++] = points[i - 1];
  }
  hull.resize(k - 1);
  return hull;
}

// The hull's area beyond `area`, against the most a region may leave out.
bool nearlyConvex(const std::vector<Point>& hull, double area, double cellSize) {
  double twiceHull = 0.0, perimeter = 0.0;
  for (size_t i = 0; i < hull.size(); ++i) {
    const Point& a = hull[i];
    const Point& b = hull[(i + 1) % hull.size()];
    twiceHull += a.x * b.y - b.x * a.y;
    perimeter += glm::length(b - a);
  }
  return std::abs(twiceHull) / 2.0 - area <= kMeanGapCells * cellSize * perimeter;
}

void addCorners(const Sector& sector, std::vector<Point>& points) {
  const glm::vec3 &lo = sector.bounds.min, &hi = sector.bounds.max;
  points.insert(points.end(), {{lo.x, lo.z}, {hi.x, lo.z}, {lo.x, hi.z}, {hi.x, hi.z}});
}

double groundArea(const Sector& sector) {
  const glm::vec3 size = sector.bounds.max - sector.bounds.min;
  return double(size.x) * double(size.z);
}

// Rectangles of different floors may lie over one another on the ground: they
// never share a region, whose hull test reads the ground only.
bool overlapsOnGround(const Sector& a, const Sector& b) {
  constexpr float kTouch = 1e-4f;
  return a.bounds.min.x < b.bounds.max.x - kTouch && b.bounds.min.x < a.bounds.max.x - kTouch &&
         a.bounds.min.z < b.bounds.max.z - kTouch && b.bounds.min.z < a.bounds.max.z - kTouch;
}

// Grows regions from the largest sectors down; returns each sector's region.
std::vector<uint32_t> growRegions(const NavGraph& graph) {
  const uint32_t sectorCount = uint32_t(graph.sectors.size());
  std::vector<uint32_t> order(sectorCount);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return groundArea(graph.sectors[a]) > groundArea(graph.sectors[b]);
  });
  std::vector<uint32_t> region(sectorCount, kNone);
  uint32_t regions = 0;
  std::vector<uint32_t> members;
  std::vector<Point> hull, candidate;
  for (uint32_t seed : order) {
    if (region[seed] != kNone) continue;
    region[seed] = regions;
    members.assign(1, seed);
    const Sector& first = graph.sectors[seed];
    if (first.kind == SectorKind::Ground) {
      hull.clear();
      addCorners(first, hull);
      double area = groundArea(first);
      for (size_t i = 0; i < members.size(); ++i) {
        const Sector& sector = graph.sectors[members[i]];
        for (uint32_t p = sector.firstPortal; p < sector.firstPortal + sector.portalCount; ++p) {
          const Portal& portal = graph.portals[p];
          const uint32_t next = portal.toSector;
          if (portal.kind != PortalKind::Walk || portal.oneWay() || next >= sectorCount ||
              region[next] != kNone) {
            continue;
          }
          const Sector& other = graph.sectors[next];
          if (other.kind != SectorKind::Ground || other.surface != first.surface) continue;
          if (std::any_of(members.begin(), members.end(),
                          [&](uint32_t m) { return overlapsOnGround(graph.sectors[m], other); })) {
            continue;
          }
          candidate = hull;
          addCorners(other, candidate);
          candidate = convexHull(std::move(candidate));
          if (!nearlyConvex(candidate, area + groundArea(other), graph.cellSize)) continue;
          hull = std::move(candidate);
          area += groundArea(other);
          region[next] = regions;
          members.push_back(next);
        }
      }
    }
    ++regions;
  }
  return region;
}

}  // namespace

SearchRegions::SearchRegions(const NavGraph& graph) {
  const uint32_t sectorCount = uint32_t(graph.sectors.size());
  if (sectorCount == 0) return;
  std::vector<uint32_t> regionOf = growRegions(graph);
  const uint32_t regions = *std::max_element(regionOf.begin(), regionOf.end()) + 1;
  m_groups = SectorGroups(std::move(regionOf), regions);

  // Region portals, region by region: steps of a staircase chained into one.
  const float stepGap = kStepGapCells * graph.cellSize;
  const float stepRise = std::max(graph.unit.stepHeight, graph.cellSize);
  const auto meets = [&](const glm::vec3& a, const glm::vec3& b) {
    return glm::distance(groundOf(a), groundOf(b)) <= stepGap && std::abs(a.y - b.y) <= stepRise;
  };
  std::vector<uint32_t> regionPortalOf(graph.portals.size(), kNone);
  m_firstPortal.assign(regions + 1, 0);
  std::vector<uint32_t> out;
  std::vector<bool> used;
  for (uint32_t r = 0; r < regions; ++r) {
    m_firstPortal[r] = uint32_t(m_portals.size());
    out.clear();
    for (uint32_t s : sectors(r)) {
      const Sector& sector = graph.sectors[s];
      for (uint32_t p = sector.firstPortal; p < sector.firstPortal + sector.portalCount; ++p) {
        const Portal& portal = graph.portals[p];
        if (portal.toSector >= sectorCount) continue;
        if (portal.kind == PortalKind::Walk && of(portal.toSector) == r) continue;
        out.push_back(p);
      }
    }
    // By the region they lead to: chains form within those groups only.
    const auto regionTo = [&](uint32_t p) { return of(graph.portals[p].toSector); };
    std::stable_sort(out.begin(), out.end(),
                     [&](uint32_t a, uint32_t b) { return regionTo(a) < regionTo(b); });
    used.assign(out.size(), false);
    for (size_t i = 0, groupEnd = 0; i < out.size(); ++i) {
      if (i == groupEnd) {
        while (groupEnd < out.size() && regionTo(out[groupEnd]) == regionTo(out[i]))
          ++groupEnd;
      }
      if (used[i]) continue;
      used[i] = true;
      const Portal& seed = graph.portals[out[i]];
      const uint32_t to = of(seed.toSector);
      std::deque<uint32_t> chain{out[i]};
      const bool merges = seed.kind == PortalKind::Walk && !seed.oneWay();
      // The way back over a chain already made is that chain reversed, so a
      // region portal's reverse crosses exactly its portals.
      const uint32_t mirrored = merges && to < r && seed.reverse < regionPortalOf.size()
                                    ? regionPortalOf[seed.reverse]
                                    : kNone;
      if (mirrored != kNone) {
        chain.clear();
        for (uint32_t member : members(m_portals[mirrored])) {
          const uint32_t back = graph.portals[member].reverse;
          chain.push_front(back);
          for (size_t j = i; j < groupEnd; ++j) {
            if (out[j] == back) used[j] = true;
          }
        }
      }
      // The steps of a staircase face the way out of the region along one or
      // two perpendicular directions; portals facing each other (the two
      // sides of a narrow sector of the other region) are no staircase.
      uint32_t facing = 1u << int(seed.direction);
      for (bool grew = merges && mirrored == kNone; grew;) {
        grew = false;
        for (size_t j = i + 1; j < groupEnd; ++j) {
          const Portal& step = graph.portals[out[j]];
          if (used[j] || step.kind != PortalKind::Walk || step.oneWay()) continue;
          if (facing & (1u << int(opposite(step.direction)))) continue;
          if (meets(step.left, graph.portals[chain.back()].right)) {
            chain.push_back(out[j]);
          } else if (meets(step.right, graph.portals[chain.front()].left)) {
            chain.push_front(out[j]);
          } else {
            continue;
          }
          used[j] = true;
          facing |= 1u << int(step.direction);
          grew = true;
        }
      }
      const uint32_t index = uint32_t(m_portals.size());
      m_portals.push_back({graph.portals[chain.front()].left, graph.portals[chain.back()].right, r,
                           to, uint32_t(m_members.size()), uint32_t(chain.size())});
      for (uint32_t member : chain) {
        m_members.push_back(member);
        regionPortalOf[member] = index;
      }
    }
  }
  m_firstPortal[regions] = uint32_t(m_portals.size());
  // A chain's way back holds the reverse of its first member.
  m_reverse.assign(m_portals.size(), kNoRegionPortal);
  for (size_t i = 0; i < m_portals.size(); ++i) {
    const uint32_t back = graph.portals[members(m_portals[i])[0]].reverse;
    if (back < regionPortalOf.size() && regionPortalOf[back] != kNone)
      m_reverse[i] = regionPortalOf[back];
  }
  for (const Sector& sector : graph.sectors) {
    if (sector.kind == SectorKind::Ground) m_groundSurfaces.push_back(sector.surface);
  }
  std::sort(m_groundSurfaces.begin(), m_groundSurfaces.end());
  m_groundSurfaces.erase(std::unique(m_groundSurfaces.begin(), m_groundSurfaces.end()),
                         m_groundSurfaces.end());
}

size_t SearchRegions::memoryBytes() const {
  return m_groups.memoryBytes() +
         (m_firstPortal.capacity() + m_members.capacity() + m_reverse.capacity()) *
             sizeof(uint32_t) +
         m_portals.capacity() * sizeof(RegionPortal) +
         m_groundSurfaces.capacity() * sizeof(uint16_t);
}

}  // namespace nav
