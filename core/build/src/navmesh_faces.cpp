#include "nav/navmesh_faces.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <span>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace nav {
namespace {

struct CellKey {
  int64_t x, y, z;
  bool operator==(const CellKey&) const = default;
};

struct CellKeyHash {
  size_t operator()(const CellKey& key) const {
    uint64_t h = uint64_t(key.x) * 0x9E3779B97F4A7C15ull;
    h ^= uint64_t(key.y) + 0x632BE59BD9B4E019ull + (h << 6) + (h >> 2);
    h ^= uint64_t(key.z) + 0x94D049BB133111EBull + (h << 6) + (h >> 2);
    return size_t(h);
  }
};

// One corner for every position within the tolerance of another: positions
// fall in grid cells as wide as the tolerance, and each is checked against
// the corners of its own and the 26 neighbouring cells.
class Welder {
 public:
  explicit Welder(float tolerance)
      : m_tolerance(std::max(tolerance, 0.0f)), m_cell(std::max(tolerance, 1e-6f)) {}

  uint32_t weld(const glm::vec3& p, std::vector<glm::vec3>& corners) {
    const CellKey at = cellOf(p);
    for (int64_t dx = -1; dx <= 1; ++dx) {
      for (int64_t dy = -1; dy <= 1; ++dy) {
        for (int64_t dz = -1; dz <= 1; ++dz) {
          const auto found = m_cells.find({at.x + dx, at.y + dy, at.z + dz});
          if (found == m_cells.end()) continue;
          // The cell's corners, newest first (lowest index wins a tie below).
          uint32_t welded = kNone;
          for (uint32_t corner = found->second; corner != kNone; corner = m_next[corner]) {
            if (glm::distance(corners[corner], p) <= m_tolerance) welded = corner;
          }
          if (welded != kNone) return welded;
        }
      }
    }
    const uint32_t corner = uint32_t(corners.size());
    corners.push_back(p);
    // A list threaded through m_next: no allocation per cell.
    const auto [cell, added] = m_cells.try_emplace(at, corner);
    m_next.push_back(added ? kNone : cell->second);
    cell->second = corner;
    return corner;
  }

 private:
  CellKey cellOf(const glm::vec3& p) const { return {axisKey(p.x), axisKey(p.y), axisKey(p.z)}; }

  // The cell along one axis. Past 2^50 cells a whole number would not fit,
  // but there floats lie 2^27 cells apart or more, so only equal coordinates
  // can weld: such an axis is keyed by the float's own bits, beyond the cells.
  int64_t axisKey(float coordinate) const {
    constexpr int64_t kFar = int64_t(1) << 50;
    const double cells = std::floor(double(coordinate) / double(m_cell));
    if (std::abs(cells) <= double(kFar)) return int64_t(cells);
    const int64_t bits = int64_t(std::bit_cast<uint32_t>(std::abs(coordinate)));
    return cells > 0.0 ? 2 * kFar + bits : -2 * kFar - bits;
  }

  static constexpr uint32_t kNone = 0xffffffffu;
  float m_tolerance, m_cell;
  /// Each cell's newest corner; m_next[c] is the corner added to c's cell before c.
  std::unordered_map<CellKey, uint32_t, CellKeyHash> m_cells;
  std::vector<uint32_t> m_next;
};

// Twice the signed area of the turn a -> b -> c in a face's plane, seen
// from where its normal points (positive: a left turn).
struct FacePlane {
  /// The axis the normal points most along; the other two span the plane.
  int axis = 1;
  /// -1 when the normal points down that axis, so the turns keep their sign.
  double mirror = 1.0;

