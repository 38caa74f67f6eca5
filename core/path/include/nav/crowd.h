#pragma once
// A crowd of agents on a graph, as Detour's crowd: each stands on a ground sector, asks a
// shared PathManager for a path to a random goal, walks it at the unit's speed
// and, once there, picks the next goal. The manager spends one budget per
// frame over all requests; the time it actually takes is kept per frame.
// crowd_draw.h draws it.
#include <chrono>
#include <cstdint>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include <glm/glm.hpp>

#include "nav/jump_portals.h"
#include "nav/nav_build.h"
#include "nav/path_manager.h"
#include "nav/path_pipeline.h"

namespace nav {

/// Agents a crowd may hold; the panel and --crowd stay within it.
constexpr uint32_t kMaxCrowdAgents = 1000;
constexpr uint32_t kDefaultCrowdAgents = 21;
/// Frames of solver time kept for the plot.
constexpr size_t kSolverHistoryFrames = 240;

enum class AgentState : uint8_t {
  Requested,  ///< Its path request is queued or being searched.
  Walking,    ///< Following its path.
  Stuck,      ///< Several requests in a row gave no way forward: it stands still.
};

struct Agent {
  glm::vec3 position{0.0f};
  glm::vec3 goal{0.0f};
  AgentState state = AgentState::Requested;
  /// The request in flight while Requested; 0 otherwise.
  PathTicket ticket = 0;
  /// The path being walked (funnel corners plus portal crossings, at ground
  /// height), and the index of the next point to reach.
  std::vector<glm::vec3> route;
  size_t nextPoint = 0;
  /// Facing on the ground (x, z), for drawing. [unit vector]
  glm::vec2 heading{1.0f, 0.0f};
  /// Results with a path (found or partial) since the agent was spawned.
  uint32_t paths = 0;
  /// Requests in a row that gave no path, or one too short to walk.
  uint32_t failures = 0;
  /// Distance walked since spawning. [metres]
  float walked = 0.0f;
};

/// What the agents are doing now.
struct CrowdCounts {
  uint32_t walking = 0;
  /// Requests in the manager's queue.
  uint32_t waiting = 0;
  /// Requests a solver is on.
  uint32_t solving = 0;
  uint32_t stuck = 0;
};

/// Totals since the last spawn.
struct CrowdTotals {
  uint64_t found = 0;
  /// Paths that lead as close to the goal as the unit can get.
  uint64_t partial = 0;
  /// Results with no path (off mesh, unreachable, too many expansions).
  uint64_t failed = 0;
  /// Agents that have had at least one path.
  uint32_t agentsWithPath = 0;
  /// Distance walked by all agents. [metres]
  double walked = 0.0;
};

/// Solver time per frame over the kept history. [microseconds]
struct SolverTimeSummary {
  float last = 0.0f;
  float mean = 0.0f;
  float max = 0.0f;
  size_t frames = 0;
};

class Crowd {
 public:
  Crowd();

  /// The graph agents walk on. An active crowd is spawned again on a new graph
  /// (same count and seed); nullptr removes its agents until the next graph.
  void setBuild(std::shared_ptr<const NavBuild> build);
  /// Replaces the agents with `count` new ones (clamped to 1..kMaxCrowdAgents),
  /// placed deterministically from `seed`; without a graph they appear with the next one.
  void spawn(uint32_t count, uint64_t seed);
  /// Removes every agent; the crowd stays inactive until the next spawn.
  void clear();
  /// One frame: spends at most about `budget` on path requests (always some
  /// progress while any is pending), then moves walking agents `seconds` ahead.
  void update(float seconds, std::chrono::microseconds budget);

  /// Walking speed; also what device times are converted with. [m/s, clamped to 0.1..50]
  void setSpeed(float metresPerSecond);
  float speed() const { return m_speed; }
  /// Jump portals the agents' paths may take (nullptr: none); it must outlive the crowd.
  void setJumps(const JumpBucket* jumps) { m_jumps = jumps; }
  /// How the agents search (method, regions, heuristic, turning radius and the
  /// query filter, as the Path panel's); requests made from now on use it. The
  /// crowd's own speed and jumps replace the filter's unit speed and options.jumps.
  void setSearchOptions(const SearchOptions& options) { m_searchOptions = options; }

