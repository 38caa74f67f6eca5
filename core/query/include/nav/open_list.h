#pragma once
// The open list every search shares: queued nodes popped lowest estimate
// first. A node may be queued more than once; the search skips the entries
// that went stale (lazy deletion), which is cheaper than moving an entry
// within the heap.
#include <algorithm>
#include <cstdint>
#include <vector>

namespace nav {

struct OpenEntry {
  /// Cost so far plus the heuristic: the pop order.
  float estimate;
  /// Cost so far when queued, to tell a stale entry.
  float cost;
  uint32_t node;
};

class OpenList {
 public:
  void clear() { m_heap.clear(); }
  bool empty() const { return m_heap.empty(); }
  size_t size() const { return m_heap.size(); }

  void push(const OpenEntry& entry) {
    m_heap.push_back(entry);
    std::push_heap(m_heap.begin(), m_heap.end(), PopsLater{});
  }

  /// Removes and returns the entry of lowest estimate (of lowest node on a tie).
  OpenEntry pop() {
    std::pop_heap(m_heap.begin(), m_heap.end(), PopsLater{});
    const OpenEntry entry = m_heap.back();
    m_heap.pop_back();
    return entry;
  }

 private:
  // std::push_heap builds a max-heap, so "less" means "popped later": higher
  // estimate first, and on equal estimates the higher node, which makes the
  // pop order independent of the push order.
  struct PopsLater {
    bool operator()(const OpenEntry& a, const OpenEntry& b) const {
      if (a.estimate != b.estimate) return a.estimate > b.estimate;
      return a.node > b.node;
    }
  };

  std::vector<OpenEntry> m_heap;
};

}  // namespace nav
