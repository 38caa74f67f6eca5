#include "nav/candidate_blocks.h"

#include <cmath>

namespace nav {
namespace {

constexpr uint32_t kSlotBits = 10;

uint32_t slotOf(const glm::ivec3& key) {
  const uint32_t hash =
      uint32_t(key.x) * 73856093u ^ uint32_t(key.y) * 19349663u ^ uint32_t(key.z) * 83492791u;
  return (hash ^ (hash >> 15)) & ((1u << kSlotBits) - 1);
}

bool contains(const Aabb& outer, const Aabb& inner) {
  return outer.min.x <= inner.min.x && outer.min.y <= inner.min.y && outer.min.z <= inner.min.z &&
         inner.max.x <= outer.max.x && inner.max.y <= outer.max.y && inner.max.z <= outer.max.z;
}

}  // namespace

CandidateBlocks::CandidateBlocks(const CollisionWorld& world, glm::vec3 origin, glm::vec3 blockSize,
                                 glm::vec3 querySize)
    : m_world(world),
      m_origin(origin),
      m_blockSize(blockSize),
      m_querySize(querySize),
      m_slots(size_t(1) << kSlotBits) {}

// The tree lists a block's region in the same order as any box inside it, only
// with more triangles; keeping those whose boxes overlap the query box leaves
// exactly the query's own list.
void CandidateBlocks::candidatesInBox(const Aabb& box, std::vector<uint32_t>& out) {
  const glm::vec3 position = (box.min - m_origin) / m_blockSize;
  constexpr float kFar = 1e9f;  // beyond int range once floored: no block
  if (!(std::abs(position.x) < kFar && std::abs(position.y) < kFar &&
        std::abs(position.z) < kFar)) {
    m_world.candidatesInBox(box, out);
    return;
  }
  const glm::ivec3 key(std::floor(position.x), std::floor(position.y), std::floor(position.z));
  Block& block = m_slots[slotOf(key)];
  if (!block.filled || block.key != key) {
    block.key = key;
    block.filled = true;
    const glm::vec3 low = m_origin + glm::vec3(key) * m_blockSize;
    block.region = Aabb{low, low + m_blockSize + m_querySize};
    m_world.candidatesInBox(block.region, block.triangles);
    for (std::vector<float>* coordinate :
         {&block.minX, &block.minY, &block.minZ, &block.maxX, &block.maxY, &block.maxZ})
      coordinate->clear();
    for (uint32_t triangle : block.triangles) {
      const Aabb& bounds = m_world.triangleBounds(triangle);
      block.minX.push_back(bounds.min.x);
      block.minY.push_back(bounds.min.y);
      block.minZ.push_back(bounds.min.z);
      block.maxX.push_back(bounds.max.x);
      block.maxY.push_back(bounds.max.y);
      block.maxZ.push_back(bounds.max.z);
    }
    ++m_blocksGathered;
  }
  // Rounding can leave a box at the block's far edge just outside the region.
  if (!contains(block.region, box)) {
    m_world.candidatesInBox(box, out);
    return;
  }
  // Aabb::overlaps, with & for &&: the same answer for every triangle.
  const size_t count = block.triangles.size();
  out.resize(count);
  size_t kept = 0;
  for (size_t i = 0; i < count; ++i) {
    out[kept] = block.triangles[i];
    kept += (block.minX[i] <= box.max.x) & (box.min.x <= block.maxX[i]) &
            (block.minY[i] <= box.max.y) & (box.min.y <= block.maxY[i]) &
            (block.minZ[i] <= box.max.z) & (box.min.z <= block.maxZ[i]);
  }
  out.resize(kept);
}

}  // namespace nav
