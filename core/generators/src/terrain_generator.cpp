// Procedural terrain generator.
//
// Layout (x east, z south, y up): the level is a square cut into tiles x tiles
// square tiles; a tile holds at most one feature (a site), at a random place
// and turn inside it. The first tiles of a shuffled order get one feature of
// each kind, the others a random kind or none. Each kind is sized from the
// unit, and the tile is made large enough for the largest (the bridge), so a
// site never leaves its tile.
//
// The ground is a heightfield on a grid of about 1 m: four octaves of gradient
// noise (hills tens of metres across, a few metres high, slopes mostly under
// 20 degrees), each quad split along the diagonal that follows the noise
// better. Sites other than Walls and Arc stand on a pad: a disc flattened to
// the mean height around it, blended into the hills over a ring, so their
// solids can start just below flat ground. A Holes site drops the grid quads
// under a block around its holes and covers the block, flat, around them.
//
// Solids are hexahedra (boxes, or wedges whose top slopes along one side),
// closed, faces outward, starting 0.2 m or more below the ground they stand on.
// Walls and Arc stand on the hills: from below the lowest ground under them to
// well above the highest.
//
// Angles go through portable_trig.h's sine and cosine and every random draw
// through splitmix64, so the bytes are the same on every platform; vertices are
// written in whole millimetres.
#include "nav/terrain_generator.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>

#include "portable_trig.h"
#include "seeded_random.h"

namespace nav {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kMaxSize = 2048.0;
// Ground grid spacing, near enough (the level's side is a whole number of quads).
constexpr double kGrid = 1.0;
// Pads: flat discs blended into the hills over a ring this wide. [metres]
constexpr double kBlend = 3.5;
// Kept between a site (with its blend ring) and its tile's edge. [metres]
constexpr double kTileMargin = 0.25;
// Solids start this far below the flat ground they stand on, and walls this far
// below the lowest ground under them. [metres]
constexpr double kSink = 0.2, kWallSink = 0.3;
// Holes are cut in multiples of this, and the flat block keeps this much ground round them.
constexpr double kSnap = 0.05, kBlockMargin = 0.4;
// Tiles past the required ones hold a feature with this chance.
constexpr double kFeatureChance = 0.7;

constexpr std::string_view kGround = "ground", kRamp = "ramp", kStairs = "stairs",
                           kBridge = "bridge", kRailing = "railing", kWall = "wall", kRoof = "roof";

constexpr TerrainFeature kFeatures[kTerrainFeatureCount] = {
    TerrainFeature::Slopes, TerrainFeature::Stairs,  TerrainFeature::Bridge,
    TerrainFeature::Cave,   TerrainFeature::Holes,   TerrainFeature::Walls,
    TerrainFeature::Arc,    TerrainFeature::Railings};

// std::hypot may round differently between platforms; sqrt does not.
double planLength(double a, double b) {
  return std::sqrt(a * a + b * b);
}

bool hasPad(TerrainFeature feature) {
  return feature != TerrainFeature::Walls && feature != TerrainFeature::Arc;
}

// ---------------------------------------------------------------------------
// Angles and random numbers, the same on every platform.
// ---------------------------------------------------------------------------

double tangentOf(double degrees) {
  const CosSin d = cosSinOfDegrees(degrees);
  return d.sin / d.cos;
}

/// What a random stream is for, so that streams of one seed never coincide.
enum class Purpose : uint32_t { Order, Kind, Place, Layout };

class Random : public SeededRandom {
 public:
  Random(uint32_t seed, Purpose purpose, uint32_t i = 0, uint32_t j = 0)
      : SeededRandom(seed, uint32_t(purpose), i, j) {}
  /// A multiple of kSnap in [lo, hi] (the first above lo when there is none).
  double snapped(double lo, double hi) {
    const double first = std::ceil(lo / kSnap - 1e-9) * kSnap;
    const int steps = int(std::floor((hi - first) / kSnap + 1e-9));
    return steps <= 0 ? first : first + kSnap * range(0, steps);
  }
  /// An angle at least 10 degrees from both axes: nothing lines up with the grid.
  double diagonalDegrees() { return 90.0 * range(0, 3) + uniform(10.0, 80.0); }
};

// ---------------------------------------------------------------------------
// Hills: gradient noise, four octaves.
// ---------------------------------------------------------------------------

class Hills {
 public:
  /// Slopes scale with tan(maxSlope) below 45 degrees, so a unit that climbs
  /// little still finds most of the hills walkable.
  Hills(uint32_t seed, double maxSlopeDegrees)
      : m_seed(seed), m_scale(std::min(1.0, tangentOf(maxSlopeDegrees))) {}

  double height(double x, double z) const {
    struct Octave {
      double wavelength, amplitude;
    };
    static constexpr Octave kOctaves[] = {{40.0, 4.0}, {20.0, 1.8}, {10.0, 0.7}, {5.0, 0.25}};
    double sum = 0.0;
    for (uint32_t o = 0; o < std::size(kOctaves); ++o) {
      sum += kOctaves[o].amplitude *
             gradientNoise(x / kOctaves[o].wavelength, z / kOctaves[o].wavelength, o);
    }
    return m_scale * sum;
  }

 private:
  // Perlin's scheme: a gradient at each lattice point, dotted with the offset
  // to it, blended with the quintic fade. About -0.7 .. 0.7.
  double gradientNoise(double x, double z, uint32_t octave) const {
    const double fx = std::floor(x), fz = std::floor(z);
    const int64_t ix = int64_t(fx), iz = int64_t(fz);
    const double tx = x - fx, tz = z - fz;
    const auto corner = [&](int dx, int dz) {
      const glm::dvec2 g = gradient(ix + dx, iz + dz, octave);
      return g.x * (tx - dx) + g.y * (tz - dz);
    };
    const auto fade = [](double t) { return t * t * t * (t * (t * 6.0 - 15.0) + 10.0); };
    const double u = fade(tx), v = fade(tz);
    const double top = corner(0, 0) + u * (corner(1, 0) - corner(0, 0));
    const double bottom = corner(0, 1) + u * (corner(1, 1) - corner(0, 1));
    return top + v * (bottom - top);
  }

