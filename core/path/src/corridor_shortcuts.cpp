#include "corridor_shortcuts.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "nav/geometry.h"
#include "nav/node_pool.h"

namespace nav {
namespace {

// What the rounding of a length bound through a portal may take off the true
// bound, a part in this of the length (and of a metre). Far above float
// rounding, far below any saving that matters.
constexpr float kBoundRounding = 1e-5f;

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

bool boxHolds(const NavGraph& graph, uint32_t sector, const glm::vec3& point) {
  // Corners stand at gates, on the cells next to a portal, or on the portal.
  constexpr float kOnEdge = 1e-3f;  // [metres]
  const Aabb& box = graph.sectors[sector].bounds;
  const float upOrDown = graph.unit.stepHeight;
  return point.x >= box.min.x - kOnEdge && point.x <= box.max.x + kOnEdge &&
         point.z >= box.min.z - kOnEdge && point.z <= box.max.z + kOnEdge &&
         point.y >= box.min.y - upOrDown && point.y <= box.max.y + upOrDown;
}

// How much longer the path is through corner c than straight between the
// corners around it.
float detourAt(std::span<const glm::vec3> corners, size_t c) {
  return glm::distance(corners[c - 1], corners[c]) + glm::distance(corners[c], corners[c + 1]) -
         glm::distance(corners[c - 1], corners[c + 1]);
}

// The path as the shortcuts see it: per corner, the place of the corridor
// sector it stands in (the first that holds it, in order along the corridor:
// a corner on a portal goes with the sector before it), and the length walked
// up to each corner.
struct PlacedPath {
  std::span<const glm::vec3> corners;
  std::vector<size_t> places;
  std::vector<float> walked;
  /// Per turn (a corner but the start and the goal where the path is longer
  /// than straight between the corners around it by more than findTurns'
  /// `least`), a point half a cell from it into the inside of the turn; and
  /// per corridor place k, the first turn placed at k or later.
  std::vector<glm::vec2> insides;
  std::vector<size_t> turnsFrom;

  void place(const NavGraph& graph, const Corridor& corridor, std::span<const glm::vec3> path) {
    const size_t count = corridor.sectors.size();
    corners = path;
    places.assign(path.size(), 0);
    walked.assign(path.size(), 0.0f);
    size_t at = 0;
    for (size_t c = 0; c < path.size(); ++c) {
      if (c + 1 == path.size()) {
        at = count - 1;
      } else if (c > 0) {
        size_t k = at;
        while (k < count && !boxHolds(graph, corridor.sectors[k], path[c]))
          ++k;
        if (k < count) at = k;
      }
      places[c] = at;
      if (c > 0) walked[c] = walked[c - 1] + glm::distance(path[c - 1], path[c]);
    }
  }

  /// `detours`: detourAt of each corner but the start and the goal.
  void findTurns(size_t count, std::span<const float> detours, float least, float near) {
    insides.clear();
    turnsFrom.assign(count + 2, 0);
    for (size_t c = 1; c + 1 < corners.size(); ++c) {
      if (!(detours[c - 1] > least)) continue;
      const glm::vec2 turn = groundOf(corners[c]);
      const glm::vec2 inside =
          unitOrZero(groundOf(corners[c - 1]) - turn) + unitOrZero(groundOf(corners[c + 1]) - turn);
      insides.push_back(turn + near * unitOrZero(inside));
      ++turnsFrom[places[c] + 1];
    }
    // Turns are placed in corridor order: counts become where each place's turns begin.
    for (size_t k = 1; k < turnsFrom.size(); ++k)
      turnsFrom[k] += turnsFrom[k - 1];
  }

