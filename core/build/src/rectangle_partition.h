#pragma once
// Minimum partition of joined grid squares into rectangles.
//
// The squares are unit squares on a grid, each joined or not to the square
// beside it in each direction. Several squares may share a grid position (cells
// on different floors) as long as the joins around every grid point close up.
// A partition cuts some joined sides so that the pieces left (squares still
// connected through uncut joined sides) are rectangles, as few as the joins
// allow: that minimum comes from the concave corners of the pieces' outline
// and the chords between them (see rectangle_partition.cpp).
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "nav/cells.h"

namespace nav {

/// The squares in row order (by row z, then column x): a list, or 0, 1, 2,
/// ... when they are numbered so, which holds no list (on a 10 M-cell level,
/// 40 MB of fresh pages saved).
class SquareOrder {
 public:
  /// 0, 1, 2, ..., count - 1.
  explicit SquareOrder(uint32_t count) : m_count(count) {}
  explicit SquareOrder(std::vector<uint32_t> listed)
      : m_listed(std::move(listed)), m_count(uint32_t(m_listed.size())) {}
  uint32_t size() const { return m_count; }
  uint32_t operator[](uint32_t i) const { return m_listed.empty() ? i : m_listed[i]; }

 private:
  std::vector<uint32_t> m_listed;
  uint32_t m_count;
};

/// What a partition needs to know about its squares.
class JoinedSquares {
 public:
  virtual ~JoinedSquares() = default;
  /// Number of squares, numbered from 0.
  virtual uint32_t squareCount() const = 0;
  /// The square across side d of `square` when the two are joined, else kNoCell.
  /// Joins are mutual: joined(joined(s, d), opposite(d)) == s.
  virtual uint32_t joined(uint32_t square, Direction d) const = 0;
  /// joined(s, PlusX) and joined(s, PlusZ) of squares [first, last), into
  /// right[s - first] and up[s - first], every one written; for squares that
  /// can list them faster than one at a time. Called from several threads at once.
  virtual void joinedAhead(uint32_t first, uint32_t last, uint32_t* right, uint32_t* up) const {
    for (uint32_t s = first; s < last; ++s) {
      right[s - first] = joined(s, Direction::PlusX);
      up[s - first] = joined(s, Direction::PlusZ);
    }
  }
};

class RectanglePartition {
 public:
  /// `order` lists every square once, by row (z) and then column (x); it
  /// settles ties between equally good cuts, so the result depends on the
  /// squares' positions and joins, not on their numbering. The joins are
  /// asked on `threads` threads (squares.joined must allow it); the result is
  /// the same for any number.
  RectanglePartition(const JoinedSquares& squares, const SquareOrder& order, int threads = 1);

  /// The square joined across side d, cut or not; kNoCell when not joined.
  uint32_t joined(uint32_t square, Direction d) const {
    if (!(m_sides[square] & joinedBit(d))) return kNoCell;
    if (d == Direction::PlusX) return m_right[square];
    if (d == Direction::PlusZ) return m_up[square];
    return m_squares.joined(square, d);
  }
  /// The square across side d when joined and not cut, else kNoCell.
  uint32_t neighbor(uint32_t square, Direction d) const {
    return open(square, d) ? joined(square, d) : kNoCell;
  }
  /// True when the joins somewhere fail to close around a grid point: the
  /// pieces may then be more than the minimum, or not all rectangles.
  bool tangled() const { return m_tangled; }

 private:
  struct Corner;
  struct Walk;
  struct Chord;

  static uint8_t joinedBit(Direction d) { return uint8_t(1u << int(d)); }
  static uint8_t cutBit(Direction d) { return uint8_t(16u << int(d)); }
  bool open(uint32_t square, Direction d) const {
    return (m_sides[square] & (joinedBit(d) | cutBit(d))) == joinedBit(d);
  }
  void cut(uint32_t square, Direction d);
  Corner corner(uint32_t square, int quadrant) const;
  Corner cornerAhead(const Corner& from, Direction d) const;
  Walk walk(const Corner& from, Direction d, std::vector<uint64_t>* pointKeys) const;
  void cutAlong(Corner from, Direction d, uint32_t length);

  const JoinedSquares& m_squares;
  /// Joined square on the +x and +z sides (kNoCell when none).
  std::unique_ptr<uint32_t[]> m_right, m_up;
  /// Per square, bit d: joined across side d; bit 4 + d: that side is cut.
  std::vector<uint8_t> m_sides;
  bool m_tangled = false;
};

}  // namespace nav
