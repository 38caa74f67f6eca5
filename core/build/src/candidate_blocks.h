#pragma once
// Candidate triangles for many small boxes close to each other (the flood fill
// asks for one around every cell it opens): the collision tree is walked once
// per block of space, and each box filters that block's short list.
#include <cstdint>
#include <vector>

#include "nav/collision.h"

namespace nav {

class CandidateBlocks {
 public:
  /// Blocks of `blockSize` from `origin` [metres, > 0]. A block's list covers the
  /// boxes whose min corner lies in the block and whose size is at most
  /// `querySize`; other boxes walk the tree themselves. Keeps a reference to `world`.
  CandidateBlocks(const CollisionWorld& world, glm::vec3 origin, glm::vec3 blockSize,
                  glm::vec3 querySize);

  /// Replaces `out` with exactly world.candidatesInBox(box): the same triangles
  /// in the same (tree) order.
  void candidatesInBox(const Aabb& box, std::vector<uint32_t>& out);

  /// Blocks gathered from the tree so far (a block evicted and needed again counts twice).
  uint64_t blocksGathered() const { return m_blocksGathered; }

 private:
  struct Block {
    glm::ivec3 key{0};
    bool filled = false;
    /// Everything a covered box can reach: the block grown by the query size.
    Aabb region;
    /// The tree's candidates for `region`, in tree order.
    std::vector<uint32_t> triangles;
    /// Their boxes one coordinate per run (min x, min y, min z, max x, max y,
    /// max z), each run padded to a multiple of four with empty boxes, so that
    /// four boxes are tested at once.
    std::vector<float> bounds;
    size_t stride = 0;
  };

  const CollisionWorld& m_world;
  glm::vec3 m_origin;
  glm::vec3 m_blockSize;
  glm::vec3 m_querySize;
  /// Direct-mapped by block position: a fill's front revisits the same few
  /// blocks for several levels, then moves on.
  std::vector<Block> m_slots;
  uint64_t m_blocksGathered = 0;
};

}  // namespace nav
