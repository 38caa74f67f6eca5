#pragma once
// Random numbers for the level generators: splitmix64 streams, the same on
// every platform (the standard library's distributions are not), one
// independent stream per (seed, purpose, i, j), so that one part of a level
// can change without moving every other.
#include <cstdint>

namespace nav {

/// One step of splitmix64 (Steele, Lea and Flood, 2014): a well-mixed 64-bit value.
inline uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

class SeededRandom {
 public:
  SeededRandom(uint32_t seed, uint32_t purpose, uint32_t i = 0, uint32_t j = 0) {
    uint64_t key = (uint64_t(seed) << 32) | purpose;
    m_state = splitmix64(key) ^ ((uint64_t(i) << 32) | j);
  }
  /// In [0, 1).
  double uniform() { return double(splitmix64(m_state) >> 11) * 0x1.0p-53; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  /// In [lo, hi].
  int range(int lo, int hi) { return lo + int(splitmix64(m_state) % uint64_t(hi - lo + 1)); }
  bool chance(double p) { return uniform() < p; }

 private:
  uint64_t m_state;
};

}  // namespace nav
