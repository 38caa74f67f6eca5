#pragma once
// Sine and cosine with the same bits on every IEEE-754 platform: the C
// library's may differ in the last bit, and generated levels and turned levels
// must not. A Taylor series after reducing to [-45, 45] degrees (error below
// 1e-16); whole quarter turns come out exact.
#include <cmath>
#include <cstdint>

namespace nav {

/// cos and sin of an angle; on the ground plane, a direction from +x.
struct CosSin {
  double cos, sin;
};

inline CosSin cosSinOfDegrees(double degrees) {
  constexpr double kRadiansPerDegree = 3.14159265358979323846 / 180.0;
  const double quarters = std::round(degrees / 90.0);
  const double x = (degrees - 90.0 * quarters) * kRadiansPerDegree;
  double sine = 0.0, cosine = 0.0, sineTerm = x, cosineTerm = 1.0;
  for (int k = 1; k <= 10; ++k) {
    sine += sineTerm;
    cosine += cosineTerm;
    sineTerm *= -x * x / double((2 * k) * (2 * k + 1));
    cosineTerm *= -x * x / double((2 * k - 1) * (2 * k));
  }
  switch (((int64_t(quarters) % 4) + 4) % 4) {
    case 0:
      return {cosine, sine};
    case 1:
      return {-sine, cosine};
    case 2:
      return {-cosine, -sine};
    default:
      return {sine, -cosine};
  }
}

}  // namespace nav
