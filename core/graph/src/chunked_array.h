#pragma once
// An append-only array stored in fixed-size blocks: growing it never copies
// and never holds more than one partly used block, so its memory stays within
// one block of what it holds (a std::vector may hold twice, and three times
// while it reallocates).
#include <cstddef>
#include <memory>
#include <vector>

namespace nav {

template <class T, size_t kBlockBits = 14>
class ChunkedArray {
 public:
  static constexpr size_t kBlockSize = size_t(1) << kBlockBits;

  size_t size() const { return m_size; }
  T& operator[](size_t i) { return m_blocks[i >> kBlockBits][i & (kBlockSize - 1)]; }
  const T& operator[](size_t i) const { return m_blocks[i >> kBlockBits][i & (kBlockSize - 1)]; }

  void push_back(const T& value) {
    if ((m_size & (kBlockSize - 1)) == 0) m_blocks.push_back(std::make_unique<T[]>(kBlockSize));
    (*this)[m_size++] = value;
  }

  /// Bytes held, including the unused tail of the last block.
  size_t memoryBytes() const {
    return m_blocks.size() * kBlockSize * sizeof(T) + m_blocks.capacity() * sizeof(void*);
  }

 private:
  std::vector<std::unique_ptr<T[]>> m_blocks;
  size_t m_size = 0;
};

}  // namespace nav
