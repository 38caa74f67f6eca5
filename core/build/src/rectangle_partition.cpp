// Minimum partition of joined grid squares into rectangles.
//
// Every rectangle has four right-angled corners, so the pieces number a
// quarter of the corners they make all together. Corners come from grid
// points. Where the outline turns inwards (a reflex point: three squares
// joined in an L around it) a cut must start, making one corner there. Where a
// wall ends among joined squares (a tip: four squares around it, one side not
// joined) a cut must go straight on, which makes none. A cut that runs until it
// meets a wall side-on makes two corners there (a T), but a cut straight from
// one such point to another (a chord) makes none at its far end: every chord
// saves one piece. A chord may also cross a tip whose wall meets it side-on:
// that makes the T the tip needs anyway. Two chords that cross or share a point
// save only one piece, so the fewest pieces come from the most chords no two of
// which meet. Horizontal chords never meet each other, nor do vertical ones:
// the best chords are a maximum independent set of a bipartite graph, read off
// a maximum matching (Hopcroft-Karp) by König's theorem. Every point still
// needing a cut then gets a ray, run straight on until it meets one.
// (Lipski, Lodi, Luccio, Mugnai and Pagli 1979; Ohtsuki 1982; Eppstein 2009.)
#include "rectangle_partition.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "worker_threads.h"

namespace nav {
namespace {

// Quadrants around a grid point, counter-clockwise. Half-edge k leaves the
// point between quadrants k and k + 1 (south, east, north, west), and going
// from quadrant k to k + 1 across it is a step in Direction(k).
constexpr int kQuadrants = 4;
constexpr int kSouthWest = 0, kSouthEast = 1, kNorthEast = 2, kNorthWest = 3;

int halfEdgeToward(Direction d) {
  return (int(d) + 1) & 3;
}

enum class PointKind : uint8_t {
  Fine,      ///< Nothing to cut.
  Interior,  ///< Four squares joined all round.
  Tip,       ///< Four squares, one half-edge not open: a wall ends here.
  Reflex,    ///< Three squares joined in an L: the outline turns inwards.
  Tangled,   ///< Going round the point does not come back to the square it started from.
};

constexpr uint32_t kNone = 0xffffffffu;

// A bipartite graph in adjacency arrays: left vertex u's neighbours are
// target[first[u]] .. target[first[u + 1] - 1].
struct Bipartite {
  uint32_t left = 0, right = 0;
  std::vector<uint32_t> first, target;
};

struct Matching {
  std::vector<uint32_t> ofLeft, ofRight;
};

// Hopcroft-Karp: breadth-first layers from the free left vertices, then
// vertex-disjoint shortest augmenting paths along the layers, until none is left.
Matching maximumMatching(const Bipartite& graph) {
  Matching m{std::vector<uint32_t>(graph.left, kNone), std::vector<uint32_t>(graph.right, kNone)};
  std::vector<uint32_t> layer(graph.left), next(graph.left), queue, path;
  for (;;) {
    queue.clear();
    for (uint32_t u = 0; u < graph.left; ++u) {
      layer[u] = m.ofLeft[u] == kNone ? 0 : kNone;
      if (layer[u] == 0) queue.push_back(u);
    }
    bool augmentable = false;
    for (size_t i = 0; i < queue.size(); ++i) {
      const uint32_t u = queue[i];
      for (uint32_t e = graph.first[u]; e < graph.first[u + 1]; ++e) {
        const uint32_t w = m.ofRight[graph.target[e]];
        if (w == kNone) {
          augmentable = true;
        } else if (layer[w] == kNone) {
          layer[w] = layer[u] + 1;
          queue.push_back(w);
        }
      }
    }
    if (!augmentable) return m;
    for (uint32_t u = 0; u < graph.left; ++u)
      next[u] = graph.first[u];
    for (uint32_t root = 0; root < graph.left; ++root) {
      if (m.ofLeft[root] != kNone) continue;
      path.assign(1, root);
      while (!path.empty()) {
        const uint32_t u = path.back();
        if (next[u] == graph.first[u + 1]) {
          layer[u] = kNone;  // a dead end for the rest of this phase
          path.pop_back();
          continue;
        }
        const uint32_t v = graph.target[next[u]++];
        const uint32_t w = m.ofRight[v];
        if (w == kNone) {
          // Each left vertex on the path takes the right vertex it went to.
          for (uint32_t x : path) {
            const uint32_t y = graph.target[next[x] - 1];
            m.ofLeft[x] = y;
            m.ofRight[y] = x;
          }
          break;
        }
        if (layer[w] != kNone && layer[w] == layer[u] + 1) path.push_back(w);
      }
    }
  }
}

// König: with Z the vertices reached from free left vertices by alternating
// paths, (left in Z) + (right not in Z) is a maximum independent set.
std::pair<std::vector<bool>, std::vector<bool>> maximumIndependentSet(const Bipartite& graph) {
  const Matching m = maximumMatching(graph);
  std::vector<bool> keepLeft(graph.left, false), reachedRight(graph.right, false);
  std::vector<uint32_t> queue;
  for (uint32_t u = 0; u < graph.left; ++u) {
    if (m.ofLeft[u] == kNone) {
      keepLeft[u] = true;
      queue.push_back(u);
    }
  }
  for (size_t i = 0; i < queue.size(); ++i) {
    const uint32_t u = queue[i];
    for (uint32_t e = graph.first[u]; e < graph.first[u + 1]; ++e) {
      const uint32_t v = graph.target[e];
      if (reachedRight[v]) continue;
      reachedRight[v] = true;
      const uint32_t w = m.ofRight[v];  // matched, or the matching would not be maximum
      if (w != kNone && !keepLeft[w]) {
        keepLeft[w] = true;
        queue.push_back(w);
      }
    }
  }
  std::vector<bool> keepRight(graph.right);
  for (uint32_t v = 0; v < graph.right; ++v)
    keepRight[v] = !reachedRight[v];
  return {std::move(keepLeft), std::move(keepRight)};
}

}  // namespace

// The squares around one grid point that are joined (through open
// half-edges) to the square it was looked at from, and what the point needs.
struct RectanglePartition::Corner {
  uint32_t square[kQuadrants] = {kNoCell, kNoCell, kNoCell, kNoCell};
  /// Bit k: half-edge k is open.
  uint8_t open = 0;
  PointKind kind = PointKind::Fine;

