#include "polygon_triangulation.h"

#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <glm/vec2.hpp>

namespace nav {
namespace {

double area2(const glm::dvec2& a, const glm::dvec2& b, const glm::dvec2& c) {
  const glm::dvec2 ab = b - a, ac = c - a;
  return ab.x * ac.y - ab.y * ac.x;
}

}  // namespace

void triangulate(std::span<const glm::vec3> points, std::span<const uint32_t> polygon,
                 std::vector<std::array<uint32_t, 3>>& out) {
  const size_t n = polygon.size();
  glm::dvec3 normal(0.0);
  for (size_t i = 0; i < n; ++i) {
    const glm::dvec3 p = points[polygon[i]], q = points[polygon[(i + 1) % n]];
    normal +=
        glm::dvec3((p.y - q.y) * (p.z + q.z), (p.z - q.z) * (p.x + q.x), (p.x - q.x) * (p.y + q.y));
  }
  const glm::dvec3 magnitude = glm::abs(normal);
  const int axis = magnitude.x >= magnitude.y && magnitude.x >= magnitude.z ? 0
                   : magnitude.y >= magnitude.z                             ? 1
                                                                            : 2;
  // Cyclic axes (y,z), (z,x), (x,y) make a polygon with a positive normal component
  // counter-clockwise; mirror the others.
  const double mirror = normal[axis] < 0.0 ? -1.0 : 1.0;
  std::vector<glm::dvec2> flat(n);
  for (size_t i = 0; i < n; ++i) {
    const glm::dvec3 p = points[polygon[i]];
    flat[i] = glm::dvec2(mirror * p[(axis + 1) % 3], p[(axis + 2) % 3]);
  }

  std::vector<size_t> prev(n), next(n);
  for (size_t i = 0; i < n; ++i) {
    prev[i] = (i + n - 1) % n;
    next[i] = (i + 1) % n;
  }
  const auto isEar = [&](size_t a, size_t b, size_t c) {
    if (area2(flat[a], flat[b], flat[c]) <= 0.0) return false;
    for (size_t v = next[c]; v != a; v = next[v]) {
      const glm::dvec2 p = flat[v];
      // Duplicated positions (bridged holes, repeated corners) do not block an ear.
      if (p == flat[a] || p == flat[b] || p == flat[c]) continue;
      if (area2(flat[a], flat[b], p) >= 0.0 && area2(flat[b], flat[c], p) >= 0.0 &&
          area2(flat[c], flat[a], p) >= 0.0) {
        return false;
      }
    }
    return true;
  };

  size_t current = 0, remaining = n, sinceLastEar = 0;
  while (remaining > 3 && sinceLastEar < remaining) {
    const size_t a = prev[current], c = next[current];
    if (isEar(a, current, c)) {
      out.push_back({polygon[a], polygon[current], polygon[c]});
      next[a] = c;
      prev[c] = a;
      --remaining;
      current = c;
      sinceLastEar = 0;
    } else {
      current = c;
      ++sinceLastEar;
    }
  }
  for (size_t v = next[current]; next[v] != current; v = next[v]) {
    out.push_back({polygon[current], polygon[v], polygon[next[v]]});
  }
}

bool zeroArea(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c) {
  const glm::dvec3 cross = glm::cross(glm::dvec3(b) - glm::dvec3(a), glm::dvec3(c) - glm::dvec3(a));
  return glm::dot(cross, cross) == 0.0;
}

}  // namespace nav