  /// True when the path turns at corridor place `first` or the next with
  /// `sector` on the inside of the turn, next to the corner: a way through
  /// it may cut that corner.
  bool turnsBeside(const Sector& sector, size_t first, float near) const {
    const Aabb& box = sector.bounds;
    for (size_t c = turnsFrom[first]; c < turnsFrom[first + 2]; ++c) {
      const glm::vec2& p = insides[c];
      if (p.x >= box.min.x - near && p.x <= box.max.x + near && p.y >= box.min.z - near &&
          p.y <= box.max.z + near)
        return true;
    }
    return false;
  }
  /// True when the path turns at corridor place `first` or the next.
  bool turnsAt(size_t first) const { return turnsFrom[first + 2] > turnsFrom[first]; }
};

// How much walking from corridor sector `first` through the portals `via`
// (into sectors the corridor does not hold, then into corridor sector `last`)
// in place of the corridor's sectors between shortens the way between the
// path's last corner before `first` and its first corner after `last`, pulled
// through the portals between them (not the narrower gates: the full pull
// decides). Only where the path turns in the sectors it leaves, or, when
// `via` enters another sector, at either end, can it gain. 0 when it cannot
// save more than `least`.
float saving(const NavGraph& graph, const Corridor& corridor, const PlacedPath& path, size_t first,
             size_t last, std::span<const uint32_t> via, float least) {
  const bool entersOther = via.size() > 1;
  size_t from = 0, to = path.corners.size() - 1;
  bool turns = false;
  for (size_t c = 1; c + 1 < path.corners.size(); ++c) {
    const size_t place = path.places[c];
    if (place < first) from = c;
    turns = turns || (place > first && place < last) ||
            (entersOther && (place == first || place == last));
    if (place > last) {
      to = c;
      break;
    }
  }
  if (!turns) return 0.0f;
  // No way between the two corners is shorter than the straight line, nor
  // than the shortest in the ground plane through any one of the portals
  // `via` (less a hair for the rounding of that bound): most pulls that
  // cannot save are never made.
  const float walked = path.walked[to] - path.walked[from];
  const glm::vec3& a = path.corners[from];
  const glm::vec3& b = path.corners[to];
  float shortest = glm::distance(a, b);
  for (const uint32_t p : via) {
    const glm::vec2 left = groundOf(graph.portals[p].left),
                    right = groundOf(graph.portals[p].right);
    const glm::vec2 at =
        glm::mix(left, right, touchingPoint(left, right, groundOf(a), groundOf(b)));
    const float through = glm::distance(groundOf(a), at) + glm::distance(at, groundOf(b));
    shortest = std::max(shortest, through - kBoundRounding * (1.0f + through));
  }
  if (walked - shortest <= least) return 0.0f;
  thread_local std::vector<FunnelPortal> portals;
  thread_local FunnelResult pulled;
  portals.clear();
  portals.push_back({path.corners[from], path.corners[from]});
  const auto add = [&](uint32_t p) {
    portals.push_back({graph.portals[p].left, graph.portals[p].right});
  };
  for (size_t k = path.places[from]; k < first; ++k)
    add(corridor.portals[k]);
  for (const uint32_t p : via)
    add(p);
  for (size_t k = last; k < path.places[to]; ++k)
    add(corridor.portals[k]);
  portals.push_back({path.corners[to], path.corners[to]});
  stringPull(portals, pulled);
  return walked - pulled.length;
}

// The walk portals a way round takes, the first from a corridor sector, the
// last into one: through at most two sectors beside the corridor.
struct Way {
  std::array<uint32_t, 3> portals{};
  size_t count = 0;

  std::span<const uint32_t> taken() const { return {portals.data(), count}; }
  Way then(uint32_t portal) const {
    Way longer = *this;
    longer.portals[longer.count++] = portal;
    return longer;
  }
};

// Calls visit(portal, into) for every walk portal out of the sector.
template <typename Visit>
void forWalks(const NavGraph& graph, uint32_t sector, Visit&& visit) {
  const Sector& s = graph.sectors[sector];
  for (uint32_t p = s.firstPortal; p < s.firstPortal + s.portalCount; ++p) {
    if (graph.portals[p].kind == PortalKind::Walk) visit(p, graph.portals[p].toSector);
  }
}

// A corridor, where each of its sectors stands in it (its last place, should
// it come twice), and its path placed along it when first asked.
class PlacedCorridor {
 public:
  void reset(const NavGraph& graph, const Corridor& corridor, const FunnelResult& funnel) {
    m_graph = &graph;
    m_corridor = &corridor;
    m_funnel = &funnel;
    m_placed = false;
    m_places.startQuery(graph.sectors.size());
    for (size_t i = 0; i < corridor.sectors.size(); ++i)
      m_places.touch(corridor.sectors[i], 0) = uint32_t(i);
  }
  bool holds(uint32_t sector) const { return m_places.seen(sector); }
  size_t placeOf(uint32_t sector) const { return m_places[sector]; }
  PlacedPath& path() {
    if (!m_placed) m_path.place(*m_graph, *m_corridor, m_funnel->corners);
    m_placed = true;
    return m_path;
  }

