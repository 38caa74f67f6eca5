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

const LandingMemo::Landing* LandingMemo::find(int32_t x, int32_t z, float fromY) const {
  if (m_slots.empty()) return nullptr;
  const uint32_t bits = std::bit_cast<uint32_t>(fromY);
  const size_t mask = m_slots.size() - 1;
  for (size_t i = hashOf(x, z, bits) & mask;; i = (i + 1) & mask) {
    const Entry& entry = m_slots[i];
    if (entry.level == 0) return nullptr;
    if (entry.x == x && entry.z == z && entry.fromYBits == bits && live(entry))
      return &entry.landing;
  }
}

void LandingMemo::insert(int32_t x, int32_t z, float fromY, const Landing& landing) {
  // At most half the slots used, so that probes stay short and always end;
  // a rebuild keeps the live answers only, in room for four times as many.
  if (2 * (m_used + 1) > m_slots.size()) {
    std::vector<Entry> old;
    old.swap(m_slots);
    const size_t live = size_t(std::count_if(
        old.begin(), old.end(), [&](const Entry& e) { return e.level != 0 && this->live(e); }));
    m_slots.assign(std::max(kMinSlots, std::bit_ceil(4 * (live + 1))), Entry{0, 0, 0, 0, {}});
    m_used = 0;
    const size_t mask = m_slots.size() - 1;
    for (const Entry& entry : old) {
      if (entry.level == 0 || !this->live(entry)) continue;
      size_t i = hashOf(entry.x, entry.z, entry.fromYBits) & mask;
      while (m_slots[i].level != 0)
        i = (i + 1) & mask;
      m_slots[i] = entry;
      ++m_used;
    }
  }
  const uint32_t bits = std::bit_cast<uint32_t>(fromY);
  const size_t mask = m_slots.size() - 1;
  size_t i = hashOf(x, z, bits) & mask;
  while (m_slots[i].level != 0 && live(m_slots[i]))
    i = (i + 1) & mask;
  if (m_slots[i].level == 0) ++m_used;
  m_slots[i] = Entry{x, z, bits, m_level, landing};
}

}  // namespace nav
