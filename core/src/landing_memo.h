#pragma once
// Where the flood fill's steps into a column land, remembered by column and the
// height stepped from: on level ground the four neighbours of a column all ask
// the same question, over three consecutive levels of the fill's front (the
// neighbours of a column sit one step nearer and one step further from the seed).
// Only for steps from cells whose feet stand on their own ground: a step's
// reach is measured from the feet.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "nav/flood_fill.h"

namespace nav {

class LandingMemo {
 public:
  /// Where the unit lands, or that it cannot.
  using Landing = StandResult;

  /// Starts the next level of the fill: answers from before the last three levels are dropped.
  void nextLevel() { ++m_level; }
  /// The answer for stepping into column (x, z) from height fromY, if remembered.
  const Landing* find(int32_t x, int32_t z, float fromY) const;
  /// Remembers an answer not found before.
  void insert(int32_t x, int32_t z, float fromY, const Landing& landing);

 private:
  struct Entry {
    int32_t x, z;
    uint32_t fromYBits;
    /// The level it was remembered at; 0 for a slot never used.
    uint32_t level;
    Landing landing;
  };
  static constexpr uint32_t kLevels = 3;

  bool live(const Entry& entry) const { return entry.level + kLevels > m_level; }

  /// Open addressing with linear probing over a power-of-two number of slots.
  /// Dropped answers keep their slots (probes pass over them) until a rebuild.
  std::vector<Entry> m_slots;
  /// Slots ever used since the last rebuild, live or dropped.
  size_t m_used = 0;
  /// Starts above kLevels so that a never-used slot (level 0) is never live.
  uint32_t m_level = kLevels;
};

}  // namespace nav
