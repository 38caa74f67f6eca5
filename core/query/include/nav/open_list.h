#pragma once
// The open list every search shares: queued nodes popped lowest estimate
// first. A node may be queued more than once; the search skips the entries
// that went stale (lazy deletion), which is cheaper than moving an entry
// within the heap.
#include <algorithm>
#include <bit>
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

  /// Queues an entry; its estimate must not be NaN.
  void push(const OpenEntry& entry) {
    m_heap.push_back({popKey(entry.estimate, entry.node), entry.cost});
    rise(m_heap.size() - 1, m_heap.back());
  }

  /// Removes and returns the entry of lowest estimate (of lowest node on a tie).
  OpenEntry pop() {
    const Queued top = m_heap.front();
    const Queued last = m_heap.back();
    m_heap.pop_back();
    if (!m_heap.empty()) rise(sinkHole(), last);
    return {estimateOf(top.key), top.cost, uint32_t(top.key)};
  }

 private:
  struct Queued {
    uint64_t key;
    float cost;
  };

  // The pop order as one integer: the estimate's bits mapped so that integers
  // order as the floats do, then the node.
  static uint64_t popKey(float estimate, uint32_t node) {
    const uint32_t bits = std::bit_cast<uint32_t>(estimate);
    const uint32_t ordered = (bits & kSign) ? ~bits : (bits | kSign);
    return (uint64_t(ordered) << 32) | node;
  }
  static float estimateOf(uint64_t key) {
    const uint32_t ordered = uint32_t(key >> 32);
    return std::bit_cast<float>((ordered & kSign) ? (ordered & ~kSign) : ~ordered);
  }
  static constexpr uint32_t kSign = 0x80000000u;

  // The root's hole moves down to a leaf, each time to the child popped
  // soonest, picked without a branch between siblings: which child wins is a
  // coin toss, which a branch would mispredict. The last entry then rises
  // from the leaf, rarely far. Four children a node halve the levels a
  // pop walks, and the four share a cache line.
  size_t sinkHole() {
    const size_t count = m_heap.size();
    size_t hole = 0;
    for (size_t child = 1; child < count; child = kArity * hole + 1) {
      size_t best = child;
      if (child + 3 < count) {
        const size_t a = child + size_t(m_heap[child + 1].key < m_heap[child].key);
        const size_t b = child + 2 + size_t(m_heap[child + 3].key < m_heap[child + 2].key);
        // The four children, paired; the winner selected by masking: compilers
        // turn a conditional choice here into a branch.
        const size_t bWins = size_t(0) - size_t(m_heap[b].key < m_heap[a].key);
        best = a ^ ((a ^ b) & bWins);
      } else {
        for (size_t other = child + 1; other < count; ++other)
          if (m_heap[other].key < m_heap[best].key) best = other;
      }
      m_heap[hole] = m_heap[best];
      hole = best;
    }
    return hole;
  }
  void rise(size_t hole, const Queued entry) {
    while (hole > 0) {
      const size_t parent = (hole - 1) / kArity;
      if (!(entry.key < m_heap[parent].key)) break;
      m_heap[hole] = m_heap[parent];
      hole = parent;
    }
    m_heap[hole] = entry;
  }
  static constexpr size_t kArity = 4;

  /// A four-ary min-heap by key.
  std::vector<Queued> m_heap;
};

}  // namespace nav
