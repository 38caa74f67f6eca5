#pragma once
// Cutting a level file's polygon faces into triangles: shared by the OBJ
// reader and the glTF/FBX importer so a face becomes the same triangles in both.
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

namespace nav {

/// Triangulates a polygon of `points` by ear clipping in its dominant plane
/// (the axis plane the Newell normal points along, so the projection keeps
/// the polygon simple). Stops clipping when no ear remains (degenerate or
/// self-intersecting input) and fans what is left; the caller drops any
/// zero-area triangles this produces. Appends to `out`.
void triangulate(std::span<const glm::vec3> points, std::span<const uint32_t> polygon,
                 std::vector<std::array<uint32_t, 3>>& out);

/// True when the triangle's cross product is exactly zero (computed in double).
bool zeroArea(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c);

}  // namespace nav
