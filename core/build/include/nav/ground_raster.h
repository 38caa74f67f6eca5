#pragma once
// The level's ground, found by position: every triangle facing up (by its
// winding; the underside of a slab is no ground), listed per square of a
// lattice, so that "what ground lies under this point" costs a few triangle
// tests. What the flood fill asks to know whether ground supports the unit's
// footprint (footprint_support.h). Ground here is anything to put a foot on:
// a face too steep or on a surface the unit may not use still holds up the
// edge of its footprint (the unit's own ground is the fill's business).
//
// Squares are kept in tiles of 16 x 16 that exist only where there is ground.
// Each square also lists its triangles' heights at its centre, so that the
// ground at a centre (where the footprint's samples on the cell lattice lie)
// costs a lookup.
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "nav/build_control.h"
#include "nav/geometry.h"
#include "nav/level.h"
#include "nav/result.h"

namespace nav {

/// How close ground must come to a point to count as under it, unless cells
/// are so small that a quarter cell is less (buildGroundRaster). [metres]
inline constexpr float kGroundRasterReach = 0.03f;

struct GroundRasterParams {
  /// Side of a square. [metres, > 0]
  float squareSize = 0.3f;
  /// World (x, z) of the corner of square (0, 0).
  glm::vec2 origin{0.0f};
  /// Ground this close to a point counts as under it, so that cracks narrower
  /// than twice this between a level's pieces are no holes. [metres, >= 0]
  float reach = kGroundRasterReach;
  /// Refused with an error past this many (square, triangle) entries (4 bytes each, 12 while
  /// building).
  uint64_t maxEntries = 200'000'000;
  /// Threads for listing the squares' centre heights; the result is the same for any count.
  int threads = 1;
};

class GroundRaster {
 public:
  GroundRaster();
  GroundRaster(GroundRaster&&) noexcept;
  GroundRaster& operator=(GroundRaster&&) noexcept;
  ~GroundRaster();

  /// Lists the level's upward-facing triangles by square. Fails when cancelled or
  /// past params.maxEntries.
  static Result<GroundRaster> build(const Level& level, const GroundRasterParams& params,
                                    BuildControl* control = nullptr);

  float squareSize() const { return m_squareSize; }
  glm::vec2 origin() const { return m_origin; }
  /// GroundRasterParams::reach. [metres]
  float reach() const { return m_reach; }
  /// The square holding the ground-plane point p.
  glm::ivec2 squareOf(glm::vec2 p) const;

  /// The centre of square `square`.
  glm::vec2 squareCentre(glm::ivec2 square) const;

  /// The highest ground under the ground-plane point p (within
  /// reach()) that is no higher than `top`, or -infinity when there is none. [metres]
  float groundBelow(glm::vec2 p, float top) const;

  /// The tile last looked up, kept by a caller that asks about many points
  /// close together (a footprint's samples) to look each tile up once.
  struct TileCache {
    bool known = false;
    uint64_t key = 0;
    uint32_t tile = 0;
  };
  /// groundBelow(p, top), through `cache`.
  float groundBelow(glm::vec2 p, float top, TileCache& cache) const;
  /// groundBelow(squareCentre(square), top), from the heights listed there.
  float groundBelowCentre(glm::ivec2 square, float top, TileCache& cache) const;
  /// The same, and the upward-facing triangle that ground lies on (a number
  /// of the raster's own, the same for the same triangle), kNoFace for none.
  float groundBelowCentre(glm::ivec2 square, float top, TileCache& cache, uint32_t& face) const;
  static constexpr uint32_t kNoFace = ~0u;
  /// Where on the segment from a to b (as a + t (b - a), t in [0, 1]) the
  /// ground-plane point lies inside face `face` (a number groundBelowCentre
  /// gave): one interval [first, second], empty when first > second.
  std::pair<float, float> faceSpan(uint32_t face, glm::vec2 a, glm::vec2 b) const;
  /// The face's height at the ground-plane point p: its plane, kept within its
  /// corners' heights. [metres]
  float faceHeight(uint32_t face, glm::vec2 p) const;

  /// Upward-facing triangles listed.
  size_t triangleCount() const;
  /// Bytes held.
  size_t memoryBytes() const;

 private:
  /// Fills the centre heights once the squares' entries are placed; false when cancelled.
  bool listCentreHeights(int threads, BuildControl* control);
  /// The tile holding `square` (kNoTile: none), through `cache`.
  uint32_t tileOf(glm::ivec2 square, TileCache& cache) const;

  struct Storage;
  float m_squareSize = 0.0f;
  glm::vec2 m_origin{0.0f};
  float m_reach = 0.0f;
  std::unique_ptr<Storage> m_storage;
};

}  // namespace nav