 private:
  const NavGraph* m_graph = nullptr;
  const Corridor* m_corridor = nullptr;
  const FunnelResult* m_funnel = nullptr;
  NodePool<uint32_t> m_places;
  PlacedPath m_path;
  bool m_placed = false;
};

// Per corridor sector i, the way chosen to the farthest corridor sector it
// may reach, and among those the one through the fewest sectors beside the
// corridor (their gates narrow the way more than plain portals tell), then
// the one saving most.
struct Choice {
  size_t farthest;
  float most = 0.0f;
  Way way;

  explicit Choice(size_t next) : farthest(next) {}

  void consider(const Way& candidate, size_t j, float saved) {
    if (j < farthest) return;
    const bool asFar = j == farthest && most > 0.0f;
    if (asFar && (candidate.count > way.count || (candidate.count == way.count && !(saved > most))))
      return;
    farthest = j;
    most = saved;
    way = candidate;
  }
};

// Into `shorter`, the corridor with the chosen ways from each sector on.
void rebuild(const NavGraph& graph, const Corridor& corridor,
             std::span<const std::pair<size_t, Choice>> chosen, Corridor& shorter) {
  shorter.clear();
  shorter.start = corridor.start;
  shorter.goal = corridor.goal;
  shorter.sectors.push_back(corridor.sectors.front());
  size_t i = 0, next = 0;
  while (i + 1 < corridor.sectors.size()) {
    if (next < chosen.size() && chosen[next].first == i) {
      const Choice& choice = chosen[next++].second;
      for (size_t k = 0; k < choice.way.count; ++k) {
        shorter.portals.push_back(choice.way.portals[k]);
        shorter.sectors.push_back(k + 1 < choice.way.count
                                      ? graph.portals[choice.way.portals[k]].toSector
                                      : corridor.sectors[choice.farthest]);
      }
      i = choice.farthest;
      continue;
    }
    shorter.portals.push_back(corridor.portals[i]);
    shorter.sectors.push_back(corridor.sectors[i + 1]);
    ++i;
  }
}

// Into `shorter`, the corridor with every shortcut that saves length (see
// saving): false when there is none.
bool findShortcuts(const NavGraph& graph, const Corridor& corridor, PlacedCorridor& placed,
                   Corridor& shorter) {
  const size_t count = corridor.sectors.size();
  if (count < 3) return false;
  thread_local std::vector<std::pair<size_t, Choice>> chosen;
  chosen.clear();
  for (size_t i = 0; i + 1 < count;) {
    Choice choice(i + 1);
    forWalks(graph, corridor.sectors[i], [&](uint32_t p, uint32_t into) {
      // Placed when a portal first leads further on in the corridor: most corridors have none.
      if (!placed.holds(into) || placed.placeOf(into) <= choice.farthest) return;
      const size_t j = placed.placeOf(into);
      const Way way = Way{}.then(p);
      const float saved = saving(graph, corridor, placed.path(), i, j, way.taken(), 0.0f);
      if (saved > 0.0f) choice.consider(way, j, saved);
    });
    if (choice.most > 0.0f) chosen.emplace_back(i, choice);
    i = choice.farthest;
  }
  if (chosen.empty()) return false;
  rebuild(graph, corridor, chosen, shorter);
  return true;
}

// Into `shorter`, the corridor with every way round that saves more than half
// a cell (see saving): false when there is none. A way round saving less
// through plain portals seldom saves anything once pulled through its
// sectors' gates (on dungeon.obj, 5 % of what ways round save, for four
// fifths of their pulls); nor can one cutting a corner the path turns round
// by less.
bool findWaysRound(const NavGraph& graph, const Corridor& corridor, const FunnelResult& funnel,
                   PlacedCorridor& placed, Corridor& shorter) {
  const float least = 0.5f * graph.cellSize;
  thread_local std::vector<float> detours;
  detours.clear();
  for (size_t c = 1; c + 1 < funnel.corners.size(); ++c)
    detours.push_back(detourAt(funnel.corners, c));
  if (std::none_of(detours.begin(), detours.end(), [&](float d) { return d > least; }))
    return false;
  const size_t count = corridor.sectors.size();
  PlacedPath& path = placed.path();
  path.findTurns(count, detours, least, least);
  const uint16_t surface = graph.sectors[corridor.sectors.front()].surface;
  const auto beside = [&](uint32_t sector) {
    const Sector& s = graph.sectors[sector];
    return !placed.holds(sector) && s.kind == SectorKind::Ground && s.surface == surface;
  };
  thread_local std::vector<std::pair<size_t, Choice>> chosen;
  chosen.clear();
  for (size_t i = 0; i + 1 < count;) {
    Choice choice(i + 1);
    if (path.turnsAt(i)) {
      const auto consider = [&](const Way& way, uint32_t into) {
        const size_t j = placed.placeOf(into);
        if (j <= i) return;
        const float saved = saving(graph, corridor, path, i, j, way.taken(), least);
        if (saved > least) choice.consider(way, j, saved);
      };
      forWalks(graph, corridor.sectors[i], [&](uint32_t p, uint32_t x) {
        if (!beside(x) || !path.turnsBeside(graph.sectors[x], i, least)) return;
        const Way toX = Way{}.then(p);
        forWalks(graph, x, [&](uint32_t q, uint32_t y) {
          const Way toY = toX.then(q);
          if (placed.holds(y)) return consider(toY, y);
          if (!beside(y)) return;
          forWalks(graph, y, [&](uint32_t r, uint32_t z) {
            if (placed.holds(z)) consider(toY.then(r), z);
          });
        });
      });
    }
    if (choice.most > 0.0f) chosen.emplace_back(i, choice);
    i = choice.farthest;
  }
  if (chosen.empty()) return false;
  rebuild(graph, corridor, chosen, shorter);
  return true;
}

}  // namespace

void takeShortcuts(const NavGraph& graph, Corridor& corridor, FunnelResult& funnel,
                   bool recordSteps, std::vector<uint32_t>& leftOut) {
  leftOut.clear();
  // A path straight from start to goal is as short as any.
  if (funnel.corners.size() < 3 || !walksOneSurface(graph, corridor)) return;
  thread_local std::vector<uint32_t> searched;
  thread_local PlacedCorridor placed;
  thread_local Corridor shorter;
  thread_local FunnelResult pulled;
  // Rounds after the first each follow a kept pull, which moved the corners
  // and may have opened shortcuts the searched corridor hid (dungeon.obj:
  // one query in eight). Each kept pull is strictly shorter, so rounds end;
  // the cap bounds the work where they keep saving crumbs.
  constexpr int kMaxRounds = 4;
  bool kept = false;
  // Keeps the shorter corridor when its full pull is shorter.
  const auto keepWhenShorter = [&] {
    pullCorridor(graph, shorter, pulled, recordSteps);
    if (!(pulled.length < funnel.length)) return false;
    if (!kept) searched = corridor.sectors;
    std::swap(corridor, shorter);
    std::swap(funnel, pulled);
    kept = true;
    placed.reset(graph, corridor, funnel);
    return true;
  };
  placed.reset(graph, corridor, funnel);
  for (int round = 0; round < kMaxRounds && funnel.corners.size() >= 3; ++round) {
    bool shortened = findShortcuts(graph, corridor, placed, shorter) && keepWhenShorter();
    // Ways round start from the path the shortcuts leave, and are kept only
    // where they shorten that.
    if (findWaysRound(graph, corridor, funnel, placed, shorter) && keepWhenShorter())
      shortened = true;
    if (!shortened) break;
  }
  if (!kept) return;
  // `placed` holds the kept corridor's sectors.
  for (const uint32_t s : searched) {
    if (!placed.holds(s)) leftOut.push_back(s);
  }
}

}  // namespace nav