  explicit FacePlane(const glm::dvec3& normal) {
    const glm::dvec3 size = glm::abs(normal);
    axis = size.x >= size.y && size.x >= size.z ? 0 : size.y >= size.z ? 1 : 2;
    mirror = normal[axis] < 0.0 ? -1.0 : 1.0;
  }
  double turn(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c) const {
    const int u = (axis + 1) % 3, v = (axis + 2) % 3;
    const double abu = double(b[u]) - a[u], abv = double(b[v]) - a[v];
    const double bcu = double(c[u]) - b[u], bcv = double(c[v]) - b[v];
    return mirror * (abu * bcv - abv * bcu);
  }
};

// A face's triangles merged into convex pieces (Hertel and Mehlhorn): each
// diagonal between two pieces is removed when both its ends stay convex.
// A convex face comes back whole; a non-convex one in at most four times
// the fewest convex pieces.
std::vector<std::vector<uint32_t>> convexPieces(
    const std::vector<std::array<uint32_t, 3>>& triangles, const std::vector<glm::vec3>& corners,
    const FacePlane& plane) {
  std::vector<std::vector<uint32_t>> pieces;
  std::vector<uint32_t> owner(triangles.size());
  for (uint32_t t = 0; t < triangles.size(); ++t) {
    pieces.push_back({triangles[t][0], triangles[t][1], triangles[t][2]});
    owner[t] = t;
  }
  const auto find = [&](uint32_t t) {
    while (owner[t] != t)
      t = owner[t] = owner[owner[t]];
    return t;
  };
  // Each directed edge's triangle, to find the diagonals: edges met both ways.
  std::unordered_map<uint64_t, uint32_t> edgeOf;
  const auto key = [](uint32_t a, uint32_t b) { return (uint64_t(a) << 32) | b; };
  for (uint32_t t = 0; t < triangles.size(); ++t) {
    for (int k = 0; k < 3; ++k)
      edgeOf[key(triangles[t][k], triangles[t][(k + 1) % 3])] = t;
  }
  const auto at = [](const std::vector<uint32_t>& piece, size_t i) {
    return piece[i % piece.size()];
  };
  for (uint32_t t = 0; t < triangles.size(); ++t) {
    for (int k = 0; k < 3; ++k) {
      const uint32_t a = triangles[t][k], b = triangles[t][(k + 1) % 3];
      const auto across = edgeOf.find(key(b, a));
      if (across == edgeOf.end() || a > b) continue;
      const uint32_t p = find(t), q = find(across->second);
      if (p == q) continue;
      std::vector<uint32_t>& first = pieces[p];
      std::vector<uint32_t>& second = pieces[q];
      // a -> b along the first piece, b -> a along the second.
      size_t i = 0, j = 0;
      while (i < first.size() && !(first[i] == a && at(first, i + 1) == b))
        ++i;
      while (j < second.size() && !(second[j] == b && at(second, j + 1) == a))
        ++j;
      if (i == first.size() || j == second.size()) continue;
      const size_t n = first.size(), m = second.size();
      const bool convexAtA =
          plane.turn(corners[at(first, i + n - 1)], corners[a], corners[at(second, j + 2)]) >= 0.0;
      const bool convexAtB =
          plane.turn(corners[at(second, j + m - 1)], corners[b], corners[at(first, i + 2)]) >= 0.0;
      if (!convexAtA || !convexAtB) continue;
      // b round the first piece to a, then on round the second back towards b.
      std::vector<uint32_t> merged;
      merged.reserve(n + m - 2);
      for (size_t s = 0; s < n; ++s)
        merged.push_back(at(first, i + 1 + s));
      for (size_t s = 2; s < m; ++s)
        merged.push_back(at(second, j + s));
      first = std::move(merged);
      second.clear();
      owner[q] = p;
    }
  }
  std::vector<std::vector<uint32_t>> kept;
  for (std::vector<uint32_t>& piece : pieces) {
    if (!piece.empty()) kept.push_back(std::move(piece));
  }
  return kept;
}

// Whether to stop, looked at every few thousand items.
struct Cancelled {
  const std::atomic<bool>* flag;
  bool operator()(uint32_t item) const {
    return flag != nullptr && item % 4096 == 0 && flag->load(std::memory_order_relaxed);
  }
};

// The faces' triangles, welded: consecutive triangles of one level face
// (the OBJ reader emits a face's triangles together) form one group.
struct FaceGroup {
  uint32_t face;
  uint16_t material;
  std::vector<std::array<uint32_t, 3>> triangles;
};

std::vector<FaceGroup> weldedFaces(const Level& level, float tolerance,
                                   std::vector<glm::vec3>& corners, const Cancelled& cancelled) {
  Welder welder(tolerance);
  constexpr uint32_t kUnwelded = 0xffffffffu;
  std::vector<uint32_t> cornerOf(level.vertices.size(), kUnwelded);
  std::vector<FaceGroup> groups;
  for (uint32_t t = 0; t < level.triangles.size(); ++t) {
    if (cancelled(t)) return {};
    const LevelTriangle& triangle = level.triangles[t];
    std::array<uint32_t, 3> welded;
    for (int k = 0; k < 3; ++k) {
      uint32_t& corner = cornerOf[triangle.vertex[k]];
      if (corner == kUnwelded) corner = welder.weld(level.vertices[triangle.vertex[k]], corners);
      welded[size_t(k)] = corner;
    }
    const bool sameFace =
        !groups.empty() && triangle.face != kNoFace && groups.back().face == triangle.face;
    if (!sameFace)
      groups.push_back({triangle.face == kNoFace ? t : triangle.face, triangle.material, {}});
    // Welded to a line or a point: nothing to walk on.
    if (welded[0] == welded[1] || welded[1] == welded[2] || welded[2] == welded[0]) continue;
    groups.back().triangles.push_back(welded);
  }
  return groups;
}

// Pairs the polygons' edges: two polygons on an edge, one each way along it,
// are neighbours; one is a wall; more, or two folded over each other, are
// reported and walls on every side.
void linkEdges(NavMeshFaces& mesh) {
  struct Side {
    uint64_t key;  // the edge's corners, the lower one in the high half
    uint32_t polygon, edge;
  };
  std::vector<Side> sides;
  for (uint32_t p = 0; p < mesh.polygons.size(); ++p) {
    const std::vector<uint32_t>& corners = mesh.polygons[p].corners;
    for (uint32_t k = 0; k < corners.size(); ++k) {
      const uint32_t a = corners[k], b = corners[(k + 1) % corners.size()];
      sides.push_back({(uint64_t(std::min(a, b)) << 32) | std::max(a, b), p, k});
    }
  }
  // Sorting groups each edge's sides: no table of lists, and one order always.
  std::sort(sides.begin(), sides.end(), [](const Side& x, const Side& y) {
    return std::tie(x.key, x.polygon, x.edge) < std::tie(y.key, y.polygon, y.edge);
  });
  const auto from = [&](const Side& side) {
    return mesh.polygons[side.polygon].corners[side.edge];
  };
  for (size_t begin = 0, end = 0; begin < sides.size(); begin = end) {
    while (end < sides.size() && sides[end].key == sides[begin].key)
      ++end;
    const std::span<const Side> on(sides.data() + begin, end - begin);
    const uint64_t edge = sides[begin].key;
    // Two polygons wound the same way along their edge lie folded over each other.
    if (on.size() == 2 && from(on[0]) != from(on[1])) {
      mesh.polygons[on[0].polygon].neighbours[on[0].edge] = on[1].polygon;
      mesh.polygons[on[1].polygon].neighbours[on[1].edge] = on[0].polygon;
      ++mesh.sharedEdges;
      continue;
    }
    mesh.wallEdges += on.size();
    if (on.size() > 1) {
      const glm::vec3 middle =
          0.5f * (mesh.corners[uint32_t(edge >> 32)] + mesh.corners[uint32_t(edge & 0xffffffffu)]);
      mesh.issues.push_back({NavMeshIssueKind::NonManifoldEdge, middle});
    }
  }
}

// Corners lying inside a wall edge of another polygon, away from its ends.
void findTJunctions(NavMeshFaces& mesh, float tolerance) {
  struct Wall {
    uint32_t a, b;
  };
  std::vector<Wall> walls;
  double lengths = 0.0;
  std::vector<bool> used(mesh.corners.size(), false);
  for (const NavMeshPolygon& polygon : mesh.polygons) {
    for (size_t k = 0; k < polygon.corners.size(); ++k) {
      used[polygon.corners[k]] = true;
      if (polygon.neighbours[k] != kNoNeighbour) continue;
      const uint32_t a = polygon.corners[k], b = polygon.corners[(k + 1) % polygon.corners.size()];
      walls.push_back({a, b});
      lengths += glm::distance(mesh.corners[a], mesh.corners[b]);
    }
  }
  if (walls.empty()) return;
  // A ground-plane grid of the corners, cells about a wall edge long.
  const float cell = std::max({float(lengths / double(walls.size())), 4.0f * tolerance, 1e-3f});
  // Clamped so that far corners convert to whole numbers (they share the
  // outermost cells, where distances still decide); a NaN goes to the lowest.
  const auto cellOf = [cell](float v) {
    constexpr int64_t kFar = int64_t(1) << 50;
    const double at = std::floor(double(v) / double(cell));
    if (!(at > double(-kFar))) return -kFar;
    return at < double(kFar) ? int64_t(at) : kFar;
  };
  std::unordered_map<CellKey, std::vector<uint32_t>, CellKeyHash> grid;
  for (uint32_t c = 0; c < mesh.corners.size(); ++c) {
    if (used[c]) grid[{cellOf(mesh.corners[c].x), 0, cellOf(mesh.corners[c].z)}].push_back(c);
  }
  std::unordered_set<uint32_t> reported;
  for (const Wall& wall : walls) {
    const glm::vec3 a = mesh.corners[wall.a], b = mesh.corners[wall.b];
    const glm::vec3 along = b - a;
    const float length2 = glm::dot(along, along);
    if (!(length2 > 0.0f)) continue;
    const glm::vec3 low = glm::min(a, b) - tolerance, high = glm::max(a, b) + tolerance;
    for (int64_t x = cellOf(low.x); x <= cellOf(high.x); ++x) {
      for (int64_t z = cellOf(low.z); z <= cellOf(high.z); ++z) {
        const auto found = grid.find({x, 0, z});
        if (found == grid.end()) continue;
        for (const uint32_t c : found->second) {
          if (c == wall.a || c == wall.b || reported.count(c) != 0) continue;
          const glm::vec3 p = mesh.corners[c];
          const float t = glm::dot(p - a, along) / length2;
          const glm::vec3 foot = a + t * along;
          if (t <= 0.0f || t >= 1.0f || glm::distance(foot, p) > tolerance) continue;
          if (glm::distance(p, a) <= tolerance || glm::distance(p, b) <= tolerance) continue;
          reported.insert(c);
          mesh.issues.push_back({NavMeshIssueKind::TJunction, p});
        }
      }
    }
  }
}

}  // namespace

