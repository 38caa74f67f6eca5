#include "nav/ground_raster.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <functional>
#include <limits>
#include <new>
#include <string>
#include <utility>

#include "tile_index.h"
#include "worker_threads.h"

namespace nav {
namespace {

constexpr int kTileBits = 4;
constexpr int32_t kTileSize = 1 << kTileBits;
constexpr int32_t kTileMask = kTileSize - 1;
constexpr int kSquaresPerTile = kTileSize * kTileSize;
// Fewer tiles than this are not worth a thread of their own.
constexpr size_t kTilesPerThread = 64;

// A triangle clipped to axis-aligned half-planes: at most 3 + 4 corners.
struct Polygon {
  std::array<glm::vec3, 8> corners;
  int count = 0;
};

// Keeps the part of `in` where sign * (p[axis] - bound) >= 0.
Polygon clip(const Polygon& in, int axis, float bound, float sign) {
  Polygon out;
  for (int i = 0; i < in.count; ++i) {
    const glm::vec3& a = in.corners[size_t(i)];
    const glm::vec3& b = in.corners[size_t((i + 1) % in.count)];
    const float da = sign * (a[axis] - bound), db = sign * (b[axis] - bound);
    if (da >= 0.0f) out.corners[size_t(out.count++)] = a;
    if ((da < 0.0f) != (db < 0.0f)) {
      glm::vec3 p = a + (b - a) * (da / (da - db));
      p[axis] = bound;  // exactly on the line, whatever the rounding
      out.corners[size_t(out.count++)] = p;
    }
  }
  return out;
}

// Limits of the ground-plane axis `axis` over the polygon's corners.
std::pair<float, float> extent(const Polygon& polygon, int axis) {
  float low = std::numeric_limits<float>::max(), high = -low;
  for (int i = 0; i < polygon.count; ++i) {
    low = std::min(low, polygon.corners[size_t(i)][axis]);
    high = std::max(high, polygon.corners[size_t(i)][axis]);
  }
  return {low, high};
}

// Ground-plane distance from p to the segment ab.
float distanceToSegment(glm::vec2 p, glm::vec2 a, glm::vec2 b) {
  const glm::vec2 ab = b - a;
  const float lengthSquared = glm::dot(ab, ab);
  const float t =
      lengthSquared > 0.0f ? std::clamp(glm::dot(p - a, ab) / lengthSquared, 0.0f, 1.0f) : 0.0f;
  return glm::length(p - (a + t * ab));
}

}  // namespace

// What finding the ground under a point asks of a triangle, worked out once.
struct GroundFace {
  /// y = plane.x * x + plane.y * z + plane.z over the triangle.
  glm::vec3 plane;
  /// The corners' lowest and highest heights. [metres]
  float low, high;
  /// Per edge, its line n.x * x + n.y * z + offset, with n a unit vector
  /// pointing in: >= 0 inside, and minus the distance to the line outside.
  glm::vec2 inward[3];
  float offset[3];
};

GroundFace faceOf(const glm::vec3* corner) {
  GroundFace face;
  const glm::vec3 normal = glm::cross(corner[1] - corner[0], corner[2] - corner[0]);
  face.plane = {-normal.x / normal.y, -normal.z / normal.y, 0.0f};
  face.plane.z = corner[0].y - face.plane.x * corner[0].x - face.plane.y * corner[0].z;
  face.low = std::min({corner[0].y, corner[1].y, corner[2].y});
  face.high = std::max({corner[0].y, corner[1].y, corner[2].y});
  // Facing up, the corners run clockwise seen from above (x right, z up the page).
  for (int i = 0; i < 3; ++i) {
    const glm::vec2 u = groundOf(corner[i]), v = groundOf(corner[(i + 1) % 3]);
    const glm::vec2 along = v - u;
    face.inward[i] = glm::vec2(along.y, -along.x) / glm::length(along);
    face.offset[i] = -glm::dot(face.inward[i], u);
  }
  return face;
}

namespace {

// The face's height at p when p lies on it or within `reach` of it (its
// plane, kept within its corners' heights just outside it); NaN otherwise.
float faceHeightAt(const GroundFace& face, const glm::vec3* corner, glm::vec2 p, float reach) {
  // Inside, or within reach of the triangle: of its nearest edge, when
  // outside an edge's line.
  float outside = 0.0f;
  for (int i = 0; i < 3; ++i)
    outside = std::min(outside, glm::dot(face.inward[i], p) + face.offset[i]);
  if (outside < 0.0f) {
    if (outside < -reach) return NAN;
    const glm::vec2 a = groundOf(corner[0]), b = groundOf(corner[1]), c = groundOf(corner[2]);
    const float nearest = std::min(
        {distanceToSegment(p, a, b), distanceToSegment(p, b, c), distanceToSegment(p, c, a)});
    if (!(nearest <= reach)) return NAN;
  }
  return std::clamp(face.plane.x * p.x + face.plane.y * p.y + face.plane.z, face.low, face.high);
}

}  // namespace

struct GroundRaster::Storage {
  TileIndex tileIndex;
  /// Per tile number: its key.
  std::vector<uint64_t> tileKeys;
  /// Per tile: where its squares' entries start in `entries`, kSquaresPerTile + 1 each.
  std::vector<uint32_t> firstEntry;
  /// Per tile, as firstEntry: where its squares' centre heights start in `centreHeights`.
  std::vector<uint32_t> firstCentreHeight;
  /// Per square, highest first (on a tie, the lower face first): the heights
  /// of its triangles at its centre, and those triangles (in `faces`).
  std::vector<float> centreHeights;
  std::vector<uint32_t> centreFaces;
  /// Indices into `faces`, square by square, the highest (GroundFace::high) first.
  std::vector<uint32_t> entries;
  /// The upward-facing triangles' corners, three per triangle.
  std::vector<glm::vec3> corners;
  /// Per upward-facing triangle.
  std::vector<GroundFace> faces;
};

GroundRaster::GroundRaster() : m_storage(std::make_unique<Storage>()) {}
GroundRaster::GroundRaster(GroundRaster&&) noexcept = default;
GroundRaster& GroundRaster::operator=(GroundRaster&&) noexcept = default;
GroundRaster::~GroundRaster() = default;

Result<GroundRaster> GroundRaster::build(const Level& level, const GroundRasterParams& params,
                                         BuildControl* control) {
  using R = Result<GroundRaster>;
  if (!(params.squareSize > 0.0f) || !std::isfinite(params.squareSize)) {
    return R::failure("ground raster: squareSize must be a positive number");
  }
  if (!(params.reach >= 0.0f) || !(params.reach < params.squareSize)) {
    return R::failure("ground raster: reach must be in [0, squareSize)");
  }
  GroundRaster raster;
  raster.m_squareSize = params.squareSize;
  raster.m_origin = params.origin;
  raster.m_reach = params.reach;
  Storage& storage = *raster.m_storage;
  const float size = params.squareSize, reach = params.reach;
  // Calls visit(square's tile, place in the tile) for every square a triangle
  // comes within `reach` of (its bounds grown by reach), clipping row by row.
  const auto forEachSquare = [&](const Polygon& triangle, auto&& visit) {
    const auto [zLow, zHigh] = extent(triangle, 2);
    const int32_t firstRow = int32_t(std::floor((zLow - reach - params.origin.y) / size));
    const int32_t lastRow = int32_t(std::floor((zHigh + reach - params.origin.y) / size));
    for (int32_t row = firstRow; row <= lastRow; ++row) {
      const float z0 = params.origin.y + float(row) * size;
      const Polygon strip = clip(clip(triangle, 2, z0 - reach, 1.0f), 2, z0 + size + reach, -1.0f);
      if (strip.count == 0) continue;
      const auto [xLow, xHigh] = extent(strip, 0);
      const int32_t firstColumn = int32_t(std::floor((xLow - reach - params.origin.x) / size));
      const int32_t lastColumn = int32_t(std::floor((xHigh + reach - params.origin.x) / size));
      for (int32_t column = firstColumn; column <= lastColumn; ++column) {
        if (!visit(tileKey(column >> kTileBits, row >> kTileBits),
                   size_t(((row & kTileMask) << kTileBits) | (column & kTileMask))))
          return false;
      }
    }
    return true;
  };
  const auto cancelled = [&](uint32_t t) {
    return control && (t & 1023u) == 0 && control->cancelRequested.load(std::memory_order_relaxed);
  };
  try {
    for (uint32_t t = 0; t < level.triangles.size(); ++t) {
      const glm::vec3 a = level.corner(t, 0), b = level.corner(t, 1), c = level.corner(t, 2);
      const glm::vec3 normal = glm::cross(b - a, c - a);
      if (normal.y > 0.0f && glm::length(normal) > 0.0f)
        storage.corners.insert(storage.corners.end(), {a, b, c});
    }
    storage.faces.reserve(storage.corners.size() / 3);
    for (size_t t = 0; t < storage.corners.size(); t += 3)
      storage.faces.push_back(faceOf(&storage.corners[t]));
    // Two passes over the triangles: count each square's entries, then place
    // them, so that nothing but the result is held.
    uint64_t entries = 0;
    for (uint32_t t = 0; t < storage.corners.size() / 3; ++t) {
      if (cancelled(t)) return R::failure("ground raster: cancelled");
      const Polygon triangle{
          {storage.corners[3 * t], storage.corners[3 * t + 1], storage.corners[3 * t + 2]}, 3};
      const bool fits = forEachSquare(triangle, [&](uint64_t key, size_t local) {
        if (++entries > params.maxEntries) return false;
        uint32_t tile = storage.tileIndex.findOrAdd(
            key, uint32_t(storage.firstEntry.size() / (kSquaresPerTile + 1)));
        if (size_t(tile) * (kSquaresPerTile + 1) == storage.firstEntry.size()) {
          storage.firstEntry.resize(storage.firstEntry.size() + kSquaresPerTile + 1, 0);
          storage.tileKeys.push_back(key);
        }
        ++storage.firstEntry[size_t(tile) * (kSquaresPerTile + 1) + local + 1];
        return true;
      });
      if (!fits) {
        return R::failure("ground raster: the level's ground makes more than " +
                          std::to_string(params.maxEntries) + " entries in squares of " +
                          std::to_string(size) + " m");
      }
    }
    // Counts to starts; each square's cursor then runs from its start.
    uint32_t next = 0;
    for (size_t tile = 0; tile < storage.firstEntry.size(); tile += kSquaresPerTile + 1) {
      uint32_t* first = &storage.firstEntry[tile];
      first[0] = next;
      for (int local = 1; local <= kSquaresPerTile; ++local) {
        next += first[local];
        first[local] = next;
      }
    }
    storage.entries.resize(next);
    std::vector<uint32_t> cursor(storage.firstEntry);
    for (uint32_t t = 0; t < storage.corners.size() / 3; ++t) {
      if (cancelled(t)) return R::failure("ground raster: cancelled");
      const Polygon triangle{
          {storage.corners[3 * t], storage.corners[3 * t + 1], storage.corners[3 * t + 2]}, 3};
      forEachSquare(triangle, [&](uint64_t key, size_t local) {
        const size_t tile = storage.tileIndex.find(key);
        storage.entries[cursor[tile * (kSquaresPerTile + 1) + local]++] = t;
        return true;
      });
    }
    // Highest first, so that the search for the ground under a point stops
    // at the first triangle that cannot top what it found.
    const auto higher = [&](uint32_t a, uint32_t b) {
      const float highA = storage.faces[a].high, highB = storage.faces[b].high;
      return highA > highB || (highA == highB && a < b);
    };
    for (size_t square = 0; square + 1 < storage.firstEntry.size(); ++square) {
      if (square % (kSquaresPerTile + 1) == kSquaresPerTile) continue;
      std::sort(storage.entries.begin() + storage.firstEntry[square],
                storage.entries.begin() + storage.firstEntry[square + 1], higher);
    }
    if (!raster.listCentreHeights(params.threads, control))
      return R::failure("ground raster: cancelled");
  } catch (const std::bad_alloc&) {
    return R::failure("ground raster: out of memory");
  }
  return R::success(std::move(raster));
}

glm::ivec2 GroundRaster::squareOf(glm::vec2 p) const {
  return {int32_t(std::floor((p.x - m_origin.x) / m_squareSize)),
          int32_t(std::floor((p.y - m_origin.y) / m_squareSize))};
}

bool GroundRaster::listCentreHeights(int threads, BuildControl* control) {
  Storage& s = *m_storage;
  s.firstCentreHeight.assign(s.firstEntry.size(), 0);
  // Each thread lists a run of tiles into heights of its own, counting from
  // 0; the runs are then joined in tile order, their starts moved along.
  const size_t tiles = s.tileKeys.size();
  const size_t used = std::clamp<size_t>(tiles / kTilesPerThread, 1, size_t(std::max(threads, 1)));
  std::vector<std::vector<std::pair<float, uint32_t>>> runs(used);
  std::atomic<bool> stopped = false;
  const auto listRun = [&](size_t run) {
    std::vector<std::pair<float, uint32_t>>& listed = runs[run];
    std::vector<std::pair<float, uint32_t>> heights;
    for (size_t tile = tiles * run / used; tile < tiles * (run + 1) / used && !stopped; ++tile) {
      if (control && (tile & 63u) == 0 &&
          control->cancelRequested.load(std::memory_order_relaxed)) {
        stopped = true;
        return;
      }
      const glm::ivec2 first(int32_t(uint32_t(s.tileKeys[tile] >> 32)) << kTileBits,
                             int32_t(uint32_t(s.tileKeys[tile])) << kTileBits);
      const uint32_t* entry = &s.firstEntry[tile * (kSquaresPerTile + 1)];
      uint32_t* start = &s.firstCentreHeight[tile * (kSquaresPerTile + 1)];
      start[0] = uint32_t(listed.size());
      for (int local = 0; local < kSquaresPerTile; ++local) {
        const glm::vec2 centre =
            squareCentre(first + glm::ivec2(local & kTileMask, local >> kTileBits));
        heights.clear();
        for (uint32_t e = entry[local]; e < entry[local + 1]; ++e) {
          const uint32_t t = s.entries[e];
          const float y = faceHeightAt(s.faces[t], &s.corners[size_t(t) * 3], centre, m_reach);
          if (!std::isnan(y)) heights.emplace_back(y, t);
        }
        std::sort(heights.begin(), heights.end(), [](const auto& a, const auto& b) {
          return a.first > b.first || (a.first == b.first && a.second < b.second);
        });
        listed.insert(listed.end(), heights.begin(), heights.end());
        start[local + 1] = uint32_t(listed.size());
      }
    }
  };
  WorkerThreads(int(used)).forChunks(used, 1, [&](size_t first, size_t last, size_t) {
    for (size_t run = first; run < last; ++run)
      listRun(run);
  });
  if (stopped) return false;
  size_t total = 0;
  for (const auto& listed : runs)
    total += listed.size();
  s.centreHeights.reserve(total);
  s.centreFaces.reserve(total);
  for (size_t run = 0; run < used; ++run) {
    const uint32_t base = uint32_t(s.centreHeights.size());
    for (size_t tile = tiles * run / used; tile < tiles * (run + 1) / used; ++tile) {
      uint32_t* start = &s.firstCentreHeight[tile * (kSquaresPerTile + 1)];
      for (int local = 0; local <= kSquaresPerTile; ++local)
        start[local] += base;
    }
    for (const auto& [height, face] : runs[run]) {
      s.centreHeights.push_back(height);
      s.centreFaces.push_back(face);
    }
    std::vector<std::pair<float, uint32_t>>().swap(runs[run]);
  }
  return true;
}

glm::vec2 GroundRaster::squareCentre(glm::ivec2 square) const {
  return m_origin + (glm::vec2(square) + 0.5f) * m_squareSize;
}

float GroundRaster::groundBelow(glm::vec2 p, float top) const {
  TileCache cache;
  return groundBelow(p, top, cache);
}

float GroundRaster::groundBelow(glm::vec2 p, float top, TileCache& cache) const {
  const Storage& s = *m_storage;
  float best = -std::numeric_limits<float>::infinity();
  const glm::ivec2 square = squareOf(p);
  const uint32_t tile = tileOf(square, cache);
  if (tile == kNoTile) return best;
  const size_t local = size_t(((square.y & kTileMask) << kTileBits) | (square.x & kTileMask));
  const uint32_t* first = &s.firstEntry[size_t(tile) * (kSquaresPerTile + 1)];
  for (uint32_t e = first[local]; e < first[local + 1]; ++e) {
    const uint32_t t = s.entries[e];
    const GroundFace& face = s.faces[t];
    // No face after this one reaches higher than what was found.
    if (face.high <= best) break;
    if (face.low > top) continue;
    const float y = faceHeightAt(face, &s.corners[size_t(t) * 3], p, m_reach);
    if (y <= top) best = std::max(best, y);
  }
  return best;
}

float GroundRaster::groundBelowCentre(glm::ivec2 square, float top, TileCache& cache) const {
  uint32_t face;
  return groundBelowCentre(square, top, cache, face);
}

float GroundRaster::groundBelowCentre(glm::ivec2 square, float top, TileCache& cache,
                                      uint32_t& face) const {
  const Storage& s = *m_storage;
  const uint32_t tile = tileOf(square, cache);
  if (tile != kNoTile) {
    const size_t local = size_t(((square.y & kTileMask) << kTileBits) | (square.x & kTileMask));
    const uint32_t* first = &s.firstCentreHeight[size_t(tile) * (kSquaresPerTile + 1)];
    for (uint32_t h = first[local]; h < first[local + 1]; ++h) {
      if (s.centreHeights[h] <= top) {
        face = s.centreFaces[h];
        return s.centreHeights[h];
      }
    }
  }
  face = kNoFace;
  return -std::numeric_limits<float>::infinity();
}

std::pair<float, float> GroundRaster::faceSpan(uint32_t face, glm::vec2 a, glm::vec2 b) const {
  const GroundFace& f = m_storage->faces[face];
  float first = 0.0f, last = 1.0f;
  for (int i = 0; i < 3; ++i) {
    // Inside the edge's line where its value is >= 0, linear along the segment.
    const float atA = glm::dot(f.inward[i], a) + f.offset[i];
    const float atB = glm::dot(f.inward[i], b) + f.offset[i];
    if (atA < 0.0f && atB < 0.0f) return {1.0f, 0.0f};
    if (atA < 0.0f) first = std::max(first, atA / (atA - atB));
    if (atB < 0.0f) last = std::min(last, atA / (atA - atB));
  }
  return {first, last};
}

float GroundRaster::faceHeight(uint32_t face, glm::vec2 p) const {
  const GroundFace& f = m_storage->faces[face];
  return std::clamp(f.plane.x * p.x + f.plane.y * p.y + f.plane.z, f.low, f.high);
}

uint32_t GroundRaster::tileOf(glm::ivec2 square, TileCache& cache) const {
  const uint64_t key = tileKey(square.x >> kTileBits, square.y >> kTileBits);
  if (!cache.known || key != cache.key) cache = {true, key, m_storage->tileIndex.find(key)};
  return cache.tile;
}

size_t GroundRaster::triangleCount() const {
  return m_storage->corners.size() / 3;
}

size_t GroundRaster::memoryBytes() const {
  const Storage& s = *m_storage;
  return s.tileIndex.memoryBytes() + s.tileKeys.capacity() * sizeof(uint64_t) +
         (s.firstEntry.capacity() + s.firstCentreHeight.capacity()) * sizeof(uint32_t) +
         s.centreHeights.capacity() * sizeof(float) +
         (s.centreFaces.capacity() + s.entries.capacity()) * sizeof(uint32_t) +
         s.corners.capacity() * sizeof(glm::vec3) + s.faces.capacity() * sizeof(GroundFace);
}

}  // namespace nav