  glm::dvec2 gradient(int64_t ix, int64_t iz, uint32_t octave) const {
    static constexpr double kDiagonal = 0.70710678118654752;
    static constexpr glm::dvec2 kGradients[8] = {{1, 0},
                                                 {-1, 0},
                                                 {0, 1},
                                                 {0, -1},
                                                 {kDiagonal, kDiagonal},
                                                 {-kDiagonal, kDiagonal},
                                                 {kDiagonal, -kDiagonal},
                                                 {-kDiagonal, -kDiagonal}};
    uint64_t key = (uint64_t(m_seed) << 32) ^ (uint64_t(octave) << 56) ^
                   (uint64_t(ix) * 0x9E3779B97F4A7C15ull) ^ (uint64_t(iz) * 0xC2B2AE3D27D4EB4Full);
    return kGradients[splitmix64(key) & 7];
  }

  uint32_t m_seed;
  double m_scale;
};

// ---------------------------------------------------------------------------
// Sizes: every feature's dimensions from the unit. Random choices stay in the
// ranges given here, so each kind's radius bounds all of its layouts.
// ---------------------------------------------------------------------------

struct Sizes {
  explicit Sizes(const UnitProfile& unit)
      : width(unit.width),
        height(unit.height),
        step(unit.stepHeight),
        slope(unit.maxSlopeDegrees),
        thinMin(std::min(0.1, 0.25 * width)),
        thinMax(std::min(0.3, 0.5 * width)) {}

  double width, height, step, slope;
  /// Railings and thin walls: always thinner than the unit.
  double thinMin, thinMax;
  /// Between two ramps or two flights: wider than the unit's square footprint
  /// reaches across it at any turn (its diagonal), so no unit stands on both.
  double sideGap() const { return 1.5 * width + 0.3; }

  // Slopes: two ramps side by side up to a plateau the unit cannot step onto.
  double plateauHeight() const { return std::max({height, step + 0.5, 1.0}); }
  /// Ramps are made this many degrees either side of the max slope.
  static constexpr double kSlopeOffsetMin = 3.0, kSlopeOffsetMax = 5.0;
  double rampWidth() const { return 2.5 * width; }
  double plateauDepth() const { return 2.0 * width + 0.5; }
  double longestRamp() const { return plateauHeight() / tangentOf(slope - kSlopeOffsetMax); }
  double slopesRadius() const {
    return planLength((longestRamp() + plateauDepth()) / 2, rampWidth() + sideGap() / 2);
  }

  // Stairs: two flights side by side, each ending in a landing.
  double riserBelow() const { return step - 0.1; }
  double riserAbove() const { return step + 0.1; }
  static constexpr int kMinSteps = 3, kMaxSteps = 5;
  double treadMin() const { return std::max(0.3, 0.5 * width); }
  double treadMax() const { return std::max(0.4, 0.8 * width); }
  double landingDepth() const { return 1.5 * width + 0.5; }
  double flightWidth() const { return 2.0 * width; }
  double flightLength() const { return (kMaxSteps - 1) * treadMax() + landingDepth(); }
  double stairsRadius() const {
    return planLength(flightLength() / 2, flightWidth() + sideGap() / 2);
  }

  // Bridge: ramps up to a deck high enough to walk under.
  double deckTop() const { return height + 0.6; }
  static constexpr double kDeckThickness = 0.3, kPillar = 0.4;
  double accessSlope() const { return slope >= 25.0 ? std::min(30.0, slope - 10.0) : 0.6 * slope; }
  double accessLength() const { return deckTop() / tangentOf(accessSlope()); }
  double deckLengthMax() const { return 2.0 * width + 1.5; }
  double deckWidth() const { return 2.5 * width; }
  double bridgeRailHeight() const { return std::max(1.0, step + 0.2); }
  double bridgeRadius() const {
    return planLength(deckLengthMax() / 2 + accessLength(), deckWidth() / 2);
  }

  // Cave: walls on three sides of a low back part, the roof running on past them.
  static constexpr double kBackWall = 0.6, kSideWall = 0.5, kRoof = 0.3;
  double caveOpening() const { return 3.0 * width + 1.0; }
  double caveLowDepth() const { return std::max(1.5, width + 0.3); }
  double caveOverhang() const { return std::max(2.5, 2.0 * width); }
  double caveRadius() const {
    return planLength(caveOpening() / 2 + kSideWall,
                      (kBackWall + caveLowDepth() + caveOverhang()) / 2);
  }

  // Holes: one wider than the unit both ways, one or two cracks narrower than it.
  double wideMin() const { return 2.0 * width; }
  double wideMax() const { return 3.0 * width; }
  double crackMin() const { return 0.3 * width; }
  double crackMax() const { return 0.6 * width; }
  double crackLengthMin() const { return 2.0 * width; }
  double crackLengthMax() const { return 3.0 * width; }
  double holeGap() const { return width + 0.5; }
  static constexpr int kMaxCracks = 2;
  double holesRadius() const {
    const double across = wideMax() + kMaxCracks * (holeGap() + crackMax());
    const double along = std::max(wideMax(), crackLengthMax());
    // The block round them reaches a margin and up to a grid quad further.
    const double reach = kBlockMargin + kGrid * 1.01 + kSnap;
    return planLength(across / 2 + reach, along / 2 + reach);
  }

  // Railings: low zigzag runs the unit steps over.
  double railingLow() const { return 0.35 * step; }
  double railingHigh() const { return 0.7 * step; }
  double railingsHalfSpan() const { return 2.5 * width; }
  double railingsRadius() const {
    return planLength(railingsHalfSpan(), railingsHalfSpan()) + thinMax;
  }

