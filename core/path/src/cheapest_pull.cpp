#include "nav/cheapest_pull.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "nav/geometry.h"

namespace nav {
namespace {

// Golden-section steps for one crossing: the gate shrinks to 0.618^32 (2e-7)
// of its length, a micrometre on a 5 m gate.
constexpr int kGoldenSteps = 32;
// Sweeps over the crossings stop when none moved further than this, or after
// kMaxSweeps (each sweep lowers the cost, so stopping early only leaves it higher). [metres]
constexpr float kSettled = 1e-3f;
constexpr int kMaxSweeps = 200;
// Sweeps also stop once the pulls have stepped over this many gates in all:
// a few milliseconds, so that a corridor across a city changing surface at
// every street stays bounded. Every move lowered the cost, so stopping keeps it lower.
constexpr uint64_t kGateBudget = 200'000;

// The pattern move goes at most this many times a sweep's displacement.
constexpr float kMaxPatternStep = 64.0f;

// Where the convex function f is least on [low, high], by golden sections.
template <class F>
float goldenMinimum(float low, float high, F&& f) {
  const float golden = std::numbers::phi_v<float> - 1.0f;
  float a = high - golden * (high - low), b = low + golden * (high - low);
  double fa = f(a), fb = f(b);
  for (int step = 0; step < kGoldenSteps; ++step) {
    if (fa <= fb) {
      high = b;
      b = a;
      fb = fa;
      a = high - golden * (high - low);
      fa = f(a);
    } else {
      low = a;
      a = b;
      fa = fb;
      b = low + golden * (high - low);
      fb = f(b);
    }
  }
  return 0.5f * (low + high);
}

// Where the segment a-b crosses the gate's line, as a fraction along the gate
// from left to right (clamped to the gate).
float crossingOnGate(const FunnelPortal& gate, const glm::vec3& a, const glm::vec3& b) {
  const glm::vec2 p = groundOf(gate.left), r = groundOf(gate.right) - p;
  const glm::vec2 q = groundOf(a), s = groundOf(b) - q;
  const float across = cross2(r, s);
  if (std::abs(across) < 1e-12f) return 0.5f;
  return std::clamp(cross2(q - p, s) / across, 0.0f, 1.0f);
}

// The path cut into pieces at the gates where the metre changes: the anchors
// (start, those crossings, goal), each piece the shortest pull between two.
class Pieces {
 public:
  Pieces(std::span<const FunnelPortal> portals, std::span<const float> metres)
      : m_portals(portals) {
    m_anchors.push_back(0);
    for (uint32_t k = 1; k + 1 < portals.size(); ++k) {
      if (metres[k - 1] != metres[k]) m_anchors.push_back(k);
    }
    m_anchors.push_back(uint32_t(portals.size() - 1));
    for (size_t p = 0; p + 1 < m_anchors.size(); ++p)
      m_metre.push_back(metres[m_anchors[p]]);
  }

  size_t anchorCount() const { return m_anchors.size(); }
  uint32_t anchor(size_t j) const { return m_anchors[j]; }

  // The cost of piece p with its ends at a and b, pulled into m_pulled.
  double cost(size_t p, const glm::vec3& a, const glm::vec3& b) {
    m_scratch.assign(m_portals.begin() + m_anchors[p], m_portals.begin() + m_anchors[p + 1] + 1);
    m_scratch.front() = {a, a};
    m_scratch.back() = {b, b};
    stringPull(m_scratch, m_pulled, false, FunnelInput::Gates);
    m_gatesPulled += m_scratch.size();
    return double(m_metre[p]) * groundPolylineLength(m_pulled.corners);
  }
  /// Gates stepped over by every pull so far.
  uint64_t gatesPulled() const { return m_gatesPulled; }
  const FunnelResult& pulled() const { return m_pulled; }

