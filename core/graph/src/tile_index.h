#pragma once
// Sparse tiles of a grid found by their tile coordinates: the cells' columns
// and the ground raster's squares are kept in tiles of 16 x 16 that exist only
// where something lies.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace nav {

inline uint64_t tileKey(int32_t tileX, int32_t tileZ) {
  return (uint64_t(uint32_t(tileX)) << 32) | uint32_t(tileZ);
}

inline constexpr uint32_t kNoTile = 0xffffffffu;

// Tile number by tile key: open addressing with linear probing, at most half
// full. The fill looks a column up for every step it takes.
class TileIndex {
 public:
  uint32_t find(uint64_t key) const {
    if (m_slots.empty()) return kNoTile;
    const size_t mask = m_slots.size() - 1;
    for (size_t i = slotOf(key) & mask;; i = (i + 1) & mask) {
      if (m_slots[i].tile == kNoTile || m_slots[i].key == key) return m_slots[i].tile;
    }
  }
  /// The tile of `key`, given number `tile` when it has none yet.
  uint32_t findOrAdd(uint64_t key, uint32_t tile) {
    if (2 * (m_size + 1) > m_slots.size()) grow();
    const size_t mask = m_slots.size() - 1;
    size_t i = slotOf(key) & mask;
    while (m_slots[i].tile != kNoTile && m_slots[i].key != key)
      i = (i + 1) & mask;
    if (m_slots[i].tile == kNoTile) {
      m_slots[i] = {key, tile};
      ++m_size;
    }
    return m_slots[i].tile;
  }
  size_t memoryBytes() const { return m_slots.capacity() * sizeof(Slot); }

 private:
  struct Slot {
    uint64_t key;
    uint32_t tile;
  };
  static size_t slotOf(uint64_t key) {
    key ^= key >> 29;
    key *= 0xbf58476d1ce4e5b9ull;
    return size_t(key ^ (key >> 32));
  }
  void grow() {
    std::vector<Slot> old(std::max<size_t>(16, 2 * m_slots.size()), Slot{0, kNoTile});
    old.swap(m_slots);
    const size_t mask = m_slots.size() - 1;
    for (const Slot& slot : old) {
      if (slot.tile == kNoTile) continue;
      size_t i = slotOf(slot.key) & mask;
      while (m_slots[i].tile != kNoTile)
        i = (i + 1) & mask;
      m_slots[i] = slot;
    }
  }
  std::vector<Slot> m_slots;
  size_t m_size = 0;
};

}  // namespace nav