  // Walls and arcs: thick and thin, a little to well above the unit.
  double wallThickMin() const { return std::max(0.5, 0.4 * width); }
  double wallThickMax() const { return std::max(0.9, 0.7 * width); }

  double padRadius(TerrainFeature feature) const {
    switch (feature) {
      case TerrainFeature::Slopes:
        return slopesRadius();
      case TerrainFeature::Stairs:
        return stairsRadius();
      case TerrainFeature::Bridge:
        return bridgeRadius();
      case TerrainFeature::Cave:
        return caveRadius();
      case TerrainFeature::Holes:
        return holesRadius();
      case TerrainFeature::Railings:
        return railingsRadius();
      default:
        return 0.0;
    }
  }

  /// The smallest tile every padded feature fits in with its blend ring.
  double minTile() const {
    double radius = 0.0;
    for (TerrainFeature feature : kFeatures)
      radius = std::max(radius, padRadius(feature));
    return 2.0 * (radius + kBlend + kTileMargin);
  }
};

// ---------------------------------------------------------------------------
// Plan: sites, their pads and holes, before any geometry.
// ---------------------------------------------------------------------------

/// A site's own axes: a along its yaw, b a quarter turn further (+z of a).
struct Frame {
  glm::dvec2 centre;
  CosSin yaw;

  glm::dvec2 at(double a, double b) const {
    return centre + glm::dvec2(a * yaw.cos - b * yaw.sin, a * yaw.sin + b * yaw.cos);
  }
};

/// An axis-aligned rectangle on the ground plane (x, z). [metres]
struct Rect {
  double x0, z0, x1, z1;
  bool contains(double x, double z) const { return x > x0 && x < x1 && z > z0 && z < z1; }
};

struct Site {
  TerrainFeature feature;
  /// The tile it stands in: its random streams are that tile's.
  uint32_t tileI, tileJ;
  Frame frame;
  double yawDegrees;
  /// Everything the site adds lies within radius of its centre; with a pad,
  /// the ground there is flat at padHeight.
  double radius;
  double padHeight = 0.0;
  /// Holes: the gaps, and the block of grid quads [i0, i1) x [j0, j1) replaced by flat ground.
  std::vector<Rect> holes;
  uint32_t blockI0 = 0, blockJ0 = 0, blockI1 = 0, blockJ1 = 0;
};

struct Plan {
  uint32_t seed = 1;
  double size = 0.0;
  /// Ground quads per side and their side.
  uint32_t quads = 0;
  double grid = 0.0;
  uint32_t tiles = 0;
  double tileSize = 0.0;
  /// Row-major by tile; empty tiles have none.
  std::vector<std::optional<Site>> sites;

  const Site* siteAt(double x, double z) const {
    const auto tile = [&](double v) {
      return uint32_t(std::clamp(v / tileSize, 0.0, double(tiles - 1)));
    };
    const std::optional<Site>& site = sites[size_t(tile(z)) * tiles + tile(x)];
    return site ? &*site : nullptr;
  }
};

class Ground {
 public:
  Ground(const Plan& plan, const Hills& hills) : m_plan(plan), m_hills(hills) {}

  /// The ground's height at (x, z): the hills, flattened on pads.
  double height(double x, double z) const {
    const Site* site = m_plan.siteAt(x, z);
    if (site == nullptr || !hasPad(site->feature)) return m_hills.height(x, z);
    const double d = glm::length(glm::dvec2(x, z) - site->frame.centre);
    if (d <= site->radius) return site->padHeight;
    if (d >= site->radius + kBlend) return m_hills.height(x, z);
    const double t = (d - site->radius) / kBlend;
    const double flat = 1.0 - t * t * (3.0 - 2.0 * t);
    return site->padHeight + (1.0 - flat) * (m_hills.height(x, z) - site->padHeight);
  }

