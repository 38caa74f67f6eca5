#include "nav/crowd.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <optional>
#include <tuple>

#include <glm/gtc/constants.hpp>

#include "nav/funnel.h"
#include "nav/locate.h"
#include "nav/path_pipeline.h"

namespace nav {
namespace {

constexpr uint32_t kAnyComponent = 0xffffffffu;
/// Goals closer than this are drawn again (a few times), so agents cross the level. [metres]
constexpr float kMinGoalDistance = 5.0f;
constexpr int kGoalDraws = 8;
/// A route shorter than this goes nowhere: the request counts as fruitless. [metres]
constexpr float kMinRouteLength = 0.05f;
/// Fruitless requests in a row before an agent gives up.
constexpr uint32_t kMaxFailures = 8;
/// Where a point off every sector looks for one (SearchOptions' default snap).
constexpr glm::vec3 kSnapExtents{1.0f, 2.0f, 1.0f};

float groundDistance(const glm::vec3& a, const glm::vec3& b) {
  return glm::length(glm::vec2(a.x - b.x, a.z - b.z));
}

/// False for a portal the crowd's agents cannot take: a locked device (they hold
/// no keys) or a waypath kept to another kind of unit.
bool usable(const NavGraph& graph, const Portal& portal) {
  if (portal.kind == PortalKind::Device && portal.link < graph.deviceLinks.size()) {
    const uint32_t device = graph.deviceLinks[portal.link].device;
    return device >= graph.devices.size() || !graph.devices[device].locked;
  }
  for (uint32_t sector : {portal.fromSector, portal.toSector}) {
    const uint32_t waypath = graph.sectors[sector].waypath;
    if (graph.sectors[sector].kind != SectorKind::Waypath || waypath >= graph.waypaths.size())
      continue;
    const std::optional<UnitKind>& kind = graph.waypaths[waypath].unitKind;
    if (kind && *kind != graph.unit.kind) return false;
  }
  return true;
}

uint32_t findRoot(std::vector<uint32_t>& parent, uint32_t node) {
  while (parent[node] != node) {
    parent[node] = parent[parent[node]];
    node = parent[node];
  }
  return node;
}

}  // namespace

Crowd::Crowd() : m_speed(QueryFilter{}.unitSpeed) {}

void Crowd::setBuild(std::shared_ptr<const NavBuild> build) {
  if (build == m_build) return;
  const bool hadAgents = !m_agents.empty();
  // The manager refers to the old graph: it goes first.
  m_requests.clear();
  m_manager.reset();
  m_agents.clear();
  m_build = std::move(build);
  findComponents();
  if (m_active) {
    populate();
  } else if (hadAgents) {
    ++m_spawnRevision;
  }
}

void Crowd::spawn(uint32_t count, uint64_t seed) {
  m_active = true;
  m_count = std::clamp<uint32_t>(count, 1, kMaxCrowdAgents);
  m_seed = seed;
  populate();
}

void Crowd::clear() {
  m_active = false;
  m_requests.clear();
  m_manager.reset();
  m_agents.clear();
  m_notice.clear();
  ++m_spawnRevision;
}

void Crowd::setSpeed(float metresPerSecond) {
  m_speed = std::isfinite(metresPerSecond) ? std::clamp(metresPerSecond, 0.1f, 50.0f) : m_speed;
}

void Crowd::populate() {
  m_requests.clear();
  m_manager.reset();
  m_agents.clear();
  m_totals = {};
  m_solverHistory.clear();
  m_historyNext = 0;
  m_lastSolverMicroseconds = 0.0f;
  m_frames = 0;
  m_notice.clear();
  if (!m_build) {
    m_notice = "waiting for a build";
    return;
  }
  if (m_groundSectors.empty()) {
    m_notice = "the graph has no ground sectors to stand on";
    return;
  }
  m_random.seed(m_seed);
  m_manager = std::make_unique<PathManager>(m_build->graph);
  m_agents.resize(m_count);
  for (Agent& agent : m_agents) {
    agent.position = randomPoint(kAnyComponent);
    const float angle = random01() * glm::two_pi<float>();
    agent.heading = {std::cos(angle), std::sin(angle)};
  }
  for (uint32_t index = 0; index < m_agents.size(); ++index)
    requestPath(index);
  ++m_spawnRevision;
}

// Union-find over the usable portals, then the ground sectors listed component by
// component (in sector order within each) with their running area.
void Crowd::findComponents() {
  m_groundSectors.clear();
  m_cumulativeArea.clear();
  m_componentRange.clear();
  m_componentOf.clear();
  if (!m_build) return;
  const NavGraph& graph = m_build->graph;
  const uint32_t sectorCount = uint32_t(graph.sectors.size());
  std::vector<uint32_t> parent(sectorCount);
  std::iota(parent.begin(), parent.end(), 0u);
  for (const Portal& portal : graph.portals) {
    if (portal.fromSector >= sectorCount || portal.toSector >= sectorCount ||
        !usable(graph, portal))
      continue;
    const uint32_t a = findRoot(parent, portal.fromSector);
    const uint32_t b = findRoot(parent, portal.toSector);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
  // Components numbered by their first ground sector; ones without ground get none.
  std::vector<uint32_t> componentOfRoot(sectorCount, kAnyComponent);
  m_componentOf.assign(sectorCount, kAnyComponent);
  uint32_t components = 0;
  for (uint32_t sector = 0; sector < sectorCount; ++sector) {
    if (graph.sectors[sector].kind != SectorKind::Ground) continue;
    uint32_t& component = componentOfRoot[findRoot(parent, sector)];
    if (component == kAnyComponent) component = components++;
  }
  for (uint32_t sector = 0; sector < sectorCount; ++sector)
    m_componentOf[sector] = componentOfRoot[findRoot(parent, sector)];
  std::vector<std::vector<uint32_t>> members(components);
  for (uint32_t sector = 0; sector < sectorCount; ++sector) {
    if (graph.sectors[sector].kind == SectorKind::Ground)
      members[m_componentOf[sector]].push_back(sector);
  }
  double area = 0.0;
  for (const std::vector<uint32_t>& sectors : members) {
    const size_t begin = m_groundSectors.size();
    for (uint32_t sector : sectors) {
      // A degenerate sector still gets a chance.
      area += std::max(double(graph.groundArea(graph.sectors[sector])), 1e-4);
      m_groundSectors.push_back(sector);
      m_cumulativeArea.push_back(area);
    }
    m_componentRange.emplace_back(begin, m_groundSectors.size());
  }
}

float Crowd::random01() {
  // 24 random bits: the same floats from the same seed with any standard library.
  return float(m_random() >> 40) * 0x1p-24f;
}

glm::vec3 Crowd::randomPoint(uint32_t component) {
  size_t begin = 0, end = m_groundSectors.size();
  if (component < m_componentRange.size()) std::tie(begin, end) = m_componentRange[component];
  const double below = begin == 0 ? 0.0 : m_cumulativeArea[begin - 1];
  const double target = below + double(random01()) * (m_cumulativeArea[end - 1] - below);
  const auto first = m_cumulativeArea.begin() + ptrdiff_t(begin);
  const auto last = m_cumulativeArea.begin() + ptrdiff_t(end);
  const size_t picked =
      std::min(size_t(std::upper_bound(first, last, target) - m_cumulativeArea.begin()), end - 1);
  const Sector& sector = m_build->graph.sectors[m_groundSectors[picked]];
  const float a = random01(), b = random01(), c = sector.polygonal() ? random01() : 0.0f;
  return m_build->graph.pointAt(sector, a, b, c);
}

uint32_t Crowd::componentAt(const glm::vec3& point) const {
  const NavGraph& graph = m_build->graph;
  const Location location = placeOnGraph(graph, point, kSnapExtents);
  if (location.sector >= m_componentOf.size()) return kAnyComponent;
  return m_componentOf[location.sector];
}

void Crowd::requestPath(uint32_t index) {
  Agent& agent = m_agents[index];
  const uint32_t component = componentAt(agent.position);
  float farthest = -1.0f;
  for (int draw = 0; draw < kGoalDraws && farthest < kMinGoalDistance; ++draw) {
    const glm::vec3 goal = randomPoint(component);
    const float distance = groundDistance(goal, agent.position);
    if (distance > farthest) {
      farthest = distance;
      agent.goal = goal;
    }
  }
  agent.ticket = m_manager->request(agent.position, agent.goal, searchOptions());
  agent.state = AgentState::Requested;
  agent.route.clear();
  agent.nextPoint = 0;
  m_requests[agent.ticket] = index;
}

SearchOptions Crowd::searchOptions() const {
  SearchOptions options = m_searchOptions;
  options.filter.unitSpeed = m_speed;
  options.jumps = m_jumps;
  return options;
}

void Crowd::takeResult(PathTicket ticket) {
  std::optional<PathResult> result = m_manager->takeResult(ticket);
  const auto found = m_requests.find(ticket);
  if (found == m_requests.end()) return;
  const uint32_t index = found->second;
  m_requests.erase(found);
  Agent& agent = m_agents[index];
  agent.ticket = 0;
  if (!result || result->corridor.sectors.empty()) {
    ++m_totals.failed;
    // A start off the mesh would fail forever: stand the agent somewhere else.
    if (result && result->status == PathStatus::StartOffMesh)
      agent.position = randomPoint(kAnyComponent);
    fail(index);
    return;
  }
  ++(result->status == PathStatus::Found ? m_totals.found : m_totals.partial);
  if (agent.paths++ == 0) ++m_totals.agentsWithPath;
  m_answer.search = std::move(*result);
  PathStages stages;
  stages.groundPath = true;
  completePath(m_build->graph, searchOptions(), stages, m_answer);
  agent.route = m_answer.groundPath;
  // The search starts from the agent's point snapped onto the ground: walk there first.
  if (agent.route.empty() || agent.route.front() != agent.position)
    agent.route.insert(agent.route.begin(), agent.position);
  if (polylineLength(agent.route) < kMinRouteLength) {
    fail(index);
    return;
  }
  agent.failures = 0;
  agent.nextPoint = 0;
  agent.state = AgentState::Walking;
}

void Crowd::fail(uint32_t index) {
  Agent& agent = m_agents[index];
  agent.route.clear();
  if (++agent.failures >= kMaxFailures) {
    agent.state = AgentState::Stuck;
    return;
  }
  requestPath(index);
}

bool Crowd::walk(Agent& agent, float distance) {
  while (agent.nextPoint < agent.route.size()) {
    const glm::vec3 target = agent.route[agent.nextPoint];
    const glm::vec3 delta = target - agent.position;
    const float length = glm::length(delta);
    const glm::vec2 ground(delta.x, delta.z);
    if (glm::length(ground) > 1e-4f) agent.heading = glm::normalize(ground);
    if (length > distance) {
      agent.position += delta * (distance / length);
      agent.walked += distance;
      m_totals.walked += distance;
      return false;
    }
    agent.position = target;
    agent.walked += length;
    m_totals.walked += length;
    distance -= length;
    ++agent.nextPoint;
  }
  return true;
}

void Crowd::update(float seconds, std::chrono::microseconds budget) {
  if (!m_manager) return;
  ++m_frames;
  float solverMicroseconds = 0.0f;
  if (m_manager->pending() > 0) {
    using Clock = std::chrono::steady_clock;
    const Clock::time_point begin = Clock::now();
    const std::vector<PathTicket>& done =
        m_manager->update(std::max(budget, std::chrono::microseconds(1)));
    solverMicroseconds = std::chrono::duration<float, std::micro>(Clock::now() - begin).count();
    // Results may queue new requests: work on a copy of the list.
    const std::vector<PathTicket> finished(done);
    for (PathTicket ticket : finished)
      takeResult(ticket);
  }
  recordSolverTime(solverMicroseconds);
  const float distance = m_speed * std::max(seconds, 0.0f);
  for (uint32_t index = 0; index < m_agents.size(); ++index) {
    Agent& agent = m_agents[index];
    if (agent.state == AgentState::Walking && walk(agent, distance)) requestPath(index);
  }
}

void Crowd::recordSolverTime(float microseconds) {
  if (m_solverHistory.size() < kSolverHistoryFrames) {
    m_solverHistory.push_back(microseconds);
  } else {
    m_solverHistory[m_historyNext] = microseconds;
  }
  m_historyNext = (m_historyNext + 1) % kSolverHistoryFrames;
  m_lastSolverMicroseconds = microseconds;
}

size_t Crowd::solverHistoryStart() const {
  return m_solverHistory.size() < kSolverHistoryFrames ? 0 : m_historyNext;
}

SolverTimeSummary Crowd::solverTime() const {
  SolverTimeSummary summary;
  summary.frames = m_solverHistory.size();
  if (summary.frames == 0) return summary;
  summary.last = m_lastSolverMicroseconds;
  double sum = 0.0;
  for (float microseconds : m_solverHistory) {
    sum += microseconds;
    summary.max = std::max(summary.max, microseconds);
  }
  summary.mean = float(sum / double(summary.frames));
  return summary;
}

CrowdCounts Crowd::counts() const {
  CrowdCounts counts;
  for (const Agent& agent : m_agents) {
    switch (agent.state) {
      case AgentState::Walking:
        ++counts.walking;
        break;
      case AgentState::Stuck:
        ++counts.stuck;
        break;
      case AgentState::Requested:
        ++(m_manager && m_manager->state(agent.ticket) == RequestState::Searching ? counts.solving
                                                                                  : counts.waiting);
        break;
    }
  }
  return counts;
}

}  // namespace nav