  /// A spawn was asked for and not cleared since.
  bool active() const { return m_active; }
  uint32_t requestedCount() const { return m_count; }
  uint64_t seed() const { return m_seed; }
  std::span<const Agent> agents() const { return m_agents; }
  /// Unit the agents are built for (nullptr without a graph).
  const UnitProfile* unit() const { return m_build ? &m_build->graph.unit : nullptr; }
  /// Why an active crowd has no agents ("no ground sectors"); empty otherwise.
  const std::string& notice() const { return m_notice; }
  /// Grows by one each time agents are placed anew or removed.
  uint64_t spawnRevision() const { return m_spawnRevision; }
  /// Frames update() has run since the last spawn.
  uint64_t frames() const { return m_frames; }

  CrowdCounts counts() const;
  const CrowdTotals& totals() const { return m_totals; }
  /// Requests queued or being searched.
  size_t pendingRequests() const { return m_manager ? m_manager->pending() : 0; }
  /// Solver time of the last kSolverHistoryFrames frames, oldest first from
  /// solverHistoryStart() (a ring: PlotLines' values_offset). [microseconds]
  std::span<const float> solverHistory() const { return m_solverHistory; }
  size_t solverHistoryStart() const;
  SolverTimeSummary solverTime() const;

 private:
  /// Makes the agents for m_count and m_seed on the current graph.
  void populate();
  /// Sectors joined by portals (either way) the agents may take share a
  /// component: goals are picked in the agent's own, so most are reachable
  /// (one-way portals still make some paths partial).
  void findComponents();
  /// A random point on a ground sector of `component` (any when none), area-weighted.
  glm::vec3 randomPoint(uint32_t component);
  uint32_t componentAt(const glm::vec3& point) const;
  /// Picks a goal away from the agent and asks the manager for the way there.
  void requestPath(uint32_t index);
  /// Turns a finished request into the agent's route (or a failure).
  void takeResult(PathTicket ticket);
  /// What every agent's request searches with.
  SearchOptions searchOptions() const;
  /// Counts a fruitless request; the agent tries again or, after too many, gives up.
  void fail(uint32_t index);
  /// Moves the agent `distance` along its route; true when it reached the end.
  bool walk(Agent& agent, float distance);
  float random01();
  void recordSolverTime(float microseconds);

  // The build owns the graph the manager searches: declared first, so the
  // manager goes before it.
  std::shared_ptr<const NavBuild> m_build;
  std::unique_ptr<PathManager> m_manager;

  bool m_active = false;
  uint32_t m_count = kDefaultCrowdAgents;
  uint64_t m_seed = 1;
  float m_speed;
  const JumpBucket* m_jumps = nullptr;
  SearchOptions m_searchOptions;
  /// The last result taken, through the path pipeline; kept for its arrays.
  PathAnswer m_answer;
  std::mt19937_64 m_random;
  std::string m_notice;
  uint64_t m_spawnRevision = 0;
  uint64_t m_frames = 0;

  /// Ground sectors grouped by component; cumulative area along that order.
  std::vector<uint32_t> m_groundSectors;
  std::vector<double> m_cumulativeArea;
  /// Per component: its range in m_groundSectors.
  std::vector<std::pair<size_t, size_t>> m_componentRange;
  /// Per sector: its component.
  std::vector<uint32_t> m_componentOf;

  std::vector<Agent> m_agents;
  /// Request in flight -> agent index.
  std::unordered_map<PathTicket, uint32_t> m_requests;
  CrowdTotals m_totals;

  std::vector<float> m_solverHistory;
  /// Where the next frame's time goes once the history is full.
  size_t m_historyNext = 0;
  float m_lastSolverMicroseconds = 0.0f;
};

}  // namespace nav
