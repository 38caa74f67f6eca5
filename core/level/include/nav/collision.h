#pragma once
// Collision world: a bounding-volume hierarchy over the level's triangles,
// answering ray casts (picking) and exact box and upright-stadium queries (the
// flood fill's box and round units).
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "nav/geometry.h"
#include "nav/level.h"

namespace nav {

struct RayHit {
  /// Distance along the (normalised) ray direction. [metres]
  float distance;
  glm::vec3 point;
  /// Unit normal of the hit triangle, facing the ray.
  glm::vec3 normal;
  uint32_t triangle;
};

/// Highest point of the level inside a box, and the triangle it lies on.
struct SupportHit {
  float height;
  uint32_t triangle;
  /// Y component of the triangle's unit normal, its winding's way (1 = flat
  /// and facing up, 0 = wall, below 0 = facing down: the underside of something).
  float normalY;
};

/// What a round unit of `radius` occupies moving straight from `from` to `to`
/// (points in x, z) between heights yMin and yMax: every point within `radius`
/// across of that segment. from == to is an upright cylinder: the unit standing.
struct Stadium {
  glm::vec2 from{0.0f};
  glm::vec2 to{0.0f};
  float radius = 0.0f;
  float yMin = 0.0f;
  float yMax = 0.0f;

  static Stadium cylinder(glm::vec2 center, float radius, float yMin, float yMax) {
    return {center, center, radius, yMin, yMax};
  }
  Aabb bounds() const;
};

/// An upright prism over a convex polygon on the ground (x, z corners in
/// order, either winding), between heights yMin and yMax: what a box unit
/// sweeps moving straight in any direction (sweptSquare).
struct Prism {
  std::array<glm::vec2, 8> corners{};
  int count = 0;
  float yMin = 0.0f;
  float yMax = 0.0f;

  /// The square of half side `half` centred at `from`, moved straight to `to`:
  /// the hexagon around both squares (a rectangle when the move is along an axis).
  static Prism sweptSquare(glm::vec2 from, glm::vec2 to, float half, float yMin, float yMax);
  Aabb bounds() const;
};

class CollisionWorld {
 public:
  /// Copies the level's triangles; the level may be destroyed afterwards.
  explicit CollisionWorld(const Level& level);

  /// Which side of a triangle a ray may hit.
  enum class RayFaces : uint8_t {
    Both,
    /// Its front only (counter-clockwise seen from the ray's origin), as a
    /// renderer that culls back faces shows it.
    Front,
  };
  /// First triangle hit by the ray within maxDistance, on the sides `faces` allows.
  std::optional<RayHit> raycast(const glm::vec3& origin, const glm::vec3& direction,
                                float maxDistance, RayFaces faces = RayFaces::Both) const;

  /// True when any triangle intersects the box (exact separating-axis test).
  bool overlapsBox(const Aabb& box) const;

  /// Replaces `out` with the triangles that intersect the box exactly, in ascending index order.
  void trianglesInBox(const Aabb& box, std::vector<uint32_t>& out) const;

  /// Highest point of any triangle clipped to the box; on ties the flattest
  /// triangle wins. Empty when nothing lies inside the box.
  std::optional<SupportHit> highestPointInBox(const Aabb& box) const;

  /// Triangles whose bounding boxes overlap the box, in tree order: a superset
  /// of trianglesInBox, for running many small queries inside one region.
  void candidatesInBox(const Aabb& box, std::vector<uint32_t>& out) const;
  /// overlapsBox over the given triangles only (e.g. candidatesInBox of a larger box).
  bool overlapsBox(const Aabb& box, std::span<const uint32_t> candidates) const;
  /// highestPointInBox over the given triangles only.
  std::optional<SupportHit> highestPointInBox(const Aabb& box,
                                              std::span<const uint32_t> candidates) const;

  /// True when any triangle touches the stadium (exact, boundary included).
  bool overlapsStadium(const Stadium& stadium) const;
  bool overlapsStadium(const Stadium& stadium, std::span<const uint32_t> candidates) const;
  /// True when any triangle touches the prism (exact, boundary included).
  bool overlapsPrism(const Prism& prism) const;
  bool overlapsPrism(const Prism& prism, std::span<const uint32_t> candidates) const;
  /// Highest point of any triangle inside the upright cylinder (stadium.from is
  /// its centre; `to` is ignored); ties as highestPointInBox. Empty when nothing lies inside.
  std::optional<SupportHit> highestPointInCylinder(const Stadium& cylinder) const;
  std::optional<SupportHit> highestPointInCylinder(const Stadium& cylinder,
                                                   std::span<const uint32_t> candidates) const;

  size_t triangleCount() const { return m_triangles.size(); }
  /// SupportHit::normalY of one triangle.
  float normalY(uint32_t triangle) const { return m_normalY[triangle]; }
  /// Bounding box of one triangle (what candidatesInBox tests).
  const Aabb& triangleBounds(uint32_t triangle) const { return m_boxes[triangle]; }
  size_t nodeCount() const { return m_nodes.size(); }
  const Aabb& bounds() const { return m_bounds; }
  /// Bytes held by the triangles and the tree.
  size_t memoryBytes() const;

 private:
  struct Triangle {
    glm::vec3 a, b, c;
  };
  struct Node {
    Aabb box;
    /// Leaf: first index into m_order; inner: index of the left child (right = left + 1).
    uint32_t first = 0;
    /// Triangles in a leaf; 0 for an inner node.
    uint32_t count = 0;
  };

  void buildNode(uint32_t nodeIndex, uint32_t first, uint32_t count, const std::vector<Aabb>& boxes,
                 const std::vector<glm::vec3>& centroids);
  template <class Visit>
  void visitBox(const Aabb& box, Visit&& visit) const;
  bool triangleOverlaps(uint32_t triangle, const Aabb& box) const;
  /// `bounds`: the stadium's, computed once per query.
  bool triangleTouchesStadium(uint32_t triangle, const Aabb& bounds, const Stadium& stadium) const;
  bool triangleTouchesPrism(uint32_t triangle, const Aabb& bounds, const Prism& prism) const;
  /// Raises `best` to the triangle's highest point inside the box, if higher (or flatter on a tie).
  void raiseSupport(uint32_t triangle, const Aabb& box, std::optional<SupportHit>& best) const;
  void raiseSupport(uint32_t triangle, const Stadium& cylinder,
                    std::optional<SupportHit>& best) const;
  /// Whether the triangle's support at `height` replaces `best`: higher, or as high and flatter.
  bool supportTakesOver(uint32_t triangle, float height,
                        const std::optional<SupportHit>& best) const;

  std::vector<Triangle> m_triangles;
  /// Each triangle's bounding box: most queries reject most triangles on it alone.
  std::vector<Aabb> m_boxes;
  /// Each triangle's normal.y over its normal's length (SupportHit::normalY).
  std::vector<float> m_normalY;
  std::vector<uint32_t> m_order;
  std::vector<Node> m_nodes;
  Aabb m_bounds;
};

/// Exact triangle/box intersection (separating axis theorem).
bool triangleOverlapsBox(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                         const Aabb& box);

/// Exact triangle/stadium intersection, boundary included.
bool triangleOverlapsStadium(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                             const Stadium& stadium);

/// Exact triangle/prism intersection, boundary included.
bool triangleOverlapsPrism(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                           const Prism& prism);

/// Highest point of the triangle inside the upright cylinder (stadium.from is
/// its centre), or empty when the triangle does not reach into it.
std::optional<float> triangleHighestInCylinder(const glm::vec3& a, const glm::vec3& b,
                                               const glm::vec3& c, const Stadium& cylinder);

}  // namespace nav
