#pragma once
// Where the flood fill's steps into a column land, remembered by column and the
// height stepped from: on level ground the four neighbours of a column all ask
// the same question, over three consecutive levels of the fill's front (the
// neighbours of a column sit one step nearer and one step further from the seed).
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace nav {

class LandingMemo {
 public:
  struct Landing {
    /// Height of the ground the unit lands on. [metres]
    float y;
    uint32_t triangle;
    bool ok;
  };

  /// Starts the next level of the fill: answers from before the last three levels are dropped.
  void nextLevel();
  /// The answer for stepping into column (x, z) from height fromY, if remembered.
  const Landing* find(int32_t x, int32_t z, float fromY) const;
  /// Remembers an answer not found before.
  void insert(int32_t x, int32_t z, float fromY, const Landing& landing);

 private:
  struct Entry {
    int32_t x, z;
    uint32_t fromYBits;
    /// In use when equal to its table's generation: a table empties in O(1).
    uint32_t generation;
    Landing landing;
  };
  /// Open addressing with linear probing; a power-of-two number of slots.
  struct Table {
    std::vector<Entry> slots;
    size_t size = 0;
    uint32_t generation = 1;
  };
  static constexpr int kLevels = 3;

  /// m_tables[m_current] takes this level's answers; the others hold the two before.
  std::array<Table, kLevels> m_tables;
  int m_current = 0;
};

}  // namespace nav