 private:
  const Plan& m_plan;
  const Hills& m_hills;
};

// The pad's height: the mean of the hills at its centre and round its blend
// ring, so the ring climbs as little as it can.
double padHeight(const Hills& hills, const glm::dvec2& centre, double radius) {
  double sum = hills.height(centre.x, centre.y);
  for (int k = 0; k < 8; ++k) {
    const CosSin d = cosSinOfDegrees(45.0 * k);
    const glm::dvec2 p = centre + (radius + kBlend) * glm::dvec2(d.cos, d.sin);
    sum += hills.height(p.x, p.y);
  }
  return sum / 9.0;
}

// One wide hole and one or two cracks side by side, axis-aligned (the grid's
// quads are), cracks across x or across z, wide hole first or last.
void planHoles(Site& site, const Sizes& sizes, const Plan& plan, Random& random) {
  struct Gap {
    double across, along;
  };
  std::vector<Gap> gaps{{random.snapped(sizes.wideMin(), sizes.wideMax()),
                         random.snapped(sizes.wideMin(), sizes.wideMax())}};
  const int cracks = random.range(1, Sizes::kMaxCracks);
  for (int c = 0; c < cracks; ++c) {
    gaps.push_back({random.snapped(sizes.crackMin(), sizes.crackMax()),
                    random.snapped(sizes.crackLengthMin(), sizes.crackLengthMax())});
  }
  if (random.chance(0.5)) std::reverse(gaps.begin(), gaps.end());
  const bool acrossX = random.chance(0.5);
  double total = 0.0;
  for (const Gap& gap : gaps)
    total += gap.across;
  total += sizes.holeGap() * double(gaps.size() - 1);
  // Snapped corners keep the OBJ's numbers short and the block's lines apart.
  const auto snap = [](double v) { return std::round(v / kSnap) * kSnap; };
  double cursor = -total / 2;
  Rect bounds{1e300, 1e300, -1e300, -1e300};
  for (const Gap& gap : gaps) {
    const double a0 = snap(cursor), a1 = snap(cursor + gap.across);
    const double b0 = snap(-gap.along / 2), b1 = snap(gap.along / 2);
    const glm::dvec2 c = site.frame.centre;
    Rect hole = acrossX ? Rect{snap(c.x + a0), snap(c.y + b0), snap(c.x + a1), snap(c.y + b1)}
                        : Rect{snap(c.x + b0), snap(c.y + a0), snap(c.x + b1), snap(c.y + a1)};
    site.holes.push_back(hole);
    bounds = {std::min(bounds.x0, hole.x0), std::min(bounds.z0, hole.z0),
              std::max(bounds.x1, hole.x1), std::max(bounds.z1, hole.z1)};
    cursor += gap.across + sizes.holeGap();
  }
  site.blockI0 = uint32_t(std::floor((bounds.x0 - kBlockMargin) / plan.grid));
  site.blockJ0 = uint32_t(std::floor((bounds.z0 - kBlockMargin) / plan.grid));
  site.blockI1 = uint32_t(std::ceil((bounds.x1 + kBlockMargin) / plan.grid));
  site.blockJ1 = uint32_t(std::ceil((bounds.z1 + kBlockMargin) / plan.grid));
}

Plan planTerrain(const TerrainParams& params, const Sizes& sizes, const Hills& hills) {
  Plan plan;
  plan.seed = params.seed;
  plan.size = params.size;
  plan.quads = std::max<uint32_t>(1, uint32_t(std::lround(plan.size / kGrid)));
  plan.grid = plan.size / plan.quads;
  plan.tiles = uint32_t(std::floor(plan.size / sizes.minTile()));
  plan.tileSize = plan.size / plan.tiles;
  const uint32_t tileCount = plan.tiles * plan.tiles;

  // The first tiles of a shuffled order hold one feature of each kind.
  std::vector<uint32_t> order(tileCount);
  for (uint32_t t = 0; t < tileCount; ++t)
    order[t] = t;
  Random shuffle(params.seed, Purpose::Order);
  for (uint32_t t = tileCount - 1; t > 0; --t)
    std::swap(order[t], order[uint32_t(shuffle.range(0, int(t)))]);
  std::vector<std::optional<TerrainFeature>> features(tileCount);
  for (uint32_t k = 0; k < tileCount; ++k) {
    if (k < kTerrainFeatureCount) {
      features[order[k]] = kFeatures[k];
      continue;
    }
    Random random(params.seed, Purpose::Kind, order[k]);
    if (random.chance(kFeatureChance)) {
      features[order[k]] = kFeatures[random.range(0, kTerrainFeatureCount - 1)];
    }
  }

  plan.sites.resize(tileCount);
  for (uint32_t j = 0; j < plan.tiles; ++j) {
    for (uint32_t i = 0; i < plan.tiles; ++i) {
      const std::optional<TerrainFeature> feature = features[j * plan.tiles + i];
      if (!feature) continue;
      Random random(params.seed, Purpose::Place, i, j);
      Site site;
      site.feature = *feature;
      site.tileI = i;
      site.tileJ = j;
      site.yawDegrees = random.diagonalDegrees();
      const glm::dvec2 tileCentre((i + 0.5) * plan.tileSize, (j + 0.5) * plan.tileSize);
      const double half = plan.tileSize / 2 - kTileMargin;
      if (hasPad(site.feature)) {
        site.radius = sizes.padRadius(site.feature);
        const double slack = std::max(0.0, half - kBlend - site.radius);
        // One draw a statement: the order of a call's arguments is the compiler's.
        const double dz = random.uniform(-slack, slack);
        const double dx = random.uniform(-slack, slack);
        site.frame.centre = tileCentre + glm::dvec2(dx, dz);
        site.padHeight = padHeight(hills, site.frame.centre, site.radius);
      } else {
        site.radius = half;
        site.frame.centre = tileCentre;
      }
      site.frame.yaw = cosSinOfDegrees(site.yawDegrees);
      if (site.feature == TerrainFeature::Holes) planHoles(site, sizes, plan, random);
      plan.sites[j * plan.tiles + i] = std::move(site);
    }
  }
  return plan;
}

// ---------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------

/// Whole millimetres, trailing zeros dropped ("3.15", "12", "-0.004").
void appendMillimetres(std::string& out, double metres) {
  const long long millimetres = std::llround(metres * 1000.0);
  const unsigned long long magnitude =
      millimetres < 0 ? 0ull - (unsigned long long)millimetres : (unsigned long long)millimetres;
  if (millimetres < 0) out += '-';
  out += std::to_string(magnitude / 1000);
  unsigned fraction = unsigned(magnitude % 1000);
  if (fraction == 0) return;
  int digits = 3;
  while (fraction % 10 == 0) {
    fraction /= 10;
    --digits;
  }
  const std::string text = std::to_string(fraction);
  out += '.';
  out.append(size_t(digits) - text.size(), '0');
  out += text;
}

/// Eight corners: corner c is at the far end (a1) if bit 0, on top if bit 1, and
/// on the far side (b1) if bit 2 is set.
using Corners = std::array<glm::dvec3, 8>;

/// Streams OBJ text through a buffer of about a megabyte.
class ObjStream {
 public:
  explicit ObjStream(std::ostream& out) : m_out(out) { m_buffer.reserve(kFlushBytes + 4096); }

  void comment(std::string_view text) {
    m_buffer += "# ";
    m_buffer += text;
    m_buffer += '\n';
  }

  void material(std::string_view name) {
    if (name == m_material) return;
    m_material = name;
    m_buffer += "usemtl ";
    m_buffer += name;
    m_buffer += '\n';
  }

  /// Writes a vertex and returns its index (from 0).
  uint64_t vertex(const glm::dvec3& p) {
    m_buffer += 'v';
    for (int k = 0; k < 3; ++k) {
      m_buffer += ' ';
      appendMillimetres(m_buffer, p[k]);
    }
    m_buffer += '\n';
    return m_vertices++;
  }

