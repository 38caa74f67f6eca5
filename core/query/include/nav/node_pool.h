#pragma once
// What a search keeps per node (or per sector, region, root...), by index,
// from query to query. Each query has its own stamp: a slot another query
// last wrote reads as unseen, so starting a query clears nothing.
#include <algorithm>
#include <cstdint>
#include <vector>

namespace nav {

template <class T>
class NodePool {
 public:
  /// Starts a query over at least `count` slots. A wrapped stamp would
  /// mistake old slots for this query's: then every slot is cleared.
  void startQuery(size_t count) {
    if (m_slots.size() < count) {
      m_slots.resize(count, T{});
      m_stamps.resize(count, 0);
    }
    if (++m_stamp == 0) {
      std::fill(m_stamps.begin(), m_stamps.end(), 0u);
      m_stamp = 1;
    }
  }

  /// Whether this query wrote slot i.
  bool seen(uint32_t i) const { return m_stamps[i] == m_stamp; }

  /// Slot i, set to `fresh` first when this query has not written it yet.
  T& touch(uint32_t i, const T& fresh) {
    if (m_stamps[i] != m_stamp) {
      m_slots[i] = fresh;
      m_stamps[i] = m_stamp;
    }
    return m_slots[i];
  }

  /// Marks slot i as this query's; true when it was not yet, and then the
  /// caller sets what it reads. Cheaper than touch() for a large T: setting a
  /// whole slot from a temporary stalls on the store buffer.
  bool claim(uint32_t i) {
    if (m_stamps[i] == m_stamp) return false;
    m_stamps[i] = m_stamp;
    return true;
  }

  /// Slot i as it is: for slots this query wrote.
  T& operator[](uint32_t i) { return m_slots[i]; }
  const T& operator[](uint32_t i) const { return m_slots[i]; }

 private:
  std::vector<T> m_slots;
  std::vector<uint32_t> m_stamps;
  uint32_t m_stamp = 0;
};

}  // namespace nav
