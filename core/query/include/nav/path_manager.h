#pragma once
// Many path requests sharing one search budget per frame: a fixed number of
// PathSolvers take turns (round-robin, a quantum of iterations each) on the
// requests in flight, and the rest wait in a FIFO queue.
#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
#include <unordered_map>
#include <vector>

#include "nav/path_solver.h"

namespace nav {

/// Names one request; 0 is never issued.
using PathTicket = uint64_t;

enum class RequestState : uint8_t {
  Unknown,    ///< Never issued, cancelled, or its result was taken.
  Queued,     ///< Waiting for a free solver.
  Searching,  ///< A solver is on it.
  Done,       ///< takeResult gives the result.
};

struct PathManagerParams {
  /// Requests searched at once; the others wait in request order. [>= 1]
  uint32_t solvers = 8;
  /// Iterations a request runs in its turn before the next one's turn. [>= 1]
  uint32_t quantum = 32;
};

/// Not thread-safe: call one manager from one thread (the game's update).
/// Managers on other threads may share the graph while nobody modifies it.
class PathManager {
 public:
  /// The graph must outlive the manager and stay unchanged while requests are pending.
  explicit PathManager(const NavGraph& graph, const PathManagerParams& params = {});

  /// Queues findPath(graph, start, goal, options); the options are copied.
  PathTicket request(const glm::vec3& start, const glm::vec3& goal,
                     const SearchOptions& options = {});
  /// Spends at most `iterations` (PathSolver's; starting a request costs one).
  /// Deterministic: the same requests and budgets give the same results and
  /// order. Returns the tickets this update finished, in order (valid until
  /// the next update).
  const std::vector<PathTicket>& update(uint32_t iterations);
  /// Spends about `budget`, reading the clock after each turn; always runs
  /// one turn, so every call makes progress.
  const std::vector<PathTicket>& update(std::chrono::microseconds budget);

  RequestState state(PathTicket ticket) const;
  /// A Done request's result, equal to findPath's; the ticket is then
  /// forgotten. Empty unless the request is Done.
  std::optional<PathResult> takeResult(PathTicket ticket);
  /// Forgets a queued, searching or done request; false when the ticket is unknown.
  bool cancel(PathTicket ticket);
  /// Requests queued or searching.
  size_t pending() const { return m_pending; }

 private:
  using Clock = std::chrono::steady_clock;
  struct Request {
    glm::vec3 start, goal;
    SearchOptions options;
    RequestState state = RequestState::Queued;
    /// The solver searching it, while Searching.
    uint32_t slot = 0;
    PathResult result;
  };
  struct Slot {
    PathSolver solver;
    /// The request it searches; 0 when free.
    PathTicket ticket = 0;
  };

  void spend(uint32_t iterations, std::optional<Clock::time_point> deadline);
  bool admit(uint32_t slot);
  void finish(uint32_t slot);

  const NavGraph& m_graph;
  uint32_t m_quantum;
  std::vector<Slot> m_slots;
  /// The slot whose turn is next: kept between updates, so small budgets still rotate.
  uint32_t m_turn = 0;
  std::deque<PathTicket> m_queue;
  std::unordered_map<PathTicket, Request> m_requests;
  PathTicket m_lastTicket = 0;
  size_t m_pending = 0;
  std::vector<PathTicket> m_finished;
};

}  // namespace nav