  void triangle(uint64_t a, uint64_t b, uint64_t c) {
    m_buffer += 'f';
    for (uint64_t index : {a, b, c}) {
      m_buffer += ' ';
      m_buffer += std::to_string(index + 1);
    }
    m_buffer += '\n';
    ++m_triangles;
    if (m_buffer.size() >= kFlushBytes) flush();
  }

  /// A closed hexahedron, faces outward when its corners follow Corners' order
  /// in a right-handed frame.
  void solid(std::string_view name, const Corners& corners) {
    material(name);
    uint64_t index[8];
    for (int c = 0; c < 8; ++c)
      index[c] = vertex(corners[c]);
    static constexpr int kFaces[6][4] = {{2, 6, 7, 3}, {0, 1, 5, 4}, {1, 3, 7, 5},
                                         {0, 4, 6, 2}, {4, 5, 7, 6}, {0, 2, 3, 1}};
    for (const auto& f : kFaces) {
      triangle(index[f[0]], index[f[1]], index[f[2]]);
      triangle(index[f[0]], index[f[2]], index[f[3]]);
    }
  }

  /// A flat rectangle facing up.
  void flat(std::string_view name, const Rect& r, double y) {
    material(name);
    const uint64_t a = vertex({r.x0, y, r.z0}), b = vertex({r.x0, y, r.z1});
    const uint64_t c = vertex({r.x1, y, r.z1}), d = vertex({r.x1, y, r.z0});
    triangle(a, b, c);
    triangle(a, c, d);
  }

  bool finish() {
    flush();
    m_out.flush();
    return bool(m_out);
  }

  uint64_t vertices() const { return m_vertices; }
  uint64_t triangles() const { return m_triangles; }

 private:
  static constexpr size_t kFlushBytes = 1 << 20;

  void flush() {
    m_out.write(m_buffer.data(), std::streamsize(m_buffer.size()));
    m_buffer.clear();
  }

  std::ostream& m_out;
  std::string m_buffer;
  std::string_view m_material;
  uint64_t m_vertices = 0;
  uint64_t m_triangles = 0;
};

/// A hexahedron over [a0, a1] x [b0, b1] of a frame, from `bottom` to a top at
/// topA0 along a = a0 rising (or falling) linearly to topA1 along a = a1.
Corners frameSolid(const Frame& frame, double a0, double a1, double b0, double b1, double bottom,
                   double topA0, double topA1) {
  Corners corners;
  for (int c = 0; c < 8; ++c) {
    const bool far = c & 1, top = c & 2, side = c & 4;
    const glm::dvec2 p = frame.at(far ? a1 : a0, side ? b1 : b0);
    corners[c] = {p.x, top ? (far ? topA1 : topA0) : bottom, p.y};
  }
  return corners;
}

Corners frameBox(const Frame& frame, double a0, double a1, double b0, double b1, double bottom,
                 double top) {
  return frameSolid(frame, a0, a1, b0, b1, bottom, top, top);
}

class TerrainWriter {
 public:
  TerrainWriter(const Plan& plan, const Sizes& sizes, const Ground& ground, std::ostream& obj)
      : m_plan(plan), m_sizes(sizes), m_ground(ground), m_out(obj) {}

  bool write(const std::string& title) {
    m_out.comment(title);
    m_out.comment("Generated by navscope's terrain generator; Y up, metres.");
    writeGround();
    for (const std::optional<Site>& site : m_plan.sites) {
      if (site) writeSite(*site);
    }
    return m_out.finish();
  }

  uint64_t vertices() const { return m_out.vertices(); }
  uint64_t triangles() const { return m_out.triangles(); }

 private:
  // The grid row by row, each row's quads as soon as its vertices are out.
  void writeGround() {
    m_out.material(kGround);
    const uint32_t n = m_plan.quads;
    const double g = m_plan.grid;
    std::vector<double> previous(n + 1), current(n + 1);
    const auto row = [&](uint32_t j, std::vector<double>& heights) {
      for (uint32_t i = 0; i <= n; ++i) {
        heights[i] = m_ground.height(i * g, j * g);
        m_out.vertex({i * g, heights[i], j * g});
      }
    };
    row(0, previous);
    for (uint32_t j = 0; j < n; ++j) {
      row(j + 1, current);
      const uint64_t above = uint64_t(j) * (n + 1), below = above + n + 1;
      for (uint32_t i = 0; i < n; ++i) {
        if (inHoleBlock(i, j)) continue;
        const uint64_t v00 = above + i, v10 = v00 + 1, v01 = below + i, v11 = v01 + 1;
        // The diagonal whose middle lies nearer the ground's height at the quad's centre.
        const double centre = m_ground.height((i + 0.5) * g, (j + 0.5) * g);
        const double falling = (previous[i] + current[i + 1]) / 2;
        const double rising = (previous[i + 1] + current[i]) / 2;
        if (std::abs(falling - centre) <= std::abs(rising - centre)) {
          m_out.triangle(v00, v01, v11);
          m_out.triangle(v00, v11, v10);
        } else {
          m_out.triangle(v00, v01, v10);
          m_out.triangle(v10, v01, v11);
        }
      }
      std::swap(previous, current);
    }
  }

  bool inHoleBlock(uint32_t i, uint32_t j) const {
    const Site* site = m_plan.siteAt((i + 0.5) * m_plan.grid, (j + 0.5) * m_plan.grid);
    return site != nullptr && site->feature == TerrainFeature::Holes && i >= site->blockI0 &&
           i < site->blockI1 && j >= site->blockJ0 && j < site->blockJ1;
  }

