#include "label_layout.h"

#include <algorithm>
#include <numeric>

namespace nav::app {
namespace {

/// Room kept between two labels. [pixels]
constexpr float kGap = 2.0f;
/// The faintest a placed label gets.
constexpr float kMinAlpha = 0.25f;

bool overlap(const LabelBox& a, const LabelBox& b) {
  return a.at.x < b.at.x + b.size.x + kGap && b.at.x < a.at.x + a.size.x + kGap &&
         a.at.y < b.at.y + b.size.y + kGap && b.at.y < a.at.y + a.size.y + kGap;
}

}  // namespace

std::vector<PlacedLabel> placeLabels(const std::vector<LabelBox>& boxes) {
  std::vector<uint32_t> order(boxes.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return boxes[a].distance < boxes[b].distance; });
  std::vector<PlacedLabel> placed;
  if (order.empty()) return placed;
  const float nearest = std::max(boxes[order.front()].distance, 1e-3f);
  for (const uint32_t i : order) {
    const bool free = std::none_of(placed.begin(), placed.end(), [&](const PlacedLabel& p) {
      return overlap(boxes[i], boxes[p.index]);
    });
    if (!free) continue;
    // 1 up to 2x the nearest distance, a quarter at 8x, linear between.
    const float ratio = boxes[i].distance / nearest;
    const float alpha =
        std::clamp(1.0f - (ratio - 2.0f) / 6.0f * (1.0f - kMinAlpha), kMinAlpha, 1.0f);
    placed.push_back({i, alpha});
  }
  return placed;
}

}  // namespace nav::app
