#include "landing_memo.h"

#include <algorithm>
#include <bit>

namespace nav {
namespace {

constexpr size_t kMinSlots = 64;

uint32_t hashOf(int32_t x, int32_t z, uint32_t fromYBits) {
  uint32_t h = uint32_t(x) * 73856093u ^ uint32_t(z) * 19349663u ^ fromYBits * 83492791u;
  h ^= h >> 16;
  h *= 0x7feb352du;
  return h ^ (h >> 15);
}

}  // namespace

void LandingMemo::nextLevel() {
  m_current = (m_current + 1) % kLevels;
  Table& table = m_tables[m_current];
  ++table.generation;
  table.size = 0;
}

const LandingMemo::Landing* LandingMemo::find(int32_t x, int32_t z, float fromY) const {
  const uint32_t bits = std::bit_cast<uint32_t>(fromY);
  const uint32_t hash = hashOf(x, z, bits);
  for (int age = 0; age < kLevels; ++age) {
    const Table& table = m_tables[(m_current + kLevels - age) % kLevels];
    if (table.size == 0) continue;
    const size_t mask = table.slots.size() - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
      const Entry& entry = table.slots[i];
      if (entry.generation != table.generation) break;
      if (entry.x == x && entry.z == z && entry.fromYBits == bits) return &entry.landing;
    }
  }
  return nullptr;
}

void LandingMemo::insert(int32_t x, int32_t z, float fromY, const Landing& landing) {
  Table& table = m_tables[m_current];
  // At most half full, so that probes stay short and always end.
  if (2 * (table.size + 1) > table.slots.size()) {
    std::vector<Entry> old(std::max(kMinSlots, 2 * table.slots.size()), Entry{0, 0, 0, 0, {}});
    old.swap(table.slots);
    table.size = 0;
    const size_t mask = table.slots.size() - 1;
    for (const Entry& entry : old) {
      if (entry.generation != table.generation) continue;
      size_t i = hashOf(entry.x, entry.z, entry.fromYBits) & mask;
      while (table.slots[i].generation == table.generation) i = (i + 1) & mask;
      table.slots[i] = entry;
      ++table.size;
    }
  }
  const uint32_t bits = std::bit_cast<uint32_t>(fromY);
  const size_t mask = table.slots.size() - 1;
  size_t i = hashOf(x, z, bits) & mask;
  while (table.slots[i].generation == table.generation) i = (i + 1) & mask;
  table.slots[i] = Entry{x, z, bits, table.generation, landing};
  ++table.size;
}

}  // namespace nav