  void writeSite(const Site& site) {
    Random random(m_plan.seed, Purpose::Layout, site.tileI, site.tileJ);
    switch (site.feature) {
      case TerrainFeature::Slopes:
        return writeSlopes(site, random);
      case TerrainFeature::Stairs:
        return writeStairs(site, random);
      case TerrainFeature::Bridge:
        return writeBridge(site, random);
      case TerrainFeature::Cave:
        return writeCave(site, random);
      case TerrainFeature::Holes:
        return writeHoles(site);
      case TerrainFeature::Walls:
        return writeWalls(site, random);
      case TerrainFeature::Arc:
        return writeArc(site, random);
      case TerrainFeature::Railings:
        return writeRailings(site, random);
    }
  }

  // A ramp 3..5 degrees under the max slope and one as much over it, side by
  // side up to a plateau as high as the unit.
  void writeSlopes(const Site& site, Random& random) {
    const Sizes& s = m_sizes;
    const double p = site.padHeight, bottom = p - kSink, top = p + s.plateauHeight();
    const double gentle = s.slope - random.uniform(Sizes::kSlopeOffsetMin, Sizes::kSlopeOffsetMax);
    const double steep = s.slope + random.uniform(Sizes::kSlopeOffsetMin, Sizes::kSlopeOffsetMax);
    const double halfA = (s.longestRamp() + s.plateauDepth()) / 2;
    const double halfB = s.rampWidth() + s.sideGap() / 2;
    // Ramps end where the plateau starts; the gentle one on either side.
    const double edge = halfA - s.plateauDepth();
    const double gentleSide = random.chance(0.5) ? 1.0 : -1.0;
    const std::pair<double, double> ramps[] = {{gentle, gentleSide}, {steep, -gentleSide}};
    for (const auto& [angle, side] : ramps) {
      const double length = s.plateauHeight() / tangentOf(angle);
      const double b0 = side > 0 ? halfB - s.rampWidth() : -halfB;
      m_out.solid(kRamp, frameSolid(site.frame, edge - length, edge, b0, b0 + s.rampWidth(), bottom,
                                    p, top));
    }
    m_out.solid(kRamp, frameBox(site.frame, edge, halfA, -halfB, halfB, bottom, top));
  }

  // Two flights of three to five steps side by side, risers 0.1 m under and
  // over the step, each ending in a deeper landing.
  void writeStairs(const Site& site, Random& random) {
    const Sizes& s = m_sizes;
    const double p = site.padHeight, bottom = p - kSink;
    const double foot = -s.flightLength() / 2;
    const double halfB = s.flightWidth() + s.sideGap() / 2;
    const bool belowFirst = random.chance(0.5);
    for (int flight = 0; flight < 2; ++flight) {
      const double riser = (flight == 0) == belowFirst ? s.riserBelow() : s.riserAbove();
      const int steps = random.range(Sizes::kMinSteps, Sizes::kMaxSteps);
      const double tread = random.snapped(s.treadMin(), s.treadMax());
      const double b0 = flight == 0 ? -halfB : halfB - s.flightWidth();
      for (int k = 1; k <= steps; ++k) {
        const double a0 = foot + (k - 1) * tread;
        const double a1 = k < steps ? a0 + tread : a0 + s.landingDepth();
        m_out.solid(kStairs,
                    frameBox(site.frame, a0, a1, b0, b0 + s.flightWidth(), bottom, p + k * riser));
      }
    }
  }

  // A deck on four pillars, ramps up to its ends, railings along it; under it
  // the unit has 0.3 m to spare.
  void writeBridge(const Site& site, Random& random) {
    const Sizes& s = m_sizes;
    const double p = site.padHeight, bottom = p - kSink;
    const double deck = p + s.deckTop(), underside = deck - Sizes::kDeckThickness;
    const double half = random.snapped(s.deckLengthMax() - 0.5, s.deckLengthMax()) / 2;
    const double run = s.accessLength(), halfB = s.deckWidth() / 2;
    m_out.solid(kBridge,
                frameSolid(site.frame, -half - run, -half, -halfB, halfB, bottom, p, deck));
    m_out.solid(kBridge, frameSolid(site.frame, half, half + run, -halfB, halfB, bottom, deck, p));
    m_out.solid(kBridge, frameBox(site.frame, -half, half, -halfB, halfB, underside, deck));
    const double q = Sizes::kPillar;
    for (double a : {-half, half - q}) {
      for (double b : {-halfB, halfB - q})
        m_out.solid(kBridge, frameBox(site.frame, a, a + q, b, b + q, bottom, underside));
    }
    const double rail = s.thinMax / 2, railTop = deck + s.bridgeRailHeight();
    m_out.solid(kRailing, frameBox(site.frame, -half, half, -halfB, -halfB + rail, deck, railTop));
    m_out.solid(kRailing, frameBox(site.frame, -half, half, halfB - rail, halfB, deck, railTop));
  }

  // A back wall and two side walls round a part whose ceiling hangs lower than
  // the unit; the roof over them runs on past the side walls (an overhang
  // higher than the unit).
  void writeCave(const Site& site, Random& random) {
    const Sizes& s = m_sizes;
    const double p = site.padHeight, bottom = p - kSink;
    const double high = p + s.height + random.snapped(0.3, 0.8);
    const double low = p + s.height - random.snapped(0.3, 0.6);
    const double halfA = s.caveOpening() / 2 + Sizes::kSideWall;
    const double back = -(Sizes::kBackWall + s.caveLowDepth() + s.caveOverhang()) / 2;
    const double inside = back + Sizes::kBackWall, front = inside + s.caveLowDepth();
    const double innerA = halfA - Sizes::kSideWall;
    m_out.solid(kWall, frameBox(site.frame, -halfA, halfA, back, inside, bottom, high));
    m_out.solid(kWall, frameBox(site.frame, -halfA, -innerA, inside, front, bottom, high));
    m_out.solid(kWall, frameBox(site.frame, innerA, halfA, inside, front, bottom, high));
    m_out.solid(kRoof, frameBox(site.frame, -innerA, innerA, inside, front, low, high));
    m_out.solid(kRoof, frameBox(site.frame, -halfA, halfA, back, -back, high, high + Sizes::kRoof));
  }

