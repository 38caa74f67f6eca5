#pragma once
// Which labels of the 3D view to draw, and how strongly: the nearest first,
// none over another already placed (so a crowded level stays readable), and
// fading with distance beyond the nearest labels.
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

namespace nav::app {

/// One label as the screen sees it.
struct LabelBox {
  /// Top left and size. [window pixels]
  glm::vec2 at{0.0f}, size{0.0f};
  /// From the eye. [metres]
  float distance = 0.0f;
};

struct PlacedLabel {
  /// Index into the boxes given.
  uint32_t index;
  /// Opacity to draw it with. [0..1]
  float alpha;
};

/// The labels to draw, nearest first: each skipped when its box overlaps one
/// already placed. Alpha is 1 up to twice the nearest label's distance and
/// falls to a quarter at eight times it.
std::vector<PlacedLabel> placeLabels(const std::vector<LabelBox>& boxes);

}  // namespace nav::app
