#pragma once
// Answers about a column of the fill's grid at one height, remembered for the
// last few levels of the fill's front: the four neighbours of a column all ask
// where a step into it lands, and a landing's support is asked again by every
// step that lands there. The front moves on, so answers from before the last
// three levels are dropped.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace nav {

template <class Value>
class ColumnMemo {
 public:
  /// Starts the next level of the fill: answers from before the last three levels are dropped.
  void nextLevel() { ++m_level; }

  /// The answer for column (x, z) at height y, if remembered.
  const Value* find(int32_t x, int32_t z, float y) const {
    if (m_slots.empty()) return nullptr;
    const uint32_t bits = std::bit_cast<uint32_t>(y);
    const size_t mask = m_slots.size() - 1;
    for (size_t i = hashOf(x, z, bits) & mask;; i = (i + 1) & mask) {
      const Entry& entry = m_slots[i];
      if (entry.level == 0) return nullptr;
      if (entry.x == x && entry.z == z && entry.yBits == bits && live(entry)) return &entry.value;
    }
  }

  /// Remembers an answer, in place of the one for the same key if there is one.
  void assign(int32_t x, int32_t z, float y, const Value& value) {
    if (!m_slots.empty()) {
      const uint32_t bits = std::bit_cast<uint32_t>(y);
      const size_t mask = m_slots.size() - 1;
      for (size_t i = hashOf(x, z, bits) & mask; m_slots[i].level != 0; i = (i + 1) & mask) {
        Entry& entry = m_slots[i];
        if (entry.x == x && entry.z == z && entry.yBits == bits && live(entry)) {
          entry = Entry{x, z, bits, m_level, value};
          return;
        }
      }
    }
    insert(x, z, y, value);
  }

  /// Remembers an answer not found before.
  void insert(int32_t x, int32_t z, float y, const Value& value) {
    // At most half the slots used, so that probes stay short and always end;
    // a rebuild keeps the live answers only, in room for four times as many.
    if (2 * (m_used + 1) > m_slots.size()) rebuild();
    const uint32_t bits = std::bit_cast<uint32_t>(y);
    const size_t mask = m_slots.size() - 1;
    size_t i = hashOf(x, z, bits) & mask;
    while (m_slots[i].level != 0 && live(m_slots[i]))
      i = (i + 1) & mask;
    if (m_slots[i].level == 0) ++m_used;
    m_slots[i] = Entry{x, z, bits, m_level, value};
  }

 private:
  struct Entry {
    int32_t x, z;
    uint32_t yBits;
    /// The level it was remembered at; 0 for a slot never used.
    uint32_t level;
    Value value;
  };
  static constexpr uint32_t kLevels = 3;
  static constexpr size_t kMinSlots = 64;

  static uint32_t hashOf(int32_t x, int32_t z, uint32_t yBits) {
    uint32_t h = uint32_t(x) * 73856093u ^ uint32_t(z) * 19349663u ^ yBits * 83492791u;
    h ^= h >> 16;
    h *= 0x7feb352du;
    return h ^ (h >> 15);
  }

  bool live(const Entry& entry) const { return entry.level + kLevels > m_level; }

  void rebuild() {
    std::vector<Entry> old;
    old.swap(m_slots);
    const size_t live = size_t(std::count_if(
        old.begin(), old.end(), [&](const Entry& e) { return e.level != 0 && this->live(e); }));
    m_slots.assign(std::max(kMinSlots, std::bit_ceil(4 * (live + 1))), Entry{0, 0, 0, 0, {}});
    m_used = 0;
    const size_t mask = m_slots.size() - 1;
    for (const Entry& entry : old) {
      if (entry.level == 0 || !this->live(entry)) continue;
      size_t i = hashOf(entry.x, entry.z, entry.yBits) & mask;
      while (m_slots[i].level != 0)
        i = (i + 1) & mask;
      m_slots[i] = entry;
      ++m_used;
    }
  }

  /// Open addressing with linear probing over a power-of-two number of slots.
  /// Dropped answers keep their slots (probes pass over them) until a rebuild.
  std::vector<Entry> m_slots;
  /// Slots ever used since the last rebuild, live or dropped.
  size_t m_used = 0;
  /// Starts above kLevels so that a never-used slot (level 0) is never live.
  uint32_t m_level = kLevels;
};

}  // namespace nav
