#include "corridor_shortcuts.h"

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "nav/node_pool.h"

namespace nav {
namespace {

bool walksOneSurface(const NavGraph& graph, const Corridor& corridor) {
  const uint16_t surface = graph.sectors[corridor.sectors.front()].surface;
  for (const uint32_t s : corridor.sectors) {
    const Sector& sector = graph.sectors[s];
    if (sector.kind != SectorKind::Ground || sector.surface != surface) return false;
  }
  for (const uint32_t p : corridor.portals) {
    if ((p & kJumpPortalFlag) || graph.portals[p].kind != PortalKind::Walk) return false;
  }
  return true;
}

bool holds(const NavGraph& graph, uint32_t sector, const glm::vec3& point) {
  // Corners stand at gates, on the cells next to a portal, or on the portal.
  constexpr float kOnEdge = 1e-3f;  // [metres]
  const Aabb& box = graph.sectors[sector].bounds;
  const float upOrDown = graph.unit.stepHeight;
  return point.x >= box.min.x - kOnEdge && point.x <= box.max.x + kOnEdge &&
         point.z >= box.min.z - kOnEdge && point.z <= box.max.z + kOnEdge &&
         point.y >= box.min.y - upOrDown && point.y <= box.max.y + upOrDown;
}

// The path as the shortcuts see it: per corner, the place of the corridor
// sector it stands in (the first that holds it, in order along the corridor:
// a corner on a portal goes with the sector before it), and the length walked
// up to each corner.
struct PlacedPath {
  std::span<const glm::vec3> corners;
  std::vector<size_t> places;
  std::vector<float> walked;

  void place(const NavGraph& graph, const Corridor& corridor, std::span<const glm::vec3> path) {
    corners = path;
    places.assign(path.size(), 0);
    walked.assign(path.size(), 0.0f);
    size_t at = 0;
    for (size_t c = 0; c < path.size(); ++c) {
      if (c + 1 == path.size()) {
        at = corridor.sectors.size() - 1;
      } else if (c > 0) {
        size_t k = at;
        while (k < corridor.sectors.size() && !holds(graph, corridor.sectors[k], path[c]))
          ++k;
        if (k < corridor.sectors.size()) at = k;
      }
      places[c] = at;
      if (c > 0) walked[c] = walked[c - 1] + glm::distance(path[c - 1], path[c]);
    }
  }
};

// True when leaving out corridor sectors first + 1 .. last - 1, through walk
// portal `through`, shortens the way between the path's last corner before
// `first` and its first corner after `last`, pulled through the portals
// between them (not the narrower gates: the full pull decides).
bool shortens(const NavGraph& graph, const Corridor& corridor, const PlacedPath& path, size_t first,
              size_t last, uint32_t through) {
  // Only where the path turns in the sectors left out can it gain.
  size_t from = 0, to = path.corners.size() - 1;
  bool turns = false;
  for (size_t c = 1; c + 1 < path.corners.size(); ++c) {
    const size_t place = path.places[c];
    if (place < first) from = c;
    turns = turns || (place > first && place < last);
    if (place > last) {
      to = c;
      break;
    }
  }
  if (!turns) return false;
  thread_local std::vector<FunnelPortal> portals;
  thread_local FunnelResult pulled;
  portals.clear();
  portals.push_back({path.corners[from], path.corners[from]});
  const auto add = [&](uint32_t p) {
    portals.push_back({graph.portals[p].left, graph.portals[p].right});
  };
  for (size_t k = path.places[from]; k < first; ++k)
    add(corridor.portals[k]);
  add(through);
  for (size_t k = last; k < path.places[to]; ++k)
    add(corridor.portals[k]);
  portals.push_back({path.corners[to], path.corners[to]});
  stringPull(portals, pulled);
  return pulled.length < path.walked[to] - path.walked[from];
}

}  // namespace

void takeShortcuts(const NavGraph& graph, Corridor& corridor, FunnelResult& funnel,
                   bool recordSteps, std::vector<uint32_t>& leftOut) {
  leftOut.clear();
  const size_t count = corridor.sectors.size();
  // A path straight from start to goal is as short as any.
  if (count < 3 || funnel.corners.size() < 3 || !walksOneSurface(graph, corridor)) return;
  // Where each sector stands in the corridor (its last place, should it come twice).
  thread_local NodePool<uint32_t> places;
  places.startQuery(graph.sectors.size());
  for (size_t i = 0; i < count; ++i)
    places.touch(corridor.sectors[i], 0) = uint32_t(i);
  // Placed when a portal first leads further on in the corridor: most corridors have none.
  thread_local PlacedPath path;
  bool placed = false;
  thread_local Corridor shorter;
  shorter.clear();
  shorter.start = corridor.start;
  shorter.goal = corridor.goal;
  shorter.sectors.push_back(corridor.sectors.front());
  for (size_t i = 0; i + 1 < count;) {
    const Sector& sector = graph.sectors[corridor.sectors[i]];
    size_t farthest = i + 1;
    uint32_t through = corridor.portals[i];
    for (uint32_t p = sector.firstPortal; p < sector.firstPortal + sector.portalCount; ++p) {
      const Portal& portal = graph.portals[p];
      if (portal.kind != PortalKind::Walk || !places.seen(portal.toSector)) continue;
      const size_t j = places[portal.toSector];
      if (j <= farthest) continue;
      if (!placed) path.place(graph, corridor, funnel.corners);
      placed = true;
      if (shortens(graph, corridor, path, i, j, p)) {
        farthest = j;
        through = p;
      }
    }
    leftOut.insert(leftOut.end(), corridor.sectors.begin() + ptrdiff_t(i) + 1,
                   corridor.sectors.begin() + ptrdiff_t(farthest));
    shorter.portals.push_back(through);
    shorter.sectors.push_back(corridor.sectors[farthest]);
    i = farthest;
  }
  if (leftOut.empty()) return;
  thread_local FunnelResult pulled;
  pullCorridor(graph, shorter, pulled, recordSteps);
  if (!(pulled.length < funnel.length)) {
    leftOut.clear();
    return;
  }
  std::swap(corridor, shorter);
  std::swap(funnel, pulled);
}

}  // namespace nav