  // Flat ground over the block, cut along every hole edge, minus the holes.
  void writeHoles(const Site& site) {
    const double g = m_plan.grid;
    std::vector<double> xs{site.blockI0 * g, site.blockI1 * g};
    std::vector<double> zs{site.blockJ0 * g, site.blockJ1 * g};
    for (const Rect& hole : site.holes) {
      xs.insert(xs.end(), {hole.x0, hole.x1});
      zs.insert(zs.end(), {hole.z0, hole.z1});
    }
    for (std::vector<double>* lines : {&xs, &zs}) {
      std::sort(lines->begin(), lines->end());
      lines->erase(std::unique(lines->begin(), lines->end()), lines->end());
    }
    for (size_t j = 0; j + 1 < zs.size(); ++j) {
      for (size_t i = 0; i + 1 < xs.size(); ++i) {
        const double x = (xs[i] + xs[i + 1]) / 2, z = (zs[j] + zs[j + 1]) / 2;
        const bool open = std::any_of(site.holes.begin(), site.holes.end(),
                                      [&](const Rect& hole) { return hole.contains(x, z); });
        if (!open) m_out.flat(kGround, {xs[i], zs[j], xs[i + 1], zs[j + 1]}, site.padHeight);
      }
    }
  }

  // A wall along the ground from `from` to `to`: from below the lowest ground
  // under it to `above` over the highest.
  void wallOnHills(std::string_view material, glm::dvec2 from, glm::dvec2 to, double thickness,
                   double above) {
    const glm::dvec2 along = to - from;
    const double length = glm::length(along);
    Frame frame{(from + to) / 2.0, {along.x / length, along.y / length}};
    // Samples a quarter metre apart over its footprint: the ground is flat
    // between grid lines a metre apart, so the sink covers what they miss.
    const int samples = int(std::ceil(length / 0.25));
    double lowest = 1e300, highest = -1e300;
    for (int k = 0; k <= samples; ++k) {
      const double a = -length / 2 + length * k / samples;
      for (double b : {-thickness / 2, 0.0, thickness / 2}) {
        const glm::dvec2 p = frame.at(a, b);
        const double y = m_ground.height(p.x, p.y);
        lowest = std::min(lowest, y);
        highest = std::max(highest, y);
      }
    }
    m_out.solid(material, frameBox(frame, -length / 2, length / 2, -thickness / 2, thickness / 2,
                                   lowest - kWallSink, highest + above));
  }

  // One thick wall and two to four thin ones, each at its own angle.
  void writeWalls(const Site& site, Random& random) {
    const Sizes& s = m_sizes;
    const int thin = random.range(2, 4);
    for (int k = 0; k <= thin; ++k) {
      const bool thick = k == 0;
      const double thickness = thick ? random.uniform(s.wallThickMin(), s.wallThickMax())
                                     : random.uniform(s.thinMin, s.thinMax);
      const double length =
          thick ? random.uniform(4.0 * s.width, 7.0 * s.width) : random.uniform(2.0, 5.0) * s.width;
      const CosSin d = cosSinOfDegrees(random.diagonalDegrees());
      // Its middle anywhere its ends and corners stay in the site's circle.
      const double reach = std::max(0.0, site.radius - length / 2 - thickness);
      glm::dvec2 middle;
      do {
        const double dz = random.uniform(-reach, reach);
        const double dx = random.uniform(-reach, reach);
        middle = glm::dvec2(dx, dz);
      } while (glm::length(middle) > reach);
      middle += site.frame.centre;
      const glm::dvec2 half = glm::dvec2(d.cos, d.sin) * (length / 2);
      wallOnHills(kWall, middle - half, middle + half, thickness,
                  s.height + random.uniform(0.5, 1.5));
    }
  }

  // An arc of 120 to 240 degrees made of segments about 0.4 unit widths long,
  // each lengthened by its thickness so the joints close.
  void writeArc(const Site& site, Random& random) {
    const Sizes& s = m_sizes;
    const double thickness = random.uniform(s.thinMin, s.thinMax);
    const double radius = random.uniform(
        2.5 * s.width, std::max(2.5 * s.width, std::min(5.0 * s.width, site.radius - 1.0)));
    const double span = random.uniform(120.0, 240.0), start = random.uniform(0.0, 360.0);
    const int segments = int(std::ceil(span * kPi / 180.0 * radius / (0.4 * s.width)));
    const double above = s.height + random.uniform(0.5, 1.0);
    const auto point = [&](int k) {
      const CosSin d = cosSinOfDegrees(start + span * k / segments);
      return site.frame.centre + radius * glm::dvec2(d.cos, d.sin);
    };
    for (int k = 0; k < segments; ++k) {
      const glm::dvec2 from = point(k), to = point(k + 1);
      const glm::dvec2 extend = (to - from) / glm::length(to - from) * (thickness / 2);
      wallOnHills(kWall, from - extend, to + extend, thickness, above);
    }
  }

