#include "nav/grid_angle.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <unordered_map>

#include "nav/collision.h"
#include "nav/nav_build.h"

namespace nav {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr int kBinsPerDegree = 4;
constexpr int kBins = 90 * kBinsPerDegree;
// Edges within this of a peak's direction belong to it (smoothing and refining). [degrees]
constexpr double kPeakHalfWidth = 2.0;
// Peaks closer than this are one. [degrees]
constexpr double kPeakSeparation = 5.0;
constexpr size_t kMaxPeaks = 2;
// Trial builds use cells this many times larger: a quarter of the cells or
// fewer, and on every level measured the same order of sector counts.
constexpr float kTrialCellScale = 2.0f;

// A direction on the ground folded into [0, 90) degrees, with the length along it.
struct EdgeDirection {
  double degrees;
  double length;
};

double foldedDegrees(double dx, double dz) {
  const double degrees = std::atan2(dz, dx) * 180.0 / kPi;
  const double folded = std::fmod(degrees + 360.0, 90.0);
  return folded >= 90.0 ? 0.0 : folded;
}

// A vertex position to the millimetre: faces of a soup share edges by position.
struct PointKey {
  int64_t x, y, z;
  bool operator==(const PointKey&) const = default;
};

PointKey keyOf(const glm::vec3& p) {
  return {std::llround(double(p.x) * 1000.0), std::llround(double(p.y) * 1000.0),
          std::llround(double(p.z) * 1000.0)};
}

struct EdgeKey {
  PointKey a, b;
  bool operator==(const EdgeKey&) const = default;
};

struct EdgeHash {
  size_t operator()(const EdgeKey& e) const {
    uint64_t h = 1469598103934665603ull;
    for (int64_t v : {e.a.x, e.a.y, e.a.z, e.b.x, e.b.y, e.b.z})
      h = (h ^ uint64_t(v)) * 1099511628211ull;
    return size_t(h);
  }
};

EdgeKey edgeKey(const glm::vec3& p, const glm::vec3& q) {
  PointKey a = keyOf(p), b = keyOf(q);
  if (std::tie(b.x, b.y, b.z) < std::tie(a.x, a.y, a.z)) std::swap(a, b);
  return {a, b};
}

// The straight edges of the level: a steep face's base (its horizontal extent
// along the face) and every ground edge that no other ground face shares.
std::vector<EdgeDirection> straightEdges(const Level& level, float maxSlopeDegrees) {
  const double minUp = std::cos(double(maxSlopeDegrees) * kPi / 180.0);
  std::vector<EdgeDirection> edges;
  std::vector<uint32_t> ground;
  for (uint32_t t = 0; t < level.triangles.size(); ++t) {
    const glm::dvec3 a = level.corner(t, 0), b = level.corner(t, 1), c = level.corner(t, 2);
    const glm::dvec3 normal = glm::cross(b - a, c - a);
    const double area2 = glm::length(normal);
    if (!(area2 > 0.0)) continue;
    if (std::abs(normal.y) / area2 >= minUp) {
      ground.push_back(t);
      continue;
    }
    const double across = std::hypot(normal.x, normal.z);
    const glm::dvec2 along(-normal.z / across, normal.x / across);
    double low = 0.0, high = 0.0;
    for (const glm::dvec3& p : {a, b, c}) {
      const double s = glm::dot(glm::dvec2(p.x, p.z) - glm::dvec2(a.x, a.z), along);
      low = std::min(low, s);
      high = std::max(high, s);
    }
    if (high > low) edges.push_back({foldedDegrees(along.x, along.y), high - low});
  }
  std::unordered_map<EdgeKey, uint32_t, EdgeHash> faces;
  faces.reserve(ground.size() * 3);
  for (uint32_t t : ground) {
    for (int i = 0; i < 3; ++i)
      ++faces[edgeKey(level.corner(t, i), level.corner(t, (i + 1) % 3))];
  }
  for (uint32_t t : ground) {
    for (int i = 0; i < 3; ++i) {
      const glm::vec3 p = level.corner(t, i), q = level.corner(t, (i + 1) % 3);
      if (faces[edgeKey(p, q)] != 1) continue;
      const double dx = double(q.x) - p.x, dz = double(q.z) - p.z;
      const double length = std::hypot(dx, dz);
      if (length > 0.0) edges.push_back({foldedDegrees(dx, dz), length});
    }
  }
  return edges;
}

// Signed difference a - b folded into [-45, 45). [degrees]
double foldedDifference(double a, double b) {
  return std::remainder(a - b, 90.0);
}

}  // namespace

