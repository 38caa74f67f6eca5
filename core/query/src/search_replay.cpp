#include "nav/search_replay.h"

#include <algorithm>

namespace nav {

SearchReplay::SearchReplay(const SearchTrace& trace) : m_trace(trace) {
  for (size_t e = 0; e < trace.events.size(); ++e) {
    if (trace.events[e].kind == SearchEvent::Kind::Close) m_closes.push_back(e);
  }
  seek(0);
}

std::optional<uint32_t> SearchReplay::openNode(const SearchEvent& event) const {
  // The same interval at the same cost and estimate (intervals from two roots
  // may coincide, even at one cost), else at the same cost, else the same
  // interval, else the latest open node on the portal.
  const auto listed = m_openOnPortal.find(event.portal);
  if (listed == m_openOnPortal.end() || listed->second.empty()) return std::nullopt;
  std::optional<uint32_t> sameCost, sameInterval;
  for (const uint32_t n : listed->second) {
    const ReplayNode& node = m_nodes[n];
    if (node.from != event.from || node.to != event.to) continue;
    if (node.costSoFar == event.costSoFar) {
      if (node.estimatedTotal == event.estimatedTotal) return n;
      if (!sameCost) sameCost = n;
    }
    if (!sameInterval) sameInterval = n;
  }
  if (sameCost) return sameCost;
  return sameInterval ? sameInterval : listed->second.back();
}

ReplayNode& SearchReplay::setAside(uint32_t node, uint32_t portal) {
  std::vector<uint32_t>& listed = m_openOnPortal[portal];
  listed.erase(std::find(listed.begin(), listed.end(), node));
  m_nodes[node].closed = true;
  return m_nodes[node];
}

void SearchReplay::seek(size_t steps) {
  m_step = std::min(steps, m_closes.size());
  m_nodes.clear();
  m_openOnPortal.clear();
  m_expanding.reset();
  m_successors.clear();
  // Up to the next expansion: the current one's successors are part of its step.
  const size_t end = m_step < m_closes.size() ? m_closes[m_step] : m_trace.events.size();
  for (size_t e = 0; e < end; ++e) {
    const SearchEvent& event = m_trace.events[e];
    const std::optional<uint32_t> open = openNode(event);
    if (event.kind == SearchEvent::Kind::Drop) {
      if (open) setAside(*open, event.portal).dropped = true;
      continue;
    }
    if (event.kind == SearchEvent::Kind::Close) {
      if (open) {
        setAside(*open, event.portal);
        m_expanding = open;
      } else {
        // A close the replay did not see opened (a trace cut short): a node of its own.
        m_expanding = uint32_t(m_nodes.size());
        m_nodes.push_back({event.portal, event.costSoFar, event.estimatedTotal, event.from,
                           event.to, ReplayNode::kNoParent, true, false});
      }
      m_successors.clear();
      continue;
    }
    const uint32_t parent = m_expanding.value_or(ReplayNode::kNoParent);
    uint32_t node;
    if (event.kind == SearchEvent::Kind::Reopen && open) {
      node = *open;
    } else {
      node = uint32_t(m_nodes.size());
      m_nodes.emplace_back();
      m_openOnPortal[event.portal].push_back(node);
    }
    m_nodes[node] = {
        event.portal, event.costSoFar, event.estimatedTotal, event.from, event.to, parent, false,
        false};
    m_successors.push_back(node);
  }
}

std::vector<uint32_t> SearchReplay::openByEstimate() const {
  std::vector<uint32_t> open;
  for (uint32_t n = 0; n < m_nodes.size(); ++n) {
    if (!m_nodes[n].closed) open.push_back(n);
  }
  std::stable_sort(open.begin(), open.end(), [&](uint32_t a, uint32_t b) {
    return m_nodes[a].estimatedTotal < m_nodes[b].estimatedTotal;
  });
  return open;
}

}  // namespace nav