  // Two or three zigzag runs of low thin railing across the site.
  void writeRailings(const Site& site, Random& random) {
    const Sizes& s = m_sizes;
    const double p = site.padHeight, bottom = p - kSink, span = s.railingsHalfSpan();
    const int runs = random.range(2, 3);
    for (int r = 0; r < runs; ++r) {
      const double offset = span * (2.0 * (r + 0.5) / runs - 1.0);
      const double top = p + random.uniform(s.railingLow(), s.railingHigh());
      const double thickness = random.uniform(s.thinMin, s.thinMax);
      const int segments = random.range(2, 4);
      // Points along a, each off its run's line by up to a sixth of the space
      // between runs, so two runs never meet.
      std::vector<glm::dvec2> points;
      for (int k = 0; k <= segments; ++k) {
        const double wander = random.uniform(-1.0, 1.0) * span / (3.0 * runs);
        points.push_back({-span + 2.0 * span * k / segments, offset + wander});
      }
      for (int k = 0; k < segments; ++k) {
        const glm::dvec2 a = points[k], b = points[k + 1];
        const glm::dvec2 extend = (b - a) / glm::length(b - a) * (thickness / 2);
        const glm::dvec2 from = site.frame.at((a - extend).x, (a - extend).y);
        const glm::dvec2 to = site.frame.at((b + extend).x, (b + extend).y);
        const glm::dvec2 along = to - from;
        const double length = glm::length(along);
        const Frame frame{(from + to) / 2.0, {along.x / length, along.y / length}};
        m_out.solid(kRailing, frameBox(frame, -length / 2, length / 2, -thickness / 2,
                                       thickness / 2, bottom, top));
      }
    }
  }

  const Plan& m_plan;
  const Sizes& m_sizes;
  const Ground& m_ground;
  ObjStream m_out;
};

// The sidecar: the cell size and the unit, one key a line; no seeds, so a
// build seeds every walkable surface.
std::string sidecarJson(const TerrainParams& params) {
  using Json = nlohmann::ordered_json;
  // Four decimals, as a person would write them (floats print their binary noise).
  const auto number = [](float v) { return std::round(double(v) * 1e4) / 1e4; };
  const UnitProfile& unit = params.unit;
  Json json{{"name", unit.name}, {"kind", toString(unit.kind)}};
  if (unit.shape != UnitShape::Box) json["shape"] = toString(unit.shape);
  json["width"] = number(unit.width);
  if (unit.length > 0.0f) json["length"] = number(unit.length);
  json["height"] = number(unit.height);
  json["stepHeight"] = number(unit.stepHeight);
  json["maxDrop"] = number(unit.maxDrop);
  json["maxSlopeDegrees"] = number(unit.maxSlopeDegrees);
  if (unit.turningRadius > 0.0f) json["turningRadius"] = number(unit.turningRadius);
  return "{\n  \"cellSize\": " + Json(number(params.cellSize)).dump() + ",\n  \"units\": [" +
         json.dump(-1, ' ', false, Json::error_handler_t::replace) + "]\n}\n";
}

}  // namespace

UnitProfile detourMatchedUnit() {
  UnitProfile unit;
  unit.width = 1.2f;
  unit.height = 2.0f;
  unit.stepHeight = 0.9f;
  unit.maxDrop = 0.9f;
  unit.maxSlopeDegrees = 45.0f;
  return unit;
}

const char* toString(TerrainFeature feature) {
  switch (feature) {
    case TerrainFeature::Slopes:
      return "slopes";
    case TerrainFeature::Stairs:
      return "stairs";
    case TerrainFeature::Bridge:
      return "bridge";
    case TerrainFeature::Cave:
      return "cave";
    case TerrainFeature::Holes:
      return "holes";
    case TerrainFeature::Walls:
      return "walls";
    case TerrainFeature::Arc:
      return "arc";
    case TerrainFeature::Railings:
      return "railings";
  }
  return "?";
}

float minTerrainSize(const UnitProfile& unit) {
  return float(3.0 * Sizes(unit).minTile());
}

Result<TerrainInfo> generateTerrain(const TerrainParams& params, std::ostream& obj) {
  using R = Result<TerrainInfo>;
  const Result<UnitProfile> unit = validateUnitProfile(params.unit);
  if (!unit) return R::failure("terrain generator: unit." + unit.error());
  if (!(params.unit.maxSlopeDegrees >= 10.0f && params.unit.maxSlopeDegrees <= 80.0f)) {
    return R::failure(
        "terrain generator: unit.maxSlopeDegrees = " + std::to_string(params.unit.maxSlopeDegrees) +
        " is out of range (10 to 80 degrees: ramps are made either side of it)");
  }
  if (!(params.unit.stepHeight >= 0.2f)) {
    return R::failure(
        "terrain generator: unit.stepHeight = " + std::to_string(params.unit.stepHeight) +
        " is too low (at least 0.2 metres: risers are made 0.1 m either side of it)");
  }
  const float minSize = minTerrainSize(params.unit);
  if (!(params.size >= minSize && params.size <= float(kMaxSize))) {
    return R::failure("terrain generator: size = " + std::to_string(params.size) +
                      " is out of range (" + std::to_string(minSize) + " to " +
                      std::to_string(int(kMaxSize)) + " metres for this unit)");
  }
  if (!(params.cellSize >= 0.05f && params.cellSize <= 2.0f)) {
    return R::failure("terrain generator: cellSize = " + std::to_string(params.cellSize) +
                      " is out of range (0.05 to 2 metres)");
  }

  const Sizes sizes(params.unit);
  const Hills hills(params.seed, params.unit.maxSlopeDegrees);
  const Plan plan = planTerrain(params, sizes, hills);
  const Ground ground(plan, hills);

  TerrainInfo info;
  info.tiles = plan.tiles;
  info.tileSize = float(plan.tileSize);
  for (const std::optional<Site>& site : plan.sites) {
    if (!site) continue;
    info.sites.push_back({site->feature, float(site->frame.centre.x), float(site->frame.centre.y),
                          float(site->yawDegrees), float(site->radius)});
  }
  std::string title = "navscope terrain: seed " + std::to_string(params.seed) + ", ";
  appendMillimetres(title, plan.size);
  title += " m square, " + std::to_string(info.sites.size()) + " features for a unit ";
  appendMillimetres(title, params.unit.width);
  title += " m wide";
  TerrainWriter writer(plan, sizes, ground, obj);
  if (!writer.write(title)) return R::failure("terrain generator: writing the OBJ failed");
  info.vertices = writer.vertices();
  info.triangles = writer.triangles();
  info.sidecarJson = sidecarJson(params);
  return R::success(std::move(info));
}

}  // namespace nav
