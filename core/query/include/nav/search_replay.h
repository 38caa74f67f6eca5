#pragma once
// A search replayed from its trace, one expansion at a time: which node is
// being expanded, which are open (and which of them comes next), which are
// closed, and each node's parent, cost so far and estimate. What the
// debugger steps through, forward and back.
//
// Nodes are told apart as the searches trace them: an A* node by its portal
// (a reopening may move its crossing point), an interval of the exact search
// by its portal and its ends (and, where intervals from two roots coincide,
// its cost and estimate). A node opened or reopened right after an
// expansion is that expansion's successor: its parent is the expanded node.
// A node the search sets aside unexpanded (SearchEvent::Kind::Drop) is taken
// off the open list just before the next expansion: the replay shows it gone
// from the step before.
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "nav/search.h"

namespace nav {

struct ReplayNode {
  static constexpr uint32_t kNoParent = std::numeric_limits<uint32_t>::max();
  /// As SearchEvent::portal.
  uint32_t portal = 0;
  /// Cost from the start (g) and the estimated total through it (f); h = f - g.
  float costSoFar = 0.0f;
  float estimatedTotal = 0.0f;
  /// As SearchEvent::from and to.
  glm::vec3 from{0.0f}, to{0.0f};
  /// The node (an index into SearchReplay::nodes) whose expansion opened it
  /// last; kNoParent for the start.
  uint32_t parent = kNoParent;
  /// Off the open list: expanded, or set aside unexpanded (dropped).
  bool closed = false;
  bool dropped = false;

  float heuristic() const { return estimatedTotal - costSoFar; }
  /// Where the node is drawn: the middle of its point or interval.
  glm::vec3 middle() const { return 0.5f * (from + to); }
};

class SearchReplay {
 public:
  /// Keeps a reference to `trace`, which must outlive the replay.
  explicit SearchReplay(const SearchTrace& trace);

  /// Expansions in the trace (its Close events).
  size_t expansions() const { return m_closes.size(); }
  /// Rebuilds the state after the first `steps` expansions (at most expansions()).
  void seek(size_t steps);
  size_t step() const { return m_step; }

  /// Every node seen so far, in the order first opened.
  std::span<const ReplayNode> nodes() const { return m_nodes; }
  /// The node the current step expanded; empty at step 0.
  std::optional<uint32_t> expanding() const { return m_expanding; }
  /// The nodes the current step opened or reopened (at step 0: the start).
  std::span<const uint32_t> successors() const { return m_successors; }
  /// The open nodes, lowest estimate first (on a tie, first opened first): the
  /// search takes the first next (its own ties go by node numbers the trace
  /// does not hold).
  std::vector<uint32_t> openByEstimate() const;

 private:
  /// The open node an event names; empty when none is open.
  std::optional<uint32_t> openNode(const SearchEvent& event) const;
  /// Takes an open node off the open list.
  ReplayNode& setAside(uint32_t node, uint32_t portal);

  const SearchTrace& m_trace;
  /// Index in the trace of each Close event.
  std::vector<size_t> m_closes;
  size_t m_step = 0;
  std::vector<ReplayNode> m_nodes;
  /// The open nodes on each portal, in the order opened.
  std::unordered_map<uint32_t, std::vector<uint32_t>> m_openOnPortal;
  std::optional<uint32_t> m_expanding;
  std::vector<uint32_t> m_successors;
};

}  // namespace nav