 private:
  std::span<const FunnelPortal> m_portals;
  std::vector<uint32_t> m_anchors;
  std::vector<float> m_metre;
  std::vector<FunnelPortal> m_scratch;
  FunnelResult m_pulled;
  uint64_t m_gatesPulled = 0;
};

}  // namespace

void pullCheapest(std::span<const FunnelPortal> portals, std::span<const float> metres,
                  FunnelResult& funnel) {
  if (portals.size() < 3 || metres.size() + 1 != portals.size() ||
      funnel.corners.size() != funnel.cornerPortals.size() || funnel.corners.size() < 2)
    return;
  for (const float metre : metres) {
    if (!(metre > 0.0f && std::isfinite(metre))) return;
  }
  Pieces pieces(portals, metres);
  const size_t anchors = pieces.anchorCount();
  if (anchors <= 2) return;
  // Each anchor starts where the shortest path crosses its gate: t along it.
  std::vector<float> t(anchors, 0.0f);
  size_t corner = 0;
  for (size_t j = 1; j + 1 < anchors; ++j) {
    const uint32_t k = pieces.anchor(j);
    while (corner + 2 < funnel.corners.size() && funnel.cornerPortals[corner + 1] <= k)
      ++corner;
    const glm::vec3& from = funnel.corners[corner];
    const glm::vec3& to = funnel.cornerPortals[corner] == k ? from : funnel.corners[corner + 1];
    t[j] = crossingOnGate(portals[k], from, to);
  }
  std::vector<glm::vec3> at(anchors);
  const auto place = [&](size_t j) {
    const FunnelPortal& gate = portals[pieces.anchor(j)];
    at[j] = j == 0             ? funnel.corners.front()
            : j + 1 == anchors ? funnel.corners.back()
                               : glm::mix(gate.left, gate.right, t[j]);
  };
  for (size_t j = 0; j < anchors; ++j)
    place(j);
  const auto total = [&] {
    double cost = 0.0;
    for (size_t p = 0; p + 1 < anchors; ++p)
      cost += pieces.cost(p, at[p], at[p + 1]);
    return cost;
  };
  // Sweeps of golden-section moves, one crossing at a time; then, since
  // crossings on either side of a dear strip pull on each other, a move along
  // the whole sweep's displacement, as far as it pays.
  std::vector<float> before(anchors);
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    before = t;
    for (size_t j = 1; j + 1 < anchors; ++j) {
      const auto costAt = [&](float x) {
        t[j] = x;
        place(j);
        return pieces.cost(j - 1, at[j - 1], at[j]) + pieces.cost(j, at[j], at[j + 1]);
      };
      const float start = t[j];
      const double was = costAt(start);
      const float best = goldenMinimum(0.0f, 1.0f, costAt);
      if (!(costAt(best) <= was)) costAt(start);
    }
    // The largest step along the displacement that keeps every t on its gate.
    float reach = kMaxPatternStep;
    bool movedAny = false;
    for (size_t j = 1; j + 1 < anchors; ++j) {
      const float d = t[j] - before[j];
      if (d == 0.0f) continue;
      movedAny = true;
      reach = std::min(reach, d > 0.0f ? (1.0f - t[j]) / d : -t[j] / d);
    }
    if (movedAny && reach > 0.0f) {
      const std::vector<float> swept = t;
      const auto costAt = [&](float step) {
        for (size_t j = 1; j + 1 < anchors; ++j) {
          t[j] = std::clamp(swept[j] + step * (swept[j] - before[j]), 0.0f, 1.0f);
          place(j);
        }
        return total();
      };
      const double was = costAt(0.0f);
      const float step = goldenMinimum(0.0f, reach, costAt);
      if (!(costAt(step) <= was)) costAt(0.0f);
    }
    float moved = 0.0f;
    for (size_t j = 1; j + 1 < anchors; ++j) {
      const FunnelPortal& gate = portals[pieces.anchor(j)];
      moved = std::max(moved, std::abs(t[j] - before[j]) *
                                  glm::length(groundOf(gate.right) - groundOf(gate.left)));
    }
    if (moved < kSettled || pieces.gatesPulled() > kGateBudget) break;
  }
  // The pieces joined: every piece's corners, each anchor once.
  FunnelResult result;
  result.steps = std::move(funnel.steps);
  for (size_t p = 0; p + 1 < anchors; ++p) {
    pieces.cost(p, at[p], at[p + 1]);
    const FunnelResult& pulled = pieces.pulled();
    for (size_t c = p == 0 ? 0 : 1; c < pulled.corners.size(); ++c) {
      result.corners.push_back(pulled.corners[c]);
      result.cornerPortals.push_back(pieces.anchor(p) + pulled.cornerPortals[c]);
    }
  }
  result.length = polylineLength(result.corners);
  funnel = std::move(result);
}

}  // namespace nav