std::vector<float> gridAngleCandidates(const Level& level, const FloodFillParams& params) {
  const std::vector<EdgeDirection> edges = straightEdges(level, params.unit.maxSlopeDegrees);
  std::array<double, kBins> bins{};
  for (const EdgeDirection& e : edges)
    bins[size_t(e.degrees * kBinsPerDegree) % kBins] += e.length;
  // Each bin with its neighbours within kPeakHalfWidth, nearer ones weighing more.
  const int reach = int(kPeakHalfWidth * kBinsPerDegree);
  std::array<double, kBins> smooth{};
  for (int i = 0; i < kBins; ++i) {
    for (int k = -reach; k <= reach; ++k)
      smooth[size_t(i)] +=
          bins[size_t((i + k + kBins) % kBins)] * (1.0 - std::abs(k) / double(reach + 1));
  }
  std::vector<double> peaks;
  std::array<bool, kBins> taken{};
  double strongest = 0.0;
  while (peaks.size() < kMaxPeaks) {
    int best = -1;
    for (int i = 0; i < kBins; ++i) {
      if (!taken[size_t(i)] && smooth[size_t(i)] > 0.0 &&
          (best < 0 || smooth[size_t(i)] > smooth[size_t(best)]))
        best = i;
    }
    if (best < 0) break;
    if (peaks.empty()) strongest = smooth[size_t(best)];
    if (smooth[size_t(best)] < 0.5 * strongest) break;
    const double centre = (best + 0.5) / kBinsPerDegree;
    peaks.push_back(centre);
    for (int i = 0; i < kBins; ++i) {
      if (std::abs(foldedDifference((i + 0.5) / kBinsPerDegree, centre)) < kPeakSeparation)
        taken[size_t(i)] = true;
    }
  }
  // A turn of this many radians moves no point of the level by more than a quarter cell.
  const glm::vec3 extent = level.bounds.max - level.bounds.min;
  const double radius = 0.5 * std::hypot(double(extent.x), double(extent.z));
  const double negligible = radius > 0.0 ? 0.25 * double(effectiveCellSize(params)) / radius : 0.0;
  std::vector<float> candidates;
  for (const double peak : peaks) {
    double weight = 0.0, offset = 0.0;
    for (const EdgeDirection& e : edges) {
      const double d = foldedDifference(e.degrees, peak);
      if (std::abs(d) <= kPeakHalfWidth / 2.0) {
        weight += e.length;
        offset += e.length * d;
      }
    }
    double degrees = foldedDifference(peak + (weight > 0.0 ? offset / weight : 0.0), 0.0);
    if (std::abs(degrees) * kPi / 180.0 <= negligible) degrees = 0.0;
    // The grid's x axis along the edges: the level is turned the other way.
    const float angle = degrees == 0.0 ? 0.0f : degrees == -45.0 ? 45.0f : float(-degrees);
    if (std::find(candidates.begin(), candidates.end(), angle) == candidates.end())
      candidates.push_back(angle);
  }
  if (!candidates.empty() && candidates.front() != 0.0f &&
      std::find(candidates.begin(), candidates.end(), 0.0f) == candidates.end())
    candidates.push_back(0.0f);
  return candidates;
}

Result<float> chooseGridAngle(const Level& level, const FloodFillParams& params,
                              BuildControl* control) {
  const std::vector<float> candidates = gridAngleCandidates(level, params);
  if (candidates.size() <= 1 || candidates.front() == 0.0f)
    return Result<float>::success(candidates.empty() ? 0.0f : candidates.front());
  BuildOptions options;
  options.widenPortals = false;
  float best = candidates.front();
  size_t fewest = SIZE_MAX;
  for (const float degrees : candidates) {
    const Result<Level> turned = levelOnGrid(level, degrees);
    if (!turned) return Result<float>::failure(turned.error());
    FloodFillParams trial = params;
    trial.cellSize = effectiveCellSize(params) * kTrialCellScale;
    trial.seeds = turned.value().settings.seeds;
    trial.devices = turned.value().settings.devices;
    const CollisionWorld world(turned.value());
    const Result<NavBuild> build = buildNavigation(turned.value(), world, trial, options, control);
    if (!build) return Result<float>::failure("choosing the grid angle: " + build.error());
    if (build.value().stats.sectors < fewest) {
      fewest = build.value().stats.sectors;
      best = degrees;
    }
  }
  return Result<float>::success(best);
}

}  // namespace nav