const char* toString(NavMeshIssueKind kind) {
  switch (kind) {
    case NavMeshIssueKind::TJunction:
      return "t-junction";
    case NavMeshIssueKind::NonManifoldEdge:
      return "non-manifold edge";
    case NavMeshIssueKind::SteepFace:
      return "steep face";
    case NavMeshIssueKind::FacingDown:
      return "facing down";
  }
  return "?";
}

NavMeshFaces readNavMeshFaces(const Level& level, const NavMeshFacesParams& params,
                              const std::atomic<bool>* cancel) {
  NavMeshFaces mesh;
  const Cancelled cancelled{cancel};
  const float steepCosine = std::cos(glm::radians(std::clamp(params.maxSlopeDegrees, 0.0f, 90.0f)));
  uint32_t groupsRead = 0;
  for (FaceGroup& group : weldedFaces(level, params.weldTolerance, mesh.corners, cancelled)) {
    if (cancelled(groupsRead++)) return mesh;
    if (group.triangles.empty()) continue;
    glm::dvec3 normal(0.0), weighted(0.0);
    double areaSum = 0.0;
    for (const auto& triangle : group.triangles) {
      const glm::dvec3 a = mesh.corners[triangle[0]], b = mesh.corners[triangle[1]],
                       c = mesh.corners[triangle[2]];
      const glm::dvec3 cross = glm::cross(b - a, c - a);
      normal += cross;
      areaSum += glm::length(cross);
      weighted += glm::length(cross) * (a + b + c) / 3.0;
    }
    const double area2 = glm::length(normal);
    if (!(area2 > 0.0)) continue;
    const glm::vec3 centre = glm::vec3(weighted / areaSum);
    const double upness = std::abs(normal.y) / area2;
    if (upness < double(steepCosine)) {
      mesh.issues.push_back({NavMeshIssueKind::SteepFace, centre});
      if (params.excludeSteep) continue;
    } else if (normal.y < 0.0) {
      // Wound the other way round: seen from above it is the same floor.
      mesh.issues.push_back({NavMeshIssueKind::FacingDown, centre});
      for (auto& triangle : group.triangles)
        std::swap(triangle[1], triangle[2]);
      normal = -normal;
    }
    for (std::vector<uint32_t>& corners :
         convexPieces(group.triangles, mesh.corners, FacePlane(normal))) {
      NavMeshPolygon polygon;
      polygon.neighbours.assign(corners.size(), kNoNeighbour);
      polygon.corners = std::move(corners);
      polygon.material = group.material;
      polygon.face = group.face;
      mesh.polygons.push_back(std::move(polygon));
    }
  }
  linkEdges(mesh);
  findTJunctions(mesh, params.weldTolerance);
  // In one order whatever the hash tables' order was.
  std::sort(mesh.issues.begin(), mesh.issues.end(),
            [](const NavMeshIssue& a, const NavMeshIssue& b) {
              if (a.kind != b.kind) return a.kind < b.kind;
              if (a.at.x != b.at.x) return a.at.x < b.at.x;
              if (a.at.y != b.at.y) return a.at.y < b.at.y;
              return a.at.z < b.at.z;
            });
  return mesh;
}

}  // namespace nav