  bool openToward(Direction d) const { return (open >> halfEdgeToward(d)) & 1u; }
  bool needsCut() const { return kind == PointKind::Tip || kind == PointKind::Reflex; }
  /// A cut from here toward d leaves nothing more to cut here.
  bool fixedBy(Direction d) const {
    if (kind == PointKind::Reflex) return openToward(d);
    return kind == PointKind::Tip && !openToward(opposite(d));  // straight on from the wall's end
  }
  /// A line along d can cross the point without ending there.
  bool passable(Direction d) const {
    if (kind == PointKind::Interior) return true;
    return kind == PointKind::Tip && openToward(d) && openToward(opposite(d));
  }
  /// One key per grid point (for points with three or four squares): its
  /// south-west square, or its south-east one when the south-west is not joined.
  uint64_t key() const {
    return square[kSouthWest] != kNoCell ? uint64_t(square[kSouthWest]) * 2
                                         : uint64_t(square[kSouthEast]) * 2 + 1;
  }
};

struct RectanglePartition::Walk {
  /// Half-edges crossed.
  uint32_t length = 0;
  /// The first point the line could not cross.
  Corner end;
};

struct RectanglePartition::Chord {
  Corner from;
  Direction direction;
  uint32_t length;
};

void RectanglePartition::cut(uint32_t square, Direction d) {
  const uint32_t other = joined(square, d);
  m_sides[square] |= cutBit(d);
  m_sides[other] |= cutBit(opposite(d));
}

RectanglePartition::Corner RectanglePartition::corner(uint32_t square, int quadrant) const {
  using enum Direction;
  Corner c;
  c.square[quadrant] = square;
  // The usual case, from the south-west with both its sides open, needs no
  // step to the west or south (the slower lookups).
  if (quadrant == kSouthWest && open(square, PlusX) && open(square, PlusZ)) {
    const uint32_t southEast = m_right[square], northWest = m_up[square];
    c.square[kSouthEast] = southEast;
    c.square[kNorthWest] = northWest;
    c.open = 1u << 0 | 1u << 3;
    const bool east = open(southEast, PlusZ), north = open(northWest, PlusX);
    if (east && north) {
      c.square[kNorthEast] = m_up[southEast];
      c.open = 15;
      c.kind = m_up[southEast] == m_right[northWest] ? PointKind::Interior : PointKind::Tangled;
    } else if (east || north) {
      const uint32_t northEast = east ? m_up[southEast] : m_right[northWest];
      c.square[kNorthEast] = northEast;
      c.open |= east ? 1u << 1 : 1u << 2;
      // The north-east square must not see an open side where this one sees none.
      const bool otherSide = east ? open(northEast, MinusX) : open(northEast, MinusZ);
      c.kind = otherSide ? PointKind::Tangled : PointKind::Tip;
    } else {
      c.kind = PointKind::Reflex;
    }
    return c;
  }
  int count = 1;
  bool around = false;
  // Counter-clockwise across open half-edges, then clockwise from the start.
  for (int k = quadrant, steps = 0; steps < kQuadrants; ++steps) {
    if (!open(c.square[k], Direction(k))) break;
    c.open |= uint8_t(1u << k);
    const uint32_t next = joined(c.square[k], Direction(k));
    k = (k + 1) & 3;
    if (k == quadrant) {
      around = true;
      c.kind = next == square ? PointKind::Interior : PointKind::Tangled;
      break;
    }
    c.square[k] = next;
    ++count;
  }
  if (around) return c;
  for (int k = quadrant, steps = 0; steps < kQuadrants - 1; ++steps) {
    const int previous = (k + 3) & 3;  // half-edge `previous` lies between quadrants previous and k
    const Direction back = opposite(Direction(previous));
    if (!open(c.square[k], back)) break;
    if (c.square[previous] != kNoCell) {
      c.kind = PointKind::Tangled;  // open from this side, closed from the other
      return c;
    }
    c.open |= uint8_t(1u << previous);
    c.square[previous] = joined(c.square[k], back);
    ++count;
    k = previous;
  }
  if (count == 4) c.kind = PointKind::Tip;
  if (count == 3) c.kind = PointKind::Reflex;
  return c;
}

RectanglePartition::Corner RectanglePartition::cornerAhead(const Corner& from, Direction d) const {
  // The two squares beside the half-edge toward d: at the next point, the one
  // in quadrant k moves to quadrant k - 1, the one in k + 1 to k + 2.
  const int k = halfEdgeToward(d);
  const int first = (k + 3) & 3;
  const int second = (k + 2) & 3;
  if (second == kSouthWest) return corner(from.square[(k + 1) & 3], second);
  return corner(from.square[k], first);
}

RectanglePartition::Walk RectanglePartition::walk(const Corner& from, Direction d,
                                                  std::vector<uint64_t>* pointKeys) const {
  Walk w;
  w.end = from;
  if (pointKeys) pointKeys->push_back(from.key());
  // Steps along a grid line always move on, so the walk ends; the bound
  // only guards against squares whose joins are not a grid.
  while (w.length <= m_sides.size()) {
    w.end = cornerAhead(w.end, d);
    ++w.length;
    if (!w.end.passable(d)) break;
    if (pointKeys) pointKeys->push_back(w.end.key());
  }
  if (pointKeys && w.end.needsCut()) pointKeys->push_back(w.end.key());
  return w;
}

void RectanglePartition::cutAlong(Corner from, Direction d, uint32_t length) {
  const int k = halfEdgeToward(d);
  for (uint32_t i = 0; i < length; ++i) {
    const Corner ahead = cornerAhead(from, d);
    // Half-edge k lies between quadrants k and k + 1; cut it from the south or
    // west square so that only the stored +x and +z joins are used.
    if (k <= 1) {
      cut(from.square[k], Direction(k));
    } else {
      cut(from.square[(k + 1) & 3], opposite(Direction(k)));
    }
    from = ahead;
  }
}

RectanglePartition::RectanglePartition(const JoinedSquares& squares, const SquareOrder& order,
                                       int threads)
    : m_squares(squares) {
  using enum Direction;
  const uint32_t count = squares.squareCount();
  // Not filled first: joinedAhead writes every square's joins (on a 10 M-cell
  // level, 80 MB written once, not twice, and faulted in on the threads).
  m_right = std::make_unique_for_overwrite<uint32_t[]>(count);
  m_up = std::make_unique_for_overwrite<uint32_t[]>(count);
  m_sides.assign(count, 0);
  // Each square's joins on the +x and +z sides, squares shared among threads;
  // then each join marks both its squares.
  // Squares handed to a thread at a time.
  constexpr size_t kSquaresPerChunk = 16384;
  WorkerThreads(threads).forChunks(count, kSquaresPerChunk, [&](size_t first, size_t last, size_t) {
    squares.joinedAhead(uint32_t(first), uint32_t(last), &m_right[first], &m_up[first]);
  });
  for (uint32_t s = 0; s < count; ++s) {
    for (const Direction d : {PlusX, PlusZ}) {
      const uint32_t next = (d == PlusX ? m_right : m_up)[s];
      if (next == kNoCell) continue;
      m_sides[s] |= joinedBit(d);
      m_sides[next] |= joinedBit(opposite(d));
    }
  }

  // Points that need a cut, each found once: from its south-west square, or
  // from its south-east one when the south-west is not joined to it.
  std::vector<Corner> needy;
  for (uint32_t i = 0; i < order.size(); ++i) {
    const uint32_t s = order[i];
    if (open(s, PlusX) || open(s, PlusZ)) {
      const Corner c = corner(s, kSouthWest);
      m_tangled |= c.kind == PointKind::Tangled;
      if (c.needsCut()) needy.push_back(c);
    }
    if (!open(s, MinusX) && open(s, PlusZ)) {
      const Corner c = corner(s, kSouthEast);
      m_tangled |= c.kind == PointKind::Tangled;
      if (c.needsCut() && c.square[kSouthWest] == kNoCell) needy.push_back(c);
    }
  }

  // Chords, walked from their west or south end; each keeps the keys of the
  // points on it, to find the chords that meet.
  std::vector<Chord> chords[2];
  std::vector<std::pair<uint64_t, uint32_t>> pointsOn[2];
  std::vector<uint64_t> keys;
  for (const Corner& c : needy) {
    for (const Direction d : {PlusX, PlusZ}) {
      if (!c.fixedBy(d)) continue;
      keys.clear();
      const Walk w = walk(c, d, &keys);
      if (!w.end.fixedBy(opposite(d))) continue;
      const int axis = d == PlusX ? 0 : 1;
      for (const uint64_t key : keys)
        pointsOn[axis].push_back({key, uint32_t(chords[axis].size())});
      chords[axis].push_back({c, d, w.length});
    }
  }
  for (auto& points : pointsOn)
    std::sort(points.begin(), points.end());
  std::vector<std::pair<uint32_t, uint32_t>> meetings;  // (horizontal, vertical)
  for (size_t h = 0, v = 0; h < pointsOn[0].size() && v < pointsOn[1].size();) {
    if (pointsOn[0][h].first < pointsOn[1][v].first) {
      ++h;
    } else if (pointsOn[1][v].first < pointsOn[0][h].first) {
      ++v;
    } else {
      meetings.push_back({pointsOn[0][h].second, pointsOn[1][v].second});
      ++h;
      ++v;
    }
  }
  // Sorted by chord, not by key: the keys are square numbers.
  std::sort(meetings.begin(), meetings.end());
  meetings.erase(std::unique(meetings.begin(), meetings.end()), meetings.end());
  Bipartite graph;
  graph.left = uint32_t(chords[0].size());
  graph.right = uint32_t(chords[1].size());
  graph.first.assign(graph.left + 1, 0);
  for (const auto& [h, v] : meetings)
    ++graph.first[h + 1];
  for (uint32_t u = 0; u < graph.left; ++u)
    graph.first[u + 1] += graph.first[u];
  graph.target.reserve(meetings.size());
  for (const auto& meeting : meetings)
    graph.target.push_back(meeting.second);
  const auto [keepHorizontal, keepVertical] = maximumIndependentSet(graph);
  for (uint32_t i = 0; i < chords[0].size(); ++i) {
    if (keepHorizontal[i]) cutAlong(chords[0][i].from, chords[0][i].direction, chords[0][i].length);
  }
  for (uint32_t i = 0; i < chords[1].size(); ++i) {
    if (keepVertical[i]) cutAlong(chords[1][i].from, chords[1][i].direction, chords[1][i].length);
  }

  // Rays for the points no chord reached, each the shorter way it may go.
  for (const Corner& found : needy) {
    const Corner c = found.square[kSouthWest] != kNoCell
                         ? corner(found.square[kSouthWest], kSouthWest)
                         : corner(found.square[kSouthEast], kSouthEast);
    if (!c.needsCut()) continue;
    Direction best = PlusX;
    uint32_t bestLength = kNone;
    for (const Direction d : {PlusX, PlusZ, MinusX, MinusZ}) {
      if (!c.fixedBy(d)) continue;
      const uint32_t length = walk(c, d, nullptr).length;
      if (length < bestLength) {
        best = d;
        bestLength = length;
      }
    }
    cutAlong(c, best, bestLength);
  }
}

}  // namespace nav
