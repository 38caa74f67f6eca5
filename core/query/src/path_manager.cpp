#include "nav/path_manager.h"

#include <algorithm>
#include <limits>

namespace nav {

PathManager::PathManager(const NavGraph& graph, const PathManagerParams& params)
    : m_graph(graph),
      m_quantum(std::max(params.quantum, 1u)),
      m_slots(std::max(params.solvers, 1u)) {}

PathTicket PathManager::request(const glm::vec3& start, const glm::vec3& goal,
                                const SearchOptions& options) {
  const PathTicket ticket = ++m_lastTicket;
  m_requests.emplace(ticket, Request{start, goal, options, RequestState::Queued, 0, {}});
  m_queue.push_back(ticket);
  ++m_pending;
  return ticket;
}

const std::vector<PathTicket>& PathManager::update(uint32_t iterations) {
  spend(iterations, std::nullopt);
  return m_finished;
}

const std::vector<PathTicket>& PathManager::update(std::chrono::microseconds budget) {
  spend(std::numeric_limits<uint32_t>::max(), Clock::now() + budget);
  return m_finished;
}

// Round-robin over the slots: in its turn a free slot first takes the oldest
// queued request, then a slot runs its request for up to a quantum. The turn
// survives between updates, so budgets smaller than a round still reach every slot.
void PathManager::spend(uint32_t iterations, std::optional<Clock::time_point> deadline) {
  m_finished.clear();
  uint32_t idleTurns = 0;
  while (iterations > 0 && idleTurns < m_slots.size()) {
    const uint32_t slot = m_turn;
    m_turn = (m_turn + 1) % uint32_t(m_slots.size());
    PathSolver& solver = m_slots[slot].solver;
    if (m_slots[slot].ticket == 0) {
      if (!admit(slot)) {
        ++idleTurns;
        continue;
      }
      // Starting a request (locating its points) is work too.
      --iterations;
    }
    idleTurns = 0;
    const uint32_t before = solver.iterations();
    solver.update(std::min(m_quantum, iterations));
    iterations -= solver.iterations() - before;
    if (solver.status() == SolveStatus::Done) finish(slot);
    if (deadline && Clock::now() >= *deadline) break;
  }
}

// Starts the oldest queued request in a free slot; false when none is queued.
bool PathManager::admit(uint32_t slot) {
  while (!m_queue.empty()) {
    const PathTicket ticket = m_queue.front();
    m_queue.pop_front();
    const auto found = m_requests.find(ticket);
    if (found == m_requests.end()) continue;  // cancelled while queued
    Request& request = found->second;
    request.state = RequestState::Searching;
    request.slot = slot;
    m_slots[slot].ticket = ticket;
    m_slots[slot].solver.init(m_graph, request.start, request.goal, request.options);
    return true;
  }
  return false;
}

void PathManager::finish(uint32_t slot) {
  const PathTicket ticket = m_slots[slot].ticket;
  Request& request = m_requests.at(ticket);
  request.result = m_slots[slot].solver.finalize();
  request.state = RequestState::Done;
  m_slots[slot].ticket = 0;
  m_finished.push_back(ticket);
  --m_pending;
}

RequestState PathManager::state(PathTicket ticket) const {
  const auto found = m_requests.find(ticket);
  return found == m_requests.end() ? RequestState::Unknown : found->second.state;
}

std::optional<PathResult> PathManager::takeResult(PathTicket ticket) {
  const auto found = m_requests.find(ticket);
  if (found == m_requests.end() || found->second.state != RequestState::Done) return std::nullopt;
  std::optional<PathResult> result = std::move(found->second.result);
  m_requests.erase(found);
  return result;
}

bool PathManager::cancel(PathTicket ticket) {
  const auto found = m_requests.find(ticket);
  if (found == m_requests.end()) return false;
  const Request& request = found->second;
  if (request.state != RequestState::Done) --m_pending;
  // The solver is simply abandoned: its next init starts afresh.
  if (request.state == RequestState::Searching) m_slots[request.slot].ticket = 0;
  // A queued ticket stays in the queue until admit skips it.
  m_requests.erase(found);
  return true;
}

}  // namespace nav
