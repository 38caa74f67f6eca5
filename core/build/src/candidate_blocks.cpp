#include "candidate_blocks.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace nav {
namespace {

// 16,384 slots: with 4,096 the front of a 10 M-cell city evicted blocks it
// still needed and gathered 484 k blocks where 262 k do (1 M cells: 29 k, 21 k).
constexpr uint32_t kSlotBits = 14;

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
    const size_t count = block.triangles.size();
    block.stride = (count + 3) & ~size_t(3);
    // A block is gathered again whenever another one takes its slot: keep no
    // more room than this one needs, or every slot ends up as large as the largest.
    if (block.bounds.capacity() > 12 * block.stride + 96) std::vector<float>().swap(block.bounds);
    if (block.triangles.capacity() > 2 * count + 16) block.triangles.shrink_to_fit();
    constexpr float kInfinity = std::numeric_limits<float>::infinity();
    block.bounds.assign(6 * block.stride, kInfinity);
    std::fill(block.bounds.begin() + 3 * ptrdiff_t(block.stride), block.bounds.end(), -kInfinity);
    for (size_t i = 0; i < count; ++i) {
      const Aabb& bounds = m_world.triangleBounds(block.triangles[i]);
      for (int axis = 0; axis < 3; ++axis) {
        block.bounds[size_t(axis) * block.stride + i] = bounds.min[axis];
        block.bounds[size_t(3 + axis) * block.stride + i] = bounds.max[axis];
      }
    }
    ++m_blocksGathered;
  }
  // Rounding can leave a box at the block's far edge just outside the region.
  if (!contains(block.region, box)) {
    m_world.candidatesInBox(box, out);
    return;
  }
  // Aabb::overlaps on each block triangle's box: the same comparisons, four at a time.
  const float* bounds = block.bounds.data();
  const size_t stride = block.stride;
  out.resize(stride);
  size_t kept = 0;
#if defined(__SSE2__)
  const __m128 boxMinX = _mm_set1_ps(box.min.x), boxMinY = _mm_set1_ps(box.min.y),
               boxMinZ = _mm_set1_ps(box.min.z), boxMaxX = _mm_set1_ps(box.max.x),
               boxMaxY = _mm_set1_ps(box.max.y), boxMaxZ = _mm_set1_ps(box.max.z);
  for (size_t i = 0; i < stride; i += 4) {
    const __m128 x = _mm_and_ps(_mm_cmple_ps(_mm_loadu_ps(bounds + i), boxMaxX),
                                _mm_cmple_ps(boxMinX, _mm_loadu_ps(bounds + 3 * stride + i)));
    const __m128 y = _mm_and_ps(_mm_cmple_ps(_mm_loadu_ps(bounds + stride + i), boxMaxY),
                                _mm_cmple_ps(boxMinY, _mm_loadu_ps(bounds + 4 * stride + i)));
    const __m128 z = _mm_and_ps(_mm_cmple_ps(_mm_loadu_ps(bounds + 2 * stride + i), boxMaxZ),
                                _mm_cmple_ps(boxMinZ, _mm_loadu_ps(bounds + 5 * stride + i)));
    for (unsigned mask = unsigned(_mm_movemask_ps(_mm_and_ps(x, _mm_and_ps(y, z)))); mask != 0;
         mask &= mask - 1)
      out[kept++] = block.triangles[i + size_t(std::countr_zero(mask))];
  }
#else
  for (size_t i = 0; i < block.triangles.size(); ++i) {
    out[kept] = block.triangles[i];
    kept += (bounds[i] <= box.max.x) & (box.min.x <= bounds[3 * stride + i]) &
            (bounds[stride + i] <= box.max.y) & (box.min.y <= bounds[4 * stride + i]) &
            (bounds[2 * stride + i] <= box.max.z) & (box.min.z <= bounds[5 * stride + i]);
  }
#endif
  out.resize(kept);
}

}  // namespace nav
