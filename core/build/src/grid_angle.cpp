#include "nav/grid_angle.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <new>
#include <numeric>
#include <tuple>

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
// Trial builds use cells this many times larger: a ninth of the cells or
// fewer, and on every level measured the same choice as at twice the cell.
constexpr float kTrialCellScale = 3.0f;
// The largest cell a fill takes (fillParamsError). [metres]
constexpr float kMaxTrialCell = 100.0f;

double foldedDegrees(double dx, double dz) {
  const double degrees = std::atan2(dz, dx) * 180.0 / kPi;
  const double folded = std::fmod(degrees + 360.0, 90.0);
  return folded >= 90.0 ? 0.0 : folded;
}

// Per vertex, the first vertex at the same position: the faces of a soup share
// edges by position, not always by index.
std::vector<uint32_t> weldedVertices(const Level& level) {
  const std::vector<glm::vec3>& v = level.vertices;
  std::vector<uint32_t> order(v.size());
  std::iota(order.begin(), order.end(), 0u);
  const auto before = [&](uint32_t a, uint32_t b) {
    return std::tie(v[a].x, v[a].y, v[a].z, a) < std::tie(v[b].x, v[b].y, v[b].z, b);
  };
  std::sort(order.begin(), order.end(), before);
  std::vector<uint32_t> welded(v.size());
  for (size_t i = 0; i < order.size(); ++i) {
    const uint32_t at = order[i];
    welded[at] = i > 0 && v[order[i - 1]] == v[at] ? welded[order[i - 1]] : at;
  }
  return welded;
}

// The level's straight edges: the base of every face steeper than the max
// slope (its horizontal extent along the face) and every edge of the ground
// that no other ground face shares.
class StraightEdges {
 public:
  StraightEdges(const Level& level, float maxSlopeDegrees)
      : m_level(level), m_minUp(std::cos(double(maxSlopeDegrees) * kPi / 180.0)) {
    const std::vector<uint32_t> welded = weldedVertices(level);
    std::vector<uint64_t> edges;
    for (uint32_t t = 0; t < level.triangles.size(); ++t) {
      if (!isGround(t)) continue;
      for (int i = 0; i < 3; ++i) {
        const uint32_t a = welded[level.triangles[t].vertex[i]];
        const uint32_t b = welded[level.triangles[t].vertex[(i + 1) % 3]];
        if (a != b) edges.push_back(uint64_t(std::min(a, b)) << 32 | std::max(a, b));
      }
    }
    std::sort(edges.begin(), edges.end());
    for (size_t i = 0; i < edges.size(); ++i) {
      const bool shared =
          (i > 0 && edges[i - 1] == edges[i]) || (i + 1 < edges.size() && edges[i + 1] == edges[i]);
      if (!shared) m_openEdges.push_back(edges[i]);
    }
  }

  /// Calls visit(degrees folded into [0, 90), length) for each edge.
  template <class Visit>
  void visit(Visit&& visit) const {
    for (uint32_t t = 0; t < m_level.triangles.size(); ++t) {
      const glm::dvec3 a = m_level.corner(t, 0), b = m_level.corner(t, 1), c = m_level.corner(t, 2);
      const glm::dvec3 normal = glm::cross(b - a, c - a);
      const double across = std::hypot(normal.x, normal.z);
      if (!(across > 0.0) || isGround(t)) continue;
      const glm::dvec2 along(-normal.z / across, normal.x / across);
      double low = 0.0, high = 0.0;
      for (const glm::dvec3& p : {b, c}) {
        const double s = glm::dot(glm::dvec2(p.x - a.x, p.z - a.z), along);
        low = std::min(low, s);
        high = std::max(high, s);
      }
      if (high > low) visit(foldedDegrees(along.x, along.y), high - low);
    }
    for (const uint64_t edge : m_openEdges) {
      const glm::vec3 p = m_level.vertices[uint32_t(edge >> 32)];
      const glm::vec3 q = m_level.vertices[uint32_t(edge)];
      const double dx = double(q.x) - p.x, dz = double(q.z) - p.z;
      const double length = std::hypot(dx, dz);
      if (length > 0.0) visit(foldedDegrees(dx, dz), length);
    }
  }

 private:
  // Faces flat enough to stand on (degenerate ones are not ground).
  bool isGround(uint32_t t) const {
    const glm::dvec3 a = m_level.corner(t, 0), b = m_level.corner(t, 1), c = m_level.corner(t, 2);
    const glm::dvec3 normal = glm::cross(b - a, c - a);
    const double area2 = glm::length(normal);
    return area2 > 0.0 && std::abs(normal.y) >= m_minUp * area2;
  }

  const Level& m_level;
  double m_minUp;
  /// Welded vertex pairs, the lower index in the high half.
  std::vector<uint64_t> m_openEdges;
};

// Signed difference a - b folded into [-45, 45). [degrees]
double foldedDifference(double a, double b) {
  return std::remainder(a - b, 90.0);
}

}  // namespace

std::vector<float> gridAngleCandidates(const Level& level, const FloodFillParams& params) {
  const StraightEdges edges(level, params.unit.maxSlopeDegrees);
  std::array<double, kBins> bins{};
  edges.visit([&](double degrees, double length) {
    bins[size_t(degrees * kBinsPerDegree) % kBins] += length;
  });
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
    edges.visit([&](double degrees, double length) {
      const double d = foldedDifference(degrees, peak);
      if (std::abs(d) <= kPeakHalfWidth / 2.0) {
        weight += length;
        offset += length * d;
      }
    });
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
  // Running out of memory is an error like any other, never an abort.
  try {
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
      trial.cellSize = std::min(effectiveCellSize(params) * kTrialCellScale, kMaxTrialCell);
      trial.seeds = turned.value().settings.seeds;
      trial.devices = turned.value().settings.devices;
      const CollisionWorld world(turned.value());
      const Result<NavBuild> build =
          buildNavigation(turned.value(), world, trial, options, control);
      if (!build) return Result<float>::failure("choosing the grid angle: " + build.error());
      if (build.value().stats.sectors < fewest) {
        fewest = build.value().stats.sectors;
        best = degrees;
      }
    }
    return Result<float>::success(best);
  } catch (const std::bad_alloc&) {
    return Result<float>::failure("choosing the grid angle: out of memory (set the grid angle)");
  }
}

Result<Level> levelOnChosenGrid(const Level& level, std::optional<float> degrees,
                                const FloodFillParams& params, BuildControl* control) {
  if (!degrees) {
    const Result<float> chosen = chooseGridAngle(level, params, control);
    if (!chosen) return Result<Level>::failure(chosen.error());
    degrees = chosen.value();
  }
  return levelOnGrid(level, *degrees);
}

}  // namespace nav
